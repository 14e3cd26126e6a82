//! Compares `poppet parser validate|dump` with `puppet parser validate|dump`, byte for byte
//! (standard error, standard output, exit status), over the manifests of a corpus and over
//! mutants of them that Puppet refuses: `validate`, `dump` (its default, deprecated `old`
//! format), `dump --format pn`, and `dump --format json --pretty --validate`.
//!
//! ```sh
//! cargo build --release -p poppet
//! cargo xtask check parser-cli /tmp/puppet-corpus/pp-files.txt
//! ```
//!
//! Then the commands' edges, on fixtures written beside the mutants (see [`FIXTURES`] and
//! [`INVOCATIONS`]): manifest directories, missing files, symbolic link loops, standard input,
//! byte order marks and invalid UTF-8, Ruby's exceptions in Puppet's lexer, metaparameters as
//! parameters, defined types redefined across files, colours.
//!
//! Both commands get the same batches of files (so the order of what they print is checked
//! too). The mutants are written to a temporary directory, three of each tenth manifest: cut
//! at two thirds of its text (syntax errors, mostly at the end of input), an assignment to
//! `$0` in front (one validation error), and assignments to `$0` and `$1` (several: each
//! logged, then counted). Exits 1 on any difference.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const BATCH: usize = 100;
const SHOWN: usize = 10;

/// The fixtures' files: name and text.
const FIXTURES: &[(&str, &[u8])] = &[
    ("ok.pp", b"notice(1)\n"),
    ("bad.pp", b"notice(1\n"),
    ("two.pp", b"$0 = 1\n$1 = 2\n"),
    ("warn.pp", b"$x = {a => 1, a => 2}\n"),
    ("one.pp", b"class a { class b {} }\nif true { class c {} }\n"),
    ("syn.pp", b"notice(1 +)\n"),
    ("empty.pp", b""),
    ("bom.pp", b"\xef\xbb\xbfnotice(1)\n"),
    ("invalid.pp", b"notice(\"\xff\")\n"),
    ("crash.pp", b"class a inherits ::apache::"),
    ("heredoc.pp", b"$x = @(\"END\")\n  ${\"a}\n  END\n"),
    ("meta1.pp", b"define foo($tag) {}\n"),
    ("meta2.pp", b"class bar($tag = 1, $noop = 2) {}\ndefine baz($tag = 1) {}\nclass q { define w($alias = 1) {} }\n"),
    ("meta3.pp", b"define baz($tag = 1) {}\n"),
    ("dir/b.pp", b"if {\n"),
    ("dir/x/y.pp", b"$0 = 1\n"),
    ("dir/z.pp", b"notice(2)\n"),
    ("dir/notes.txt", b"if {\n"),
    ("good/a.pp", b"notice(1)\n"),
    ("good/sub/b.pp", b"$x = {a => 1, a => 2}\n"),
];

