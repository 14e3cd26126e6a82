//! `poppet-bench-shell`: what the interactive shell spends per keystroke on its input, which
//! it highlights again in full after every key (`poppet::shell::highlight`).
//!
//! ```text
//! poppet-bench-shell [--runs N] [--lines 200,20] [--file FILE] [--json]
//! ```
//!
//! The input is `bench/shell/input.pp` (200 lines of a real manifest, built into the binary)
//! or `--file`. For each size N of `--lines`, the first N lines are the buffer, and its last
//! line is typed a key at a time: each keystroke's buffer is the N - 1 lines before it plus
//! that line up to the key. The timed keystrokes go round these buffers. Per keystroke the
//! shell's line editor asks for the bracket pair at the cursor (`matching_bracket`) and the
//! painted buffer (`Highlighter::paint` with `Theme::dark`): that is the `keystroke` row;
//! `paint` and `spans` time the highlighting alone, and `brackets` the bracket matching when
//! there is a bracket at the cursor (it parses the buffer; otherwise it returns at once,
//! as after most keys). Each keystroke is timed by itself after
//! one untimed pass over the buffers; the table gives the median, the 99th percentile, the
//! best and the worst. Reports only; asserts nothing about the timings.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use poppet::shell::highlight::{matching_bracket, Highlighter, Theme};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The default input: 200 lines of a real manifest.
const INPUT: &str = include_str!("../input.pp");

/// What is timed per keystroke: name, and what it does.
const OPERATIONS: &[(&str, &str)] = &[
    (
        "keystroke",
        "matching_bracket at the cursor, then paint with Theme::dark: the shell's work per key",
    ),
    ("paint", "Highlighter::paint with Theme::dark, no bracket pair"),
    ("spans", "Highlighter::spans: the captures, without painting"),
    (
        "brackets",
        "matching_bracket with the cursor after the buffer's last bracket: the keys after which it parses",
    ),
];

#[derive(Parser)]
#[command(
    name = "poppet-bench-shell",
    about = "Time the shell's highlighting per keystroke"
)]
struct Args {
    /// Timed keystrokes per operation and input size
    #[arg(long, default_value_t = 2000)]
    runs: usize,
    /// Input sizes in lines: the first N lines of the input, the last of them typed
    #[arg(long, value_delimiter = ',', default_value = "200,20")]
    lines: Vec<usize>,
    /// Take the input from FILE instead of bench/shell/input.pp
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print only the JSON lines
    #[arg(long)]
    json: bool,
}

/// The timings of one operation on one input size, in milliseconds.
struct Row {
    lines: usize,
    bytes: usize,
    keystrokes: usize,
    operation: &'static str,
    median: f64,
    p99: f64,
    best: f64,
    worst: f64,
    runs: usize,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if cfg!(debug_assertions) {
        eprintln!("warning: poppet-bench-shell is a debug build; its numbers mean little (use --release)");
    }
    let (input, input_name) = match &args.file {
        None => (INPUT.to_owned(), "bench/shell/input.pp".to_owned()),
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => (text, path.display().to_string()),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
    };
    if args.runs == 0 {
        eprintln!("--runs must be at least 1");
        return ExitCode::from(2);
    }
    let highlighter = Highlighter::new();
    let theme = Theme::dark();
    let mut rows = Vec::new();
    for &lines in &args.lines {
        let buffers = match keystrokes(&input, lines) {
            Ok(buffers) => buffers,
            Err(e) => {
                eprintln!("{input_name}: {e}");
                return ExitCode::from(2);
            }
        };
        for &(operation, _) in OPERATIONS {
            let mut times = measure(operation, &buffers, args.runs, &highlighter, &theme);
            times.sort_by(f64::total_cmp);
            let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
            rows.push(Row {
                lines,
                bytes: buffers.last().map_or(0, String::len),
                keystrokes: buffers.len(),
                operation,
                median: at(0.5),
                p99: at(0.99),
                best: times[0],
                worst: times[times.len() - 1],
                runs: times.len(),
            });
        }
    }
    if !args.json {
        print_table(&input_name, args.runs, &rows);
    }
    for row in &rows {
        let json = serde_json::json!({
            "input": input_name, "lines": row.lines, "bytes": row.bytes,
            "keystrokes": row.keystrokes, "operation": row.operation, "runs": row.runs,
            "median_ms": row.median, "p99_ms": row.p99, "best_ms": row.best, "max_ms": row.worst,
        });
        println!("{json}");
    }
    ExitCode::SUCCESS
}

/// The buffers of typing the last of the first `lines` lines of `text`, a key (a character)
/// at a time after its indentation.
fn keystrokes(text: &str, lines: usize) -> Result<Vec<String>, String> {
    let all: Vec<&str> = text.lines().collect();
    if lines == 0 || lines > all.len() {
        return Err(format!("has {} lines, not {lines}", all.len()));
    }
    let mut before = String::new();
    for line in &all[..lines - 1] {
        before.push_str(line);
        before.push('\n');
    }
    let last = all[lines - 1];
    let indent = last.len() - last.trim_start().len();
    let buffers: Vec<String> = last
        .char_indices()
        .map(|(at, c)| at + c.len_utf8())
        .filter(|&end| end > indent)
        .map(|end| format!("{before}{}", &last[..end]))
        .collect();
    if buffers.is_empty() {
        return Err(format!("line {lines} is blank: nothing to type"));
    }
    Ok(buffers)
}

/// `runs` timings of `operation`, in milliseconds, going round `buffers` with the cursor at
/// the end; after one untimed pass.
fn measure(
    operation: &str,
    buffers: &[String],
    runs: usize,
    highlighter: &Highlighter,
    theme: &Theme,
) -> Vec<f64> {
    let run = |buffer: &str| match operation {
        "keystroke" => {
            let pair = matching_bracket(buffer, buffer.len());
            black_box(highlighter.paint(buffer, theme, pair)).len()
        }
        "paint" => black_box(highlighter.paint(buffer, theme, None)).len(),
        "spans" => black_box(highlighter.spans(buffer)).len(),
        _ => {
            let cursor = buffer.rfind(['(', ')', '[', ']', '{', '}']).map_or(0, |at| at + 1);
            usize::from(black_box(matching_bracket(buffer, cursor)).is_some())
        }
    };
    for buffer in buffers {
        black_box(run(buffer));
    }
    (0..runs)
        .map(|i| {
            let buffer = &buffers[i % buffers.len()];
            let start = Instant::now();
            black_box(run(buffer));
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

fn print_table(input_name: &str, runs: usize, rows: &[Row]) {
    println!(
        "The shell's work per keystroke, typing the last of the first N lines of {input_name}; {runs} timed keystrokes per row, ms:"
    );
    println!();
    println!("| lines | bytes | keys typed | operation | median | p99 | best | worst |");
    println!("| ----: | ----: | ---------: | --------- | -----: | --: | ---: | ----: |");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
            r.lines, r.bytes, r.keystrokes, r.operation, r.median, r.p99, r.best, r.worst
        );
    }
    println!();
    for (name, what) in OPERATIONS {
        println!("- {name}: {what}");
    }
    println!();
}
