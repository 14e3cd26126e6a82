//! `poppet-bench-fmt`: how fast `pfmt` formats values, side by side in one run with Puppet's
//! own `String.new` engine (`StringConverter.singleton.convert` in Ruby, `bench/fmt/puppet.rb`).
//!
//! ```text
//! poppet-bench-fmt [--count N] [--runs N] [--puppet-runs N] [--seed S] [--workloads map,defaults]
//!                  [--engines ours,puppet] [--ruby RUBY] [--list-diffs N] [--keep DIR] [--json]
//! ```
//!
//! A workload is `--count` values (scalars, nested arrays and hashes; generated from `--seed`
//! as Puppet literals) and the formats they are converted with: `map` (a format map with
//! container formats and nested `string_formats`) or `defaults` (`String(value)`). Both
//! engines read the same literals once, untimed; then each converts every value once untimed
//! (warm-up; the outputs are compared) and `--runs` times timed. Only the conversions are
//! timed: `pfmt::string_new(value, Some(&map))` per value here, `convert(value, map)` per value
//! in Ruby (each call validates and merges the map, as `String.new` does). The best pass is the
//! headline; the ratio is Puppet's best over ours. Reports only; asserts nothing.

use poppet_bench::common::{write, TempDir};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use clap::Parser;
use fastrand::Rng;
use puppet_types::{literal, Value};

/// The format map of the `map` workload: top-level formats per type, container formats with
/// their own separators and element formats.
const MAP: &str = "{
  Integer => '%d',
  Integer[0] => '%#x',
  Float => '%.3f',
  String => '%s',
  Boolean => '%y',
  Undef => '%u',
  Array => {format => '%(a', separator => '; ', string_formats => {Integer => '%#o', Float => '%.2e', String => '%p', Any => '%p'}},
  Hash => {format => '%{h', separator => ', ', separator2 => ': ', string_formats => {Integer => '%+d', String => '%#s', Any => '%p'}},
  Timestamp => '%s',
  SemVer => '%p'
}";

#[derive(Parser, Debug)]
#[command(
    name = "poppet-bench-fmt",
    about = "Formats values with pfmt and with Puppet's String.new, and reports both timings"
)]
struct Args {
    /// Values per workload
    #[arg(long, default_value_t = 100_000)]
    count: usize,
    /// Timed passes of the engine (the best is the headline)
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Timed passes of Puppet
    #[arg(long, default_value_t = 3)]
    puppet_runs: usize,
    /// Seed of the generated values
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Which workloads: map, defaults
    #[arg(long, value_delimiter = ',', default_value = "map,defaults")]
    workloads: Vec<String>,
    /// Which engines: ours, puppet
    #[arg(long, value_delimiter = ',', default_value = "ours,puppet")]
    engines: Vec<String>,
    /// The Ruby that has Puppet 7.23
    #[arg(long, default_value = "ruby")]
    ruby: String,
    /// The Puppet side's script
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/fmt/puppet.rb"))]
    script: PathBuf,
    /// Print this many values whose outputs differ between the engines (to stderr)
    #[arg(long, default_value_t = 0)]
    list_diffs: usize,
    /// Keep the generated values, the map and Puppet's outputs in DIR
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Print only the JSON lines
    #[arg(long)]
    json: bool,
}

/// One engine's timings over one workload.
struct Measurement {
    engine: &'static str,
    workload: String,
    values: usize,
    runs: Vec<f64>,
    bytes: u64,
    errors: usize,
    /// Puppet only: seconds to load Puppet, and to evaluate the literals.
    load_s: Option<f64>,
    eval_s: Option<f64>,
}

impl Measurement {
    fn best(&self) -> f64 {
        self.runs.iter().copied().fold(f64::INFINITY, f64::min)
    }

    fn median(&self) -> f64 {
        let mut r = self.runs.clone();
        r.sort_by(f64::total_cmp);
        r.get(r.len() / 2).copied().unwrap_or(f64::NAN)
    }