/// The commands run in the fixtures' directory: arguments, and the fixture on standard
/// input (else none).
const INVOCATIONS: &[(&[&str], Option<&str>)] = &[
    (&["validate", "ok.pp", "bad.pp", "two.pp", "warn.pp", "one.pp", "syn.pp", "empty.pp"], None),
    (&["validate", "--color", "false", "ok.pp", "bad.pp", "two.pp", "warn.pp"], None),
    (&["validate", "--color=false", "bom.pp", "ok.pp"], None),
    (&["validate", "--color=false", "invalid.pp", "two.pp"], None),
    (&["validate", "--color=false", "crash.pp", "two.pp"], None),
    (&["validate", "--color=false", "heredoc.pp"], None),
    (&["validate", "--color=false", "two.pp", "nothere.pp", "ok.pp"], None),
    (&["validate", "--color=false", "loop1"], None),
    (&["validate", "--color=false", "dir", "good"], None),
    (&["validate", "--color=false", "."], None),
    (&["validate", "--color=false", "meta1.pp", "ok.pp"], None),
    (&["validate", "--color=false", "meta2.pp", "meta2.pp", "meta3.pp"], None),
    (&["validate", "--color=false"], Some("two.pp")),
    (&["validate"], Some("bad.pp")),
    (&["dump", "--color=false", "--format", "pn", "ok.pp", "warn.pp", "bad.pp", "nothere.pp"], None),
    (&["dump", "--format", "pn", "--pretty", "--validate", "two.pp", "warn.pp", "one.pp", "ok.pp"], None),
    (&["dump", "--format", "json", "--pretty", "warn.pp", "ok.pp"], None),
    (&["dump", "--format", "json", "-e", "notice(\"a\\tb\", [], {})"], None),
    (&["dump", "--color=false", "--validate", "--format", "pn", "-e", "$0 = 1"], None),
    (&["dump", "--color=false", "--format", "pn", "bom.pp", "invalid.pp", "ok.pp"], None),
    (&["dump", "--color=false", "--format", "pn", "crash.pp"], None),
    (&["dump", "--color=false", "--format", "pn", "--validate"], Some("two.pp")),
    // the old format, Puppet's default: a line break after each dump, none added after them
    (&["dump", "--color=false", "ok.pp", "warn.pp", "bad.pp", "nothere.pp"], None),
    (&["dump", "--color=false", "ok.pp", "one.pp", "empty.pp"], None),
    (&["dump", "--color=false", "bad.pp"], None),
    (&["dump", "--color=false", "nothere.pp"], None),
    (&["dump", "--color=false", "--format", "old", "--pretty", "--validate", "two.pp", "warn.pp", "one.pp"], None),
    (&["dump", "-e", "if $a { 1 }\nnotice(!if $b { 2 })\n$x = @(END)\n  a\n   b\n  END\n"], None),
    (&["dump", "--color=false", "-e", "notice(1 +)"], None),
    (&["dump", "-e", ""], None),
    (&["dump", "--color=false"], Some("one.pp")),
    (&["dump", "--color=false"], Some("syn.pp")),
    (&["dump", "--color=false", "bom.pp", "invalid.pp", "ok.pp"], None),
    (&["dump", "--color=false", "crash.pp"], None),
];

pub fn main(args: Vec<String>) -> ExitCode {
    let Some(list) = args.first() else {
        eprintln!("usage: parser-cli PP-FILES.txt");
        return ExitCode::from(2);
    };
    let files: Vec<String> = match std::fs::read_to_string(list) {
        Ok(text) => text.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect(),
        Err(e) => {
            eprintln!("cannot read {list}: {e}");
            return ExitCode::from(2);
        }
    };
    let poppet = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/poppet");
    if !poppet.is_file() {
        eprintln!("{} is not built: run `cargo build --release -p poppet`", poppet.display());
        return ExitCode::from(2);
    }
    let mutants_dir = std::env::temp_dir().join(format!("poppet-parser-cli-{}", std::process::id()));
    let mutants = match write_mutants(&files, &mutants_dir) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("cannot write the mutants: {e}");
            return ExitCode::from(2);
        }
    };
    let mut differences = Vec::new();
    let mut batches = 0;
    let mut failing = 0;
    let commands: [&[&str]; 4] = [
        &["parser", "validate", "--color", "false"],
        &["parser", "dump", "--color", "false"],
        &["parser", "dump", "--color", "false", "--format", "pn"],
        &["parser", "dump", "--color", "false", "--format", "json", "--pretty", "--validate"],
    ];
    for command in commands {
        for (what, list) in [("corpus", &files), ("mutants", &mutants)] {
            for batch in list.chunks(BATCH) {
                batches += 1;
                let puppet = run(Command::new("puppet").args(command), batch);
                let ours = run(Command::new(&poppet).args(command), batch);
                match (puppet, ours) {
                    (Ok(p), Ok(o)) => {
                        failing += usize::from(p.0 != 0);
                        if p != o {
                            let (theirs, mine) = first_difference(&p.1, &o.1);
                            differences.push(format!(
                                "{} of a {what} batch from {}:\n  puppet (exit {}):\n{theirs}\n  poppet (exit {}):\n{mine}",
                                command[..2].join(" "),
                                batch[0],
                                p.0,
                                o.0,
                            ));
                        }
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        eprintln!("{e}");
                        let _ = std::fs::remove_dir_all(&mutants_dir);
                        return ExitCode::from(2);
                    }
                }
            }
        }
    }
    let fixtures = mutants_dir.join("fixtures");
    let edges = match write_fixtures(&fixtures) {
        Ok(()) => compare_edges(&poppet, &fixtures, &mut differences),
        Err(e) => {
            eprintln!("cannot write the fixtures: {e}");
            let _ = std::fs::remove_dir_all(&mutants_dir);
            return ExitCode::from(2);
        }
    };
    let _ = std::fs::remove_dir_all(&mutants_dir);
    println!("parser-cli: {edges} invocations on fixtures");
    println!(
        "parser-cli: {} manifests and {} mutants, validated and dumped, in {batches} batches ({failing} failing in Puppet), and the fixtures: {} differ",
        files.len(),
        mutants.len(),
        differences.len()
    );
    for d in differences.iter().take(SHOWN) {
        println!("{d}");
    }
    if differences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Writes fixture files (name, text) under `dir`.
