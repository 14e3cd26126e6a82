//! `poppet-bench`: parse throughput over a corpus of real Puppet manifests, side by side:
//!
//! * `ours`   — this repository's tree-sitter grammar (measured in this binary);
//! * `theirs` — the public `tree-sitter-puppet` 1.3.0 grammar from crates.io (measured by the
//!   sibling binary `poppet-bench-theirs`: both grammars export the C symbol
//!   `tree_sitter_puppet`, so they cannot share a binary);
//! * `puppet` — Puppet's own parser, through `puppet parser validate FILE...`.
//!
//! Usage (see bench/README.md):
//!
//! ```text
//! poppet-bench [--corpus LIST] [--runs N] [--puppet-runs N] [--parsers ours,theirs,puppet]
//!              [--bin-dir DIR] [--list-errors] [--json]
//! poppet-bench --measure ours [--corpus LIST] [--runs N] [--list-errors]   # one JSON line
//! ```
//!
//! Every parser is measured in a fresh child process that loads all files into memory first,
//! then parses the whole corpus once untimed and `--runs` times timed; the best run is the
//! headline figure. Nothing here asserts anything about the timings: it only reports.

use poppet_bench::harness;
use poppet_bench::harness::{Corpus, Measurement};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// How one stage of the benchmark is measured.
enum How {
    /// By this binary, run as a child `poppet-bench --measure KEY`; the work itself is
    /// the arm for KEY in [`measure_in_process`].
    InThisBinary,
    /// By a sibling binary (same target directory, same package name) that takes
    /// `--corpus/--runs/--list-errors` and prints one [`Measurement`] JSON line.
    SiblingBinary(&'static str),
    /// By timing `puppet parser validate` processes.
    PuppetValidate,
}

struct Stage {
    key: &'static str,
    how: How,
}

/// The stages, in table order; the first one is the reference for the ratios.
///
/// To add a stage — e.g. `lowering` (parse with our grammar, then lower to the typed AST, once
/// that crate exists) — add `Stage { key: "lowering", how: How::InThisBinary }` here and an arm
/// for it in [`measure_in_process`]. A grammar or tool that cannot be linked here gets its own
/// small package beside `bench/theirs/` and a `How::SiblingBinary` entry.
const STAGES: &[Stage] = &[
    Stage { key: "ours", how: How::InThisBinary },
    Stage { key: "lowering", how: How::InThisBinary },
    Stage { key: "theirs", how: How::SiblingBinary("poppet-bench-theirs") },
    Stage { key: "puppet", how: How::PuppetValidate },
];

/// The stages measured by this binary itself (`--measure KEY`).
fn measure_in_process(
    key: &str,
    corpus: &Corpus,
    runs: usize,
    errors: &mut Vec<PathBuf>,
) -> Result<Measurement, String> {
    match key {
        "ours" => harness::measure_tree_sitter(
            "ours",
            "ours: tree-sitter-puppet (this repo)",
            &tree_sitter_puppet::LANGUAGE.into(),
            corpus,
            runs,
            Some(errors),
        ),
        "lowering" => measure_lowering(corpus, runs),
        other => Err(format!("--measure: no in-process stage {other:?}")),
    }
}

/// Our grammar's parse followed by lowering to the typed AST (`puppet-syntax`): the time
/// to go from source to AST. Lowering alone is this minus the `ours` row.
fn measure_lowering(corpus: &Corpus, runs: usize) -> Result<Measurement, String> {
    let label = "ours + lowering to the AST (puppet-syntax)";
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_puppet::LANGUAGE.into())
        .map_err(|e| format!("{label}: cannot load grammar: {e}"))?;
    let sources: Vec<String> = corpus.files.iter().map(|f| String::from_utf8_lossy(&f.bytes).into_owned()).collect();
    let mut clean = 0u64;
    for source in &sources {
        if let Some(tree) = parser.parse(source, None) {
            if puppet_syntax::lower(source, &tree).is_ok() {
                clean += 1;
            }
        }
    }
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        for source in &sources {
            if let Some(tree) = parser.parse(source, None) {
                std::hint::black_box(puppet_syntax::lower(source, &tree).ok());
            }
        }
        times.push(start.elapsed());
    }
    let (best_s, median_s) = harness::best_and_median(&times);
    Ok(Measurement {
        parser: "lowering".to_string(),
        label: label.to_string(),
        files: corpus.files.len() as u64,
        bytes: corpus.bytes(),
        runs: times.len() as u64,
        best_s,
        median_s,
        clean_files: clean,
        nodes: None,
        abi: None,
        startup_s: None,
        invocations: None,
    })
}

