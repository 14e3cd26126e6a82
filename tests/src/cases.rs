//! Golden case files: the PN suite (`syntax/tests/pn/*.txt`), the validation and syntax-error
//! suite (`syntax/tests/validate/*.txt`), the evaluator's suites (`eval/tests/golden*/*.txt`)
//! and the highlighting tables of the shell. Their format, the test runner's loop ([`run`])
//! and the recorders' driver ([`record_files`], used by `cargo xtask record pn|validate|eval`).
//!
//! ```text
//! # header: comment lines saying what the file covers and how it was recorded
//! === name
//! the Puppet source, one or more lines
//! ---
//! the expectation: Puppet's PN, or Puppet's diagnostics one a line
//! ```
//!
//! The source is its lines, each ending in a line feed. Bytes that editors or Git would not
//! keep are spelled with control pictures: `␍` is a carriage return, `␉` a tab, `␠` a space,
//! and `␄` ending the last line means the source has no final line feed. The expectation
//! runs from the line after `---` to the next `=== ` line, without its trailing blank lines.
//!
//! A header line `# oracle: OPTIONS` gives the options of the oracle (`tests/oracle/oracle.rb`)
//! the file is recorded with, such as `--strict=error --no-strict-variables`; its runner
//! compiles the file's cases with the same settings ([`Case::oracle_options`]).
//!
//! In the validation suite the expectation is a list: `error: MESSAGE (line: N, column: M)`,
//! `warning: …`, or `syntax-error: …` for a source Puppet rejects when parsing, before
//! validation; sorted by position ([`canonical`]).

use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct Case {
    pub name: String,
    /// The source lines as written in the file (control pictures not decoded).
    pub lines: Vec<String>,
    /// The expectation's lines, trailing blank lines removed.
    pub expected: Vec<String>,
    /// The 1-based line of the case's `=== ` line.
    pub line: usize,
    /// The oracle options of its file's `# oracle: OPTIONS` header line, if any.
    pub oracle_options: Vec<String>,
}

impl Case {
    /// The source, control pictures decoded.
    pub fn source(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            let last = i + 1 == self.lines.len();
            let (line, final_feed) = match line.strip_suffix('\u{2404}') {
                Some(l) if last => (l, false),
                _ => (line.as_str(), true),
            };
            out.push_str(&line.replace('\u{240D}', "\r").replace('\u{2409}', "\t").replace('\u{2420}', " "));
            if final_feed {
                out.push('\n');
            }
        }
        out
    }

    /// The expectation as one text (the PN suite's).
    pub fn expected_text(&self) -> String {
        self.expected.join("\n")
    }

    /// The expectation's non-blank lines (the validation suite's).
    pub fn expectations(&self) -> Vec<String> {
        self.expected.iter().filter(|l| !l.trim().is_empty()).cloned().collect()
    }
}

pub struct File {
    /// The lines before the first case.
    pub header: Vec<String>,
    pub cases: Vec<Case>,
}