pub(crate) fn write_files(dir: &Path, files: &[(&str, &[u8])]) -> std::io::Result<()> {
    for (name, text) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, text)?;
    }
    Ok(())
}

/// The first two thirds of a text (cut at a character boundary).
pub(crate) fn two_thirds(text: &str) -> &str {
    let mut cut = text.len() * 2 / 3;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}

fn write_fixtures(dir: &Path) -> std::io::Result<()> {
    write_files(dir, FIXTURES)?;
    // a loop of symbolic links, which does not exist to Puppet
    std::os::unix::fs::symlink("loop2", dir.join("loop1"))?;
    std::os::unix::fs::symlink("loop1", dir.join("loop2"))
}

/// Runs [`INVOCATIONS`] with both commands; how many ran.
fn compare_edges(poppet: &Path, dir: &Path, differences: &mut Vec<String>) -> usize {
    for (args, stdin) in INVOCATIONS {
        let input = || match stdin {
            Some(name) => std::fs::File::open(dir.join(name)).map_or(std::process::Stdio::null(), Into::into),
            None => std::process::Stdio::null(),
        };
        let mut theirs = Command::new("puppet");
        theirs.arg("parser").args(*args).current_dir(dir).stdin(input());
        let mut ours = Command::new(poppet);
        ours.arg("parser").args(*args).current_dir(dir).stdin(input());
        match (run(&mut theirs, &[]), run(&mut ours, &[])) {
            (Ok(p), Ok(o)) if p == o => {}
            (Ok(p), Ok(o)) => {
                let (theirs, mine) = first_difference(&p.1, &o.1);
                differences.push(format!(
                    "parser {} (stdin {stdin:?}):\n  puppet (exit {}):\n{theirs}\n  poppet (exit {}):\n{mine}",
                    args.join(" "),
                    p.0,
                    o.0
                ));
            }
            (Err(e), _) | (_, Err(e)) => differences.push(e),
        }
    }
    INVOCATIONS.len()
}

/// The exit status and everything printed (standard error, then standard output).
pub(crate) fn run(command: &mut Command, files: &[String]) -> Result<(i32, String), String> {
    let output = command.args(files).output().map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let text = format!("{}{}", String::from_utf8_lossy(&output.stderr), String::from_utf8_lossy(&output.stdout));
    Ok((output.status.code().unwrap_or(-1), text))
}

/// The first line where the outputs differ, with the line before it, on each side.
pub(crate) fn first_difference(a: &str, b: &str) -> (String, String) {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let at = la.iter().zip(&lb).position(|(x, y)| x != y).unwrap_or(la.len().min(lb.len()));
    let around = |lines: &[&str]| {
        lines[at.saturating_sub(1)..(at + 1).min(lines.len())]
            .iter()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    (around(&la), around(&lb))
}

/// Three mutants of every tenth manifest, written under `dir`.
fn write_mutants(files: &[String], dir: &Path) -> std::io::Result<Vec<String>> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for (i, file) in files.iter().enumerate().filter(|(i, _)| i % 10 == 0) {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let versions = [two_thirds(&text).to_string(), format!("$0 = 1\n{text}"), format!("$0 = 1\n{text}\n$1 = 2\n")];
        for (k, version) in versions.iter().enumerate() {
            let path: PathBuf = dir.join(format!("m{i}_{k}.pp"));
            std::fs::write(&path, version)?;
            out.push(path.display().to_string());
        }
    }
    Ok(out)
}
