//! Measuring code shared by every parser binary of the benchmark.
//!
//! This file is compiled into two packages: this one's library (`poppet_bench::harness`, used by
//! `poppet-bench`: our grammar, plus the driver) and `poppet-bench-theirs` (the public
//! `tree-sitter-puppet` 1.3.0 grammar, which exports the same C symbol `tree_sitter_puppet` and
//! so cannot be linked next to ours). `bench/theirs` includes it with `#[path]` rather than
//! depending on this package, so that its dependency graph never contains our grammar. Plain
//! std only: no serde.
//!
//! Each measurement is reported as one flat JSON object on one line (see [`Measurement`]),
//! which the driver reads back with [`Measurement::from_json_line`].

#![allow(dead_code)] // each binary uses a different subset

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where `scripts/install-corpus.sh` writes its list of manifests.
pub const DEFAULT_CORPUS: &str = "/tmp/puppet-corpus/pp-files.txt";
/// Timed runs per parser unless `--runs` says otherwise; the best one is reported.
pub const DEFAULT_RUNS: usize = 5;

/// One manifest, read into memory before any timing starts.
pub struct SourceFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

/// All manifests named by a list file (one path a line; blank lines and `#` lines skipped).
pub struct Corpus {
    pub list: PathBuf,
    pub files: Vec<SourceFile>,
    /// Listed paths that could not be read; they are left out of every measurement.
    pub unreadable: Vec<(PathBuf, String)>,
}

impl Corpus {
    pub fn load(list: &Path) -> Result<Corpus, String> {
        let text = std::fs::read_to_string(list)
            .map_err(|e| format!("cannot read corpus list {}: {e}", list.display()))?;
        let mut files = Vec::new();
        let mut unreadable = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let path = PathBuf::from(line);
            match std::fs::read(&path) {
                Ok(bytes) => files.push(SourceFile { path, bytes }),
                Err(e) => unreadable.push((path, e.to_string())),
            }
        }
        if files.is_empty() {
            return Err(format!(
                "corpus list {} names no readable file",
                list.display()
            ));
        }
        for (path, err) in &unreadable {
            eprintln!("warning: skipping unreadable {}: {err}", path.display());
        }
        Ok(Corpus {
            list: list.to_path_buf(),
            files,
            unreadable,
        })
    }

    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes.len() as u64).sum()
    }
}

/// The result of timing one parser (or stage) over the whole corpus.
#[derive(Clone, Debug, Default)]
pub struct Measurement {
    /// Short key used on the command line and in ratios: `ours`, `theirs`, `puppet`, ...
    pub parser: String,
    /// Human-readable name for the table, e.g. `tree-sitter-puppet 1.3.0 (crates.io)`.
    pub label: String,
    pub files: u64,
    pub bytes: u64,
    pub runs: u64,
    /// Wall-clock seconds of the fastest full pass over the corpus.
    pub best_s: f64,
    /// Wall-clock seconds of the median full pass.
    pub median_s: f64,
    /// Files whose result has no error: for tree-sitter, `!root_node().has_error()`
    /// (no ERROR and no MISSING node); for Puppet, no `Error:` line naming the file.
    pub clean_files: u64,
    /// Total nodes in all trees (tree-sitter only: `root_node().descendant_count()`).
    pub nodes: Option<u64>,
    /// Tree-sitter ABI version of the grammar, when there is one.
    pub abi: Option<u64>,
    /// Puppet only: seconds to validate one tiny file (process startup), best of the runs.
    pub startup_s: Option<f64>,
    /// Puppet only: processes started per full pass (files are passed as arguments in batches).
    pub invocations: Option<u64>,
}

impl Measurement {
    /// Throughput of the best run, in MB/s with MB = 10^6 bytes.
    pub fn mb_per_s(&self) -> f64 {
        if self.best_s > 0.0 {
            self.bytes as f64 / self.best_s / 1e6
        } else {
            f64::NAN
        }
    }

