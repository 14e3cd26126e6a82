//! Records the validation suite from Puppet: runs `puppet parser validate` on every case's
//! source and writes Puppet's diagnostics as the case's expectations. Never uses our code.
//!
//! ```sh
//! cargo xtask record validate syntax/tests/validate/*.txt
//! cargo xtask record validate --check syntax/tests/validate/*.txt
//! ```
//!
//! The case format is in `poppet_tests::cases` (tests/src/cases.rs). Sources are written to a temporary
//! directory as `cNNNNNN.pp` and given to Puppet in batches, twice:
//!
//! - `puppet parser dump --no-validate --format old` parses without validating: a file it
//!   rejects (`Error: --- FILE`) has a *syntax* error, and its expectation is written as
//!   `syntax-error: MESSAGE (…)`. A file that crashes the parser ends the run for the
//!   files after it, so a batch where some file got no answer is split. (`--format old`, because the PN dumper crashes on `*$rest`
//!   parameters and then prints nothing for the whole batch.)
//! - `puppet parser validate --color false` parses and validates (default settings: `strict`
//!   is `warning`, `max_errors` and `max_warnings` are 10). How Puppet prints what it found:
//!   - each warning (deprecations too) as `Warning: MESSAGE (file: F, line: N, column: M)`,
//!     as it finds them;
//!   - a file with one error: `Error: Could not parse for environment production: MESSAGE
//!     (file: F, line: N, column: M)`, once all files are done;
//!   - a file with several errors: each as `Error: MESSAGE (file: F, …)`, then, once all files
//!     are done, `Error: Language validation logged N errors[, and M warnings]. Giving up`,
//!     without a file. These summaries come in the order of the files they belong to.
//!
//! The recorder keeps each diagnostic as `error: MESSAGE (line: N, column: M)` or `warning:
//! …`, sorted by position (Puppet prints warnings before errors), and drops the summary after
//! checking that it counts the errors kept. A case with more than 10 errors or 10 or more
//! warnings may have been cut short by Puppet's limits: the recorder reports it and exits 1
//! (split the case). `--check` rewrites nothing and exits 1 if an expectation differs from
//! what Puppet prints now.

use poppet_tests::cases;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, ExitCode};

const BATCH: usize = 300;
const MAX_ERRORS: usize = 10;
const MAX_WARNINGS: usize = 10;

fn run_puppet(dir: &Path, args: &[&str], files: &[String]) -> Result<String, String> {
    // Puppet logs to standard error; standard output only carries dumps.
    Ok(run_puppet_output(dir, args, files)?.1)
}

/// Puppet's standard output and standard error.
fn run_puppet_output(dir: &Path, args: &[&str], files: &[String]) -> Result<(String, String), String> {
    let output = Command::new("puppet")
        .args(["parser"])
        .args(args)
        .args(["--color", "false"])
        .args(files)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run puppet: {e}"))?;
    Ok((String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned()))
}

/// The files `puppet parser dump --no-validate` rejects. A file that crashes Puppet's parser
/// (not with a syntax error: an exception) ends the run, and the files after it are neither
/// dumped nor rejected: such a batch is split until every file has its answer.
fn syntax_rejections(dir: &Path, files: &[String]) -> Result<Vec<String>, String> {
    let (stdout, stderr) = run_puppet_output(dir, &["dump", "--no-validate", "--format", "old"], files)?;
    let rejected: Vec<String> =
        stderr.lines().filter_map(|l| l.trim().strip_prefix("Error: --- ")).map(|f| f.trim().to_string()).collect();
    let answered = |f: &String| rejected.contains(f) || stdout.contains(&format!("--- {f}"));
    if files.len() == 1 || files.iter().all(answered) {
        return Ok(rejected);
    }
    let (a, b) = files.split_at(files.len() / 2);
    let mut result = syntax_rejections(dir, a)?;
    result.extend(syntax_rejections(dir, b)?);
    Ok(result)
}

/// One line of Puppet's log: its level, message, and file, line and column when it has them.
struct LogLine {
    level: String,
    message: String,
    file: Option<String>,
    position: Option<(u32, Option<u32>)>,
}

fn parse_log_line(line: &str) -> Option<LogLine> {
    let (level, rest) = line.split_once(": ")?;
    if !matches!(level, "Error" | "Warning" | "Notice") {
        return None;
    }
    let rest = rest.strip_prefix("Could not parse for environment production: ").unwrap_or(rest);
    let (message, file, position) = match rest.rfind(" (file: ") {
        Some(open) if rest.ends_with(')') => {
            let inside = &rest[open + " (file: ".len()..rest.len() - 1];
            let mut parts = inside.split(", ");
            let file = parts.next().unwrap_or("").to_string();
            let mut line_no = None;
            let mut column = None;
            for part in parts {
                if let Some(n) = part.strip_prefix("line: ") {
                    line_no = n.parse().ok();
                } else if let Some(n) = part.strip_prefix("column: ") {
                    column = n.parse().ok();
                }
            }
            (rest[..open].to_string(), Some(file), line_no.map(|l| (l, column)))
        }
        _ => (rest.to_string(), None, None),
    };
    Some(LogLine { level: level.to_string(), message, file, position })
}

/// `Language validation logged N errors[, and M warnings]. Giving up`: N.
fn giving_up(message: &str) -> Option<usize> {
    let rest = message.strip_prefix("Language validation logged ")?;
    if !message.ends_with(". Giving up") {
        return None;
    }
    rest.split(' ').next()?.parse().ok()
}

fn render(kind: &str, message: &str, position: Option<(u32, Option<u32>)>) -> String {
    match position {
        Some((line, Some(column))) => format!("{kind}: {message} (line: {line}, column: {column})"),
        Some((line, None)) => format!("{kind}: {message} (line: {line})"),
        None => format!("{kind}: {message}"),
    }
}

