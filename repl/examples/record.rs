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
//! A line feed inside a message is written `␤`. Cases the oracle cannot answer (its timeout,
//! a crash inside Puppet, a message with a Ruby object address) stop the recorder: leave them
//! out of the suite.

#[path = "../../syntax/tests/support/cases.rs"]
#[allow(dead_code)]
mod cases;

use std::io::Write;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

use serde_json::Value as Json;

const BATCH: usize = 500;

fn main() -> ExitCode {
    let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/oracle/oracle.rb");
    let mut trouble = Vec::new();
    let result = cases::record_files(
        "poppet-record",
        BATCH,
        |dir, names| run_oracle(&oracle, dir, names),
        |at, outcome: Json| {
            let lines = expectation(&outcome);
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

fn run_oracle(oracle: &Path, dir: &Path, names: &[String]) -> Result<Vec<Json>, String> {
    let mut input = String::new();
    for name in names {
        let code = std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
        input.push_str(&serde_json::json!({ "id": name, "code": code }).to_string());
        input.push('\n');
    }
    let mut child = Command::new("ruby")
        .arg(oracle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run the oracle: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(|e| format!("the oracle: {e}"))?;
    writer.join().map_err(|_| "writer panicked")?.map_err(|e| format!("writing to the oracle: {e}"))?;
    let outcomes: Vec<Json> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("oracle output {l:?}: {e}")))
        .collect::<Result<_, _>>()?;
    if outcomes.len() != names.len() {
        return Err(format!("the oracle answered {} of {} cases", outcomes.len(), names.len()));
    }
    Ok(outcomes)
}

/// The expectation lines of one oracle outcome.
fn expectation(outcome: &Json) -> Vec<String> {
    let mut lines = Vec::new();
    let list = |key: &str| -> Vec<String> {
        outcome[key].as_array().map(|a| a.iter().map(|m| m.as_str().unwrap_or_default().to_string()).collect()).unwrap_or_default()
    };
    for (key, label) in [("notices", "notice"), ("warnings", "warning"), ("errs", "err")] {
        for message in list(key) {
            lines.push(format!("{label}: {}", one_line(&message)));
        }
    }
    if let Some(error) = outcome["error"].as_str() {
        let error = error.strip_suffix(" on node testnode").unwrap_or(error);
        lines.push(format!("error: {}", one_line(error)));
    }
    lines
}

fn one_line(message: &str) -> String {
    message.replace('\n', "\u{2424}")
}