    fn json(&self, ratio: Option<f64>, same: Option<usize>) -> String {
        let mut j = serde_json::json!({
            "engine": self.engine, "workload": self.workload, "values": self.values, "runs": self.runs,
            "best_s": self.best(), "median_s": self.median(), "values_per_s": self.values as f64 / self.best(),
            "bytes": self.bytes, "errors": self.errors,
        });
        let extra = [("load_s", self.load_s), ("eval_s", self.eval_s), ("puppet_over_ours", ratio)];
        for (k, v) in extra {
            if let Some(v) = v {
                j[k] = serde_json::json!(v);
            }
        }
        if let Some(s) = same {
            j["same_output"] = serde_json::json!(s);
        }
        j.to_string()
    }
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("poppet-bench-fmt: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    if cfg!(debug_assertions) {
        eprintln!("poppet-bench-fmt: a debug build: its timings mean little (use --release)");
    }
    let tmp;
    let dir = match &args.keep {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
            d.clone()
        }
        None => {
            tmp = TempDir::new("poppet-bench-fmt")?;
            tmp.0.clone()
        }
    };
    let sources = generate(args.count, args.seed);
    let values_file = dir.join("values.pp");
    let map_file = dir.join("map.pp");
    write(&values_file, &sources.join("\n"))?;
    write(&map_file, MAP)?;

    let reader = literal::Reader::default();
    let values: Vec<Value> =
        sources.iter().map(|s| reader.read(s).map_err(|e| format!("{s}: {e}"))).collect::<Result<_, _>>()?;
    let map = reader.read(MAP).map_err(|e| format!("the map: {e}"))?;

    for w in &args.workloads {
        if w != "map" && w != "defaults" {
            return Err(format!("unknown workload {w} (map, defaults)"));
        }
    }
    let formats_of = |w: &str| if w == "map" { Some(&map) } else { None };

    let mut ours = Vec::new();
    let mut prebuilt = None;
    if args.engines.iter().any(|e| e == "ours") {
        for w in &args.workloads {
            ours.push(measure_ours(w, &values, formats_of(w), args.runs));
        }
        if args.workloads.iter().any(|w| w == "map") {
            prebuilt = Some(measure_prebuilt(&values, &map, args.runs)?);
        }
    }
    let puppet = if args.engines.iter().any(|e| e == "puppet") {
        measure_puppet(args, &values_file, &map_file, &dir)?
    } else {
        Vec::new()
    };

    let mut lines = Vec::new();
    let mut rows: Vec<Row<'_>> = Vec::new();
    for w in &args.workloads {
        let o = ours.iter().find(|(m, _)| &m.workload == w);
        let p = puppet.iter().find(|m| &m.workload == w);
        let ratio = o.zip(p).map(|((o, _), p)| p.best() / o.best());
        let same = match (o, p) {
            (Some((_, outputs)), Some(_)) => Some(compare(
                &sources,
                outputs,
                &read_outputs(&dir.join(format!("puppet-{w}.jsonl")))?,
                args.list_diffs,
            )),
            _ => None,
        };
        if let Some((o, _)) = o {
            lines.push(o.json(None, None));
        }
        if let Some(b) = prebuilt.as_ref().filter(|_| w == "map") {
            lines.push(b.json(None, None));
        }
        if let Some(p) = p {
            lines.push(p.json(ratio, same));
        }
        rows.push((w.clone(), o.map(|(m, _)| m), p, ratio, same));
        if let Some(b) = prebuilt.as_ref().filter(|_| w == "map") {
            rows.push((w.clone(), Some(b), None, None, None));
        }
    }
    if !args.json {
        print_table(args, &rows);
        println!();
    }
    for l in lines {
        println!("{l}");
    }
    Ok(())
}

/// The engine over `values`: one untimed pass (its outputs returned), then `runs` timed ones.
fn measure_ours(
    workload: &str,
    values: &[Value],
    formats: Option<&Value>,
    runs: usize,
) -> (Measurement, Vec<Result<String, String>>) {
    let outputs: Vec<Result<String, String>> =
        values.iter().map(|v| pfmt::string_new(v, formats).map_err(|e| e.message)).collect();
    let errors = outputs.iter().filter(|o| o.is_err()).count();
    let mut times = Vec::new();
    let mut bytes = 0u64;
    for _ in 0..runs.max(1) {
        bytes = 0;
        let start = Instant::now();
        for v in values {
            if let Ok(s) = pfmt::string_new(v, formats) {
                bytes += s.len() as u64;
            }
        }
        times.push(start.elapsed().as_secs_f64());
    }
    let m = Measurement {
        engine: "ours",
        workload: workload.to_string(),
        values: values.len(),
        runs: times,
        bytes: std::hint::black_box(bytes),
        errors,
        load_s: None,
        eval_s: None,
    };
    (m, outputs)
}

