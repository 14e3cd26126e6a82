//! Tools for the lexer's tests (`syntax/tests/lexer/`):
//!
//! ```text
//! cargo xtask record lexer syntax/tests/lexer/cases.txt
//! cargo xtask dump tokens FILE...
//! ```
//!
//! `record` runs `puppet parser validate` (Puppet 7.23) on every case's source and rewrites
//! the case's `out:` line with Puppet's error (prefix and file stripped), `OK`, or
//! `(no message)` when Puppet fails without one; and its `tok:` line, if any, with the token
//! kinds of Puppet's own lexer (`puppet_tokens.rb --kinds`).
//!
//! `dump` prints, for each file, one JSON line `{"file":…,"tokens":[[KIND,offset,length,value]…],
//! "error":[message,line,column]|null}` as `syntax/tests/lexer/puppet_tokens.rb` prints
//! Puppet's own lexer's tokens, to compare the two (`syntax/tests/lexer/compare.py`).

use puppet_syntax::lexer;
use std::process::Command;

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn dump(file: &str) {
    let bytes = std::fs::read(file).unwrap_or_default();
    let (tokens, error) = match lexer::check_encoding(&bytes) {
        Err(d) => (String::new(), format!("[{},null,null]", json_str(&d.message))),
        Ok(source) => {
            let lexed = lexer::lex(source);
            let tokens: Vec<String> = lexed
                .tokens
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    // Puppet measures a SUBLOCATE (the heredoc's lines) in characters
                    let len = match t.kind {
                        lexer::TokenKind::Sublocate => source.get(t.start..t.end).map_or(0, |s| s.chars().count()),
                        _ => t.end - t.start,
                    };
                    format!("[{},{},{},{}]", json_str(t.kind.name()), t.start, len, json_str(&lexed.value(source, i)))
                })
                .collect();
            let error = match &lexed.error {
                None => "null".to_string(),
                Some(d) if d.span.line == 0 => format!("[{},null,null]", json_str(&d.message)),
                Some(d) => format!("[{},{},{}]", json_str(&d.message), d.span.line, d.span.column),
            };
            (tokens.join(","), error)
        }
    };
    println!("{{\"file\":{},\"tokens\":[{}],\"error\":{}}}", json_str(file), tokens, error);
}

/// Writes a case's source to a temporary file.
fn temp_file(source: &[u8], n: usize) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("lexer-case-{}-{n}.pp", std::process::id()));
    std::fs::write(&path, source).expect("temporary file");
    path
}

/// Puppet's verdict on a source: its first `Error:` line, stripped, or `OK`.
fn puppet(source: &[u8], n: usize) -> String {
    let path = temp_file(source, n);
    let output = Command::new("puppet")
        .args(["parser", "validate", "--color=false"])
        .arg(&path)
        .output()
        .expect("puppet parser validate");
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let path = path.display().to_string();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Error: ") {
            let rest = rest.strip_prefix("Could not parse for environment production: ").unwrap_or(rest);
            return rest.replace(&format!(" (file: {path})"), "").replace(&format!("file: {path}, "), "");
        }
    }
    if !output.status.success() {
        return "(no message)".to_string();
    }
    "OK".to_string()
}

/// The kinds of the tokens Puppet's own lexer produces for a source.
fn puppet_kinds(source: &[u8], n: usize, script: &std::path::Path) -> String {
    let path = temp_file(source, n);
    let output = Command::new("ruby").arg(script).arg("--kinds").arg(&path).output().expect("ruby");
    let _ = std::fs::remove_file(&path);
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

pub fn record(cases: &str) -> Result<(), String> {
    let script = std::path::Path::new(cases).with_file_name("puppet_tokens.rb");
    let text = std::fs::read_to_string(cases).map_err(|e| format!("{cases}: {e}"))?;
    let mut out = String::new();
    let mut source: Option<Vec<u8>> = None;
    let mut n = 0;
    let mut changed = 0;
    for line in text.lines() {
        let (key, old) = line.split_once(": ").unwrap_or(("", ""));
        let new = match (key, &source) {
            ("src", _) => {
                source = Some(poppet_tests::escapes::decode(old)?);
                n += 1;
                None
            }
            ("out", Some(src)) => Some(puppet(src, n)),
            ("tok", Some(src)) => Some(puppet_kinds(src, n, &script)),
            _ => None,
        };
        match new {
            Some(new) => {
                if new != old {
                    changed += 1;
                    eprintln!("case {n} {key}: {old}\n      -> {new}");
                }
                out.push_str(&format!("{key}: {new}"));
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    std::fs::write(cases, out).map_err(|e| format!("{cases}: {e}"))?;
    eprintln!("{n} cases recorded, {changed} lines changed");
    Ok(())
}
