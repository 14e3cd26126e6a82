//! `cargo xtask record types`: records the expectations of golden tables (the test kit's
//! `poppet_tests::table`: puppet-types' and pfmt's) from Puppet 7.23 through the oracle
//! (`tests/oracle/oracle.rb`, or `$POPPET_ORACLE`):
//!
//! ```sh
//! cargo xtask record types types/tests/golden/*.txt        # unrecorded cases
//! cargo xtask record types --all types/tests/golden/x.txt  # every case
//! ```
//!
//! Each case's code runs as `notice(CODE)`; the notice (or the error message) becomes its
//! expectation. Needs `ruby` and the `puppet-agent` package.

use poppet_tests::table as golden;

use std::path::PathBuf;
use std::process::ExitCode;

use poppet_tests::oracle::Oracle;

use golden::Expect;

pub fn main(args: Vec<String>) -> ExitCode {
    let mut all = false;
    let mut paths = Vec::new();
    for arg in args {
        match arg.as_str() {
            "--all" => all = true,
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    if paths.is_empty() {
        eprintln!("usage: cargo xtask record types [--all] TABLE.txt...");
        return ExitCode::from(2);
    }
    let oracle = Oracle::default();
    for path in paths {
        let mut table = match std::fs::read_to_string(&path) {
            Ok(text) => golden::parse(&text),
            Err(e) => {
                eprintln!("record: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        let todo: Vec<usize> =
            (0..table.cases.len()).filter(|&i| all || table.cases[i].expect == Expect::Unrecorded).collect();
        if todo.is_empty() {
            continue;
        }
        let records: Vec<serde_json::Value> = todo
            .iter()
            .map(|&i| serde_json::json!({ "id": i.to_string(), "code": format!("notice({})", table.cases[i].code) }))
            .collect();
        let answers = match oracle.run_records(&records) {
            Ok(answers) => answers,
            Err(e) => {
                eprintln!("record: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut recorded = 0;
        for j in &answers {
            let Some(i) = j["id"].as_str().and_then(|s| s.parse::<usize>().ok()) else { continue };
            let expect = match j["error_message"].as_str() {
                Some(e) => Expect::Error(e.to_owned()),
                None => {
                    let notices: Vec<&str> = j["notices"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|n| n.as_str()).collect())
                        .unwrap_or_default();
                    Expect::Notice(notices.join("\n"))
                }
            };
            let Some(case) = table.cases.get_mut(i) else { continue };
            case.expect = expect;
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