const REFERENCE: &str = "ours";
/// Upper bound on the bytes of file arguments given to one `puppet` process (ARG_MAX is
/// usually 2 MiB including the environment); the whole corpus list is ~140 kB, so one process.
const PUPPET_ARG_BYTES: usize = 1_000_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(args) {
        eprintln!("poppet-bench: {e}");
        std::process::exit(2);
    }
}

fn run(mut args: Vec<String>) -> Result<(), String> {
    if harness::take_flag(&mut args, "--help") || harness::take_flag(&mut args, "-h") {
        print!("{}", USAGE);
        return Ok(());
    }
    if let Some(key) = harness::take_value(&mut args, "--measure")? {
        // Child mode: one stage of this binary, one JSON line on stdout.
        let opts = harness::take_probe_args(&mut args)?;
        reject_rest(&args)?;
        let corpus = Corpus::load(&opts.corpus)?;
        let mut errors = Vec::new();
        let m = measure_in_process(&key, &corpus, opts.runs, &mut errors)?;
        if opts.list_errors {
            for path in &errors {
                eprintln!("{key}: has error: {}", path.display());
            }
        }
        println!("{}", m.to_json_line());
        return Ok(());
    }

    let opts = harness::take_probe_args(&mut args)?;
    let puppet_runs = match harness::take_value(&mut args, "--puppet-runs")? {
        Some(v) => harness::parse_count("--puppet-runs", &v)?,
        None => opts.runs,
    };
    let selected: Vec<String> = match harness::take_value(&mut args, "--parsers")? {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        None => STAGES.iter().map(|s| s.key.to_string()).collect(),
    };
    for key in &selected {
        if !STAGES.iter().any(|s| s.key == key) {
            let known: Vec<_> = STAGES.iter().map(|s| s.key).collect();
            return Err(format!("--parsers: unknown {key:?} (known: {})", known.join(",")));
        }
    }
    let bin_dir = harness::take_value(&mut args, "--bin-dir")?.map(PathBuf::from);
    let json_only = harness::take_flag(&mut args, "--json");
    reject_rest(&args)?;

    if cfg!(debug_assertions) {
        eprintln!("warning: poppet-bench is a debug build; its numbers mean little (use --release)");
    }
    let corpus = Corpus::load(&opts.corpus)?;
    eprintln!(
        "corpus: {} files, {} bytes from {}; {} timed runs per parser ({} for puppet)",
        corpus.files.len(),
        corpus.bytes(),
        opts.corpus.display(),
        opts.runs,
        puppet_runs
    );

    let mut results: Vec<(&'static str, Result<Measurement, String>)> = Vec::new();
    for stage in STAGES.iter().filter(|s| selected.iter().any(|k| k == s.key)) {
        eprintln!("measuring {} ...", stage.key);
        let start = Instant::now();
        let result = match stage.how {
            How::InThisBinary => {
                std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}")).and_then(|exe| {
                    let mut cmd = Command::new(exe);
                    cmd.args(["--measure", stage.key]);
                    run_probe(cmd, &opts)
                })
            }
            How::SiblingBinary(name) => {
                sibling_binary(name, bin_dir.as_deref()).and_then(|exe| run_probe(Command::new(exe), &opts))
            }
            How::PuppetValidate => measure_puppet(&corpus, puppet_runs, opts.list_errors),
        };
        match &result {
            Ok(m) => {
                eprintln!("  {} done in {:.1} s: best {:.3} s", stage.key, start.elapsed().as_secs_f64(), m.best_s)
            }
            Err(e) => eprintln!("  {} FAILED: {e}", stage.key),
        }
        results.push((stage.key, result));
    }

    if json_only {
        for (_, r) in &results {
            if let Ok(m) = r {
                println!("{}", m.to_json_line());
            }
        }
    } else {
        print_table(&corpus, &results);
    }
    if results.iter().any(|(_, r)| r.is_err()) {
        return Err("some parsers could not be measured (see above)".into());
    }
    Ok(())
}