/// The `map` workload through the library's fast path: the format map merged once
/// (`FormatMap::from_formats`), then `pfmt::convert(value, &map)` per value. Puppet has no
/// such path (`convert` validates and merges the map on every call), so this row has no ratio.
fn measure_prebuilt(values: &[Value], map: &Value, runs: usize) -> Result<Measurement, String> {
    let first = values.first().cloned().unwrap_or(Value::Undef);
    let formats = pfmt::FormatMap::from_formats(&first, map).map_err(|e| format!("the map: {}", e.message))?;
    let errors = values.iter().filter(|v| pfmt::convert(v, &formats).is_err()).count();
    let mut times = Vec::new();
    let mut bytes = 0u64;
    for _ in 0..runs.max(1) {
        bytes = 0;
        let start = Instant::now();
        for v in values {
            if let Ok(s) = pfmt::convert(v, &formats) {
                bytes += s.len() as u64;
            }
        }
        times.push(start.elapsed().as_secs_f64());
    }
    Ok(Measurement {
        engine: "ours, map merged once",
        workload: "map".to_string(),
        values: values.len(),
        runs: times,
        bytes: std::hint::black_box(bytes),
        errors,
        load_s: None,
        eval_s: None,
    })
}

/// Puppet over the same values and workloads, in one Ruby process (`puppet.rb`), which writes
/// its outputs to `dir/puppet-WORKLOAD.jsonl`.
fn measure_puppet(args: &Args, values: &Path, map: &Path, dir: &Path) -> Result<Vec<Measurement>, String> {
    let out = Command::new(&args.ruby)
        .arg(&args.script)
        .arg("--values")
        .arg(values)
        .arg("--map")
        .arg(map)
        .arg("--workloads")
        .arg(args.workloads.join(","))
        .arg("--runs")
        .arg(args.puppet_runs.max(1).to_string())
        .arg("--outputs")
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run {} {}: {e}", args.ruby, args.script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed (is Puppet 7 installed? --engines ours measures the engine alone): {}",
            args.script.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|line| {
            let j: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("puppet.rb: {e}: {line}"))?;
            Ok(Measurement {
                engine: "puppet",
                workload: j["workload"].as_str().unwrap_or("?").to_string(),
                values: j["values"].as_u64().unwrap_or(0) as usize,
                runs: j["runs"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default(),
                bytes: j["bytes"].as_u64().unwrap_or(0),
                errors: j["errors"].as_u64().unwrap_or(0) as usize,
                load_s: j["load_s"].as_f64(),
                eval_s: j["eval_s"].as_f64(),
            })
        })
        .collect()
}

/// Puppet's outputs: one JSON line per value, a string or `{"error": message}`.
fn read_outputs(path: &Path) -> Result<Vec<Result<String, String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(match j {
                serde_json::Value::String(s) => Ok(s),
                other => Err(other["error"].as_str().unwrap_or("?").to_string()),
            })
        })
        .collect()
}

/// How many values both engines turn into the same text (or both refuse); lists the first
/// `list` that differ on stderr.
fn compare(
    sources: &[String],
    ours: &[Result<String, String>],
    theirs: &[Result<String, String>],
    list: usize,
) -> usize {
    let mut same = 0;
    let mut shown = 0;
    for ((src, a), b) in sources.iter().zip(ours).zip(theirs) {
        let agree = match (a, b) {
            (Ok(x), Ok(y)) => x == y || without_addresses(x) == without_addresses(y),
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if agree {
            same += 1;
        } else if shown < list {
            shown += 1;
            eprintln!("differs: {src}\n  ours:   {a:?}\n  puppet: {b:?}");
        }
    }
    same
}

/// `text` with the Ruby object addresses of `#<Class:0x00007f...>` zeroed: Puppet prints
/// Timespan and Timestamp values inside containers that way (`%p`), at addresses that change
/// from run to run; the engine prints zeros.
fn without_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(":0x") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        let hex = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
        if head.contains("#<") && hex > 0 {
            out.push_str(&"0".repeat(hex));
        } else {
            out.push_str(&tail[..hex]);
        }
        rest = &tail[hex..];
    }
    out.push_str(rest);
    out
}

type Row<'a> = (String, Option<&'a Measurement>, Option<&'a Measurement>, Option<f64>, Option<usize>);

