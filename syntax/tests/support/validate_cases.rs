//! The validation case files (`tests/validate/*.txt`): read by the test (`tests/validate.rs`)
//! and rewritten by the recorder (`examples/record_validate.rs`).
//!
//! ```text
//! # header: comment lines saying what the file covers and how it was recorded
//! === name
//! the Puppet source, one or more lines
//! ---
//! error: MESSAGE (line: N, column: M)
//! warning: MESSAGE (line: N, column: M)
//! ```
//!
//! The same layout as the PN suite's: the source is its lines, each ending in a line feed;
//! bytes that editors or Git would not keep are spelled with control pictures (`␍` a carriage
//! return, `␉` a tab, `␠` a space, `␄` ending the last line: no final line feed). The
//! expectations are the non-blank lines from the line after `---` to the next `=== ` line:
//! Puppet's diagnostics, one a line, `error:` or `warning:` then Puppet's message and
//! position; `syntax-error:` for a source Puppet rejects when parsing, before validation.

#![allow(dead_code)]

pub struct Case {
    pub name: String,
    /// The source lines as written in the file (control pictures not decoded).
    pub lines: Vec<String>,
    pub expected: Vec<String>,
    /// The 1-based line of the case's `=== ` line.
    pub line: usize,
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
}

pub struct File {
    /// The lines before the first case.
    pub header: Vec<String>,
    pub cases: Vec<Case>,
}

pub fn parse(text: &str) -> Result<File, String> {
    let mut header = Vec::new();
    let mut cases: Vec<Case> = Vec::new();
    let mut in_source = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(name) = line.strip_prefix("=== ") {
            if in_source {
                let case = cases.last().expect("a case");
                return Err(format!("line {}: case {:?} has no '---' line", case.line, case.name));
            }
            cases.push(Case { name: name.trim().to_string(), lines: Vec::new(), expected: Vec::new(), line: i + 1 });
            in_source = true;
        } else if cases.is_empty() {
            header.push(line.to_string());
        } else if in_source {
            if line == "---" {
                in_source = false;
            } else {
                cases.last_mut().expect("a case").lines.push(line.to_string());
            }
        } else if !line.trim().is_empty() {
            cases.last_mut().expect("a case").expected.push(line.to_string());
        }
    }
    if in_source {
        let case = cases.last().expect("a case");
        return Err(format!("line {}: case {:?} has no '---' line", case.line, case.name));
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
        for e in &case.expected {
            out.push_str(e);
            out.push('\n');
        }
    }
    out
}

/// The `(line, column)` an expectation ends with; `(0, 0)` when it has none.
pub fn position(expectation: &str) -> (u32, u32) {
    let Some(open) = expectation.rfind(" (line: ") else { return (0, 0) };
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
