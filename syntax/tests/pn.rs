//! The golden PN suite: for every case of `tests/pn/*.txt`, our PN of the source must be
//! identical to Puppet 7.23's, recorded in the case (`cargo xtask record pn` records them;
//! the format is in the test kit's `poppet_tests::cases`). There is one file per construct
//! family.
//!
//! Expectations come from Puppet, never from us: a source Puppet rejects or cannot print (a
//! `*$rest` parameter crashes its dumper) is not a case. Sources are recorded with `puppet
//! parser dump` as they are, without `--validate`, so a case may be one that only Puppet's
//! validator rejects (`$a [1]`, `+=`, type mappings). `cargo xtask record pn --check` only
//! compares.
//!
//! Every failure is reported, with the case's name, source, Puppet's PN and ours, before the
//! test fails. `PN_CASE=text` runs only the cases whose name contains `text`.

use poppet_tests::cases;

#[test]
fn pn_is_identical_to_puppets() {
    let report = cases::run(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pn"), "PN_CASE", |case, source| {
        let expected = case.expected_text();
        let actual = match puppet_syntax::parse(source) {
            Ok(program) => puppet_syntax::pn::program(&program).to_text(),
            Err(diagnostics) => {
                let messages: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
                format!("(our parser rejects it: {})", messages.join("; "))
            }
        };
        (actual != expected).then(|| {
            let note = if expected.starts_with("# Puppet rejects") {
                "  (Puppet rejects this source: the case does not belong in the suite)\n"
            } else {
                ""
            };
            format!("{note}  source:\n{}  puppet: {expected}\n  ours:   {actual}\n", cases::show_source(source))
        })
    });
    report.print("PN suite", "identical to Puppet's");
    assert!(
        report.failures.is_empty() && report.problems.is_empty(),
        "{} of {} cases differ from Puppet's PN, {} problems with the case files (listed above)",
        report.failures.len(),
        report.total,
        report.problems.len()
    );
}
