//! `poppet catalog compile` against Puppet 7.23's `puppet catalog compile`: standard output,
//! standard error and exit status of each invocation, byte for byte but for what changes
//! from one compile to the next (the catalog's `version`, `catalog_uuid`, and the seconds
//! the compile took).
//!
//! ```sh
//! cargo xtask record compile-cli [--check]   # ask Puppet, write tests/compile/recorded.txt
//! cargo build --release -p poppet
//! cargo xtask check compile-cli [--live]     # compare poppet with the recording (or with Puppet)
//! ```
//!
//! The invocations are `tests/compile/cases.txt`, run in the fixture control repo
//! (`tests/fixtures/control-repo`): its `site` environment is a control repository (nodes in
//! a manifest directory, roles and profiles over the corpus modules, Hiera data per node,
//! role and OS family), its nodes' facts cached as a Puppet server caches them
//! (`var/yaml/facts`, read with `--facts_terminus yaml`). See `recorded_cli` for the
//! recording.

use std::process::ExitCode;

use super::recorded_cli::Suite;

const SUITE: Suite = Suite {
    name: "compile-cli",
    command: &["catalog", "compile"],
    cases: "tests/compile/cases.txt",
    recording: "tests/compile/recorded.txt",
    macros: &[(
        "$S",
        "--environmentpath $FIXTURE/environments --hiera_config $FIXTURE/hiera.yaml --vardir $FIXTURE/var --facts_terminus yaml --confdir $FIXTURE --codedir $FIXTURE",
    )],
    generated: Vec::new,
    normalize,
};

/// `record compile-cli [--check]`.
pub fn record_main(args: Vec<String>) -> ExitCode {
    SUITE.record_main(args)
}

/// `check compile-cli [--live] [--show N]`.
pub fn check_main(args: Vec<String>) -> ExitCode {
    SUITE.check_main(args)
}

/// The text with the catalog's version and identifier, and the compile's duration, as
/// placeholders (`VERSION`, `UUID`, `in S seconds`), in both of Puppet's JSON layouts.
fn normalize(text: &str) -> String {
    let version = regex::Regex::new(r#""version": ?[0-9]+"#).expect("a valid pattern");
    let uuid = regex::Regex::new(r#""catalog_uuid": ?"[0-9a-f-]{36}""#).expect("a valid pattern");
    let seconds = regex::Regex::new(r"in [0-9]+\.[0-9]+ seconds").expect("a valid pattern");
    let text = version.replace_all(text, r#""version": VERSION"#);
    let text = uuid.replace_all(&text, r#""catalog_uuid": "UUID""#);
    seconds.replace_all(&text, "in S seconds").into_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn what_changes_between_compiles_is_masked() {
        let text = "Notice: Compiled catalog for n in environment site in 0.19 seconds\n{\"name\":\"n\",\"version\":1796303966,\"code_id\":null,\"catalog_uuid\":\"cf87d727-764c-4ec5-9013-161c511f8bb5\"}";
        assert_eq!(
            super::normalize(text),
            "Notice: Compiled catalog for n in environment site in S seconds\n{\"name\":\"n\",\"version\": VERSION,\"code_id\":null,\"catalog_uuid\": \"UUID\"}"
        );
    }
}
