//! `poppet-bench-shell`: what the interactive shell spends per keystroke on its input, which
//! it highlights again in full after every key (`poppet::shell::highlight`).
//!
//! ```text
//! poppet-bench-shell [--runs N] [--lines 200,20] [--places last,inside] [--file FILE] [--json]
//! ```
//!
//! The input is `bench/shell/input.pp` (200 lines of a real manifest, built into the binary)
//! or `--file`. For each size N of `--lines`, the first N lines are the buffer, and one line
//! is typed a key at a time. At the place `last`, the last line (a statement of its own):
//! each keystroke's buffer is the N - 1 lines before it plus that line up to the key. At the
//! place `inside`, the N lines are the body of one class, and the middle line is typed, the
//! lines after it in place: a key inside one long statement. The timed keystrokes go round
//! these buffers. Per keystroke the
//! shell's line editor asks for the bracket pair at the cursor (`matching_bracket`) and the
//! painted buffer (`Highlighter::paint` with `Theme::dark`): that is the `keystroke` row;
//! `paint` and `spans` time the highlighting alone, and `brackets` the bracket matching when
//! there is a bracket at the cursor (otherwise it returns at once, as after most keys; it
//! parses from the previous key's tree). `repaint` is the line editor's whole work per key
//! (`poppet::shell::editor::View::draw`): the highlighting and bracket pair, the frame's
//! painted lines with their prompts, and the terminal bytes that turn the previous key's frame
//! into this one (only the lines that changed), written to a sink. An input of more lines
//! than the file has is the file repeated. Each keystroke is timed by itself after
//! one untimed pass over the buffers; the table gives the median, the 99th percentile, the
//! best and the worst of the wall-clock times, and the median and 99th percentile of the
//! thread's CPU times, which leave out the time other processes took the core. Reports only;
//! asserts nothing about the timings.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use std::rc::Rc;

use clap::Parser;
use poppet::shell::editor::{Scene, View};
use poppet::shell::highlight::{matching_bracket, Highlighter, Theme};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The default input: 200 lines of a real manifest.
const INPUT: &str = include_str!("input.pp");

/// What is timed per keystroke: name, and what it does.
const OPERATIONS: &[(&str, &str)] = &[
    ("keystroke", "matching_bracket at the cursor, then paint with Theme::dark: the shell's work per key"),
    ("paint", "Highlighter::paint with Theme::dark, no bracket pair"),
    ("spans", "Highlighter::spans: the captures, without painting"),
    (
        "brackets",
        "matching_bracket with the cursor after the buffer's last bracket: it parses the edit since the previous key",
    ),
    (
        "repaint",
        "the line editor's frame after the key (highlighting, prompts, the lines that changed since the previous key's frame) written to a sink",
    ),
];

#[derive(Parser)]
#[command(name = "poppet-bench-shell", about = "Time the shell's highlighting per keystroke")]
struct Args {
    /// Timed keystrokes per operation and input size
    #[arg(long, default_value_t = 2000)]
    runs: usize,
    /// Input sizes in lines: the first N lines of the input, the last of them typed
    #[arg(long, value_delimiter = ',', default_value = "200,20")]
    lines: Vec<usize>,
    /// Where the typed line is: `last` (a statement of its own, at the end), `inside` (the
    /// middle line of one N-line class)
    #[arg(long, value_delimiter = ',', default_value = "last,inside")]
    places: Vec<Place>,
    /// Take the input from FILE instead of bench/shell/input.pp
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print only the JSON lines
    #[arg(long)]
    json: bool,
    /// Times the shell is started to its first prompt (0: not measured)
    #[arg(long, default_value_t = 20)]
    startup: usize,
}

/// Where the line typed is.
#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum Place {
    /// The last line, a statement of its own.
    Last,
    /// The middle line of one class of N lines.
    Inside,
}

impl Place {
    fn name(self) -> &'static str {
        match self {
            Place::Last => "last",
            Place::Inside => "inside",
        }
    }
}

