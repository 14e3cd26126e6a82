//! Mutation fuzzing of the Puppet grammar and its external scanner.
//!
//! ```text
//! cargo xtask fuzz mutate \
//!     [--inputs N] [--seed S] [--corpus FILE_LIST] [--jobs J] [--timeout-ms MS] \
//!     [--strict-incremental]
//! cargo xtask fuzz mutate --seed S --only INDEX
//! cargo xtask fuzz mutate --replay FILE
//! ```
//!
//! Input `i` of a run is a pure function of the seed, `i` and the corpus: either a corpus file
//! (or a slice of it) put through a few random mutations, or a generated stress input (deep
//! nesting, many or long-tagged heredocs, unterminated constructs, invalid UTF-8, NUL bytes,
//! long lines, huge numbers, token soup). Built-in snippets stand in for the corpus when no file
//! list is given or it cannot be read.
//!
//! Each input is parsed with a time limit (the parse progress callback cancels it), and its tree
//! is walked to check that every node's byte range and position lie within the input and its
//! parent's, after its previous sibling. A fraction of inputs is also parsed from small chunks
//! (the tree must not change), and re-parsed incrementally after an edit and after undoing it,
//! which restores the scanner's serialized state at reused tokens. Those trees get the same checks
//! and are compared with a fresh parse of the same text: where that has no error, a difference is
//! reported and its input saved, and with `--strict-incremental` it is a failure. (Tree-sitter
//! keeps a reused statement when what follows is valid after it, and Puppet needs no statement
//! separators, so a few such differences per million inputs come from the grammar's ambiguities,
//! not from the scanner.)
//!
//! The parent process splits the inputs between `--jobs` worker processes (itself, with
//! `--worker`), so that a crash or an abort in the C code is caught: each worker writes the index
//! of the input it is on to a trace file, and the parent saves that input. A watchdog thread in
//! each worker catches a hang that the progress callback cannot see (a loop in the scanner).
//! Failing inputs are saved under `target/mutate/`; the run exits non-zero if there is any.

use std::{
    fmt::Write as _,
    fs,
    ops::ControlFlow,
    os::unix::fs::FileExt as _,
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    thread,
    time::{Duration, Instant},
};

use fastrand::Rng;

use super::inputs::{log_uniform, make_input, position, rng_for, slice, Corpus, Input, FRAGMENTS};
use tree_sitter::{InputEdit, Language, ParseOptions, ParseState, Parser, Point, Tree};

const USAGE: &str = "\
usage: mutate [--inputs N] [--seed S] [--corpus FILE_LIST] [--jobs J] [--timeout-ms MS]
              [--strict-incremental]
       mutate [--seed S] [--corpus FILE_LIST] --only INDEX   (re-run one input, verbosely)
       mutate --replay FILE                                  (check one saved input)

  --inputs N        inputs to run (default 200000)
  --seed S          the run's seed (default 1); input i depends only on S, i and the corpus
  --corpus FILE     a file listing Puppet manifests, one path a line (default: built-in snippets)
  --jobs J          worker processes (default: the available parallelism)
  --timeout-ms MS   a parse taking longer fails (default 5000)
  --strict-incremental
                    an incremental parse whose tree differs from a fresh parse without errors
                    fails (by default it is counted and the first inputs are saved)";

/// Failing inputs a worker saves.
const MAX_SAVED: u64 = 20;

// ------------------------------------------------------------------------------------ options

#[derive(Clone)]
struct Options {
    inputs: u64,
    seed: u64,
    corpus: Option<PathBuf>,
    jobs: usize,
    timeout_ms: u64,
    strict_incremental: bool,
    only: Option<u64>,
    replay: Option<PathBuf>,
    /// Internal: run inputs `start..start + count` as worker number `id`.
    worker: Option<(usize, u64, u64)>,
}

