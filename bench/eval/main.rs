//! `poppet-bench-eval`: how fast the poppet evaluator runs Puppet programs, side by side in one
//! run with Puppet 7.23's own compiler (`bench/eval/puppet.rb`, Puppet loaded once in Ruby).
//!
//! ```text
//! poppet-bench-eval [--runs N] [--puppet-runs N] [--workloads iterate,fib,...] [--scale F]
//!                   [--engines ours,puppet] [--file FILE]... [--ruby RUBY] [--show NAME]
//!                   [--keep DIR] [--json]
//! ```
//!
//! A workload is one Puppet program (`WORKLOADS`), the same source for both sides, ending with
//! a `notice()` of a small checksum of what it computed. Ours: per run a fresh
//! `puppet_eval::Session::default()` (made untimed), then `session.run(source)` (parse, validate,
//! evaluate) and dropping the session and its outcome, timed; one untimed warm-up run first,
//! whose notices are compared with Puppet's. Puppet: per run a catalog compile of the source
//! (`Puppet::Parser::Compiler.compile`, as `tests/oracle/oracle.rb` and `puppet apply`
//! do), timed alone, after one untimed warm-up compile. The best run is the headline; the
//! ratio is Puppet's best over ours. Reports only; asserts nothing about the timings.

use poppet_bench::common::{write, TempDir};

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use clap::Parser;

/// One benchmark program. `@NAME@` in `source` is replaced by the size `NAME` of `sizes`,
/// scaled by `--scale`.
struct Workload {
    name: &'static str,
    what: &'static str,
    sizes: &'static [(&'static str, f64)],
    source: &'static str,
    /// For a compile of real modules: their module path. Both sides then compile for the
    /// real node (`eval/src/facts/debian12.json`, `strict_variables` off), and each reports
    /// the size of its catalog with its notices.
    modulepath: Option<&'static str>,
}

/// Debian's Puppet modules, as `scripts/install-corpus.sh` installs them.
const CORPUS_MODULES: &str = "/usr/share/puppet/modules";

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "iterate",
        what: "reduce over Integer[1, 100000]; filter and map over Integer[1, 20000]",
        sizes: &[("N", 100_000.0), ("M", 20_000.0)],
        modulepath: None,
        source: r#"$sum = Integer[1, @N@].reduce(0) |$s, $x| { $s + $x }
