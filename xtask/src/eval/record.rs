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
//! A case file's `# oracle: OPTIONS` header line (`--strict=error`, `--no-strict-variables`,
//! `--node=NAME`, `--facts=FILE` relative to the workspace) gives the settings its cases are
//! recorded with; files are recorded in groups of the same settings. A header's
//! `--modulepath=DIR[:DIR]` (relative to the workspace, or absolute) records that file with
//! those modules, as `--modulepath` does (the golden suite of ported module functions,
//! `eval/tests/golden_stdlib/`).
//!
//! `cargo xtask record catalog` records the golden suite of whole catalogs
//! (`eval/tests/golden_catalog/`) the same way, with the suite's module path
//! (`poppet_tests::catalog::GOLDEN`) and the oracle's `--catalog-json`: the expectation is the
//! messages' lines as above, then the compiled catalog's lines (`poppet_tests::catalog::lines`).
//!
//! ```sh
//! cargo xtask record catalog eval/tests/golden_catalog/*.txt
//! ```
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

use poppet_tests::oracle::{self, Oracle};
use poppet_tests::{cases, catalog};
use serde_json::Value as Json;

const BATCH: usize = 500;

/// An oracle option with its file relative to the workspace made absolute
/// (`--facts=eval/src/facts/debian12.json`).
fn workspace_path(option: &str) -> String {
    match option.strip_prefix("--facts=") {
        Some(file) => format!("--facts={}", catalog::workspace_path(file).display()),
        None => option.to_owned(),
    }
}

pub fn main(args: Vec<String>) -> ExitCode {
    record(args, Suite::Messages)
}

/// `cargo xtask record catalog`: the whole-catalog suite, with its module path.
pub fn catalog_main(args: Vec<String>) -> ExitCode {
    let modulepath = catalog::workspace_path(catalog::GOLDEN.modulepath);
    let args = std::iter::once(format!("--modulepath={}", modulepath.display())).chain(args).collect();
    record(args, Suite::Catalog)
}

/// What a suite's expectation holds.
#[derive(Clone, Copy)]
enum Suite {
    /// The messages, the resources and the relationships (`--catalog`).
    Messages,
    /// The messages and the whole catalog (`--catalog-json`).
    Catalog,
}

fn record(args: Vec<String>, suite: Suite) -> ExitCode {
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
    let mut base = match &modules {
        Some(dirs) => super::modules_corpus::modules_oracle(dirs),
        None => Oracle::default().arg("--catalog"),
    };
    if let Suite::Catalog = suite {
        base = base.arg("--catalog-json");
    }
    // Module goldens: the module path's directories are written as `<modules>`.
    let modulepath = match &modules {
        Some(dirs) => dirs.into(),
        None => std::env::var_os("POPPET_MODULEPATH").unwrap_or_default(),
    };
    let (flags, paths): (Vec<String>, Vec<String>) = rest.into_iter().partition(|a| a.starts_with("--"));
    if paths.is_empty() {
        eprintln!("usage: record-eval [--check] [--modulepath DIR[:DIR]] CASE-FILE...");
        return ExitCode::from(2);
    }
    // The files in groups of the same oracle options, in the order given.
    let mut groups: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for path in paths {
        let header = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| cases::parse(&text).ok())
            .map(|file| cases::oracle_options(&file.header))
            .unwrap_or_default();
        match groups.iter_mut().find(|(options, _)| *options == header) {
            Some((_, files)) => files.push(path),
            None => groups.push((header, vec![path])),
        }
    }
    let mut trouble = Vec::new();
    let mut result = Ok(cases::Recorded { total: 0, changed: 0, check: flags.iter().any(|f| f == "--check") });
    for (options, files) in groups {
        // `--modulepath=DIR[:DIR]` in a header: Puppet with those modules, written `<modules>`
        let header_dirs: Vec<std::path::PathBuf> = options
            .iter()
            .filter_map(|o| o.strip_prefix("--modulepath="))
            .flat_map(|dirs| std::env::split_paths(dirs).collect::<Vec<_>>())
            .filter(|d| !d.as_os_str().is_empty())
            .map(|d| catalog::workspace_path(&d.to_string_lossy()))
            .collect();
        let (group_base, modulepath) = if header_dirs.is_empty() {
            (base.clone(), modulepath.clone())
        } else {
            let joined = std::env::join_paths(&header_dirs).unwrap_or_default();
            let oracle = super::modules_corpus::modules_oracle(&joined.to_string_lossy());
            let oracle = if let Suite::Catalog = suite { oracle.arg("--catalog-json") } else { oracle };
            (oracle, joined)
        };
        let options: Vec<&String> = options.iter().filter(|o| !o.starts_with("--modulepath=")).collect();
        let oracle = options.iter().fold(group_base, |oracle, option| oracle.arg(workspace_path(option)));
        let args = flags.iter().cloned().chain(files).collect();
        let group = cases::record_files(
            "record-eval",
            args,
            BATCH,
            |dir, names| {
                let programs: Vec<String> = names
                    .iter()
                    .map(|name| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}")))
                    .collect::<Result<_, _>>()?;
                oracle.run(&programs)
            },
            |at, outcome: Json| {
                let mut lines = match suite {
                    Suite::Messages => oracle::expectation(&outcome),
                    Suite::Catalog => catalog::outcome_lines(&outcome),
                };
                for dir in std::env::split_paths(&modulepath).filter(|d| !d.as_os_str().is_empty()) {
                    lines = oracle::hide_modulepath(lines, &dir);
                }
                if let Some(bad) = lines.iter().find(|l| l.contains("ORACLE ") || l.contains(":0x")) {
                    trouble.push(format!("{at}: {bad}"));
                }
                lines
            },
        );
        result = match (result, group) {
            (Ok(sum), Ok(g)) => {
                Ok(cases::Recorded { total: sum.total + g.total, changed: sum.changed + g.changed, ..sum })
            }
            (Err(code), _) | (_, Err(code)) => Err(code),
        };
    }
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