/// What Puppet printed for one file.
#[derive(Default)]
struct Outcome {
    lines: Vec<String>,
    errors: usize,
    warnings: usize,
    summary: Option<usize>,
    syntax: bool,
    /// What Puppet printed when it stopped without a diagnostic of the file's own.
    stopped: Option<String>,
}

fn record(dir: &Path, files: &[String]) -> Result<Vec<Outcome>, String> {
    let rejected = syntax_rejections(dir, files)?;
    let mut outcomes = validate(dir, files)?;
    for (file, outcome) in files.iter().zip(&mut outcomes) {
        if rejected.contains(file) {
            outcome.syntax = true;
            for line in &mut outcome.lines {
                if let Some(rest) = line.strip_prefix("error: ") {
                    *line = format!("syntax-error: {rest}");
                }
            }
        }
    }
    Ok(outcomes)
}

/// Puppet's diagnostics for each of `files`. Puppet validates the files of one run with one
/// set of loaders: a type alias defined in two files stops the run ("Attempt to redefine
/// entity"), so a run that stops on something no file owns is split until each file is alone.
fn validate(dir: &Path, files: &[String]) -> Result<Vec<Outcome>, String> {
    let stderr = run_puppet(dir, &["validate"], files)?;
    let index: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.as_str(), i)).collect();
    let mut outcomes: Vec<Outcome> = files.iter().map(|_| Outcome::default()).collect();
    let mut summaries = Vec::new();
    let mut stray = Vec::new();
    for raw in stderr.lines() {
        let Some(log) = parse_log_line(raw.trim_end()) else {
            if !raw.trim().is_empty() {
                stray.push(raw.to_string());
            }
            continue;
        };
        let file = log
            .file
            .as_deref()
            .map(|f| Path::new(f).file_name().map_or(f.to_string(), |n| n.to_string_lossy().into_owned()));
        let Some(&i) = file.as_deref().and_then(|f| index.get(f)) else {
            match giving_up(&log.message) {
                Some(n) => summaries.push(n),
                None => stray.push(raw.to_string()),
            }
            continue;
        };
        let outcome = &mut outcomes[i];
        let kind = if log.level == "Error" { "error" } else { "warning" };
        if kind == "warning" {
            outcome.warnings += 1;
        } else {
            outcome.errors += 1;
        }
        outcome.lines.push(render(kind, &log.message, log.position));
    }
    if !stray.is_empty() {
        if files.len() == 1 && !outcomes[0].lines.is_empty() && stray.iter().all(|l| l.contains("Try 'puppet help")) {
            // The file's own error stopped the run: nothing else is missing.
            return Ok(outcomes);
        }
        let own: Vec<&String> = stray.iter().filter(|l| !l.contains("Try 'puppet help")).collect();
        if let ([line], true) = (own.as_slice(), files.len() == 1 && outcomes[0].lines.is_empty()) {
            // One error without a file, as Puppet reports a byte order mark: the file's own.
            if let Some(log) = parse_log_line(line.trim_end()).filter(|log| log.level == "Error") {
                outcomes[0].errors += 1;
                outcomes[0].lines.push(render("error", &log.message, log.position));
                return Ok(outcomes);
            }
        }
        if files.len() == 1 {
            // Not a validation issue (a type defined twice, a crash): the case does not belong.
            let message = stray.iter().map(|l| l.trim().trim_start_matches("Error: ")).collect::<Vec<_>>().join(" / ");
            return Ok(vec![Outcome { stopped: Some(message), ..Outcome::default() }]);
        }
        let (a, b) = files.split_at(files.len() / 2);
        let mut result = validate(dir, a)?;
        result.extend(validate(dir, b)?);
        return Ok(result);
    }
    // The summaries belong, in order, to the files with several errors.
    let several: Vec<usize> = (0..files.len()).filter(|&i| outcomes[i].errors > 1).collect();
    if several.len() != summaries.len() {
        return Err(format!(
            "{} files with several errors but {} 'Giving up' summaries in Puppet's output",
            several.len(),
            summaries.len()
        ));
    }
    for (i, n) in several.into_iter().zip(summaries) {
        outcomes[i].summary = Some(n);
    }
    Ok(outcomes)
}

pub fn main(args: Vec<String>) -> ExitCode {
    let mut problems = 0;
    let mut syntax = 0;
    let recorded = cases::record_files("record-validate", args, BATCH, record, |at, outcome: Outcome| {
        if outcome.syntax {
            syntax += 1;
        }
        if let Some(message) = &outcome.stopped {
            eprintln!("{at}: Puppet stops with no diagnostic of the case's own: {message}");
            problems += 1;
        }
        if let Some(n) = outcome.summary {
            if n != outcome.errors {
                eprintln!(
                    "{at}: Puppet counted {n} errors but printed {} (limit {MAX_ERRORS}): split the case",
                    outcome.errors
                );
                problems += 1;
            }
        }
        if outcome.warnings >= MAX_WARNINGS {
            eprintln!("{at}: {} warnings, Puppet's limit: split the case", outcome.warnings);
            problems += 1;
        }
        match outcome.stopped {
            Some(message) => vec![format!("stopped: {message}")],
            None => cases::canonical(outcome.lines),
        }
    });
    let recorded = match recorded {
        Ok(recorded) => recorded,
        Err(code) => return code,
    };
    println!("{} cases, {} {}, {syntax} syntax errors in Puppet", recorded.total, recorded.changed, recorded.verb());
    if problems > 0 || (recorded.check && recorded.changed > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
