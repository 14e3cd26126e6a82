//! Golden tables (`types/tests/golden/*.txt`, `fmt/tests/golden/*.txt`): their format, the
//! tests' loop over them ([`check_tables`]) and what the recorder (`cargo xtask record types`)
//! reads and writes.
//!
//! ```text
//! # comment lines: what the file covers, how it was recorded
//! Integer[1,10] > Integer[2,3]
//! => true
//! Integer['a']
//! !! Evaluation Error: Integer-Type [] requires all arguments to be integers (or default). Got String
//! ```
//!
//! A case is one line of Puppet (an expression), followed by its expectation: `=> ` and
//! what `notice(EXPRESSION)` logs, or `!! ` and the error Puppet 7.23 reports (its message
//! without location). A line feed in either is written `␤`. A case without an expectation
//! line is not recorded yet: the recorder fills it in, the test fails on it. Blank lines and
//! lines starting with `#` are ignored.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::ratchet::Ratchet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Notice(String),
    Error(String),
    Unrecorded,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub code: String,
    pub expect: Expect,
    /// 1-based line of the code in its file.
    pub line: usize,
}

/// A file's cases and, for the recorder, its lines with each case's place.
pub struct Table {
    /// Comment and blank lines before each case (kept by the recorder), and after the last.
    pub preludes: Vec<Vec<String>>,
    pub cases: Vec<Case>,
}

pub fn decode(s: &str) -> String {
    s.replace('\u{2424}', "\n")
}

pub fn encode(s: &str) -> String {
    s.replace('\n', "\u{2424}")
}

pub fn parse(text: &str) -> Table {
    let mut preludes = vec![Vec::new()];
    let mut cases: Vec<Case> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("=> ") {
            if let Some(c) = cases.last_mut() {
                c.expect = Expect::Notice(decode(rest));
            }
        } else if line == "=>" {
            if let Some(c) = cases.last_mut() {
                c.expect = Expect::Notice(String::new());
            }
        } else if let Some(rest) = line.strip_prefix("!! ") {
            if let Some(c) = cases.last_mut() {
                c.expect = Expect::Error(decode(rest));
            }
        } else if line.trim().is_empty() || line.starts_with('#') {
            if let Some(p) = preludes.last_mut() {
                p.push(line.to_owned());
            }
        } else {
            cases.push(Case { code: line.to_owned(), expect: Expect::Unrecorded, line: i + 1 });
            preludes.push(Vec::new());
        }
    }
    Table { preludes, cases }
}

pub fn render(table: &Table) -> String {
    let mut out = String::new();
    for (i, prelude) in table.preludes.iter().enumerate() {
        for l in prelude {
            let _ = writeln!(out, "{l}");
        }
        if let Some(c) = table.cases.get(i) {
            let _ = writeln!(out, "{}", c.code);
            match &c.expect {
                Expect::Notice(n) if n.is_empty() => out.push_str("=>\n"),
                Expect::Notice(n) => {
                    let _ = writeln!(out, "=> {}", encode(n));
                }
                Expect::Error(e) => {
                    let _ = writeln!(out, "!! {}", encode(e));
                }
                Expect::Unrecorded => {}
            }
        }
    }
    out
}

pub fn read(path: &Path) -> Table {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&text)
}

/// The golden files of `dir` (a crate's `tests/golden`), sorted.
pub fn files(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir.as_ref())
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    files
}

/// Runs every golden table of `dir` (a crate's `tests/golden`) through `run` (the crate's
/// computation of a line: its notice or its error message) and fails on disagreements with
/// Puppet, as the module documentation of the tests says (`GOLDEN`, `GOLDEN_SHOW`,
/// `GOLDEN_TODO=write`, `DIR/disagree.todo`, a [`Ratchet`] of `FILE: CODE` keys). `package`
/// names the crate in the todo file's header.
pub fn check_tables(dir: impl AsRef<Path>, package: &str, run: fn(&str) -> Result<String, String>) {
    let dir = dir.as_ref();
    let only = std::env::var("GOLDEN").ok();
    let show: usize = std::env::var("GOLDEN_SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let todo = Ratchet::read(dir.join("disagree.todo"));
    let mut ran: Vec<(String, bool)> = Vec::new();
    let mut disagree: Vec<String> = Vec::new();
    let (mut total, mut failed, mut unrecorded, mut fixed) = (0, 0, 0, 0);
    let mut summary = String::new();
    for path in files(dir) {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        let table = read(&path);
        let mut file_failed = 0;
        for case in &table.cases {
            total += 1;
            let expected = match &case.expect {
                Expect::Notice(n) => Ok(n.clone()),
                Expect::Error(e) => Err(e.clone()),
                Expect::Unrecorded => {
                    unrecorded += 1;
                    continue;
                }
            };
            let code = case.code.clone();
            let got = std::panic::catch_unwind(move || run(&code)).unwrap_or_else(|_| Err("PANIC".into()));
            let key = format!("{name}: {}", case.code);
            let known = todo.contains(&key);
            ran.push((key.clone(), got == expected));
            if got != expected {
                disagree.push(key);
                if known {
                    continue;
                }
                file_failed += 1;
                if file_failed <= show {
                    eprintln!("{name}:{}: {}\n  expected {:?}\n  got      {:?}", case.line, case.code, expected, got);
                }
            } else if known {
                fixed += 1;
                eprintln!("{name}:{}: {} agrees with Puppet now: remove it from disagree.todo", case.line, case.code);
            }
        }
        failed += file_failed;
        summary.push_str(&format!("  {name}: {} cases, {file_failed} failed\n", table.cases.len()));
    }
    if only.is_none() && std::env::var("GOLDEN_TODO").as_deref() == Ok("write") {
        let header = format!(
            "# Golden cases that disagree with Puppet 7.23: open work, fix and remove.\n\
             # Rewritten by `GOLDEN_TODO=write cargo test -p {package} --test golden`.\n"
        );
        let _ = todo.write(&header, &disagree);
        return;
    }
    // Listed cases that no golden file holds any more.
    let verdict = todo.judge(ran.iter().map(|(k, agrees)| (k.as_str(), *agrees)), only.is_none());
    for key in &verdict.stale {
        eprintln!("{key}: no such golden case: remove it from disagree.todo");
    }
    let stale = verdict.stale.len();
    eprintln!(
        "golden tables:\n{summary}total {total}, failed {failed} (besides {} known in disagree.todo), \
         unrecorded {unrecorded}, fixed {fixed}",
        todo.len()
    );
    assert_eq!((failed, unrecorded, fixed, stale), (0, 0, 0, 0), "golden cases disagree with Puppet 7.23");
}
