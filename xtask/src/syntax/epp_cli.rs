//! Compares `poppet epp validate|render|dump` with `puppet epp validate|render|dump`, byte
//! for byte (standard error, standard output, exit status): over the templates of a corpus
//! and over mutants of them that Puppet refuses, then on fixtures for the commands' edges.
//!
//! ```sh
//! cargo build --release -p poppet
//! cargo xtask check epp-cli /tmp/puppet-corpus/epp-files.txt
//! ```
//!
//! The corpus templates are validated and dumped (in the `old` format, as PN and as JSON) in
//! one batch per command, and each is rendered on its own for a real node (the facts of
//! `../shared/facts/debian12.json`'s copy, `eval/src/facts/debian12.json`) without arguments,
//! so that what a template does with no values (undef variables, missing parameters) is
//! compared too; how many rendered in Puppet is reported beside the agreement. The mutants:
//! each template cut at two thirds (an unclosed tag, mostly), with `$0` assigned in a tag in
//! front (a validation error), and with `$0` and `$1` assigned (several: each logged, then
//! counted).
//!
//! Puppet's `render` runs Facter, which here logs its own errors first (`Error: Facter: ...`,
//! with continuation lines) and leaves Ruby in another working directory: those lines are
//! dropped, and `render` is given absolute paths (see `repl/src/tools/epp.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use super::parser_cli::{first_difference, run, two_thirds, write_files};

/// How many differences are shown (`--show N` changes it).
const SHOWN: usize = 10;

/// The fixtures' files: name and text.
const FIXTURES: &[(&str, &[u8])] = &[
    ("w.epp", b"hello <%= $a %>\n"),
    ("p.epp", b"<%- |$a, $b = 2| -%>\nx <%= $a %> <%= $b %>\n"),
    ("typed.epp", b"<%- |Integer $a| -%>\n<%= $a %>\n"),
    ("bad.epp", b"x <%= $a \n"),
    ("two.epp", b"<% $0 = 1 $1 = 2 %>"),
    ("one.epp", b"<% $0 = 1 %>"),
    ("warn.epp", b"<%= {a => 1, a => 2} %>"),
    ("warntwo.epp", b"<%= {a => 1, a => 2} %>\n<% $0 = 1 $1 = 2 %>"),
    ("syntax.epp", b"<% if { %>x<% } %>"),
    (
        "params.epp",
        b"<%- |$a| -%>\n<% $xs = [1, 2] -%>\n<% $xs.each |$x| { -%>\n<%= $x %>,<% } %>\n<%# note %>\n<%% literal %%>\n",
    ),
    ("unclosed_params.epp", b"<%- |$a -%>\n"),
    ("empty.epp", b""),
    ("bom.epp", b"\xef\xbb\xbfhello\n"),
    ("invalid.epp", b"hello \xff\n"),
    ("g.epp", b"hi <%= $greeted %> <%= $facts[os][family] %> <%= $trusted[certname] %> <%= $::hostname %>\n"),
    ("nested.epp", b"<%= epp('m/t.epp', {x => 5}) %>|<%= $nope %>|\n"),
    ("sens.epp", b"<%= Sensitive('s') %>\n"),
    ("notice.epp", b"<% notice('from a template') %>done\n"),
    ("div.epp", b"<%= 1/0 %>\n"),
    ("mods/m/templates/t.epp", b"in module <%= $x %>\n"),
    ("mods/m/templates/bad.epp", b"<%= [ %>\n"),
    ("data.pp", b"$greeted = 'gv'\nundef\n"),
    ("hash.pp", b"notice(1)\n{ a => 2 }\n"),
    ("bad.pp", b"$x = \n"),
    ("str.pp", b"'str'\n"),
    ("data.yaml", b"a: 1\nb: two\n"),
    ("list.yaml", b"[1]\n"),
    ("broken.yaml", b"a: [1\n"),
    ("data.txt", b"a: 1\n"),
];