const USAGE: &str = "\
poppet-bench: parse throughput of Puppet parsers over a corpus of real manifests

  poppet-bench [OPTIONS]           measure every parser, print a table (and JSON lines)
  poppet-bench --measure ours ...  measure one in-process stage, print one JSON line

Options:
  --corpus LIST      file listing manifests, one path a line [/tmp/puppet-corpus/pp-files.txt]
  --runs N           timed passes over the corpus per parser; best is reported [5]
  --puppet-runs N    timed `puppet parser validate` passes [same as --runs]
  --parsers A,B      which of ours,theirs,puppet to measure [all]
  --bin-dir DIR      where poppet-bench-theirs is [next to this executable]
  --list-errors      print to stderr the files each parser did not parse cleanly
  --json             print only the JSON lines, no table
";

fn reject_rest(args: &[String]) -> Result<(), String> {
    match args.first() {
        Some(extra) => Err(format!("unknown argument {extra:?} (try --help)")),
        None => Ok(()),
    }
}

/// Runs a parser binary with the common options and reads its JSON line from stdout.
fn run_probe(mut cmd: Command, opts: &harness::ProbeArgs) -> Result<Measurement, String> {
    cmd.arg("--corpus").arg(&opts.corpus).arg("--runs").arg(opts.runs.to_string());
    if opts.list_errors {
        cmd.arg("--list-errors");
    }
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        return Err(format!("{:?} exited with {}", cmd.get_program(), out.status));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .ok_or_else(|| format!("{:?} printed no JSON line", cmd.get_program()))?;
    Measurement::from_json_line(line)
}

