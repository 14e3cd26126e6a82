//! Records the golden PN suite from Puppet: runs `puppet parser dump --format pn` on every
//! case's source and writes Puppet's PN as the case's expected section. Never uses our parser.
//!
//! ```sh
//! cargo xtask record pn syntax/tests/pn/*.txt
//! cargo xtask record pn --check syntax/tests/pn/*.txt
//! ```
//!
//! The case format is in `poppet_tests::cases` (tests/src/cases.rs). Sources are written to a temporary
//! directory and given to Puppet in batches; Puppet prints `--- FILE` and the file's PN for
//! each file, concatenated, with one line feed at the very end. A file Puppet rejects (a
//! syntax or validation error) gets no PN and its error on standard error; a file that
//! crashes Puppet's dumper (`undefined method Literal` for a `*$rest` parameter) makes the
//! whole batch print nothing, so a failing batch is split until the culprit is alone.
//!
//! Like the command the brief of the suite names, this does not pass `--validate`: a case
//! that only Puppet's validator rejects (`$a [1]`: "has no effect") has a well-defined PN and
//! stays in the suite.
//!
//! A case Puppet rejects does not belong in the suite: its expected section becomes
//! `# Puppet rejects this case: MESSAGE` (which fails the test), it is listed, and the
//! recorder exits 1. `--check` rewrites nothing and exits 1 if any expectation differs from
//! what Puppet prints now.

use poppet_tests::cases;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, ExitCode};

const BATCH: usize = 400;

/// What Puppet made of one source.
#[derive(Clone, Debug)]
enum Outcome {
    Pn(String),
    Rejected(String),
}

/// The error lines Puppet printed for each file it rejected: `Error: --- FILE` followed by
/// the error.
fn rejections(stderr: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let lines: Vec<&str> = stderr.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(file) = line.trim().strip_prefix("Error: --- ") {
            let message =
                lines.get(i + 1).map(|l| l.trim().trim_start_matches("Error: ").to_string()).unwrap_or_default();
            out.insert(file.trim().to_string(), message);
        }
    }
    out
}

fn run_puppet(dir: &Path, files: &[String]) -> Result<(String, String), String> {
    let output = Command::new("puppet")
        .args(["parser", "dump", "--format", "pn", "--color", "false"])
        .args(files)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run puppet: {e}"))?;
    Ok((String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned()))
}

/// Puppet's outcome for each of `files` (names relative to `dir`, all the same length, so
/// that no `--- FILE` marker is a prefix of another).
fn record(dir: &Path, files: &[String]) -> Result<Vec<Outcome>, String> {
    let (stdout, stderr) = run_puppet(dir, files)?;
    let rejected = rejections(&stderr);
    // Each file's PN runs from its marker to the next marker.
    let mut starts: Vec<Option<(usize, usize)>> = Vec::new();
    let mut from = 0;
    for file in files {
        let marker = format!("--- {file}");
        match stdout[from..].find(&marker) {
            Some(i) => {
                starts.push(Some((from + i, from + i + marker.len())));
                from += i + marker.len();
            }
            None => starts.push(None),
        }
    }
    let mut outcomes: Vec<Option<Outcome>> = Vec::new();
    for (k, start) in starts.iter().enumerate() {
        outcomes.push(match start {
            Some((_, body)) => {
                let end = starts[k + 1..].iter().flatten().next().map_or(stdout.len(), |(s, _)| *s);
                let pn = &stdout[*body..end];
                // Only the last file's PN is followed by the line feed Puppet ends with.
                let pn = if end == stdout.len() { pn.strip_suffix('\n').unwrap_or(pn) } else { pn };
                Some(Outcome::Pn(pn.to_string()))
            }
            None => rejected.get(&files[k]).map(|m| Outcome::Rejected(m.clone())),
        });
    }
    if outcomes.iter().all(Option::is_some) {
        return Ok(outcomes.into_iter().map(Option::unwrap).collect());
    }
    // Some file got neither PN nor an error of its own: Puppet stopped on the batch.
    if files.len() == 1 {
        let message = stderr
            .lines()
            .map(|l| l.trim().trim_start_matches("Error: "))
            .find(|l| !l.is_empty() && !l.starts_with("Try 'puppet help"))
            .unwrap_or("Puppet printed no PN")
            .to_string();
        return Ok(vec![Outcome::Rejected(message)]);
    }
    // Split, leaving out the files already known to be rejected.
    let mut result: Vec<Option<Outcome>> = outcomes
        .iter()
        .map(|o| match o {
            Some(Outcome::Rejected(m)) => Some(Outcome::Rejected(m.clone())),
            _ => None,
        })
        .collect();
    let pending: Vec<usize> = (0..files.len()).filter(|&k| result[k].is_none()).collect();
    let (a, b) = pending.split_at(pending.len() / 2);
    for half in [a, b] {
        if half.is_empty() {
            continue;
        }
        let names: Vec<String> = half.iter().map(|&k| files[k].clone()).collect();
        for (&k, outcome) in half.iter().zip(record(dir, &names)?) {
            result[k] = Some(outcome);
        }
    }
    Ok(result.into_iter().map(Option::unwrap).collect())
}

pub fn main(args: Vec<String>) -> ExitCode {
    let mut rejected = 0;
    let recorded = cases::record_files("record-pn", args, BATCH, record, |at, outcome| match outcome {
        Outcome::Pn(pn) => pn.lines().map(str::to_string).collect(),
        Outcome::Rejected(message) => {
            rejected += 1;
            eprintln!("{at}: Puppet rejects this case: {message}");
            vec![format!("# Puppet rejects this case: {message}")]
        }
    });
    let recorded = match recorded {
        Ok(recorded) => recorded,
        Err(code) => return code,
    };
    println!("{} cases, {} {}, {rejected} rejected by Puppet", recorded.total, recorded.changed, recorded.verb());
    if rejected > 0 || (recorded.check && recorded.changed > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
