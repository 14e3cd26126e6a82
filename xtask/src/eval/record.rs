//! `cargo xtask record eval`: records the evaluator's golden suites from Puppet 7.23. Runs
//! every case's program through the oracle (`tests/oracle/oracle.rb`, or `$POPPET_ORACLE`:
//! real Puppet, one process, strict variables on, `strict` `warning`, node `testnode`,
//! `--catalog`) and writes what Puppet did as the case's expectation. Never uses our code.
//!
//! ```sh
//! cargo xtask record eval eval/tests/golden/*.txt
//! cargo xtask record eval --check eval/tests/golden/*.txt
//! cargo xtask record eval --modulepath eval/tests/modules eval/tests/golden_modules/*.txt
//! ```
//!
//! The case format is the test kit's (`poppet_tests::cases`); the expectation is one line per
//! outcome, in the order of `poppet_tests::oracle::Expectation` (`notice:`, `warning:`,
//! `err:`, `error:`, `resource:`, `edge:`).
//!
//! `--modulepath DIR[:DIR]` compiles with those module directories (`xtask/ruby/modules_oracle.rb`
//! around the oracle). An error is recorded whole (the oracle's `error_full`, every line of
//! it), and a line feed inside a message is written `␤`; the module path's
//! directories (`--modulepath`, or `$POPPET_MODULEPATH` with `POPPET_ORACLE` naming
//! `modules_oracle.rb`) are written `<modules>`, so that the files a message names do not
//! depend on where the checkout is. Cases the oracle cannot answer (its timeout, a crash
//! inside Puppet, a message with a Ruby object address) stop the recorder: leave them out of
//! the suite.

use std::process::ExitCode;

use poppet_tests::cases;
use poppet_tests::oracle::{self, Oracle};
use serde_json::Value as Json;

const BATCH: usize = 500;

pub fn main(args: Vec<String>) -> ExitCode {
    // `--modulepath DIR[:DIR]`: Puppet with that module path (the module goldens).
    let mut modules = None;
    let mut rest = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.strip_prefix("--modulepath=") {
            Some(dirs) => modules = Some(dirs.to_owned()),
            None if arg == "--modulepath" => modules = args.next(),
            None => rest.push(arg),
        }
    }
    let oracle = match &modules {
        Some(dirs) => super::modules_corpus::modules_oracle(dirs),
        None => Oracle::default().arg("--catalog"),
    };
    // Module goldens: the module path's directories are written as `<modules>`.
    let modulepath = match &modules {
        Some(dirs) => dirs.into(),
        None => std::env::var_os("POPPET_MODULEPATH").unwrap_or_default(),
    };
    let mut trouble = Vec::new();
    let result = cases::record_files(
        "record-eval",
        rest,
        BATCH,
        |dir, names| {
            let programs: Vec<String> = names
                .iter()
                .map(|name| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}")))
                .collect::<Result<_, _>>()?;
            oracle.run(&programs)
        },
        |at, outcome: Json| {
            let mut lines = oracle::expectation(&outcome);
            for dir in std::env::split_paths(&modulepath).filter(|d| !d.as_os_str().is_empty()) {
                lines = oracle::hide_modulepath(lines, &dir);
            }
            if let Some(bad) = lines.iter().find(|l| l.contains("ORACLE ") || l.contains(":0x")) {
                trouble.push(format!("{at}: {bad}"));
            }
            lines
        },
    );
    for t in &trouble {
        eprintln!("cannot record: {t}");
    }
    match result {
        Err(code) => code,
        Ok(recorded) if !trouble.is_empty() || (recorded.check && recorded.changed > 0) => {
            eprintln!("{} of {} cases {}", recorded.changed, recorded.total, recorded.verb());
            ExitCode::FAILURE
        }
        Ok(recorded) => {
            eprintln!("{} of {} cases {}", recorded.changed, recorded.total, recorded.verb());
            ExitCode::SUCCESS
        }
    }
}