/// Finds a sibling binary. When this binary was started by `cargo run`, first has cargo
/// (re)build that binary's package with the same profile, so `cargo run -p poppet-bench`
/// alone is enough and never times a stale build.
fn sibling_binary(name: &str, bin_dir: Option<&Path>) -> Result<PathBuf, String> {
    let dir = match bin_dir {
        Some(d) => d.to_path_buf(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find own executable: {e}"))?
            .parent()
            .ok_or("own executable has no parent directory")?
            .to_path_buf(),
    };
    let exe = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if bin_dir.is_none() {
        if let Some(cargo) = std::env::var_os("CARGO") {
            let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
            let mut cmd = Command::new(cargo);
            cmd.args(["build", "--quiet", "-p", name]).arg("--manifest-path").arg(&manifest);
            if !cfg!(debug_assertions) {
                cmd.arg("--release");
            }
            eprintln!(
                "  building {name} (cargo build{} -p {name})",
                if cfg!(debug_assertions) { "" } else { " --release" }
            );
            let status = cmd.status().map_err(|e| format!("cannot run cargo to build {name}: {e}"))?;
            if !status.success() {
                return Err(format!("cargo build -p {name} failed: {status}"));
            }
        }
    }
    if !exe.is_file() {
        return Err(format!(
            "{} not found; build it with `cargo build --release -p {name}` (or pass --bin-dir)",
            exe.display()
        ));
    }
    Ok(exe)
}

/// Times `puppet parser validate` over the whole corpus: all files as arguments of one process
/// (or a few, if the argument list would be too long), `runs` times; nothing is subtracted.
/// Separately times the same command on one tiny file, as the process's startup cost.
fn measure_puppet(corpus: &Corpus, runs: usize, list_errors: bool) -> Result<Measurement, String> {
    let version = Command::new("puppet")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run `puppet --version` (is Puppet installed?): {e}"))?;
    let version = String::from_utf8_lossy(&version.stdout).trim().to_string();

    let validate = |files: &[&Path]| -> Result<std::process::Output, String> {
        Command::new("puppet")
            .args(["parser", "validate", "--color=false"])
            .args(files)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run `puppet parser validate`: {e}"))
    };

    // Startup: one tiny file, best of `runs`.
    let tiny = std::env::temp_dir().join(format!("poppet-bench-startup-{}.pp", std::process::id()));
    std::fs::write(&tiny, "notice('poppet-bench')\n").map_err(|e| format!("cannot write {}: {e}", tiny.display()))?;
    let mut startup = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let out = validate(&[tiny.as_path()]);
        startup.push(start.elapsed());
        let out = out?;
        if !out.status.success() {
            let _ = std::fs::remove_file(&tiny);
            return Err(format!(
                "`puppet parser validate` of a one-line file failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    let _ = std::fs::remove_file(&tiny);
    let (startup_best, _) = harness::best_and_median(&startup);

    // Batches of file arguments.
    let mut batches: Vec<Vec<&Path>> = vec![Vec::new()];
    let mut batch_bytes = 0usize;
    for file in &corpus.files {
        let len = file.path.as_os_str().len() + 1;
        if batch_bytes + len > PUPPET_ARG_BYTES && !batches.last().unwrap().is_empty() {
            batches.push(Vec::new());
            batch_bytes = 0;
        }
        batches.last_mut().unwrap().push(file.path.as_path());
        batch_bytes += len;
    }

    let mut times = Vec::new();
    let mut first_output = String::new();
    for run in 0..runs {
        let mut output = String::new();
        let start = Instant::now();
        for batch in &batches {
            let out = validate(batch)?;
            // Exit status 1 means "some file has errors"; anything else, or 1 with no Error:
            // line, means Puppet itself failed.
            let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            if !out.status.success() && (out.status.code() != Some(1) || !text.contains("Error:")) {
                return Err(format!("`puppet parser validate` failed ({}): {}", out.status, text.trim()));
            }
            if run == 0 {
                output.push_str(&text);
            }
        }
        times.push(start.elapsed());
        if run == 0 {
            first_output = output;
        }
    }
    let (best_s, median_s) = harness::best_and_median(&times);

    // Clean files: those no `Error:` line names, as in
    // `Error: Could not parse for environment production: Syntax error at ... (file: PATH, line: 3, column: 5)`.
    let known: HashSet<&Path> = corpus.files.iter().map(|f| f.path.as_path()).collect();
    let mut bad: HashSet<PathBuf> = HashSet::new();
    let mut unattributed = 0usize;
    for line in first_output.lines().filter(|l| l.trim_start().starts_with("Error:")) {
        match puppet_error_file(line).filter(|p| known.contains(p.as_path())) {
            Some(path) => {
                bad.insert(path);
            }
            None => unattributed += 1,
        }
        if list_errors {
            eprintln!("puppet: {line}");
        }
    }
    if unattributed > 0 {
        eprintln!("  warning: {unattributed} puppet Error: line(s) name no corpus file (run with --list-errors)");
    }

    Ok(Measurement {
        parser: "puppet".into(),
        label: format!("puppet parser validate {version}"),
        files: corpus.files.len() as u64,
        bytes: corpus.bytes(),
        runs: times.len() as u64,
        best_s,
        median_s,
        clean_files: (corpus.files.len() - bad.len()) as u64,
        nodes: None,
        abi: None,
        startup_s: Some(startup_best),
        invocations: Some(batches.len() as u64),
    })
}

/// The file named by a Puppet error line: `... (file: PATH, line: N, column: M)` or `(file: PATH)`.
fn puppet_error_file(line: &str) -> Option<PathBuf> {
    let start = line.rfind("(file: ")? + "(file: ".len();
    let rest = &line[start..];
    let end = rest.find(", line:").or_else(|| rest.rfind(')')).unwrap_or(rest.len());
    Some(PathBuf::from(rest[..end].trim()))
}

fn print_table(corpus: &Corpus, results: &[(&'static str, Result<Measurement, String>)]) {
    let reference = results
        .iter()
        .find_map(|(k, r)| if *k == REFERENCE { r.as_ref().ok() } else { None })
        .map(Measurement::mb_per_s);
    let runs_note = results
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .map(|m| format!("{} {}", m.parser, m.runs))
        .collect::<Vec<_>>()
        .join(", ");
    println!();
    println!(
        "Parse throughput over {} files, {:.2} MB (MB = 10^6 bytes), best of N timed runs ({runs_note}):",
        corpus.files.len(),
        corpus.bytes() as f64 / 1e6
    );
    println!();
    let header = ["parser", "MB/s", "vs ours", "best s", "median s", "clean files", "nodes"];
    let mut rows: Vec<[String; 7]> = Vec::new();
    for (key, r) in results {
        match r {
            Ok(m) => {
                let mbs = m.mb_per_s();
                rows.push([
                    m.label.clone(),
                    format!("{mbs:.2}"),
                    reference.map_or("-".into(), |r| format!("{:.2}x", mbs / r)),
                    format!("{:.3}", m.best_s),
                    format!("{:.3}", m.median_s),
                    format!("{}/{}", m.clean_files, m.files),
                    m.nodes.map_or("-".into(), |n| n.to_string()),
                ]);
            }
            Err(_) => {
                rows.push([key.to_string(), "n/a".into(), "-".into(), "-".into(), "-".into(), "-".into(), "-".into()])
            }
        }
    }
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = format!("  {:<w$}", cells[0], w = widths[0]);
        for (cell, w) in cells[1..].iter().zip(&widths[1..]) {
            s.push_str(&format!("  {cell:>w$}"));
        }
        println!("{}", s.trim_end());
    };
    line(&header.map(String::from));
    line(&widths.map(|w| "-".repeat(w)));
    for row in &rows {
        line(row);
    }

    println!();
    println!("Notes:");
    println!("  - tree-sitter rows: one parser reused, files already in memory; a run = parse + drop of");
    println!("    every tree. \"clean\" = root_node().has_error() is false (no ERROR or MISSING node).");
    println!("    Node counts differ because the two grammars shape their trees differently.");
    for (_, r) in results {
        let Ok(m) = r else { continue };
        if let Some(abi) = m.abi {
            println!("  - {}: tree-sitter ABI {abi}.", m.label);
        }
        if let Some(startup) = m.startup_s {
            let n = m.invocations.unwrap_or(1);
            let without = m.best_s - startup * n as f64;
            println!("  - {}: wall time of {n} process(es) given all files as arguments, startup included,", m.label);
            println!("    nothing subtracted. Its startup alone (validating a one-line file) is {startup:.3} s;");
            if without > 0.0 {
                println!("    for reference only, {:.2} MB/s with that subtracted.", m.bytes as f64 / without / 1e6);
            }
            println!("    `puppet parser validate` does more than parse: it also runs Puppet's validation");
            println!("    checks on every file, and reports only files with errors (\"clean\" = no Error: line).");
        }
    }
    for (key, r) in results {
        if let Err(e) = r {
            println!("  - {key}: not measured: {e}");
        }
    }
    println!();
    println!("JSON lines:");
    for (_, r) in results {
        if let Ok(m) = r {
            println!("{}", m.to_json_line());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_file_in_puppet_error_lines() {
        let l = "Error: Could not parse for environment production: Syntax error at end of input (file: /tmp/a b.pp)";
        assert_eq!(puppet_error_file(l), Some(PathBuf::from("/tmp/a b.pp")));
        let l = "Error: Could not parse for environment production: Syntax error at '}' (file: /x/y.pp, line: 3, column: 5)";
        assert_eq!(puppet_error_file(l), Some(PathBuf::from("/x/y.pp")));
        assert_eq!(puppet_error_file("Error: something else"), None);
    }

    #[test]
    fn stage_keys_are_unique_and_reference_is_first() {
        let keys: HashSet<_> = STAGES.iter().map(|s| s.key).collect();
        assert_eq!(keys.len(), STAGES.len());
        assert_eq!(STAGES[0].key, REFERENCE);
    }
}