$odd = Integer[1, @M@].filter |$x| { $x % 2 == 1 }
$squares = $odd.map |$x| { $x * $x }
notice("${sum} ${odd.length} ${squares[-1]}")
"#,
    },
    Workload {
        name: "fib",
        what: "recursive user function with typed parameter and return: fib(22), 57,313 calls",
        // fib(n) makes ~phi^n calls: the size is n, scaled by log_phi(scale).
        sizes: &[("FIB", 22.0)],
        modulepath: None,
        source: r#"function fib(Integer $n) >> Integer {
  if $n < 2 { $n } else { fib($n - 1) + fib($n - 2) }
}
notice(fib(@FIB@))
"#,
    },
    Workload {
        name: "strings",
        what: "100,000 interpolated strings; join, split, 1,000 slices joined; md5",
        sizes: &[("N", 100_000.0), ("C", 1_000.0)],
        modulepath: None,
        source: r#"$parts = Integer[1, @N@].map |$i| { "item-${i}:${$i % 13}" }
$joined = $parts.join(',')
$back = $joined.split(',')
$lines = Integer[0, @C@ - 1].map |$c| { "${c}=${parts[$c * 100, 100].join('')}" }
$text = $lines.join("\n")
notice("${back.length} ${joined.length} ${text.length} ${md5($text)}")
"#,
    },
    Workload {
        name: "hashes",
        what: "Hash() of 20,000 pairs; 30,000 lookups; reduce over its pairs; 5,000-step group-by into 50 keys",
        sizes: &[("H", 20_000.0), ("L", 30_000.0), ("R", 5_000.0)],
        modulepath: None,
        source: r#"$h = Hash(Integer[1, @H@].map |$i| { ["key${i}", $i * 2] })
$hits = Integer[1, @L@].filter |$i| { $h["key${i}"] =~ Integer }
$sum = $h.reduce(0) |$s, $kv| { $s + $kv[1] }
$groups = Integer[1, @R@].reduce({}) |$acc, $i| {
  $k = "g${$i % 50}"
  $acc + { $k => $acc.dig($k).then |$n| { $n + 1 }.lest || { 1 } }
}
notice("${h.length} ${hits.length} ${sum} ${groups['g7']}")
"#,
    },
    Workload {
        name: "hash-merge",
        what: "reduce with + into a hash of 5,000 entries (Puppet copies the hash at each step; poppet adds in place)",
        // Quadratic: each step copies the hash so far. The size scales the cost, not n.
        sizes: &[("SQ", 5_000.0)],
        modulepath: None,
        source: r#"$h = Integer[1, @SQ@].reduce({}) |$acc, $i| { $acc + { "k${i}" => $i * 3 } }
notice("${h.length} ${h['k77']} ${h.keys[-1]}")
"#,
    },
    Workload {
        name: "types",
        what: "100,000 values =~ a Variant, a Struct and a Pattern each; two whole-array matches",
        sizes: &[("B", 20_000.0)],
        modulepath: None,
        source: r#"$base = Integer[1, @B@].map |$i| {
  case $i % 5 {
    0: { $i % 20 }
    1: { "s${$i % 1000}" }
    2: { [$i, $i + 1] }
    3: { { 'name' => "n${i}", 'port' => $i * 7 % 70000 } }
    default: { "host-${i}.example.com" }
  }
}
$values = $base + $base + $base + $base + $base
$t = Variant[Integer[0, 10], String[1, 3], Array[Integer]]
$s = Struct[{ name => String[1], port => Integer[0, 65535], Optional[tags] => Array[String] }]
$p = Pattern[/\Ahost-\d+\.example\.com\z/, /\As\d\z/]
$counts = $values.reduce([0, 0, 0]) |$c, $v| {
  [$c[0] + if $v =~ $t { 1 } else { 0 },
   $c[1] + if $v =~ $s { 1 } else { 0 },
   $c[2] + if $v =~ $p { 1 } else { 0 }]
}
$all = $values =~ Array[Variant[Integer, String, Array[Integer, 2, 2], Struct[{ name => String, port => Integer }]]]
$none = $values =~ Array[$t]
notice("${counts} ${all} ${none} ${values.length}")
"#,
    },
    Workload {
        name: "class-nova",
        what: "include nova::compute::libvirt (Debian's modules: 63 resources; stdlib's and openstacklib's functions)",
        sizes: &[],
        modulepath: Some(CORPUS_MODULES),
        source: "include nova::compute::libvirt\n",
    },
    Workload {
        name: "class-keystone",
        what: "include keystone (Debian's modules: 144 resources; stdlib's and openstacklib's functions, all parameters at their defaults)",
        sizes: &[],
        modulepath: Some(CORPUS_MODULES),
        source: "include keystone\n",
    },
];

/// The facts of the real node the module workloads compile for.
const FACTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../eval/src/facts/debian12.json");

impl Workload {
    /// The program at `scale` times the default sizes.
    fn source(&self, scale: f64) -> String {
        let mut s = self.source.to_string();
        for (key, size) in self.sizes {
            let n = if *key == "FIB" {
                // fib(n) costs ~phi^n: scale the cost, not n.
                (size + scale.ln() / 1.618_034_f64.ln()).round().max(1.0)
            } else if *key == "SQ" {
                // A quadratic cost: scale it by the square root.
                (size * scale.sqrt()).round().max(1.0)
            } else {
                (size * scale).round().max(1.0)
            };
            s = s.replace(&format!("@{key}@"), &format!("{}", n as u64));
        }
        s
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "poppet-bench-eval",
    about = "Runs Puppet programs with poppet and with Puppet 7.23's compiler, and reports both timings"
)]
struct Args {
    /// Timed runs of each workload with poppet (the best is the headline)
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Timed compiles of each workload with Puppet
    #[arg(long, default_value_t = 3)]
    puppet_runs: usize,
    /// Which workloads: iterate, fib, strings, hashes, hash-merge, types, class-nova,
    /// class-keystone
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "iterate,fib,strings,hashes,hash-merge,types,class-nova,class-keystone"
    )]
    workloads: Vec<String>,
    /// Multiply the workloads' sizes (fib: its number of calls) by this
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
    /// Which engines: ours, puppet
    #[arg(long, value_delimiter = ',', default_value = "ours,puppet")]
    engines: Vec<String>,
    /// The Ruby that has Puppet 7.23
    #[arg(long, default_value = "ruby")]
    ruby: String,
    /// The Puppet side's script
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/eval/puppet.rb"))]
    script: PathBuf,
    /// Also run the Puppet program in FILE as a workload named after the file (repeatable;
    /// not scaled). With `--workloads ''`, only these files
    #[arg(long, value_name = "FILE")]
    file: Vec<PathBuf>,
    /// Print the source of workload NAME (at --scale) and exit
    #[arg(long, value_name = "NAME")]
    show: Option<String>,
    /// Keep the workloads file given to Puppet in DIR
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Print only the JSON lines
    #[arg(long)]
    json: bool,
}

