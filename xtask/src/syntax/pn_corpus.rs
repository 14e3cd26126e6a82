//! Compares our PN with Puppet's for every manifest of a corpus.
//!
//! ```sh
//! cargo xtask check pn-corpus /tmp/puppet-corpus/pp-files.txt
//! ```
//!
//! Runs `puppet parser dump --format pn` on the files in batches, prints `N/M identical` and
//! the first differences, and exits 1 unless every file's PN is identical.

use std::process::{Command, ExitCode};

const BATCH: usize = 200;
const SHOWN: usize = 10;

/// Puppet's PN per file of `files`, from its concatenated `--- FILE(…)` output.
fn puppet_pn(files: &[String]) -> Result<Vec<Option<String>>, String> {
    let mut result = Vec::with_capacity(files.len());
    for batch in files.chunks(BATCH) {
        let output = Command::new("puppet")
            .args(["parser", "dump", "--format", "pn"])
            .args(batch)
            .output()
            .map_err(|e| format!("cannot run puppet: {e}"))?;
        let text = String::from_utf8_lossy(&output.stdout);
        // Each file's PN runs from its marker to the next file's marker.
        let mut starts = Vec::new();
        let mut from = 0;
        for file in batch {
            let marker = format!("--- {file}");
            match text[from..].find(&marker) {
                Some(i) => {
                    starts.push(Some((from + i, from + i + marker.len())));
                    from += i + marker.len();
                }
                None => starts.push(None),
            }
        }
        for (k, start) in starts.iter().enumerate() {
            let Some((_, body)) = start else {
                result.push(None);
                continue;
            };
            let end = starts[k + 1..].iter().flatten().next().map_or(text.len(), |(s, _)| *s);
            result.push(Some(text[*body..end].trim_end_matches('\n').to_string()));
        }
    }
    Ok(result)
}

fn ours(file: &str) -> Result<String, String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let source = String::from_utf8_lossy(&bytes);
    match puppet_syntax::parse(&source) {
        Ok(program) => Ok(puppet_syntax::pn::program(&program).to_text()),
        Err(diagnostics) => Err(diagnostics.first().map_or_else(String::new, |d| d.to_string())),
    }
}

/// The two texts around their first difference.
fn first_difference(a: &str, b: &str) -> (String, String) {
    let i = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let around = |s: &str| {
        let mut start = i.saturating_sub(60);
        while !s.is_char_boundary(start) {
            start -= 1;
        }
        s[start..].chars().take(140).collect::<String>()
    };
    (around(a), around(b))
}

pub fn main(args: Vec<String>) -> ExitCode {
    let Some(list) = args.into_iter().next() else {
        eprintln!("usage: pn_corpus FILE-LIST");
        return ExitCode::from(2);
    };
    let files: Vec<String> = match std::fs::read_to_string(&list) {
        Ok(text) => text.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect(),
        Err(e) => {
            eprintln!("cannot read {list}: {e}");
            return ExitCode::from(2);
        }
    };
    let expected = match puppet_pn(&files) {
        Ok(pn) => pn,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut identical = 0;
    let mut differences = Vec::new();
    for (file, expected) in files.iter().zip(&expected) {
        let actual = ours(file);
        match (expected, &actual) {
            (Some(e), Ok(a)) if e == a => identical += 1,
            (Some(e), Ok(a)) => {
                let (e, a) = first_difference(e, a);
                differences.push(format!("{file}\n    puppet: {e}\n    ours:   {a}"));
            }
            (Some(_), Err(error)) => differences.push(format!("{file}\n    ours: {error}")),
            (None, Ok(_)) => differences.push(format!("{file}\n    puppet printed no PN")),
            // Both reject the file: not counted as identical, nothing to compare.
            (None, Err(error)) => differences.push(format!("{file}\n    both fail; ours: {error}")),
        }
    }
    println!("{identical}/{} identical", files.len());
    for difference in differences.iter().take(SHOWN) {
        println!("  {difference}");
    }
    if differences.len() > SHOWN {
        println!("  … and {} more", differences.len() - SHOWN);
    }
    if differences.is_empty() && !files.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