    pub fn to_json_line(&self) -> String {
        let mut s = String::from("{");
        let _ = write!(
            s,
            "\"parser\":{},\"label\":{}",
            json_str(&self.parser),
            json_str(&self.label)
        );
        let _ = write!(
            s,
            ",\"files\":{},\"bytes\":{},\"runs\":{},\"best_s\":{:.6},\"median_s\":{:.6},\"mb_per_s\":{:.3},\"clean_files\":{}",
            self.files,
            self.bytes,
            self.runs,
            self.best_s,
            self.median_s,
            self.mb_per_s(),
            self.clean_files
        );
        if let Some(n) = self.nodes {
            let _ = write!(s, ",\"nodes\":{n}");
        }
        if let Some(n) = self.abi {
            let _ = write!(s, ",\"abi\":{n}");
        }
        if let Some(t) = self.startup_s {
            let _ = write!(s, ",\"startup_s\":{t:.6}");
        }
        if let Some(n) = self.invocations {
            let _ = write!(s, ",\"invocations\":{n}");
        }
        s.push('}');
        s
    }

    /// Reads back a line written by [`Measurement::to_json_line`] (a flat object of strings
    /// and numbers; unknown keys are ignored).
    pub fn from_json_line(line: &str) -> Result<Measurement, String> {
        let fields = parse_flat_json(line)?;
        let mut m = Measurement::default();
        let num = |v: &JsonValue| -> Result<f64, String> {
            match v {
                JsonValue::Num(n) => Ok(*n),
                JsonValue::Str(s) => Err(format!("expected a number, found string {s:?}")),
            }
        };
        for (key, value) in &fields {
            match key.as_str() {
                "parser" | "label" => {
                    let JsonValue::Str(s) = value else {
                        return Err(format!("{key}: expected a string"));
                    };
                    if key == "parser" {
                        m.parser = s.clone();
                    } else {
                        m.label = s.clone();
                    }
                }
                "files" => m.files = num(value)? as u64,
                "bytes" => m.bytes = num(value)? as u64,
                "runs" => m.runs = num(value)? as u64,
                "best_s" => m.best_s = num(value)?,
                "median_s" => m.median_s = num(value)?,
                "clean_files" => m.clean_files = num(value)? as u64,
                "nodes" => m.nodes = Some(num(value)? as u64),
                "abi" => m.abi = Some(num(value)? as u64),
                "startup_s" => m.startup_s = Some(num(value)?),
                "invocations" => m.invocations = Some(num(value)? as u64),
                _ => {}
            }
        }
        if m.parser.is_empty() {
            return Err("no \"parser\" key".into());
        }
        Ok(m)
    }
}

/// Fastest and median of a set of timings, in seconds.
pub fn best_and_median(times: &[Duration]) -> (f64, f64) {
    let mut secs: Vec<f64> = times.iter().map(Duration::as_secs_f64).collect();
    secs.sort_by(f64::total_cmp);
    match secs.len() {
        0 => (f64::NAN, f64::NAN),
        n => (
            secs[0],
            if n % 2 == 1 {
                secs[n / 2]
            } else {
                (secs[n / 2 - 1] + secs[n / 2]) / 2.0
            },
        ),
    }
}

/// Parses every file of the corpus with one reused tree-sitter parser: one untimed pass first
/// (warm-up; it also counts clean files and nodes), then `runs` timed passes. A timed pass
/// covers `Parser::parse` and dropping the tree, nothing else: files are already in memory.
/// Paths of files whose tree has an error go to `error_paths` when it is given.
pub fn measure_tree_sitter(
    parser_key: &str,
    label: &str,
    language: &tree_sitter::Language,
    corpus: &Corpus,
    runs: usize,
    mut error_paths: Option<&mut Vec<PathBuf>>,
) -> Result<Measurement, String> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(language)
        .map_err(|e| format!("{label}: cannot load grammar into tree-sitter: {e}"))?;

    let mut clean = 0u64;
    let mut nodes = 0u64;
    for file in &corpus.files {
        let tree = parser.parse(&file.bytes, None).ok_or_else(|| {
            format!(
                "{label}: parse returned no tree for {}",
                file.path.display()
            )
        })?;
        let root = tree.root_node();
        nodes += root.descendant_count() as u64;
        if root.has_error() {
            if let Some(paths) = error_paths.as_deref_mut() {
                paths.push(file.path.clone());
            }
        } else {
            clean += 1;
        }
    }

    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        for file in &corpus.files {
            let tree = parser.parse(&file.bytes, None);
            std::hint::black_box(&tree);
            drop(tree);
        }
        times.push(start.elapsed());
    }
    let (best_s, median_s) = best_and_median(&times);
    Ok(Measurement {
        parser: parser_key.to_string(),
        label: label.to_string(),
        files: corpus.files.len() as u64,
        bytes: corpus.bytes(),
        runs: times.len() as u64,
        best_s,
        median_s,
        clean_files: clean,
        nodes: Some(nodes),
        abi: Some(language.abi_version() as u64),
        startup_s: None,
        invocations: None,
    })
}

