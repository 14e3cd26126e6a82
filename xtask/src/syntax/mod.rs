//! Tools for puppet-syntax: the recorders of its golden suites (PN, validation, the lexer's
//! cases), its checks against Puppet over the corpus, and its fuzzers.

pub mod epp_cli;
pub mod lexer;
pub mod lower_fuzz;
pub mod parser_cli;
pub mod pn_corpus;
pub mod record_pn;
pub mod record_validate;
pub mod syntax_mutants;
pub mod validate_corpus;
pub mod validate_mutants;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// Puppet's diagnostics for `files` (`puppet parser validate`, run in `dir` when given), as
/// `error: MESSAGE (line: N, column: M)` lines, under `key` of the file Puppet names. Something
/// printed without a file (a loader's warning, a stop) splits the batch until the file it
/// belongs to is alone.
pub fn puppet_validate(
    dir: Option<&Path>,
    files: &[String],
    key: &dyn Fn(&str) -> String,
    out: &mut HashMap<String, Vec<String>>,
) -> Result<(), String> {
    let mut command = Command::new("puppet");
    command.args(["parser", "validate", "--color", "false"]).args(files);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let output = command.output().map_err(|e| format!("cannot run puppet: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut found: HashMap<String, Vec<String>> = HashMap::new();
    let mut stray = Vec::new();
    for line in stderr.lines() {
        let Some((level, rest)) = line.split_once(": ") else {
            continue;
        };
        let kind = match level {
            "Error" => "error",
            "Warning" => "warning",
            _ => continue,
        };
        let rest = rest.strip_prefix("Could not parse for environment production: ").unwrap_or(rest);
        let Some(open) = rest.rfind(" (file: ").filter(|_| rest.ends_with(')')) else {
            if !rest.starts_with("Language validation logged") {
                stray.push(format!("{kind}: {rest}"));
            }
            continue;
        };
        let inside = &rest[open + " (file: ".len()..rest.len() - 1];
        let (file, position) = inside.split_once(", ").unwrap_or((inside, ""));
        let message = &rest[..open];
        let rendered =
            if position.is_empty() { format!("{kind}: {message}") } else { format!("{kind}: {message} ({position})") };
        found.entry(key(file)).or_default().push(rendered);
    }
    if !stray.is_empty() && files.len() > 1 {
        let (a, b) = files.split_at(files.len() / 2);
        puppet_validate(dir, a, key, out)?;
        return puppet_validate(dir, b, key, out);
    }
    if !stray.is_empty() {
        found.entry(files[0].clone()).or_default().extend(stray);
    }
    out.extend(found);
    Ok(())
}
