//! Running Puppet 7.23 through `../shared/oracle/oracle.rb` (one process for many programs)
//! and turning its answers into expectation lines, for the golden recorder and the corpus
//! comparison.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value as Json;

/// The oracle script: `$POPPET_ORACLE`, else `../shared/oracle/oracle.rb` beside the checkout.
pub fn oracle_path() -> PathBuf {
    match std::env::var_os("POPPET_ORACLE") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/oracle/oracle.rb"),
    }
}

/// Puppet's outcome of each program, in order, with the compiled catalog's resources and
/// relationships (`--catalog`).
pub fn run_oracle(oracle: &Path, programs: &[String]) -> Result<Vec<Json>, String> {
    run_oracle_with_env(oracle, programs, &[])
}

/// [`run_oracle`] with more environment for the oracle's process.
pub fn run_oracle_with_env(oracle: &Path, programs: &[String], env: &[(&str, &str)]) -> Result<Vec<Json>, String> {
    let mut input = String::new();
    for (i, code) in programs.iter().enumerate() {
        input.push_str(&serde_json::json!({ "id": i.to_string(), "code": code }).to_string());
        input.push('\n');
    }
    if !oracle.is_file() {
        return Err(format!("no oracle at {} (set POPPET_ORACLE to ../shared/oracle/oracle.rb)", oracle.display()));
    }
    let mut child = Command::new("ruby")
        .arg(oracle)
        .arg("--catalog")
        .envs(env.iter().copied())
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
    if outcomes.len() != programs.len() {
        return Err(format!("the oracle answered {} of {} programs", outcomes.len(), programs.len()));
    }
    Ok(outcomes)
}

/// The expectation lines of one oracle outcome (the golden suite's format).
pub fn expectation(outcome: &Json) -> Vec<String> {
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
    for (key, label) in [("resources", "resource"), ("relationships", "edge")] {
        for item in list(key) {
            lines.push(format!("{label}: {}", one_line(&item)));
        }
    }
    lines
}

/// Our outcome of a program in the same lines (the error as its first line, as the oracle
/// keeps it).
pub fn our_expectation(outcome: &puppet_eval::Outcome) -> Vec<String> {
    let mut lines = Vec::new();
    for (level, label) in [(puppet_eval::Level::Notice, "notice"), (puppet_eval::Level::Warning, "warning"), (puppet_eval::Level::Err, "err")] {
        for message in outcome.messages(level) {
            lines.push(format!("{label}: {}", one_line(message)));
        }
    }
    if let Some(error) = &outcome.error {
        lines.push(format!("error: {}", error.puppet_text().lines().next().unwrap_or_default()));
    }
    for (items, label) in [(&outcome.resources, "resource"), (&outcome.relationships, "edge")] {
        for item in items {
            lines.push(format!("{label}: {}", one_line(item)));
        }
    }
    lines
}

/// What module goldens write for the module path directory in messages (`(file:
/// <modules>/demo/manifests/init.pp, line: 3)`), so that expectations do not depend on
/// where the checkout is.
pub const MODULEPATH_TOKEN: &str = "<modules>";

/// `lines` with the absolute form of `dir` written as [`MODULEPATH_TOKEN`].
pub fn hide_modulepath(lines: Vec<String>, dir: &Path) -> Vec<String> {
    let Ok(dir) = std::path::absolute(dir) else { return lines };
    let dir = dir.display().to_string();
    lines.into_iter().map(|l| l.replace(&dir, MODULEPATH_TOKEN)).collect()
}

pub fn one_line(message: &str) -> String {
    message.replace('\n', "\u{2424}")
}