/// Command-line options understood by the parser binaries (the driver accepts more).
pub struct ProbeArgs {
    pub corpus: PathBuf,
    pub runs: usize,
    /// Print the paths of files that did not parse cleanly to stderr.
    pub list_errors: bool,
}

/// Takes `--corpus PATH`, `--runs N` and `--list-errors` out of `args`, leaving the rest.
pub fn take_probe_args(args: &mut Vec<String>) -> Result<ProbeArgs, String> {
    let corpus = take_value(args, "--corpus")?.unwrap_or_else(|| DEFAULT_CORPUS.to_string());
    let runs = match take_value(args, "--runs")? {
        Some(v) => parse_count("--runs", &v)?,
        None => DEFAULT_RUNS,
    };
    let list_errors = take_flag(args, "--list-errors");
    Ok(ProbeArgs {
        corpus: PathBuf::from(corpus),
        runs,
        list_errors,
    })
}

/// Removes every `--name VALUE` and `--name=VALUE` from `args` and returns the last value
/// (so a wrapper script can give a default that the user's own option overrides).
pub fn take_value(args: &mut Vec<String>, name: &str) -> Result<Option<String>, String> {
    let prefix = format!("{name}=");
    let mut found = None;
    let mut i = 0;
    while i < args.len() {
        if args[i] == name {
            if i + 1 >= args.len() {
                return Err(format!("{name} needs a value"));
            }
            found = Some(args.remove(i + 1));
            args.remove(i);
        } else if let Some(value) = args[i].strip_prefix(&prefix) {
            found = Some(value.to_string());
            args.remove(i);
        } else {
            i += 1;
        }
    }
    Ok(found)
}

/// Removes every `--name` from `args` and says whether there was one.
pub fn take_flag(args: &mut Vec<String>, name: &str) -> bool {
    let before = args.len();
    args.retain(|a| a != name);
    args.len() != before
}

pub fn parse_count(name: &str, value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{name} needs a whole number of at least 1, not {value:?}"
        )),
    }
}

/// The shared body of a parser binary: read options, load the corpus, measure, print one line.
pub fn probe_main(
    parser_key: &str,
    label: &str,
    language: &tree_sitter::Language,
    mut args: Vec<String>,
) -> Result<(), String> {
    let opts = take_probe_args(&mut args)?;
    if let Some(extra) = args.first() {
        return Err(format!("unknown argument {extra:?}"));
    }
    let corpus = Corpus::load(&opts.corpus)?;
    let mut errors = Vec::new();
    let m = measure_tree_sitter(
        parser_key,
        label,
        language,
        &corpus,
        opts.runs,
        Some(&mut errors),
    )?;
    if opts.list_errors {
        for path in &errors {
            eprintln!("{parser_key}: has error: {}", path.display());
        }
    }
    println!("{}", m.to_json_line());
    Ok(())
}

fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

enum JsonValue {
    Str(String),
    Num(f64),
}