/// The oracle options a header gives (`# oracle: --strict=error --no-strict-variables`).
pub fn oracle_options(header: &[String]) -> Vec<String> {
    header
        .iter()
        .find_map(|line| line.strip_prefix("# oracle:"))
        .map(|options| options.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

pub fn parse(text: &str) -> Result<File, String> {
    let mut header = Vec::new();
    let mut cases: Vec<Case> = Vec::new();
    let mut in_source = false;
    let unterminated = |case: &Case| format!("line {}: case {:?} has no '---' line", case.line, case.name);
    for (i, line) in text.lines().enumerate() {
        if let Some(name) = line.strip_prefix("=== ") {
            if let (true, Some(case)) = (in_source, cases.last()) {
                return Err(unterminated(case));
            }
            let oracle_options = oracle_options(&header);
            cases.push(Case {
                name: name.trim().to_string(),
                lines: Vec::new(),
                expected: Vec::new(),
                line: i + 1,
                oracle_options,
            });
            in_source = true;
        } else if let Some(case) = cases.last_mut() {
            if !in_source {
                case.expected.push(line.to_string());
            } else if line == "---" {
                in_source = false;
            } else {
                case.lines.push(line.to_string());
            }
        } else {
            header.push(line.to_string());
        }
    }
    if let (true, Some(case)) = (in_source, cases.last()) {
        return Err(unterminated(case));
    }
    for case in &mut cases {
        while case.expected.last().is_some_and(|l| l.trim().is_empty()) {
            case.expected.pop();
        }
    }
    Ok(File { header, cases })
}

pub fn render(file: &File) -> String {
    let mut out = String::new();
    for line in &file.header {
        out.push_str(line);
        out.push('\n');
    }
    for (i, case) in file.cases.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("=== ");
        out.push_str(&case.name);
        out.push('\n');
        for line in &case.lines {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str("---\n");
        for line in &case.expected {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The `(line, column)` an expectation ends with; `(0, 0)` when it has none.
pub fn position(expectation: &str) -> (u32, u32) {
    let Some(open) = expectation.rfind(" (line: ") else {
        return (0, 0);
    };
    let rest = expectation[open + " (line: ".len()..].trim_end_matches(')');
    let mut parts = rest.split(", column: ");
    let line = parts.next().and_then(|l| l.parse().ok()).unwrap_or(0);
    let column = parts.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    (line, column)
}

/// Expectations in the order they are compared and recorded: by position, then text.
pub fn canonical(mut lines: Vec<String>) -> Vec<String> {
    lines.sort_by(|a, b| position(a).cmp(&position(b)).then_with(|| a.cmp(b)));
    lines
}

// ---- the tests' side ----

/// The source as it is easiest to read in a report: each line indented, with line ends made
/// visible where they are not plain line feeds.
pub fn show_source(source: &str) -> String {
    let mut out = String::new();
    for line in source.split_inclusive('\n') {
        let shown = line.replace('\r', "\u{240D}").replace('\t', "\u{2409}");
        let shown = shown.strip_suffix('\n').map_or_else(|| format!("{shown}\u{2404}"), str::to_string);
        let _ = writeln!(out, "    | {shown}");
    }
    if source.is_empty() {
        out.push_str("    | (empty)\n");
    }
    out
}

/// What a suite run found.
pub struct Report {
    pub total: usize,
    /// One report per case that differs from Puppet.
    pub failures: Vec<String>,
    /// Malformed case files.
    pub problems: Vec<String>,
}

impl Report {
    /// Prints every failure and problem, then the summary line `SUITE: N of M cases WHAT`.
    pub fn print(&self, suite: &str, what: &str) {
        for failure in &self.failures {
            eprintln!("{failure}");
        }
        for problem in &self.problems {
            eprintln!("{problem}");
        }
        eprintln!("{suite}: {} of {} cases {what}", self.total - self.failures.len(), self.total);
    }
}

/// Runs `check` on every case of `DIR/*.txt` (a test passes
/// `concat!(env!("CARGO_MANIFEST_DIR"), "/tests/SUBDIR")`) whose name contains the value of the
/// environment variable `filter_var` (all cases when unset). `check` returns the report of a
/// case that differs from Puppet, without the `FILE:LINE: NAME` heading the runner adds.
pub fn run(dir: impl AsRef<Path>, filter_var: &str, mut check: impl FnMut(&Case, &str) -> Option<String>) -> Report {
    let filter = std::env::var(filter_var).ok();
    let dir = dir.as_ref();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    let mut report = Report { total: 0, failures: Vec::new(), problems: Vec::new() };
    for path in paths {
        let file_name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let file = match parse(&text) {
            Ok(file) => file,
            Err(e) => {
                report.problems.push(format!("{file_name}: {e}"));
                continue;
            }
        };
        if file.cases.is_empty() {
            report.problems.push(format!("{file_name}: no cases"));
        }
        let mut names = HashSet::new();
        for case in &file.cases {
            if !names.insert(case.name.as_str()) {
                report.problems.push(format!("{file_name}:{}: a second case named {:?}", case.line, case.name));
            }
            if filter.as_ref().is_some_and(|f| !case.name.contains(f.as_str())) {
                continue;
            }
            report.total += 1;
            if let Some(failure) = check(case, &case.source()) {
                report.failures.push(format!("{file_name}:{}: {}\n{failure}", case.line, case.name));
            }
        }
    }
    report
}

// ---- the recorders' side ----

/// What a recorder did.
pub struct Recorded {
    pub total: usize,
    pub changed: usize,
    pub check: bool,
}

impl Recorded {
    /// "differ" under `--check`, "updated" otherwise.
    pub fn verb(&self) -> &'static str {
        if self.check {
            "differ"
        } else {
            "updated"
        }
    }
}

/// A recorder's whole run: reads its arguments `args` (`[--check] CASE-FILE...`), writes every
/// case's source into a temporary directory as `cNNNNNN.pp` (all names the same length),
/// asks `record` for Puppet's outcome of each batch of at most `batch` files, and turns each
/// outcome into the case's expectation with `expect(AT, outcome)` (`AT` names the case as
/// `PATH:LINE: NAME`). Rewrites the case files whose expectations changed, unless `--check`,
/// which lists the differences instead. Errors that stop the run are reported here and come
/// back as the exit code to use.
pub fn record_files<O>(
    tool: &str,
    args: Vec<String>,
    batch: usize,
    record: impl Fn(&Path, &[String]) -> Result<Vec<O>, String>,
    mut expect: impl FnMut(&str, O) -> Vec<String>,
) -> Result<Recorded, ExitCode> {
    let fail = |message: String| {
        eprintln!("{message}");
        ExitCode::from(2)
    };
    let mut check = false;
    let mut paths = Vec::new();
    for arg in args {
        match arg.as_str() {
            "--check" => check = true,
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    if paths.is_empty() {
        return Err(fail(format!("usage: {tool} [--check] CASE-FILE...")));
    }
    let mut files = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).map_err(|e| fail(format!("{}: {e}", path.display())))?;
        files.push(parse(&text).map_err(|e| fail(format!("{}: {e}", path.display())))?);
    }

    let dir = std::env::temp_dir().join(format!("{tool}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    let outcomes = (|| {
        let mut names = Vec::new();
        for case in files.iter().flat_map(|f| &f.cases) {
            let name = format!("c{:06}.pp", names.len());
            std::fs::write(dir.join(&name), case.source())
                .map_err(|e| format!("cannot write {}: {e}", dir.join(&name).display()))?;
            names.push(name);
        }
        let mut outcomes = Vec::with_capacity(names.len());
        for chunk in names.chunks(batch) {
            outcomes.extend(record(&dir, chunk)?);
        }
        Ok::<_, String>(outcomes)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    let mut outcomes = outcomes.map_err(fail)?.into_iter();

    let mut recorded = Recorded { total: 0, changed: 0, check };
    for (path, file) in paths.iter().zip(&mut files) {
        let mut file_changed = 0;
        for case in &mut file.cases {
            recorded.total += 1;
            let at = format!("{}:{}: {}", path.display(), case.line, case.name);
            let outcome = outcomes.next().ok_or_else(|| fail(format!("{at}: Puppet gave no outcome")))?;
            let expected = expect(&at, outcome);
            if expected != case.expected {
                file_changed += 1;
                if check {
                    eprintln!("{at}\n  recorded: {:?}\n  puppet:   {:?}", case.expected, expected);
                }
                case.expected = expected;
            }
        }
        recorded.changed += file_changed;
        if !check && file_changed > 0 {
            std::fs::write(path, render(file)).map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
        }
        println!("{}: {} cases, {file_changed} {}", path.display(), file.cases.len(), recorded.verb());
    }
    Ok(recorded)
}
