//! Records the evaluator's golden suite from Puppet 7.23: runs every case's program through
//! `../shared/oracle/oracle.rb` (real Puppet, one process, strict variables on, `strict`
//! `warning`, node `testnode`) and writes what Puppet did as the case's expectation. Never
//! uses our code.
//!
//! ```sh
//! cargo run -p poppet --example record -- repl/tests/golden/*.txt
//! cargo run -p poppet --example record -- --check repl/tests/golden/*.txt
//! ```
//!
//! The case format is `syntax/tests/support/cases.rs`'s; the expectation is one line per
//! outcome, in this order ([`expectation`]):
//!
//! ```text
//! notice: MESSAGE        each notice(), in order
//! warning: MESSAGE       each warning Puppet logged (with its location when it has one)
//! err: MESSAGE           each err() that did not stop the run
//! error: MESSAGE         the error that stopped it, as Puppet prints it after `Error: `,
//!                        without ` on node testnode`
//! ```
//!
//! A line feed inside a message is written `␤`; the directories of `$POPPET_MODULEPATH` (the
//! module goldens' module path) are written `<modules>`, so that the files a message names
//! do not depend on where the checkout is. Cases the oracle cannot answer (its timeout,
//! a crash inside Puppet, a message with a Ruby object address) stop the recorder: leave them
//! out of the suite.

#[path = "../../syntax/tests/support/cases.rs"]
mod cases;
#[allow(dead_code)]
mod support;


use std::process::ExitCode;

use serde_json::Value as Json;
use support::oracle;

const BATCH: usize = 500;

fn main() -> ExitCode {
    let oracle = oracle::oracle_path();
    // Module goldens: the module path's directories are written as `<modules>`.
    let modulepath = std::env::var_os("POPPET_MODULEPATH").unwrap_or_default();
    let mut trouble = Vec::new();
    let result = cases::record_files(
        "poppet-record",
        BATCH,
        |dir, names| {
            let programs: Vec<String> = names
                .iter()
                .map(|name| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}")))
                .collect::<Result<_, _>>()?;
            oracle::run_oracle(&oracle, &programs)
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