/// Parses `{"k": "v", "n": 1.5, ...}`: one flat object whose values are strings or numbers.
fn parse_flat_json(line: &str) -> Result<Vec<(String, JsonValue)>, String> {
    let mut chars = line.trim().chars().peekable();
    let mut out = Vec::new();
    let skip_ws = |it: &mut std::iter::Peekable<std::str::Chars>| {
        while it.peek().is_some_and(|c| c.is_whitespace()) {
            it.next();
        }
    };
    let read_str = |it: &mut std::iter::Peekable<std::str::Chars>| -> Result<String, String> {
        if it.next() != Some('"') {
            return Err("expected '\"'".into());
        }
        let mut s = String::new();
        loop {
            match it.next() {
                None => return Err("unterminated string".into()),
                Some('"') => return Ok(s),
                Some('\\') => match it.next() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some('u') => {
                        let hex: String = it.by_ref().take(4).collect();
                        let code = u32::from_str_radix(&hex, 16).map_err(|_| "bad \\u escape")?;
                        s.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                    }
                    Some(c) => s.push(c),
                    None => return Err("unterminated escape".into()),
                },
                Some(c) => s.push(c),
            }
        }
    };
    skip_ws(&mut chars);
    if chars.next() != Some('{') {
        return Err(format!("not a JSON object: {line:?}"));
    }
    loop {
        skip_ws(&mut chars);
        if chars.peek() == Some(&'}') {
            break;
        }
        let key = read_str(&mut chars)?;
        skip_ws(&mut chars);
        if chars.next() != Some(':') {
            return Err(format!("expected ':' after {key:?}"));
        }
        skip_ws(&mut chars);
        let value = if chars.peek() == Some(&'"') {
            JsonValue::Str(read_str(&mut chars)?)
        } else {
            let mut text = String::new();
            while chars
                .peek()
                .is_some_and(|c| !matches!(c, ',' | '}') && !c.is_whitespace())
            {
                text.push(chars.next().unwrap());
            }
            JsonValue::Num(if text == "null" || text == "NaN" {
                f64::NAN
            } else {
                text.parse()
                    .map_err(|_| format!("{key}: bad number {text:?}"))?
            })
        };
        out.push((key, value));
        skip_ws(&mut chars);
        match chars.next() {
            Some(',') => continue,
            Some('}') => break,
            other => return Err(format!("expected ',' or '}}', found {other:?}")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_line_round_trips() {
        let m = Measurement {
            parser: "puppet".into(),
            label: "puppet parser validate 7.23.0 \"x\"".into(),
            files: 3,
            bytes: 1234,
            runs: 2,
            best_s: 0.5,
            median_s: 0.75,
            clean_files: 2,
            nodes: None,
            abi: Some(15),
            startup_s: Some(0.7),
            invocations: Some(1),
        };
        let back = Measurement::from_json_line(&m.to_json_line()).unwrap();
        assert_eq!(back.parser, m.parser);
        assert_eq!(back.label, m.label);
        assert_eq!(
            (back.files, back.bytes, back.runs, back.clean_files),
            (3, 1234, 2, 2)
        );
        assert_eq!((back.best_s, back.median_s), (0.5, 0.75));
        assert_eq!(
            (back.nodes, back.abi, back.invocations),
            (None, Some(15), Some(1))
        );
        assert_eq!(back.startup_s, Some(0.7));
    }

    #[test]
    fn best_and_median_of_timings() {
        let ms = |n| Duration::from_millis(n);
        assert_eq!(best_and_median(&[ms(300), ms(100), ms(200)]), (0.1, 0.2));
        assert_eq!(
            best_and_median(&[ms(400), ms(100), ms(200), ms(300)]),
            (0.1, 0.25)
        );
    }

    #[test]
    fn takes_options_out_of_args() {
        let mut args: Vec<String> = [
            "--runs",
            "3",
            "--corpus",
            "/y",
            "--corpus=/x",
            "--list-errors",
            "rest",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let opts = take_probe_args(&mut args).unwrap();
        assert_eq!(
            (opts.runs, opts.corpus, opts.list_errors),
            (3, PathBuf::from("/x"), true)
        );
        assert_eq!(args, vec!["rest".to_string()]);
        assert!(parse_count("--runs", "0").is_err());
    }
}
