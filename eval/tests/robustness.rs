//! No input makes the evaluator panic, overflow its stack or run forever: every golden
//! program mutated many ways, deep recursion, deep nesting, huge numbers, runaway loops
//! stopped by an interrupt, every ported module function given values of every type.
//! (Outcomes are not checked here; the golden suite does that.)

use poppet_tests::cases;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use puppet_eval::Session;

/// Interrupts any run that takes longer than `limit` (a watchdog thread).
struct Watchdog {
    started: Arc<AtomicU64>,
    flag: Arc<AtomicBool>,
    epoch: Instant,
}

impl Watchdog {
    fn new(limit: Duration) -> Watchdog {
        let started = Arc::new(AtomicU64::new(0));
        let flag = Arc::new(AtomicBool::new(false));
        let epoch = Instant::now();
        let (s, f) = (started.clone(), flag.clone());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(50));
            let at = s.load(Ordering::SeqCst);
            if at != 0 && epoch.elapsed().as_millis() as u64 > at + limit.as_millis() as u64 {
                f.store(true, Ordering::SeqCst);
            }
        });
        Watchdog { started, flag, epoch }
    }

    /// Runs `source` in a fresh session under the watchdog; panics are the test's failure.
    fn run(&self, source: &str) -> puppet_eval::Outcome {
        self.run_in(&mut Session::default(), source)
    }

    /// Runs `source` in `session` under the watchdog.
    fn run_in(&self, session: &mut Session, source: &str) -> puppet_eval::Outcome {
        session.evaluator.interrupt = self.flag.clone();
        self.flag.store(false, Ordering::SeqCst);
        self.started.store(self.epoch.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let outcome = session.run(source);
        self.started.store(0, Ordering::SeqCst);
        outcome
    }
}

fn golden_sources() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut sources = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("golden dir").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
        let text = std::fs::read_to_string(path).expect("case file");
        let file = cases::parse(&text).expect("case file format");
        sources.extend(file.cases.iter().map(|c| c.source()));
    }
    sources
}

const TOKENS: &[&str] = &[
    "$x",
    "$0",
    "$::y",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    "|$v|",
    "*",
    "-",
    "+",
    "/",
    "%",
    "<<",
    ">>",
    "=~",
    "in",
    "and",
    "!",
    "?",
    "=>",
    ":",
    ".",
    "each",
    "map",
    "reduce",
    "Integer[",
    "String",
    "Type",
    "9223372036854775807",
    "-1",
    "0",
    "1e308",
    "\"${",
    "'",
    "@(END)\n",
    "\nEND\n",
    "undef",
    "default",
    "*$a",
    "[1,2]",
    "{a=>1}",
    "function f($n) { f($n) }",
    "break()",
    "next()",
    "return()",
    "type T = Array[T]",
    "Integer[1, 100000000].each |$i| { }",
];

