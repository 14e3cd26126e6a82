//! Compares `poppet parser validate|dump` with `puppet parser validate|dump`, byte for byte
//! (standard error, standard output, exit status), over the manifests of a corpus and over
//! mutants of them that Puppet refuses: `validate`, `validate --render-as json` (the
//! mutants only: its issue codes, messages and places), `dump` (its default, deprecated `old`
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
//! parameters, defined types redefined across files, colours, the errors that are none of
//! Puppet's issues, `--render-as` (`json`, `pson`, `flat`, `s`, unknown formats), `--strict`
//! and `--tasks`.
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
    ("dup.pp", b"$x = {a => 1, a => 2, b => 1, b => 2}\n"),
    ("dup1.pp", b"$x = {\"\xc3\xa9/\\t\\u0001\\\"\" => 1, \"\xc3\xa9/\\t\\u0001\\\"\" => 2}\n$y = \"\\q\"\n"),
    (
        "tasks.pp",
        b"File <| |>\nFile <<| |>>\nnode a {}\nFile['a'] -> File['b']\nFile { mode => 1 }\nFile['a'] { mode => 1 }\ndefine d() {}\n@file { 'x': }\nif true { class c {} }\nfoo { mode => 1 }\n",
    ),
    ("class.pp", b"class a {}\n"),
    ("comma.pp", b"notice(1), 2\n"),
    ("virtual.pp", b"@if true {}\n"),
    ("regexp.pp", b"$x = /(/\n"),
    ("heredoc_epp.pp", b"$x = @(END:text+epp)\n  <%= 1 + %>\n  | END\n"),
    ("heredoc_json.pp", b"$x = @(END:json)\n  {\"a\": }\n  | END\n"),
    ("tasks_words.pp", b"$x = { plan => 1, apply => 2 }\nnotice(plan::foo, Plan)\n$plan = 1\nFile['a'] { plan => 1 }\n"),
    ("plan_call.pp", b"notice(plan)\n"),
    ("plan_interp.pp", b"notice(\"${plan}\")\n"),
    ("apply_call.pp", b"apply(1)\n"),
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
    // the parser's own errors, and a heredoc checker's ArgumentError, end the run
    (&["validate", "--color=false", "comma.pp", "ok.pp", "virtual.pp"], None),
    (&["validate", "--color=false", "regexp.pp", "ok.pp"], None),
    (&["validate", "--color=false", "heredoc_epp.pp", "ok.pp"], None),
    (&["validate", "--color=false", "one.pp", "./one.pp", "one.pp"], None),
    // --render-as: the action's JSON (issue codes), and Puppet's other renderings
    (&["validate", "--color=false", "--render-as", "json", "ok.pp", "bad.pp", "two.pp", "warn.pp", "one.pp"], None),
    (&["validate", "--render-as", "json", "syn.pp", "empty.pp", "bom.pp", "ok.pp", "bad.pp", "./bad.pp"], None),
    (&["validate", "--color=false", "--render-as", "json", "heredoc_json.pp", "heredoc.pp"], None),
    (&["validate", "--color=false", "--render-as", "json", "heredoc_json.pp", "comma.pp"], None),
    (&["validate", "--color=false", "--render-as", "json", "meta1.pp", "ok.pp"], None),
    (&["validate", "--color=false", "--render-as", "json", "meta2.pp", "two.pp"], None),
    (&["validate", "--color=false", "--render-as", "json", "invalid.pp", "two.pp"], None),
    (&["validate", "--color=false", "--render-as", "json", "two.pp", "nothere.pp"], None),
    (&["validate", "--color=false", "--render-as", "json", "dir", "good"], None),
    (&["validate", "--color=false", "--render-as", "json", "ok.pp", "warn.pp", "good"], None),
    (&["validate", "--color=false", "--render-as", "json"], Some("two.pp")),
    (&["validate", "--color=false", "--render-as=json"], Some("bad.pp")),
    (&["validate", "--color=false", "--render-as", "JSON", "one.pp", "crash.pp"], None),
    (&["validate", "--color=false", "--render-as", "pson", "ok.pp", "bad.pp", "two.pp", "bom.pp", "meta1.pp"], None),
    (&["validate", "--color=false", "--render-as", "pson", "ok.pp"], None),
    (&["validate", "--color=false", "--render-as", "rich_data_json", "bad.pp", "two.pp"], None),
    (&["validate", "--color=false", "--render-as", "flat", "ok.pp", "bad.pp", "two.pp", "meta1.pp"], None),
    (&["validate", "--color=false", "--render-as", "flat", "ok.pp"], None),
    (&["validate", "--color=false", "--render-as", "s", "ok.pp", "bad.pp", "two.pp", "meta1.pp"], None),
    (&["validate", "--color=false", "--render-as", "s", "warn.pp"], None),
    (&["validate", "--color=false", "--render-as", "console", "ok.pp", "bad.pp", "two.pp"], None),
    (&["validate", "--color=false", "--render-as", "pson"], Some("bad.pp")),
    (&["validate", "--color=false", "--render-as", "xyz", "ok.pp"], None),
    (&["validate", "--render-as", "", "ok.pp"], None),
    // --strict: what a duplicate key is
    (&["validate", "--color=false", "--strict", "off", "warn.pp", "dup.pp", "dup1.pp", "two.pp"], None),
    (&["validate", "--color=false", "--strict", "warning", "warn.pp", "dup.pp", "dup1.pp"], None),
    (&["validate", "--color=false", "--strict=error", "warn.pp", "dup.pp", "dup1.pp", "ok.pp"], None),
    (&["validate", "--color=false", "--strict", "error", "--render-as", "json", "warn.pp", "dup.pp", "dup1.pp"], None),
    (&["validate", "--color=false", "--strict", "error", "--render-as", "pson", "dup1.pp"], None),
    (&["validate", "--color=false", "--strict", "error", "--render-as", "s", "dup1.pp"], None),
    (&["validate", "--color=false", "--strict", "error", "good"], None),
    (&["validate", "--color=false", "--strict", "bogus", "ok.pp"], None),
    // --tasks: what only a catalog has is refused
    (&["validate", "--color=false", "--tasks", "tasks.pp", "class.pp", "ok.pp", "warn.pp", "two.pp"], None),
    (&["validate", "--color=false", "--tasks", "--render-as", "json", "tasks.pp", "class.pp", "bad.pp"], None),
    (&["validate", "--color=false", "--tasks", "--strict", "error", "dup.pp", "meta2.pp", "one.pp"], None),
    (&["validate", "--color=false", "--tasks"], Some("tasks.pp")),
    // `plan` and `apply` are keywords in tasks mode
    (
        &["validate", "--color=false", "--tasks", "tasks_words.pp", "plan_call.pp", "plan_interp.pp", "apply_call.pp"],
        None,
    ),
    (&["validate", "--color=false", "tasks_words.pp", "plan_call.pp", "plan_interp.pp", "apply_call.pp"], None),
    (&["validate", "--color=false", "--tasks", "--render-as", "json", "plan_interp.pp", "apply_call.pp"], None),
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
    // the release build of the workspace's target directory (`CARGO_TARGET_DIR` if set)
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"), PathBuf::from);
    let poppet = target.join("release/poppet");
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
    // each command, over the corpus and the mutants (`--render-as json` over the mutants
    // only: the corpus is valid, and prints nothing)
    let commands: [(&[&str], bool); 5] = [
        (&["parser", "validate", "--color", "false"], true),
        (&["parser", "validate", "--color", "false", "--render-as", "json"], false),
        (&["parser", "dump", "--color", "false"], true),
        (&["parser", "dump", "--color", "false", "--format", "pn"], true),
        (&["parser", "dump", "--color", "false", "--format", "json", "--pretty", "--validate"], true),
    ];
    for (command, corpus) in commands {
        let lists = [("corpus", &files), ("mutants", &mutants)];
        for (what, list) in lists.into_iter().filter(|(what, _)| corpus || *what == "mutants") {
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
                                command.join(" "),
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