/// One engine's timings over one workload.
#[derive(Default)]
struct Measurement {
    /// Wall seconds per timed run.
    runs: Vec<f64>,
    /// CPU seconds (the whole process's) per timed run.
    cpu: Vec<f64>,
    notices: Vec<String>,
    error: Option<String>,
}

fn best(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

fn median(v: &[f64]) -> f64 {
    let mut r = v.to_vec();
    r.sort_by(f64::total_cmp);
    r.get(r.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The CPU time of this process so far, in seconds.
fn cpu_now() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// As the poppet binary does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("poppet-bench-eval: {e}");
        std::process::exit(2);
    }
}

/// A workload to run: a built-in one at `--scale`, or a `--file`.
struct Job {
    name: String,
    what: String,
    source: String,
    modulepath: Option<&'static str>,
}

fn run(args: &Args) -> Result<(), String> {
    let mut chosen = Vec::new();
    for w in args.workloads.iter().filter(|w| !w.is_empty()) {
        let found = WORKLOADS.iter().find(|x| x.name == w).ok_or_else(|| {
            let names: Vec<&str> = WORKLOADS.iter().map(|x| x.name).collect();
            format!("unknown workload {w} ({})", names.join(", "))
        })?;
        chosen.push(Job {
            name: found.name.to_string(),
            what: found.what.to_string(),
            source: found.source(args.scale),
            modulepath: found.modulepath,
        });
    }
    for f in &args.file {
        let source = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let name = f.file_stem().map_or_else(|| f.display().to_string(), |s| s.to_string_lossy().into_owned());
        chosen.push(Job { name, what: format!("the program in {}", f.display()), source, modulepath: None });
    }
    if let Some(name) = &args.show {
        let w = WORKLOADS.iter().find(|x| x.name == name).ok_or_else(|| format!("unknown workload {name}"))?;
        print!("{}", w.source(args.scale));
        return Ok(());
    }
    if cfg!(debug_assertions) {
        eprintln!("poppet-bench-eval: a debug build: its timings mean little (use --release)");
    }
    let mut ours = Vec::new();
    if args.engines.iter().any(|e| e == "ours") {
        for w in &chosen {
            let m = measure_ours(w, args.runs);
            if !args.json {
                eprintln!("poppet: {}: best {:.2} ms", w.name, best(&m.runs) * 1e3);
            }
            ours.push(m);
        }
    }
    let mut puppet_info = serde_json::Value::Null;
    let puppet = if args.engines.iter().any(|e| e == "puppet") {
        let (m, info) = measure_puppet(args, &chosen)?;
        puppet_info = info;
        m
    } else {
        Vec::new()
    };

    let mut rows = Vec::new();
    for (i, w) in chosen.iter().enumerate() {
        let o = ours.get(i);
        let p = puppet.get(i);
        let ratio = o.zip(p).map(|(o, p)| best(&p.runs) / best(&o.runs));
        let cpu_ratio = o.zip(p).map(|(o, p)| best(&p.cpu) / best(&o.cpu));
        let same = o.zip(p).map(|(o, p)| o.error.is_none() && p.error.is_none() && o.notices == p.notices);
        rows.push(Row { w, ours: o, puppet: p, ratio, cpu_ratio, same });
    }
    if !args.json {
        print_table(args, &rows, &puppet_info);
        println!();
    }
    for r in &rows {
        for (engine, m) in [("ours", r.ours), ("puppet", r.puppet)] {
            let Some(m) = m else { continue };
            let mut j = serde_json::json!({
                "engine": engine, "workload": r.w.name, "scale": args.scale,
                "runs": m.runs, "cpu": m.cpu, "best_s": best(&m.runs), "median_s": median(&m.runs),
                "best_cpu_s": best(&m.cpu), "notices": m.notices, "error": m.error,
            });
            if engine == "puppet" {
                if let Some(x) = r.ratio {
                    j["puppet_over_ours"] = serde_json::json!(x);
                }
                if let Some(x) = r.cpu_ratio {
                    j["puppet_over_ours_cpu"] = serde_json::json!(x);
                }
                if let Some(s) = r.same {
                    j["same_notices"] = serde_json::json!(s);
                }
            }
            println!("{j}");
        }
    }
    Ok(())
}

/// A fresh session for `job`: for real modules, their module path and the real node's
/// defaults (`strict_variables` off; `Session::default()` has the node's facts).
fn session_for(job: &Job) -> puppet_eval::Session {
    let mut session = puppet_eval::Session::default();
    if let Some(path) = job.modulepath {
        session.evaluator.set_modulepath(path);
        session.evaluator.options.strict_variables = false;
    }
    session
}

/// Our evaluator over the job's program: one untimed run (its notices kept, and for real
/// modules the size of the catalog), then `runs` timed ones, each in a fresh session; a run
/// is `Session::run` (parse, validate, evaluate, finish the catalog) plus dropping the
/// outcome and the session.
fn measure_ours(job: &Job, runs: usize) -> Measurement {
    let source = job.source.as_str();
    let mut session = session_for(job);
    let outcome = session.run(source);
    let mut notices: Vec<String> = outcome.notices().iter().map(|s| s.to_string()).collect();
    if job.modulepath.is_some() {
        let json = session.evaluator.compiler.catalog.to_json("testnode", "production");
        let resources = json["resources"].as_array().map_or(0, Vec::len);
        notices.push(format!("catalog: {resources} resources"));
    }
    let error = outcome.error.as_ref().map(|f| f.puppet_text());
    drop((outcome, session));
    let mut m = Measurement { notices, error, ..Measurement::default() };
    for _ in 0..runs.max(1) {
        let mut session = session_for(job);
        let (t, c) = (Instant::now(), cpu_now());
        let outcome = session.run(source);
        std::hint::black_box(&outcome);
        drop((outcome, session));
        m.cpu.push(cpu_now() - c);
        m.runs.push(t.elapsed().as_secs_f64());
    }
    m
}

/// Puppet over the same programs, in one Ruby process (`puppet.rb`); returns a measurement
/// per workload, in order, and Puppet's last line (load time, versions).
fn measure_puppet(args: &Args, chosen: &[Job]) -> Result<(Vec<Measurement>, serde_json::Value), String> {
    let tmp;
    let dir = match &args.keep {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
            d.clone()
        }
        None => {
            tmp = TempDir::new("poppet-bench-eval")?;
            tmp.0.clone()
        }
    };
    let file = dir.join("workloads.jsonl");
    let mut text = String::new();
    for w in chosen {
        let mut line = serde_json::json!({ "name": w.name, "code": w.source });
        if let Some(path) = w.modulepath {
            line["modulepath"] = serde_json::json!(path);
            line["facts"] = serde_json::json!(FACTS);
        }
        text.push_str(&line.to_string());
        text.push('\n');
    }
    write(&file, &text)?;
    let mut cmd = Command::new(&args.ruby);
    cmd.arg(&args.script).arg("--workloads").arg(&file).arg("--runs").arg(args.puppet_runs.max(1).to_string());
    if args.json {
        cmd.arg("--quiet");
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {} {}: {e}", args.ruby, args.script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed (is Puppet 7 installed? --engines ours measures poppet alone)",
            args.script.display()
        ));
    }
    let mut measurements = Vec::new();
    let mut info = serde_json::Value::Null;
    for line in String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with('{')) {
        let j: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("puppet.rb: {e}: {line}"))?;
        if j.get("workload").is_none() {
            info = j;
            continue;
        }
        let floats = |k: &str| -> Vec<f64> {
            j[k].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default()
        };
        measurements.push(Measurement {
            runs: floats("runs"),
            cpu: floats("cpu"),
            notices: j["notices"]
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                .unwrap_or_default(),
            error: j["error"].as_str().map(str::to_string),
        });
    }
    if measurements.len() != chosen.len() {
        return Err(format!("puppet.rb reported {} workloads of {}", measurements.len(), chosen.len()));
    }
    Ok((measurements, info))
}