fn parse_options(args: Vec<String>) -> Result<Options, String> {
    let mut options = Options {
        inputs: 200_000,
        seed: 1,
        corpus: None,
        jobs: thread::available_parallelism().map_or(1, |n| n.get()),
        timeout_ms: 5000,
        strict_incremental: false,
        only: None,
        replay: None,
        worker: None,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        fn number(text: String) -> Result<u64, String> {
            text.replace('_', "").parse().map_err(|_| format!("not a number: {text}"))
        }
        match arg.as_str() {
            "--inputs" => options.inputs = number(value("--inputs")?)?,
            "--seed" => options.seed = number(value("--seed")?)?,
            "--corpus" => options.corpus = Some(value("--corpus")?.into()),
            "--jobs" => options.jobs = number(value("--jobs")?)?.max(1) as usize,
            "--timeout-ms" => options.timeout_ms = number(value("--timeout-ms")?)?,
            "--strict-incremental" => options.strict_incremental = true,
            "--only" => options.only = Some(number(value("--only")?)?),
            "--replay" => options.replay = Some(value("--replay")?.into()),
            "--worker" => {
                let id = number(value("--worker")?)? as usize;
                let start = number(value("--worker")?)?;
                let count = number(value("--worker")?)?;
                options.worker = Some((id, start, count));
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {arg}\n{USAGE}")),
        }
    }
    Ok(options)
}

pub fn main(args: Vec<String>) -> ExitCode {
    let options = match parse_options(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &options.replay {
        return replay(&options, path);
    }
    let corpus = Corpus::load(options.corpus.as_deref(), options.worker.is_none());
    if let Some(index) = options.only {
        return only(&options, &corpus, index);
    }
    match options.worker {
        Some((id, start, count)) => worker(&options, &corpus, id, start, count),
        None => parent(&options, &corpus),
    }
}

/// `target/mutate/`, next to the binary's `target/<profile>/`.
fn output_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).or_else(|| {
        let exe = std::env::current_exe().ok()?;
        Some(exe.parent()?.parent()?.to_path_buf())
    });
    let dir = target.unwrap_or_else(|| "target".into()).join("mutate");
    let _ = fs::create_dir_all(&dir);
    dir
}

// ------------------------------------------------------------------------------------ checks

/// What walking a tree found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Shape {
    /// A hash of the nodes' kinds and ranges, in order.
    fingerprint: u64,
    nodes: u64,
    depth: u64,
    has_error: bool,
}

/// The byte offset of each line's start.
fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1));
    starts
}

fn point_at(lines: &[usize], byte: usize) -> Point {
    let row = lines.partition_point(|&start| start <= byte) - 1;
    Point { row, column: byte - lines[row] }
}

/// Walks the tree, checking that every node lies within the text, its position agrees with its
/// byte offset, and that it lies within its parent and after its previous sibling.
fn walk(tree: &Tree, text: &[u8], language: &Language) -> Result<Shape, String> {
    let lines = line_starts(text);
    let kinds = language.node_kind_count() as u16;
    let mut cursor = tree.walk();
    // For each ancestor of the cursor's node: its range, and the end of the last child seen.
    let mut ancestors: Vec<(usize, usize, usize)> = Vec::new();
    let mut shape = Shape { fingerprint: 0xcbf2_9ce4_8422_2325, nodes: 0, depth: 0, has_error: false };
    loop {
        let node = cursor.node();
        let (start, end) = (node.start_byte(), node.end_byte());
        let depth = ancestors.len();
        let describe = || format!("{} {}..{} at depth {depth}", node.kind(), start, end);
        if start > end || end > text.len() {
            return Err(format!("range out of the input ({} bytes): {}", text.len(), describe()));
        }
        if node.start_position() != point_at(&lines, start) || node.end_position() != point_at(&lines, end) {
            return Err(format!(
                "position {}-{} does not match the byte range: {}",
                node.start_position(),
                node.end_position(),
                describe()
            ));
        }
        if node.kind_id() >= kinds && !node.is_error() {
            return Err(format!("unknown kind id {}: {}", node.kind_id(), describe()));
        }
        if node.is_missing() && start != end {
            return Err(format!("missing node with a width: {}", describe()));
        }
        if let Some((parent_start, parent_end, previous_end)) = ancestors.last_mut() {
            if start < *parent_start || end > *parent_end {
                return Err(format!("outside its parent {parent_start}..{parent_end}: {}", describe()));
            }
            if start < *previous_end {
                return Err(format!("overlaps its previous sibling (ends {previous_end}): {}", describe()));
            }
            *previous_end = end;
        }
        for value in [node.kind_id() as u64, start as u64, end as u64, node.is_missing() as u64] {
            shape.fingerprint = (shape.fingerprint ^ value).wrapping_mul(0x0100_0000_01b3);
        }
        shape.nodes += 1;
        shape.has_error |= node.is_error() || node.is_missing();
        if cursor.goto_first_child() {
            ancestors.push((start, end, start));
            shape.depth = shape.depth.max(ancestors.len() as u64);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                if shape.has_error != tree.root_node().has_error() {
                    return Err(format!("root has_error is {}", tree.root_node().has_error()));
                }
                return Ok(shape);
            }
            ancestors.pop();
        }
    }
}

