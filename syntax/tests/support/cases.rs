//! The golden case files (`tests/pn/*.txt`): read by the test (`tests/pn.rs`) and rewritten
//! by the recorder (`examples/record_pn.rs`).
//!
//! ```text
//! # header: comment lines saying what the file covers and how it was recorded
//! === name
//! the Puppet source, one or more lines
//! ---
//! the expected text (Puppet's PN)
//! ```
//!
//! The source is its lines, each ending in a line feed. Bytes that editors or Git would not
//! keep are spelled with control pictures: `␍` is a carriage return, `␉` a tab, `␠` a space,
//! and `␄` ending the last line means the source has no final line feed. The expected text
//! runs from the line after `---` to the next `=== ` line, without its trailing blank lines.

#![allow(dead_code)]

pub struct Case {
    pub name: String,
    /// The source lines as written in the file (control pictures not decoded).
    pub lines: Vec<String>,
    pub expected: String,
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
    let mut expected: Vec<&str> = Vec::new();
    let finish = |cases: &mut Vec<Case>, expected: &mut Vec<&str>| {
        while expected.last().is_some_and(|l| l.trim().is_empty()) {
            expected.pop();
        }
        if let Some(case) = cases.last_mut() {
            case.expected = expected.join("\n");
        }
        expected.clear();
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(name) = line.strip_prefix("=== ") {
            if in_source {
                let case = cases.last().expect("a case");
                return Err(format!("line {}: case {:?} has no '---' line", case.line, case.name));
            }
            finish(&mut cases, &mut expected);
            cases.push(Case { name: name.trim().to_string(), lines: Vec::new(), expected: String::new(), line: i + 1 });
            in_source = true;
        } else if cases.is_empty() {
            header.push(line.to_string());
        } else if in_source {
            if line == "---" {
                in_source = false;
            } else {
                cases.last_mut().expect("a case").lines.push(line.to_string());
            }
        } else {
            expected.push(line);
        }
    }
    if in_source {
        let case = cases.last().expect("a case");
        return Err(format!("line {}: case {:?} has no '---' line", case.line, case.name));
    }
    finish(&mut cases, &mut expected);
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
        if !case.expected.is_empty() {
            out.push_str(&case.expected);
            out.push('\n');
        }
    }
    out
}