/// The commands run in the fixtures' directory: arguments (`@` stands for the fixtures'
/// directory, to give absolute paths), and the fixture on standard input (else none).
const INVOCATIONS: &[(&[&str], Option<&str>)] = &[
    (&["validate", "w.epp", "p.epp", "params.epp", "empty.epp"], None),
    (&["validate", "bad.epp", "w.epp"], None),
    (&["validate", "--continue_on_error", "bad.epp", "two.epp", "warn.epp", "syntax.epp", "unclosed_params.epp"], None),
    (&["validate", "warntwo.epp"], None),
    (&["validate", "one.epp", "nope.epp"], None),
    (&["validate", "w.epp", "nope.epp", "other.epp"], None),
    (&["validate", "--continue_on_error", "bom.epp", "invalid.epp", "w.epp"], None),
    (&["validate", "--modulepath", "mods", "m/t.epp", "m/bad.epp", "m/nope.epp"], None),
    (&["validate", "--color", "true", "two.epp"], None),
    (&["validate"], Some("two.epp")),
    (&["validate"], Some("w.epp")),
    (&["dump", "w.epp"], None),
    (&["dump", "w.epp", "p.epp", "params.epp", "empty.epp"], None),
    (&["dump", "--no-header", "w.epp", "p.epp"], None),
    (&["dump", "--format", "pn", "w.epp", "p.epp", "params.epp"], None),
    (&["dump", "--format", "pn", "--pretty", "params.epp"], None),
    (&["dump", "--format", "json", "w.epp", "p.epp"], None),
    (&["dump", "--format", "json", "--pretty", "params.epp"], None),
    (&["dump", "bad.epp", "two.epp", "warn.epp", "w.epp"], None),
    (&["dump", "--no-validate", "two.epp", "syntax.epp"], None),
    (&["dump", "w.epp", "nope.epp"], None),
    (&["dump", "--modulepath", "mods", "m/t.epp"], None),
    (&["dump", "-e", "x <%= $a %>"], None),
    (&["dump", "--format", "pn", "-e", ""], None),
    (&["dump"], Some("p.epp")),
    (&["dump", "--format", "pn"], Some("two.epp")),
    (&["render", "@/w.epp", "--values", "{a => 1}"], None),
    (&["render", "@/w.epp", "@/p.epp", "--values", "{a => 1}"], None),
    (&["render", "--no-header", "@/w.epp", "@/p.epp", "--values", "{a => 1}"], None),
    (&["render", "@/p.epp"], None),
    (&["render", "@/typed.epp", "--values", "{a => x}"], None),
    (&["render", "-e", "x<%= $a %>y<%= $b %>", "--values_file", "@/data.yaml", "--values", "{a => 3}"], None),
    (&["render", "@/g.epp", "--values_file", "@/data.pp"], None),
    (&["render", "-e", "x", "--values_file", "@/list.yaml"], None),
    (&["render", "@/w.epp", "--values_file", "@/list.yaml"], None),
    (&["render", "-e", "x<%= $a %>", "--values_file", "@/hash.pp"], None),
    (&["render", "-e", "x", "--values_file", "@/str.pp"], None),
    (&["render", "-e", "x", "--values_file", "@/broken.yaml"], None),
    (&["render", "-e", "x", "--values_file", "@/nope.yaml"], None),
    (&["render", "-e", "x", "--values_file", "@/data.txt"], None),
    (&["render", "@/w.epp", "--values", "[1]"], None),
    (&["render", "-e", "x<%= $a %>", "--values", "$a = 3 undef"], None),
    (&["render", "-e", "<%= $trusted %>|<%= $facts[fqdn] %>|<%= $::fqdn %>|<%= $clientcert %>"], None),
    (&["render", "@/sens.epp", "@/notice.epp"], None),
    (&["render", "-e", "<%= $x"], None),
    (&["render", "@/div.epp"], None),
    (&["render", "-e", "<%= 1/0 %>"], None),
    (&["render", "--modulepath", "@/mods", "m/t.epp", "@/nested.epp", "--values", "{x => 1}"], None),
    (&["render", "--modulepath", "@/mods", "--no-header", "m/t.epp", "m/t.epp"], None),
    (&["render", "@/nope.epp", "@/bad.epp"], None),
    (&["render", "@/nope.epp", "@/w.epp", "--values", "{a => 1}"], None),
    (&["render", "@/empty.epp"], None),
    (&["render", "-e", "<%= $x %>|<%= $::x %>|<%= $a::b %>", "--values", "{'::x' => 1, 'a::b' => 2}"], None),
    (&["render", "--values", "{a => 2}"], Some("w.epp")),
];