/// The timings of one operation on one input size, in milliseconds.
struct Row {
    lines: usize,
    place: Place,
    bytes: usize,
    keystrokes: usize,
    operation: &'static str,
    median: f64,
    p99: f64,
    best: f64,
    worst: f64,
    cpu_median: f64,
    cpu_p99: f64,
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
    let highlighter = Rc::new(Highlighter::new());
    let theme = Theme::dark();
    let mut rows = Vec::new();
    for (&lines, &place) in args.lines.iter().flat_map(|n| args.places.iter().map(move |p| (n, p))) {
        let buffers = match keystrokes(&input, lines, place) {
            Ok(buffers) => buffers,
            Err(e) => {
                eprintln!("{input_name}: {e}");
                return ExitCode::from(2);
            }
        };
        for &(operation, _) in OPERATIONS {
            let (mut times, mut cpu) = measure(operation, &buffers, args.runs, &highlighter, &theme);
            times.sort_by(f64::total_cmp);
            cpu.sort_by(f64::total_cmp);
            let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
            let cpu_at = |q: f64| cpu[((cpu.len() - 1) as f64 * q).round() as usize];
            rows.push(Row {
                lines,
                place,
                bytes: buffers.last().map_or(0, |(buffer, _)| buffer.len()),
                keystrokes: buffers.len(),
                operation,
                median: at(0.5),
                p99: at(0.99),
                best: times[0],
                worst: times[times.len() - 1],
                cpu_median: cpu_at(0.5),
                cpu_p99: cpu_at(0.99),
                runs: times.len(),
            });
        }
    }
    if !args.json {
        print_table(&input_name, args.runs, &rows);
    }
    for row in &rows {
        let json = serde_json::json!({
            "input": input_name, "lines": row.lines, "place": row.place.name(), "bytes": row.bytes,
            "keystrokes": row.keystrokes, "operation": row.operation, "runs": row.runs,
            "median_ms": row.median, "p99_ms": row.p99, "best_ms": row.best, "max_ms": row.worst,
            "cpu_median_ms": row.cpu_median, "cpu_p99_ms": row.cpu_p99,
        });
        println!("{json}");
    }
    if args.startup > 0 {
        match startup(args.startup) {
            Ok(times) => print_startup(&times, args.json),
            Err(e) => {
                eprintln!("startup: {e}");
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}

/// The buffers of typing a line of the first `lines` lines of `text` (repeated when it has
/// fewer), a key (a character) at a time after its indentation, with the cursor after the
/// key: the last line (`Place::Last`), or the middle line of the lines made one class's body
/// (`Place::Inside`).
fn keystrokes(text: &str, lines: usize, place: Place) -> Result<Vec<(String, usize)>, String> {
    let once: Vec<&str> = text.lines().collect();
    if lines == 0 || once.is_empty() {
        return Err(format!("has {} lines, not {lines}", once.len()));
    }
    let all: Vec<&str> = once.iter().copied().cycle().take(lines).collect();
    let (typed, mut before, after) = match place {
        Place::Last => (lines - 1, String::new(), String::new()),
        Place::Inside => {
            // The middle line, or the first one after it with at least 20 characters to type
            // that opens and closes no bracket (a whole attribute or statement).
            let whole = |line: &str| {
                let count = |set: &[char]| line.chars().filter(|c| set.contains(c)).count();
                line.trim().len() >= 20 && count(&['{', '[', '(']) == 0 && count(&['}', ']', ')']) == 0
            };
            let typed = (lines / 2..lines).find(|&i| whole(all[i])).unwrap_or(lines / 2);
            let after: String = all[typed + 1..].iter().map(|line| format!("  {line}\n")).collect();
            (typed, "class shell_bench {\n".to_owned(), format!("\n{after}}}\n"))
        }
    };
    let indent = if place == Place::Inside { "  " } else { "" };
    for line in &all[..typed] {
        before.push_str(indent);
        before.push_str(line);
        before.push('\n');
    }
    let line = all[typed];
    let skip = line.len() - line.trim_start().len();
    let buffers: Vec<(String, usize)> = line
        .char_indices()
        .map(|(at, c)| at + c.len_utf8())
        .filter(|&end| end > skip)
        .map(|end| {
            let buffer = format!("{before}{indent}{}", &line[..end]);
            let cursor = buffer.len();
            (format!("{buffer}{after}"), cursor)
        })
        .collect();
    if buffers.is_empty() {
        return Err(format!("line {} is blank: nothing to type", typed + 1));
    }
    Ok(buffers)
}

/// `runs` timings of `operation`, wall clock and the thread's CPU time in milliseconds,
/// going round `buffers`, each with its cursor; after one untimed pass.
fn measure(
    operation: &str,
    buffers: &[(String, usize)],
    runs: usize,
    highlighter: &Rc<Highlighter>,
    theme: &Theme,
) -> (Vec<f64>, Vec<f64>) {
    let mut view = View::new(highlighter.clone(), true, 100);
    let mut out = String::new();
    let mut run = |(buffer, cursor): &(String, usize)| match operation {
        "repaint" => {
            out.clear();
            let scene = Scene { prompt: "poppet> ", text: buffer, cursor: *cursor, hint: None, brackets: true };
            view.draw(&scene, &mut out);
            let _ = std::io::Write::write_all(&mut std::io::sink(), black_box(out.as_bytes()));
            out.len()
        }
        "keystroke" => {
            let pair = matching_bracket(buffer, *cursor);
            black_box(highlighter.paint(buffer, theme, pair)).len()
        }
        "paint" => black_box(highlighter.paint(buffer, theme, None)).len(),
        "spans" => black_box(highlighter.spans(buffer)).len(),
        _ => {
            let cursor = buffer[..*cursor].rfind(['(', ')', '[', ']', '{', '}']).map_or(0, |at| at + 1);
            usize::from(black_box(matching_bracket(buffer, cursor)).is_some())
        }
    };
    for buffer in buffers {
        black_box(run(buffer));
    }
    (0..runs)
        .map(|i| {
            let buffer = &buffers[i % buffers.len()];
            let (start, start_cpu) = (Instant::now(), thread_cpu_ms());
            black_box(run(buffer));
            let cpu = thread_cpu_ms() - start_cpu;
            (start.elapsed().as_secs_f64() * 1e3, cpu)
        })
        .unzip()
}

/// The CPU time this thread has used, in milliseconds.
fn thread_cpu_ms() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 * 1e-6
}

fn print_table(input_name: &str, runs: usize, rows: &[Row]) {
    println!(
        "The shell's work per keystroke, typing a line of the first N lines of {input_name} (the last, or the middle one of one class); {runs} timed keystrokes per row, ms:"
    );
    println!();
    println!(
        "| lines | line typed | bytes | keys typed | operation | median | p99 | best | worst | CPU median | CPU p99 |"
    );
    println!(
        "| ----: | ---------- | ----: | ---------: | --------- | -----: | --: | ---: | ----: | ---------: | ------: |"
    );
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            r.lines,
            r.place.name(),
            r.bytes,
            r.keystrokes,
            r.operation,
            r.median,
            r.p99,
            r.best,
            r.worst,
            r.cpu_median,
            r.cpu_p99
        );
    }
    println!();
    for (name, what) in OPERATIONS {
        println!("- {name}: {what}");
    }
    println!();
}