struct Row<'a> {
    w: &'a Job,
    ours: Option<&'a Measurement>,
    puppet: Option<&'a Measurement>,
    ratio: Option<f64>,
    cpu_ratio: Option<f64>,
    same: Option<bool>,
}

fn ms(m: Option<&Measurement>, f: fn(&[f64]) -> f64, cpu: bool) -> String {
    m.map(|m| format!("{:.1}", f(if cpu { &m.cpu } else { &m.runs }) * 1e3)).unwrap_or_default()
}

fn print_table(args: &Args, rows: &[Row<'_>], info: &serde_json::Value) {
    println!();
    println!(
        "Evaluation at scale {}: best and median of {} timed runs (poppet) and {} timed compiles (Puppet), wall-clock ms; ratios of the best runs (the CPU column: of the best process CPU times):",
        args.scale, args.runs, args.puppet_runs
    );
    println!();
    println!("| workload | Puppet best | Puppet median | poppet best | poppet median | Puppet / poppet | Puppet / poppet, CPU | same notices |");
    println!("| -------- | ----------: | ------------: | ----------: | ------------: | --------------: | -------------------: | :----------: |");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.w.name,
            ms(r.puppet, best, false),
            ms(r.puppet, median, false),
            ms(r.ours, best, false),
            ms(r.ours, median, false),
            r.ratio.map(|x| format!("{x:.1}x")).unwrap_or_default(),
            r.cpu_ratio.map(|x| format!("{x:.1}x")).unwrap_or_default(),
            match r.same {
                Some(true) => "yes",
                Some(false) => "NO",
                None => "",
            },
        );
    }
    println!();
    for r in rows {
        println!("- {}: {}", r.w.name, r.w.what);
    }
    for r in rows {
        for (engine, m) in [("poppet", r.ours), ("Puppet", r.puppet)] {
            let Some(m) = m else { continue };
            if let Some(e) = &m.error {
                println!("note: {}/{engine} failed: {e}", r.w.name);
            }
            if r.same == Some(false) || r.same.is_none() {
                println!("note: {}/{engine} notices: {:?}", r.w.name, m.notices);
            }
        }
    }
    if let Some(l) = info["load_s"].as_f64() {
        println!(
            "note: Puppet {} on Ruby {}: loading Puppet and its settings took {l:.2} s, once (untimed)",
            info["puppet"].as_str().unwrap_or("?"),
            info["ruby"].as_str().unwrap_or("?"),
        );
    }
    if let Some(b) = info["baseline_s"].as_f64() {
        println!(
            "note: Puppet: compiling `notice('ok')` takes {:.1} ms (best; included in every Puppet time)",
            b * 1e3
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_substituted() {
        for w in WORKLOADS {
            let s = w.source(1.0);
            assert!(!s.contains('@'), "{}: {s}", w.name);
        }
        assert!(WORKLOADS[1].source(1.0).contains("fib(22)"));
        assert!(WORKLOADS[1].source(0.01).contains("fib(12)"));
        assert!(WORKLOADS[0].source(0.1).contains("Integer[1, 10000]"));
    }

    /// Each workload compiles, as the benchmark runs it (the module workloads with Debian's
    /// modules, which `scripts/install-corpus.sh` installs), to one notice: its checksum, or
    /// the size of the catalog of the class.
    #[test]
    fn every_workload_runs_at_a_small_scale() {
        for w in WORKLOADS {
            let job =
                Job { name: w.name.into(), what: String::new(), source: w.source(0.01), modulepath: w.modulepath };
            let m = measure_ours(&job, 1);
            assert!(m.error.is_none(), "{}: {:?}", w.name, m.error);
            assert_eq!(m.notices.len(), 1, "{}: {:?}", w.name, m.notices);
        }
    }
}