pub fn main(args: Vec<String>) -> ExitCode {
    let Some(list) = args.first() else {
        eprintln!("usage: epp-cli EPP-FILES.txt [--show N]");
        return ExitCode::from(2);
    };
    let shown = match args.iter().position(|a| a == "--show") {
        Some(i) => args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(SHOWN),
        None => SHOWN,
    };
    let files: Vec<String> = match std::fs::read_to_string(list) {
        Ok(text) => text.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect(),
        Err(e) => {
            eprintln!("cannot read {list}: {e}");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let poppet = root.join("target/release/poppet");
    if !poppet.is_file() {
        eprintln!("{} is not built: run `cargo build --release -p poppet`", poppet.display());
        return ExitCode::from(2);
    }
    let facts = root.join("eval/src/facts/debian12.json").display().to_string();
    let dir = std::env::temp_dir().join(format!("poppet-epp-cli-{}", std::process::id()));
    let result = compare(&poppet, &files, &dir, &facts);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(differences) if differences.is_empty() => ExitCode::SUCCESS,
        Ok(differences) => {
            for d in differences.iter().take(shown) {
                println!("{d}");
            }
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Runs every comparison; the differences found.
fn compare(poppet: &Path, files: &[String], dir: &Path, facts: &str) -> Result<Vec<String>, String> {
    let mutants = write_mutants(files, &dir.join("mutants")).map_err(|e| format!("cannot write the mutants: {e}"))?;
    let fixtures = dir.join("fixtures");
    write_files(&fixtures, FIXTURES).map_err(|e| format!("cannot write the fixtures: {e}"))?;
    let mut differences = Vec::new();
    let commands: [&[&str]; 4] = [
        &["validate", "--color", "false", "--continue_on_error"],
        &["dump", "--color", "false"],
        &["dump", "--color", "false", "--format", "pn"],
        &["dump", "--color", "false", "--format", "json", "--pretty"],
    ];
    for command in commands {
        for (what, list) in [("corpus", files), ("mutants", &mutants)] {
            let mut args: Vec<String> = command.iter().map(|s| s.to_string()).collect();
            args.extend(list.iter().cloned());
            let label = format!("epp {} over the {what}", command.join(" "));
            differences.extend(both(poppet, &args, None, &fixtures, &label)?);
        }
    }
    // each corpus template rendered on its own, two at a time
    let mut rendered = 0;
    let renders: Vec<Vec<String>> = files
        .iter()
        .map(|f| vec!["render".into(), "--color".into(), "false".into(), "--facts".into(), facts.into(), f.clone()])
        .collect();
    for pair in renders.chunks(2) {
        let results: Vec<Result<(Vec<String>, i32), String>> = std::thread::scope(|s| {
            let handles: Vec<_> = pair
                .iter()
                .map(|args| {
                    s.spawn(|| {
                        let label = format!("epp {}", args.join(" "));
                        let (diffs, code) = both_with_status(poppet, args, None, &fixtures, &label)?;
                        Ok((diffs, code))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a render thread failed".into()))).collect()
        });
        for result in results {
            let (diffs, code) = result?;
            rendered += usize::from(code == 0);
            differences.extend(diffs);
        }
    }
    let base = fixtures.display().to_string();
    for (args, stdin) in INVOCATIONS {
        let mut args: Vec<String> = args.iter().map(|a| a.replace('@', &base)).collect();
        args.splice(1..1, ["--color".to_string(), "false".to_string()]);
        if args[0] == "render" {
            args.extend(["--facts".to_string(), facts.to_string()]);
        }
        let label = format!("epp {} (stdin {stdin:?})", args.join(" "));
        differences.extend(both(poppet, &args, stdin.map(|s| fixtures.join(s)), &fixtures, &label)?);
    }
    println!(
        "epp-cli: {} templates and {} mutants validated and dumped (old, pn, json); the templates rendered one by one ({rendered} of {} rendered in Puppet); {} invocations on fixtures: {} differ",
        files.len(),
        mutants.len(),
        files.len(),
        INVOCATIONS.len(),
        differences.len()
    );
    Ok(differences)
}

/// Runs `puppet epp ARGS` and `poppet epp ARGS` in `dir`; the difference, if any.
fn both(
    poppet: &Path,
    args: &[String],
    stdin: Option<PathBuf>,
    dir: &Path,
    label: &str,
) -> Result<Vec<String>, String> {
    both_with_status(poppet, args, stdin, dir, label).map(|(d, _)| d)
}

/// As [`both`], with Puppet's exit status.
fn both_with_status(
    poppet: &Path,
    args: &[String],
    stdin: Option<PathBuf>,
    dir: &Path,
    label: &str,
) -> Result<(Vec<String>, i32), String> {
    let input = || match &stdin {
        Some(path) => std::fs::File::open(path).map_or(Stdio::null(), Into::into),
        None => Stdio::null(),
    };
    let mut theirs = Command::new("puppet");
    theirs.arg("epp").args(args).current_dir(dir).stdin(input());
    let mut ours = Command::new(poppet);
    ours.arg("epp").args(args).current_dir(dir).stdin(input());
    let p = theirs.output().map_err(|e| format!("cannot run {theirs:?}: {e}"))?;
    let stderr = without_facter(&String::from_utf8_lossy(&p.stderr));
    let p = (p.status.code().unwrap_or(-1), format!("{stderr}{}", String::from_utf8_lossy(&p.stdout)));
    let o = run(&mut ours, &[])?;
    if p == o {
        return Ok((Vec::new(), p.0));
    }
    let (theirs, mine) = first_difference(&p.1, &o.1);
    Ok((vec![format!("{label}:\n  puppet (exit {}):\n{theirs}\n  poppet (exit {}):\n{mine}", p.0, o.0)], p.0))
}

/// Puppet's output without what Facter logged (an `Error: Facter: ` line and the lines that
/// continue it).
fn without_facter(text: &str) -> String {
    let mut out = String::new();
    let mut in_facter = false;
    for line in text.split_inclusive('\n') {
        let plain = line.trim_start_matches("\x1b[1;31m");
        if plain.starts_with("Error: Facter: ") {
            in_facter = true;
            continue;
        }
        let continues = !["Error: ", "Warning: ", "Notice: ", "\x1b["].iter().any(|p| line.starts_with(p));
        if in_facter && continues {
            continue;
        }
        in_facter = false;
        out.push_str(line);
    }
    out
}

/// Three mutants of every template, written under `dir`.
fn write_mutants(files: &[String], dir: &Path) -> std::io::Result<Vec<String>> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let versions =
            [two_thirds(&text).to_string(), format!("<% $0 = 1 %>{text}"), format!("<% $0 = 1 %>{text}<% $1 = 2 %>")];
        for (k, version) in versions.iter().enumerate() {
            let path = dir.join(format!("m{i}_{k}.epp"));
            std::fs::write(&path, version)?;
            out.push(path.display().to_string());
        }
    }
    Ok(out)
}