fn print_table(args: &Args, rows: &[Row<'_>]) {
    println!();
    println!(
        "String.new over {} values (seed {}): scalars, nested arrays and hashes; best of {} timed passes (ours), {} (puppet):",
        args.count, args.seed, args.runs, args.puppet_runs
    );
    println!();
    println!("| workload | engine | best s | median s | values/s | µs/value | puppet / ours | same output |");
    println!("| -------- | ------ | -----: | -------: | -------: | -------: | ------------: | ----------: |");
    for (workload, ours, puppet, ratio, same) in rows {
        for m in [ours, puppet].into_iter().flatten() {
            let best = m.best();
            let mut ratio_cell = String::new();
            let mut same_cell = String::new();
            if m.engine == "puppet" {
                if let Some(r) = ratio {
                    let _ = write!(ratio_cell, "{r:.1}x");
                }
                if let Some(s) = same {
                    let _ = write!(same_cell, "{s} of {}", m.values);
                }
            }
            println!(
                "| {workload} | {} | {best:.4} | {:.4} | {:.0} | {:.2} | {ratio_cell} | {same_cell} |",
                m.engine,
                m.median(),
                m.values as f64 / best,
                best * 1e6 / m.values as f64,
            );
        }
    }
    for (workload, ours, puppet, _, _) in rows {
        for m in [ours, puppet].into_iter().flatten() {
            if m.errors > 0 {
                println!("note: {workload}/{}: {} values were refused with an error", m.engine, m.errors);
            }
        }
    }
    if let Some(m) = rows.iter().find_map(|r| r.2) {
        if let (Some(l), Some(e)) = (m.load_s, m.eval_s) {
            println!("note: puppet: loading Puppet took {l:.2} s and evaluating the literals {e:.2} s, once (untimed)");
        }
    }
}

/// `count` Puppet literals: half scalars, a quarter arrays, a quarter hashes (nested up to three
/// levels), all from `seed`.
fn generate(count: usize, seed: u64) -> Vec<String> {
    let mut g = Gen { rng: Rng::with_seed(seed) };
    (0..count)
        .map(|_| match g.rng.u8(..4) {
            0 | 1 => g.scalar(),
            2 => g.array(2),
            _ => g.hash(2),
        })
        .collect()
}

struct Gen {
    rng: Rng,
}

const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "web01",
    "db",
    "/etc/hosts",
    "it\\'s",
    "Hello World",
    "::a::b",
    "x86_64",
    "ssh-rsa",
    "é",
    "naïve café",
    "日本",
];
const RICH: &[&str] = &[
    "Timestamp('2020-01-01T10:00:00.000 UTC')",
    "Timespan('1-02:03:04')",
    "SemVer('1.2.3-rc.1')",
    "SemVerRange('>=1.0.0 <2.0.0')",
    "Integer[1, 10]",
    "Array[String]",
    "/ab+c/",
    "Binary('aGVsbG8=')",
    "default",
];

impl Gen {
    fn scalar(&mut self) -> String {
        let r = &mut self.rng;
        match r.u8(..20) {
            0..=4 => r.i64(-1_000..1_000).to_string(),
            5 => r.i64(-(i64::MAX)..=i64::MAX).to_string(),
            6..=8 => format!("{:.4}", (r.f64() - 0.5) * 10f64.powi(r.i32(0..7))),
            9..=12 => format!("'{}'", WORDS[r.usize(..WORDS.len())]),
            13 => format!("\"{}\\n\\t{}\"", WORDS[r.usize(..4)], WORDS[r.usize(..4)]),
            14 | 15 => if r.bool() { "true" } else { "false" }.to_string(),
            16 => "undef".to_string(),
            _ => RICH[r.usize(..RICH.len())].to_string(),
        }
    }

    fn element(&mut self, depth: usize) -> String {
        match self.rng.u8(..8) {
            0 if depth > 0 => self.array(depth - 1),
            1 if depth > 0 => self.hash(depth - 1),
            _ => self.scalar(),
        }
    }

    fn array(&mut self, depth: usize) -> String {
        let n = self.rng.usize(0..8);
        let items: Vec<String> = (0..n).map(|_| self.element(depth)).collect();
        format!("[{}]", items.join(", "))
    }

    fn hash(&mut self, depth: usize) -> String {
        let n = self.rng.usize(0..6);
        let entries: Vec<String> = (0..n)
            .map(|i| {
                let key = match self.rng.u8(..4) {
                    0 => i.to_string(),
                    1 => format!("'key {i}'"),
                    _ => format!("k{i}"),
                };
                format!("{key} => {}", self.element(depth))
            })
            .collect();
        format!("{{{}}}", entries.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_literal_reads() {
        let reader = literal::Reader::default();
        for s in generate(5_000, 1) {
            reader.read(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
        reader.read(MAP).expect("the map reads");
    }

    #[test]
    fn addresses_are_zeroed() {
        assert_eq!(
            without_addresses("[#<Puppet::Pops::Time::Timespan:0x00007fe792949158 @nsecs=1>, '0x1f']"),
            "[#<Puppet::Pops::Time::Timespan:0x0000000000000000 @nsecs=1>, '0x1f']"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_values() {
        assert_eq!(generate(100, 3), generate(100, 3));
    }
}