fn mutate(source: &str, rng: &mut fastrand::Rng) -> String {
    let chars: Vec<char> = source.chars().collect();
    if chars.is_empty() {
        return TOKENS[rng.usize(..TOKENS.len())].to_string();
    }
    let mut out = chars.clone();
    for _ in 0..rng.usize(1..4) {
        let len = out.len().max(1);
        let at = rng.usize(..len).min(out.len());
        match rng.u8(..4) {
            0 => {
                let end = (at + rng.usize(1..8)).min(out.len());
                out.drain(at..end);
            }
            1 => {
                let end = (at + rng.usize(1..16)).min(out.len());
                let piece: Vec<char> = out[at..end].to_vec();
                out.splice(at..at, piece);
            }
            _ => {
                let token = TOKENS[rng.usize(..TOKENS.len())];
                out.splice(at..at, token.chars());
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn mutated_golden_programs() {
    let rounds: usize = std::env::var("POPPET_FUZZ_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(8);
    let sources = golden_sources();
    let watchdog = Watchdog::new(Duration::from_secs(2));
    let mut rng = fastrand::Rng::with_seed(6);
    let mut runs = 0;
    for source in &sources {
        for _ in 0..rounds {
            let mutated = mutate(source, &mut rng);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| watchdog.run(&mutated)));
            assert!(result.is_ok(), "panic on:\n{mutated}");
            runs += 1;
        }
    }
    eprintln!("{runs} mutated programs, no panic");
}

#[test]
fn deep_recursion_ends_with_an_error() {
    let watchdog = Watchdog::new(Duration::from_secs(20));
    for source in [
        "function f($n) { f($n + 1) } f(0)",
        "function f($n) { [1].map |$x| { f($n + 1) } } f(0)",
        "function f($n) { if $n > 0 { f($n - 1) } else { 0 } } notice(f(9000))",
        "type T = Array[T] notice([[[]]] =~ T)",
    ] {
        let outcome = watchdog.run(source);
        if source.contains("9000") {
            assert_eq!(outcome.notices(), ["0"], "{source}");
        } else if !source.starts_with("type") {
            let error = outcome.error.expect("an error");
            assert!(error.message.contains("nested more than"), "{source}: {}", error.message);
        }
    }
}

#[test]
fn deep_nesting_and_extremes() {
    let watchdog = Watchdog::new(Duration::from_secs(10));
    let deep = format!("notice({}1{})", "[".repeat(200), "]".repeat(200));
    let deeper = format!("notice({}1{})", "[".repeat(100_000), "]".repeat(100_000));
    let parens = format!("notice({}1{})", "(".repeat(100_000), ")".repeat(100_000));
    let sources = [
        deep.as_str(),
        deeper.as_str(),
        parens.as_str(),
        "notice(9223372036854775807 + 1)",
        "notice(-9223372036854775807 - 2)",
        "notice(9223372036854775807 * 9223372036854775807)",
        "notice(1 << 9223372036854775807)",
        "notice(-1 >> 9223372036854775807)",
        "notice(1e308 * 10)",
        "notice(-9223372036854775807 / -1)",
        "notice(Integer[1, 9223372036854775807].step(9223372036854775807).map |$x| { $x })",
        "notice('abc'[9223372036854775807, 9223372036854775807])",
        "notice([1][-9223372036854775807, 9223372036854775807])",
        "notice(Timespan(9223372036854775807) * 9223372036854775807)",
        "\u{feff}notice(1)",
    ];
    for source in sources {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| watchdog.run(source)));
        assert!(result.is_ok(), "panic on {:?}", &source[..source.len().min(80)]);
    }
}

#[test]
fn runaway_loops_are_interrupted() {
    let watchdog = Watchdog::new(Duration::from_millis(300));
    let start = Instant::now();
    let outcome = watchdog.run("Integer[1, 9223372036854775807].each |$i| { }");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(outcome.error.map(|e| e.message), Some("Evaluation interrupted".to_string()));
}

/// Values of every type, as Puppet source, for the ported functions' arguments: the edges
/// (undef, empty, nested, unicode, the largest integers and floats) and the strings the
/// functions parse (numbers, addresses, paths, versions, formats).
const VALUES: &[&str] = &[
    "undef",
    "''",
    "'a'",
    "'a, b c'",
    "'ünï 😀'",
    "'-1'",
    "'1.5e3'",
    "'0x1f'",
    "'/tmp/x'",
    "'true'",
    "'10.0.0.1/8'",
    "'fe80::1'",
    "'1.2.3'",
    "'%s %d %'",
    "'$1$'",
    "0",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "1.5",
    "-0.0",
    "1e308",
    "true",
    "false",
    "[]",
    "[1, 'b', [undef, {}]]",
    "{}",
    "{'a' => {'b' => [1]}, 2 => undef, 'c' => 'd'}",
    "/a(b)?/",
    "Integer[0]",
    "default",
    "Sensitive('s')",
    "Timestamp('2021-01-01T00:00:00Z')",
    "Timespan(60)",
    "Binary('aGk=')",
    "SemVer('1.2.3')",
];

/// Every ported module function (`puppet_eval::functions::ported`), with no argument, each
/// value alone, and seeded random lists of two to five values, with and without a block,
/// with each module path it is found in (Debian's modules; stdlib 9.7.0 before them):
/// never a panic, and a run that goes on (`fqdn_rand_string(9223372036854775807)` runs for
/// ever in Puppet too) stops when interrupted. Each port must be found in at least one of
/// the two module paths, so none goes untested.
#[test]
fn every_port_takes_any_arguments() {
    let corpus = "/usr/share/puppet/modules";
    let stdlib_9 = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stdlib-9.7.0");
    let paths = [corpus.to_owned(), format!("{}:{corpus}", stdlib_9.display())];
    let watchdog = Watchdog::new(Duration::from_secs(1));
    let mut rng = fastrand::Rng::with_seed(19);
    let (mut calls, mut interrupted, mut stuck) = (0, 0, Vec::new());
    let started = Instant::now();
    for port in puppet_eval::functions::ported::all() {
        let name = port.builtin.name;
        let mut lists: Vec<String> = vec![String::new()];
        lists.extend(VALUES.iter().map(|v| v.to_string()));
        for _ in 0..40 {
            let n = rng.usize(2..=5);
            let list: Vec<&str> = (0..n).map(|_| VALUES[rng.usize(..VALUES.len())]).collect();
            lists.push(list.join(", "));
        }
        let mut found = false;
        for path in &paths {
            let mut session = Session::default();
            session.evaluator.set_modulepath(path);
            let probe = session.run(&format!("{name}()"));
            if probe.error.is_some_and(|e| e.message.starts_with("Unknown function")) {
                continue;
            }
            found = true;
            for (i, args) in lists.iter().enumerate() {
                let block = if i % 4 == 3 { " |*$a| { $a }" } else { "" };
                let source = format!("{name}({args}){block}");
                let start = Instant::now();
                let result =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| watchdog.run_in(&mut session, &source)));
                let Ok(outcome) = result else { panic!("panic on {source} (module path {path})") };
                if outcome.error.is_some_and(|e| e.message == "Evaluation interrupted") {
                    interrupted += 1;
                }
                if start.elapsed() > Duration::from_secs(3) {
                    stuck.push(source);
                }
                calls += 1;
            }
        }
        assert!(found, "{name} ({}) is found in no module path", port.module);
        if std::env::var_os("POPPET_PORTS_VERBOSE").is_some() {
            eprintln!("{name}: {calls} calls so far, {:.1?}", started.elapsed());
        }
    }
    assert!(stuck.is_empty(), "runs the interrupt did not stop within two seconds: {stuck:?}");
    eprintln!("{calls} calls of ported functions, no panic ({interrupted} interrupted after a second)");
}