/// An edit of `text`: the new text and the edit to give the old tree.
fn make_edit(rng: &mut Rng, text: &[u8]) -> (Vec<u8>, InputEdit) {
    let start = position(rng, text);
    let removed = log_uniform(rng, (text.len() - start).min(64));
    let inserted: Vec<u8> = match rng.u32(..4) {
        0 => Vec::new(),
        1 => {
            let (a, b) = slice(rng, text, 64);
            text[a..b].to_vec()
        }
        _ => FRAGMENTS[rng.usize(..FRAGMENTS.len())].to_vec(),
    };
    let mut new_text = text[..start].to_vec();
    new_text.extend_from_slice(&inserted);
    new_text.extend_from_slice(&text[start + removed..]);
    let edit = edit_between(text, &new_text, start, start + removed, start + inserted.len());
    (new_text, edit)
}

fn edit_between(old: &[u8], new: &[u8], start: usize, old_end: usize, new_end: usize) -> InputEdit {
    let (old_lines, new_lines) = (line_starts(old), line_starts(new));
    InputEdit {
        start_byte: start,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point_at(&old_lines, start),
        old_end_position: point_at(&old_lines, old_end),
        new_end_position: point_at(&new_lines, new_end),
    }
}

#[derive(Default, Clone, Copy)]
struct Stats {
    inputs: u64,
    bytes: u64,
    mutated: u64,
    generated: u64,
    with_errors: u64,
    nodes: u64,
    max_depth: u64,
    chunked: u64,
    incremental: u64,
    /// Incremental re-parses whose tree differs from a fresh parse that has errors (allowed:
    /// error recovery may take another path when it reuses subtrees).
    divergent_with_errors: u64,
    /// Incremental re-parses whose tree differs from a fresh parse without errors: a failure
    /// with `--strict-incremental`. Tree-sitter reuses a subtree whose reduction depended on a
    /// token after it when that token is still valid after it, and Puppet's statements need no
    /// separator: `if $x {}` + `else {}` typed as `elsdefine {}` and back keeps the `if` and an
    /// `else {}` resource override.
    divergent: u64,
    failures: u64,
    slowest_us: u64,
}

impl Stats {
    fn fields(&mut self) -> [(&'static str, &mut u64); 13] {
        [
            ("inputs", &mut self.inputs),
            ("bytes", &mut self.bytes),
            ("mutated", &mut self.mutated),
            ("generated", &mut self.generated),
            ("with_errors", &mut self.with_errors),
            ("nodes", &mut self.nodes),
            ("max_depth", &mut self.max_depth),
            ("chunked", &mut self.chunked),
            ("incremental", &mut self.incremental),
            ("divergent_with_errors", &mut self.divergent_with_errors),
            ("divergent", &mut self.divergent),
            ("failures", &mut self.failures),
            ("slowest_us", &mut self.slowest_us),
        ]
    }

    /// The worker's report of its counts since its last one, up to input `next`.
    fn report(&mut self, next: u64) -> String {
        let fields = self.fields().map(|(name, value)| format!("{name}={value}"));
        let line = format!("STATS next={next} {}", fields.join(" "));
        *self = Stats::default();
        line
    }

    /// Adds a worker's report; returns the input it runs up to.
    fn add_line(&mut self, line: &str) -> Option<u64> {
        let rest = line.strip_prefix("STATS next=")?;
        let (next, rest) = rest.split_once(' ')?;
        let mut other = Stats::default();
        for pair in rest.split(' ') {
            let Some((name, value)) = pair.split_once('=') else {
                continue;
            };
            for (field, total) in other.fields() {
                if field == name {
                    *total = value.parse().unwrap_or(0);
                }
            }
        }
        self.add(&other);
        next.parse().ok()
    }

    fn add(&mut self, other: &Stats) {
        let mut other = *other;
        for ((name, total), (_, value)) in self.fields().into_iter().zip(other.fields()) {
            if matches!(name, "max_depth" | "slowest_us") {
                *total = (*total).max(*value);
            } else {
                *total += *value;
            }
        }
    }

    fn count(&mut self, input: &Input) {
        self.inputs += 1;
        self.bytes += input.bytes.len() as u64;
        if input.kind == "mutated" {
            self.mutated += 1;
        } else {
            self.generated += 1;
        }
    }
}

/// A parser with a time limit, and the checks run on each input.
struct Checker {
    parser: Parser,
    language: Language,
    timeout: Duration,
    stats: Stats,
    /// Print the trees that differ.
    verbose: bool,
    /// An incremental parse that differs from a fresh one without errors is a failure.
    strict_incremental: bool,
    /// The last such difference when it is not a failure.
    divergence: Option<String>,
}

impl Checker {
    fn new(options: &Options) -> Checker {
        let language: Language = tree_sitter_puppet::LANGUAGE.into();
        let mut parser = Parser::new();
        parser.set_language(&language).expect("the grammar's ABI matches the tree-sitter library");
        Checker {
            parser,
            language,
            timeout: Duration::from_millis(options.timeout_ms),
            stats: Stats::default(),
            verbose: false,
            strict_incremental: options.strict_incremental,
            divergence: None,
        }
    }

