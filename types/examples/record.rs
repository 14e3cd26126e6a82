//! Records the expectations of golden tables from Puppet 7.23 through `../shared/oracle`:
//!
//! ```sh
//! cargo run -p puppet-types --example record -- types/tests/golden/*.txt        # unrecorded cases
//! cargo run -p puppet-types --example record -- --all types/tests/golden/x.txt  # every case
//! ```
//!
//! Each case's code runs as `notice(CODE)`; the notice (or the error message) becomes its
//! expectation. Needs `ruby` and the `puppet-agent` package.

#[path = "../tests/support/golden.rs"]
mod golden;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

use golden::Expect;

fn main() -> ExitCode {
    let mut all = false;
    let mut paths = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--all" => all = true,
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    let oracle = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/oracle/oracle.rb");
    for path in paths {
        let mut table = golden::read(&path);
        let todo: Vec<usize> = (0..table.cases.len())
            .filter(|&i| all || table.cases[i].expect == Expect::Unrecorded)
            .collect();
        if todo.is_empty() {
            continue;
        }
        let mut input = String::new();
        for &i in &todo {
            let code = format!("notice({})", table.cases[i].code);
            input.push_str(&serde_json::json!({ "id": i.to_string(), "code": code }).to_string());
            input.push('\n');
        }
        let mut child = match Command::new("ruby")
            .arg(&oracle)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("record: cannot run the oracle: {e}");
                return ExitCode::FAILURE;
            }
        };
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(input.as_bytes());
        }
        let out = match child.wait_with_output() {
            Ok(o) => o,
            Err(e) => {
                eprintln!("record: {e}");
                return ExitCode::FAILURE;
            }
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let mut recorded = 0;
        for line in text.lines() {
            let Ok(j) = serde_json::from_str::<serde_json::Value>(line) else { continue };
            let Some(i) = j["id"].as_str().and_then(|s| s.parse::<usize>().ok()) else { continue };
            let expect = match j["error_message"].as_str() {
                Some(e) => Expect::Error(e.to_owned()),
                None => {
                    let notices: Vec<&str> =
                        j["notices"].as_array().map(|a| a.iter().filter_map(|n| n.as_str()).collect()).unwrap_or_default();
                    Expect::Notice(notices.join("\n"))
                }
            };
            table.cases[i].expect = expect;
            recorded += 1;
        }
        if let Err(e) = std::fs::write(&path, golden::render(&table)) {
            eprintln!("record: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!("{}: {recorded} of {} cases recorded", path.display(), todo.len());
    }
    ExitCode::SUCCESS
}