/// Starts `poppet --quiet --no-init` (the binary beside this one) on a pseudo-terminal `runs`
/// times and measures the time to its first prompt, in milliseconds, sorted.
fn startup(runs: usize) -> Result<Vec<f64>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let poppet = exe.with_file_name("poppet");
    if !poppet.is_file() {
        return Err(format!("{} is missing: build it (cargo build --release -p poppet)", poppet.display()));
    }
    let home = std::env::temp_dir().join(format!("poppet-bench-shell-{}", std::process::id()));
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        times.push(first_prompt(&poppet, &home).map_err(|e| e.to_string())?);
    }
    let _ = std::fs::remove_dir_all(&home);
    times.sort_by(f64::total_cmp);
    Ok(times)
}

/// One start: from spawning the shell on a new pseudo-terminal to its prompt on the terminal.
fn first_prompt(poppet: &std::path::Path, home: &std::path::Path) -> std::io::Result<f64> {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut master, mut slave): (libc::c_int, libc::c_int) = (-1, -1);
    // SAFETY: openpty stores two new descriptors in `master` and `slave`; the name, termios
    // and window-size arguments may be null.
    let rc =
        unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just opened, and nothing else owns them.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let started = Instant::now();
    let mut child = std::process::Command::new(poppet)
        .args(["--quiet", "--no-init"])
        .env("TERM", "xterm-256color")
        .env("HOME", home)
        .env("XDG_STATE_HOME", home.join("state"))
        .stdin(slave.try_clone()?)
        .stdout(slave.try_clone()?)
        .stderr(slave)
        .spawn()?;
    let mut terminal = std::fs::File::from(master);
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !seen.windows(8).any(|w| w == b"poppet> ") {
        let n = terminal.read(&mut buffer)?;
        if n == 0 {
            return Err(std::io::Error::other("the shell ended before its prompt"));
        }
        seen.extend_from_slice(&buffer[..n]);
    }
    let elapsed = started.elapsed().as_secs_f64() * 1e3;
    let _ = child.kill();
    let _ = child.wait();
    Ok(elapsed)
}

fn print_startup(times: &[f64], json: bool) {
    let (median, best) = (times[times.len() / 2], times[0]);
    if json {
        println!(
            "{}",
            serde_json::json!({ "operation": "first prompt", "median": median, "best": best, "runs": times.len() })
        );
    } else {
        println!(
            "First prompt of `poppet --quiet --no-init` on a pseudo-terminal (process start, highlighter, line editor): median {median:.1} ms, best {best:.1} ms ({} starts).",
            times.len()
        );
    }
}
