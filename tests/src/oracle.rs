//! The client of the Puppet 7.23 oracle: `tests/oracle/oracle.rb` (this crate's, see its
//! README), or the script `$POPPET_ORACLE` names. One Ruby process answers many programs: JSON
//! Lines in (`{"id", "code"}`), one JSON outcome per program out, in order. Also the
//! expectation lines of the evaluator's golden suites ([`Expectation`]), which both the
//! oracle's outcomes and our evaluator's are written as, for the recorder, the tests and the
//! corpus checks to compare.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value as Json;

/// The oracle script: `$POPPET_ORACLE`, else the project's own ([`project_oracle`]).
pub fn oracle_path() -> PathBuf {
    match std::env::var_os("POPPET_ORACLE") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => project_oracle(),
    }
}

/// The project's oracle, `tests/oracle/oracle.rb`.
pub fn project_oracle() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/oracle.rb")
}

/// A way to run the oracle: its script, command-line options and environment.
#[derive(Clone, Debug)]
pub struct Oracle {
    pub script: PathBuf,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
}

impl Default for Oracle {
    /// The oracle of [`oracle_path`], with no options.
    fn default() -> Self {
        Oracle::at(oracle_path())
    }
}

impl Oracle {
    /// The oracle script at `script`, with no options.
    pub fn at(script: impl Into<PathBuf>) -> Oracle {
        Oracle { script: script.into(), args: Vec::new(), env: Vec::new() }
    }

    /// With one more command-line option (`--catalog`, `--facts=FILE`, …).
    pub fn arg(mut self, arg: impl Into<String>) -> Oracle {
        self.args.push(arg.into());
        self
    }

    /// With one more variable in the oracle's environment.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Oracle {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Puppet's outcome of each program, in order (ids `"0"`, `"1"`, …).
    pub fn run(&self, programs: &[String]) -> Result<Vec<Json>, String> {
        let records: Vec<Json> = programs
            .iter()
            .enumerate()
            .map(|(i, code)| serde_json::json!({ "id": i.to_string(), "code": code }))
            .collect();
        self.run_records(&records)
    }

    /// The oracle's answer to each input record (`{"id", "code", …}`), in order.
    pub fn run_records(&self, records: &[Json]) -> Result<Vec<Json>, String> {
        let mut input = String::new();
        for record in records {
            input.push_str(&record.to_string());
            input.push('\n');
        }
        if !self.script.is_file() {
            return Err(format!("no oracle at {} (POPPET_ORACLE names another one)", self.script.display()));
        }
        let mut child = Command::new("ruby")
            .arg(&self.script)
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
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
        if outcomes.len() != records.len() {
            return Err(format!("the oracle answered {} of {} programs", outcomes.len(), records.len()));
        }
        Ok(outcomes)
    }
}

/// Puppet's outcome of each program, in order, with the compiled catalog's resources and
/// relationships (`--catalog`), from the oracle of [`oracle_path`] or `oracle`.
pub fn run_oracle(oracle: &Path, programs: &[String]) -> Result<Vec<Json>, String> {
    Oracle::at(oracle).arg("--catalog").run(programs)
}

/// One program's outcome, as the evaluator's golden suites write it: one line per message,
/// in this order:
///
/// ```text
/// notice: MESSAGE        each notice(), in order
/// warning: MESSAGE       each warning logged (with its location when it has one)
/// err: MESSAGE           each err() that did not stop the run
/// error: MESSAGE         the error that stopped it, as Puppet prints it after `Error: `
///                        (every line of it), without ` on node testnode`
/// resource: REF          each resource of the catalog, in order
/// edge: A -> B           each relationship
/// ```
///
/// A line feed inside a message is written `␤`.
#[derive(Default)]
pub struct Expectation<'a> {
    pub notices: Vec<&'a str>,
    pub warnings: Vec<&'a str>,
    pub errs: Vec<&'a str>,
    pub error: Option<&'a str>,
    pub resources: Vec<&'a str>,
    pub relationships: Vec<&'a str>,
}

impl Expectation<'_> {
    /// The lines of the outcome.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (label, messages) in [("notice", &self.notices), ("warning", &self.warnings), ("err", &self.errs)] {
            for message in messages {
                lines.push(format!("{label}: {}", one_line(message)));
            }
        }
        if let Some(error) = self.error {
            lines.push(format!("error: {}", one_line(error)));
        }
        for (label, items) in [("resource", &self.resources), ("edge", &self.relationships)] {
            for item in items {
                lines.push(format!("{label}: {}", one_line(item)));
            }
        }
        lines
    }
}

/// The expectation lines of one oracle outcome ([`Expectation`]).
pub fn expectation(outcome: &Json) -> Vec<String> {
    let list = |key: &str| -> Vec<&str> {
        outcome[key].as_array().map(|a| a.iter().map(|m| m.as_str().unwrap_or_default()).collect()).unwrap_or_default()
    };
    // The whole message (`error_full`), or its first line from an oracle that gives only that.
    let error = outcome["error_full"]
        .as_str()
        .or_else(|| outcome["error"].as_str())
        .map(|e| e.strip_suffix(" on node testnode").unwrap_or(e));
    Expectation {
        notices: list("notices"),
        warnings: list("warnings"),
        errs: list("errs"),
        error,
        resources: list("resources"),
        relationships: list("relationships"),
    }
    .lines()
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

/// `message` with its line feeds written `␤`.
pub fn one_line(message: &str) -> String {
    message.replace('\n', "\u{2424}")
}