    /// Parses `text`, handing it to the parser `chunk` bytes at a time (0: all at once).
    fn parse(&mut self, text: &[u8], old: Option<&Tree>, chunk: usize) -> Result<Tree, String> {
        let started = Instant::now();
        let timeout = self.timeout;
        let mut progress = |_: &ParseState| {
            if started.elapsed() > timeout {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = ParseOptions::new().progress_callback(&mut progress);
        let mut read = |offset: usize, _: Point| {
            let end = if chunk == 0 { text.len() } else { (offset + chunk).min(text.len()) };
            if offset < end {
                &text[offset..end]
            } else {
                &[][..]
            }
        };
        let tree = self.parser.parse_with_options(&mut read, old, Some(options));
        let elapsed = started.elapsed();
        self.stats.slowest_us = self.stats.slowest_us.max(elapsed.as_micros() as u64);
        tree.ok_or_else(|| {
            self.parser.reset();
            if elapsed > timeout {
                format!("timeout: the parse took over {} ms", timeout.as_millis())
            } else {
                "the parser returned no tree".to_string()
            }
        })
    }

    /// Runs every check on one input. The error names the check that failed.
    fn check(&mut self, text: &[u8], rng: &mut Rng) -> Result<(), String> {
        let tree = self.parse(text, None, 0)?;
        let shape = walk(&tree, text, &self.language).map_err(|e| format!("fresh parse: {e}"))?;
        self.stats.nodes += shape.nodes;
        self.stats.max_depth = self.stats.max_depth.max(shape.depth);
        self.stats.with_errors += shape.has_error as u64;

        if rng.u32(..10) == 0 {
            self.stats.chunked += 1;
            // The lexer decodes a code point split between chunks only if the next chunk holds
            // the rest of it: chunks of 1 to 3 bytes would turn characters into decoding errors.
            let tiny = rng.bool() && text.is_ascii();
            let chunk = if tiny { rng.usize(1..4) } else { rng.usize(4..256) };
            let chunked = self.parse(text, None, chunk)?;
            let chunked_shape =
                walk(&chunked, text, &self.language).map_err(|e| format!("parse in {chunk}-byte chunks: {e}"))?;
            if chunked_shape != shape {
                return Err(format!("the parse in {chunk}-byte chunks gives another tree"));
            }
        }

        if rng.u32(..8) == 0 {
            self.stats.incremental += 1;
            let (new_text, edit) = make_edit(rng, text);
            let what = format!(
                "edit {}..{} -> {}..{}",
                edit.start_byte, edit.old_end_byte, edit.start_byte, edit.new_end_byte
            );
            let mut edited = tree.clone();
            edited.edit(&edit);
            let reparsed = self.parse(&new_text, Some(&edited), 0)?;
            let reparsed_shape = walk(&reparsed, &new_text, &self.language)
                .map_err(|e| format!("incremental parse after {what}: {e}"))?;
            // Comparing trees takes time quadratic in their depth (seconds for 5,000 levels).
            if shape.depth.max(reparsed_shape.depth) <= 500 {
                for range in edited.changed_ranges(&reparsed) {
                    if range.start_byte > range.end_byte || range.end_byte > new_text.len() {
                        return Err(format!("changed range {range:?} out of the input after {what}"));
                    }
                }
            }
            let fresh = self.parse(&new_text, None, 0)?;
            let fresh_shape = walk(&fresh, &new_text, &self.language)
                .map_err(|e| format!("fresh parse of the edited text ({what}): {e}"))?;
            self.compare((&reparsed, &reparsed_shape), (&fresh, &fresh_shape), || {
                format!("incremental parse after {what}")
            })?;

            // Undo the edit: back to the first tree.
            let mut undone = reparsed.clone();
            undone.edit(&edit_between(&new_text, text, edit.start_byte, edit.new_end_byte, edit.old_end_byte));
            let back = self.parse(text, Some(&undone), 0)?;
            let back_shape =
                walk(&back, text, &self.language).map_err(|e| format!("incremental parse undoing {what}: {e}"))?;
            if self.verbose {
                println!("edited text: {}", escape(&new_text, 2000));
            }
            self.compare((&back, &back_shape), (&tree, &shape), || format!("incremental parse undoing {what}"))?;
        }
        Ok(())
    }

    /// An incremental parse must give the fresh parse's tree when that has no error.
    fn compare(
        &mut self,
        (incremental_tree, incremental): (&Tree, &Shape),
        (fresh_tree, fresh): (&Tree, &Shape),
        what: impl Fn() -> String,
    ) -> Result<(), String> {
        if incremental.fingerprint == fresh.fingerprint {
            return Ok(());
        }
        if self.verbose {
            println!("{}:", what());
            println!("  incremental: {}", incremental_tree.root_node().to_sexp());
            println!("  fresh:       {}", fresh_tree.root_node().to_sexp());
        }
        if fresh.has_error {
            self.stats.divergent_with_errors += 1;
            return Ok(());
        }
        let message = format!("{} gives another tree than a fresh parse, which has no error", what());
        if self.strict_incremental {
            return Err(message);
        }
        self.stats.divergent += 1;
        self.divergence = Some(message);
        Ok(())
    }
}

// ------------------------------------------------------------------------------------ runs

/// Saves a failing input under `target/mutate/` and returns its path.
fn save(seed: u64, index: u64, bytes: &[u8], what: &str) -> PathBuf {
    let dir = output_dir();
    let path = dir.join(format!("seed{seed}-input{index}.pp"));
    let _ = fs::write(&path, bytes);
    let note = format!("{what}\nreproduce: cargo xtask fuzz mutate --seed {seed} --only {index} [--corpus FILE]\n");
    let _ = fs::write(dir.join(format!("seed{seed}-input{index}.txt")), note);
    path
}

/// How long one input may take in all before the watchdog stops its worker: its parses each have
/// a time limit, but a loop in the scanner never reaches the parser's progress callback.
fn watchdog_ms(options: &Options) -> u64 {
    options.timeout_ms.saturating_mul(4).max(10_000)
}

fn worker(options: &Options, corpus: &Corpus, id: usize, start: u64, count: u64) -> ExitCode {
    let seed = options.seed;
    let trace = fs::File::create(output_dir().join(format!("worker{id}.trace"))).ok();
    // The input being parsed and when it started, for the watchdog.
    let current = Arc::new(AtomicU64::new(u64::MAX));
    let since = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    {
        // The supervising process saves the input.
        let (current, since) = (current.clone(), since.clone());
        let limit = watchdog_ms(options);
        thread::spawn(move || loop {
            thread::sleep(Duration::from_millis(500));
            let index = current.load(Ordering::SeqCst);
            let started = since.load(Ordering::SeqCst);
            let now = epoch.elapsed().as_millis() as u64;
            if index != u64::MAX && now.saturating_sub(started) > limit {
                println!("HANG {index}");
                std::process::exit(3);
            }
        });
    }

    let mut checker = Checker::new(options);
    let (mut failures, mut divergences) = (0, 0);
    for index in start..start + count {
        if let Some(trace) = &trace {
            let _ = trace.write_all_at(format!("{index:020}\n").as_bytes(), 0);
        }
        let input = make_input(seed, index, corpus);
        since.store(epoch.elapsed().as_millis() as u64, Ordering::SeqCst);
        current.store(index, Ordering::SeqCst);
        let mut rng = rng_for(seed, index, 1);
        let result = checker.check(&input.bytes, &mut rng);
        current.store(u64::MAX, Ordering::SeqCst);

        checker.stats.count(&input);
        if let Some(message) = checker.divergence.take() {
            divergences += 1;
            let what = format!("input {index} ({}): {message}", input.kind);
            if divergences <= MAX_SAVED {
                let path = save(seed, index, &input.bytes, &what);
                eprintln!("DIVERGENCE {what}; saved as {}", path.display());
            }
        }
        if let Err(message) = result {
            checker.stats.failures += 1;
            failures += 1;
            let what = format!("input {index} ({}, {} bytes): {message}", input.kind, input.bytes.len());
            if failures <= MAX_SAVED {
                let path = save(seed, index, &input.bytes, &what);
                eprintln!("FAIL {what}; saved as {}", path.display());
            } else {
                eprintln!("FAIL {what}");
            }
        }
        let done = index + 1 - start;
        if done.is_multiple_of(10_000) || done == count {
            println!("{}", checker.stats.report(index + 1));
        }
        if id == 0 && done.is_multiple_of((count / 10).max(1)) {
            eprintln!("mutate: worker 0 at {}% ({:.0?})", done * 100 / count, epoch.elapsed());
        }
    }
    if failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs inputs `start..end` in worker processes: when one dies (a crash or an abort in C) or
/// hangs, saves the input it was on, counts it as a failure and goes on with the others.
fn supervise(options: &Options, corpus: &Corpus, id: usize, start: u64, end: u64) -> Stats {
    let exe = std::env::current_exe().expect("the path of this program");
    let trace_path = output_dir().join(format!("worker{id}.trace"));
    let mut stats = Stats::default();
    let mut ranges = vec![(start, end)];
    while let Some((start, end)) = ranges.pop() {
        let _ = fs::remove_file(&trace_path);
        let mut command = Command::new(&exe);
        // This program is `xtask`: the worker is its `fuzz mutate` subcommand.
        command
            .args(["fuzz", "mutate"])
            .args(["--seed", &options.seed.to_string(), "--timeout-ms", &options.timeout_ms.to_string()])
            .args(["--worker", &id.to_string(), &start.to_string(), &(end - start).to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(corpus) = &options.corpus {
            command.arg("--corpus").arg(corpus);
        }
        if options.strict_incremental {
            command.arg("--strict-incremental");
        }
        let output = command.output().expect("running a worker");
        let mut next = start;
        let mut hang = false;
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            if let Some(done) = stats.add_line(line) {
                next = done;
            }
            hang |= line.starts_with("HANG ");
        }
        if next >= end {
            continue;
        }
        // The worker stopped early: its trace names the input it was on.
        let trace = fs::read_to_string(&trace_path).unwrap_or_default();
        let index = match trace.trim().parse::<u64>() {
            Ok(index) if (next..end).contains(&index) => index,
            _ => {
                println!("worker {id}: stopped ({}) at no known input after {next}", output.status);
                stats.failures += 1;
                continue;
            }
        };
        let input = make_input(options.seed, index, corpus);
        let what = if hang {
            format!("hang: input {index} ({}) ran over the watchdog's limit of {} ms", input.kind, watchdog_ms(options))
        } else {
            format!("crash ({}): input {index} ({})", output.status, input.kind)
        };
        let path = save(options.seed, index, &input.bytes, &what);
        println!("worker {id}: FAIL {what}; saved as {}", path.display());
        stats.count(&input);
        stats.failures += 1;
        // The inputs after it, and those before it whose counts the worker had not reported.
        if index + 1 < end {
            ranges.push((index + 1, end));
        }
        if next < index {
            ranges.push((next, index));
        }
    }
    stats
}

fn parent(options: &Options, corpus: &Corpus) -> ExitCode {
    let started = Instant::now();
    let jobs = (options.jobs as u64).min(options.inputs.max(1)) as usize;
    println!(
        "mutate: seed {}, {} inputs, corpus of {}, {} workers, parse time limit {} ms",
        options.seed, options.inputs, corpus.description, jobs, options.timeout_ms
    );
    // Only the last run's failing inputs are kept.
    if let Ok(entries) = fs::read_dir(output_dir()) {
        for entry in entries.flatten() {
            let _ = fs::remove_file(entry.path());
        }
    }
    let mut stats = Stats::default();
    thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|id| {
                let start = options.inputs * id as u64 / jobs as u64;
                let end = options.inputs * (id as u64 + 1) / jobs as u64;
                scope.spawn(move || supervise(options, corpus, id, start, end))
            })
            .collect();
        for handle in handles {
            stats.add(&handle.join().expect("a supervising thread"));
        }
    });

    let seconds = started.elapsed().as_secs_f64();
    let percent = |n: u64| 100.0 * n as f64 / stats.inputs.max(1) as f64;
    println!("inputs               {:>12}", stats.inputs);
    println!("  mutated corpus     {:>12}", stats.mutated);
    println!("  generated          {:>12}", stats.generated);
    println!("bytes                {:>12} ({:.1} MiB)", stats.bytes, stats.bytes as f64 / 1048576.0);
    println!("inputs with errors   {:>12} ({:.1}%)", stats.with_errors, percent(stats.with_errors));
    println!("nodes walked         {:>12} (deepest {})", stats.nodes, stats.max_depth);
    println!("chunked re-parses    {:>12}", stats.chunked);
    println!(
        "incremental re-parses{:>12} (divergent from a fresh parse: {} without errors, {} with)",
        stats.incremental, stats.divergent, stats.divergent_with_errors
    );
    println!("slowest parse        {:>12.1} ms", stats.slowest_us as f64 / 1000.0);
    println!("failures             {:>12}", stats.failures);
    println!("time                 {:>12.1} s ({:.0} inputs/s)", seconds, stats.inputs as f64 / seconds);
    if stats.failures > 0 || stats.inputs != options.inputs {
        println!("FAILED; failing inputs are in {}", output_dir().display());
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Re-runs one input in this process, describing it.
fn only(options: &Options, corpus: &Corpus, index: u64) -> ExitCode {
    let input = make_input(options.seed, index, corpus);
    println!("input {index} of seed {} ({}, {} bytes):", options.seed, input.kind, input.bytes.len());
    println!("{}", escape(&input.bytes, 2000));
    let mut checker = Checker::new(options);
    checker.verbose = true;
    let result = checker.check(&input.bytes, &mut rng_for(options.seed, index, 1));
    report(&mut checker, &input.bytes, result)
}

/// Checks a saved input, also with a few chunk sizes and edits of its own.
fn replay(options: &Options, path: &Path) -> ExitCode {
    let Ok(bytes) = fs::read(path) else {
        eprintln!("cannot read {}", path.display());
        return ExitCode::from(2);
    };
    let mut checker = Checker::new(options);
    checker.verbose = true;
    let mut result = Ok(());
    for round in 0..16 {
        result = checker.check(&bytes, &mut rng_for(options.seed, round, 1));
        if result.is_err() {
            break;
        }
    }
    report(&mut checker, &bytes, result)
}

fn report(checker: &mut Checker, bytes: &[u8], result: Result<(), String>) -> ExitCode {
    let started = Instant::now();
    if let Ok(tree) = checker.parse(bytes, None, 0) {
        println!("parse: {:.1?}", started.elapsed());
        let sexp = tree.root_node().to_sexp();
        println!("tree: {}", sexp.get(..4000).unwrap_or(&sexp));
    }
    if let Some(message) = checker.divergence.take() {
        println!("DIVERGENCE {message}");
    }
    match result {
        Ok(()) => {
            println!("ok");
            ExitCode::SUCCESS
        }
        Err(message) => {
            println!("FAIL {message}");
            ExitCode::from(1)
        }
    }
}

/// Bytes as a Rust byte-string literal's content, cut at `max` bytes.
fn escape(bytes: &[u8], max: usize) -> String {
    let mut s: String = bytes[..bytes.len().min(max)].escape_ascii().to_string();
    if bytes.len() > max {
        let _ = write!(s, "… ({} more bytes)", bytes.len() - max);
    }
    s
}
