//! No input makes the engine, the literal reader or `pfmt`'s JSON and YAML readers panic, and
//! none takes unbounded time: random format strings (valid ones mutated, huge widths and
//! precisions), random format maps, random values, random literal sources (valid ones mutated)
//! through the reader and then `string_new`, random JSON and YAML documents, and the `pfmt`
//! binary itself with random command lines.
//!
//! Seeded and bounded: `PFMT_FUZZ_SEED=N` picks another seed (the default is fixed, so a run
//! is repeatable), `PFMT_FUZZ_SCALE=X` multiplies the iterations (a few seconds in all in
//! release; debug builds do a twentieth). A failure lists the inputs that panicked or were slow:
//! `PFMT_FUZZ_SEED=1 PFMT_FUZZ_SCALE=30 cargo test --release -p pfmt-cli --test fuzz` fuzzes longer.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::time::{Duration, Instant};

use fastrand::Rng;
use puppet_types::display::value_to_string;
use puppet_types::value::{Hash, Iterator as PIterator, IteratorKind};
use puppet_types::{literal, Value};

use pfmt::data as cli;

/// The letters of every per-type table of `String.new`, and a few no table has.
const LETTERS: &str = "dxXobBcspeEfgGaAqCutTyYnvVhDkzZjJ%";
/// The flags and the container delimiters.
const FLAGS: &[char] = &[' ', '+', '-', '#', '0', '[', '{', '(', '<', '|'];
/// Widths and precisions: small, large but cheap, and beyond what Ruby accepts (2**31 - 1,
/// `width too big`). Nothing between 100,000 and 2**31 - 1: Puppet itself would build a
/// string that long.
const NUMBERS: &[&str] = &[
    "",
    "",
    "",
    "0",
    "1",
    "2",
    "5",
    "10",
    "17",
    "80",
    "120",
    "999",
    "65535",
    "99999",
    "2147483648",
    "2147483649",
    "4294967296",
    "99999999999",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999",
];

/// Literals the reader accepts, the seeds of the random values and sources.
const LITERALS: &[&str] = &[
    "undef",
    "default",
    "true",
    "false",
    "0",
    "-1",
    "255",
    "9223372036854775807",
    "-9223372036854775807",
    "0x7f",
    "017",
    "3.14159",
    "-0.0",
    "1e300",
    "1.5e-300",
    "'a'",
    "''",
    "\"tab\\there\"",
    "\"\\u00e9\\u{1F600}\"",
    "'it\\'s'",
    "\"q\\\"uote\"",
    "\"ctl\\u0001\\u007f\"",
    "hello",
    "'::a::b'",
    "'  padded  '",
    "/a+b/",
    "/\\//",
    "/(?<n>x)|[^a]/",
    "[]",
    "{}",
    "[1, 'a', [2, [3]]]",
    "{a => 1, 'b' => [true, undef], 3 => {x => default}}",
    "{[1, 2] => 'k', undef => 1}",
    "Integer",
    "Integer[1, 2]",
    "Integer[default, -1]",
    "Float[0.5]",
    "String[1, 10]",
    "Enum[a, 'b c']",
    "Pattern[/x/, 'y']",
    "Struct[{a => Integer, Optional[b] => String}]",
    "Tuple[Integer, String, 1, 2]",
    "Variant[Integer, Undef]",
    "Optional[Array[Integer]]",
    "Hash[String, Array[Integer], 1]",
    "Type[Integer]",
    "Callable[Integer, 1, 2]",
    "NotUndef[String]",
    "Sensitive[String]",
    "Any",
    "Data",
    "RichData",
    "Scalar",
    "Collection",
    "Iterable",
    "Iterator",
    "Runtime['ruby', 'Foo']",
    "File['/tmp/x']",
    "Class['apache']",
    "Resource",
    "Timestamp('2020-01-01T10:00:00.000 UTC')",
    "Timestamp(0)",
    "Timestamp(-1.5)",
    "Timespan('1-02:03:04')",
    "Timespan(-3.25)",
    "Timespan(0)",
    "SemVer('1.2.3-rc.1+b5')",
    "SemVer('0.0.0')",
    "SemVerRange('>=1.0.0 <2.0.0')",
    "SemVerRange('~1.2')",
    "Binary('aGk=')",
    "Binary('/w==')",
    "Binary('')",
    "URI('http://u@example.com:8080/a/b?c=1#d')",
    "URI('a/b')",
    "Sensitive('secret')",
    "Sensitive([1, 2])",
    "Deferred('f', [1])",
    "Integer('0x10')",
    "Float('1.5')",
    "Boolean('yes')",
    "Array({a => 1})",
    "Hash([1, 2])",
    "Timestamp('2020-02-29T23:59:59.999999999 UTC')",
];

/// Types for the keys of format maps.
const MAP_TYPES: &[&str] = &[
    "Any",
    "Data",
    "Scalar",
    "ScalarData",
    "Numeric",
    "Integer",
    "Integer[0]",
    "Integer[default, -1]",
    "Float",
    "String",
    "String[1, 3]",
    "Enum[a]",
    "Pattern[/a/]",
    "Boolean",
    "Regexp",
    "Undef",
    "Default",
    "Array",
    "Array[Integer]",
    "Tuple[Integer]",
    "Hash",
    "Hash[String, Integer]",
    "Struct[{a => Integer}]",
    "Collection",
    "Type",
    "Type[Integer]",
    "Timespan",
    "Timestamp",
    "SemVer",
    "SemVerRange",
    "Binary",
    "URI",
    "Sensitive",
    "Iterator",
    "Iterable",
    "Optional[Integer]",
    "Variant[Integer, String]",
    "NotUndef",
    "Object",
    "Runtime",
    "Callable",
    "Deferred",
    "Init",
    "CatalogEntry",
    "Resource",
];

/// Pieces of Puppet syntax that mutations insert into literal sources.
const TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    "=>",
    "'",
    "\"",
    "\\",
    "$",
    "$x",
    "${",
    "/",
    "//",
    "#",
    "/*",
    "\n",
    " ",
    "::",
    ".",
    "..",
    "-",
    "+",
    "*",
    "=",
    "<<|",
    "@(END)",
    "\nEND",
    "Integer",
    "[1,",
    "default",
    "undef",
    "new",
    ".new(",
    "Timestamp(",
    "%",
    "\u{0}",
    "é",
    "\u{1F600}",
    "0x",
    "1e",
    "999999999999999999999",
    "|>",
    "?",
    ":",
    "=~",
    "<|",
    "@",
    "@@",
    "&",
    "!",
    "-> ",
    ";",
];

struct Fuzz {
    rng: Rng,
    reader: literal::Reader,
    /// The values of `LITERALS`.
    seeds: Vec<Value>,
    map_types: Vec<Value>,
    problems: Vec<String>,
    slowest: (Duration, String),
}

/// A test's iterations: `release` in a release build, a twentieth in a debug build, times
/// `PFMT_FUZZ_SCALE` (default 1).
fn iterations(release: usize) -> usize {
    let scale: f64 = std::env::var("PFMT_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let n = (release as f64 * scale.max(0.0)) as usize;
    if cfg!(debug_assertions) {
        (n / 20).max(1)
    } else {
        n.max(1)
    }
}

/// How long one call may take before it counts as unbounded work.
const SLOW: Duration = Duration::from_secs(5);

impl Fuzz {
    fn new(salt: u64) -> Fuzz {
        let seed = std::env::var("PFMT_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_f0f0_u64);
        let reader = literal::Reader::default();
        let seeds =
            LITERALS.iter().map(|s| reader.read(s).unwrap_or_else(|e| panic!("{s} is a literal: {e}"))).collect();
        let map_types =
            MAP_TYPES.iter().map(|s| reader.read(s).unwrap_or_else(|e| panic!("{s} is a type: {e}"))).collect();
        Fuzz {
            rng: Rng::with_seed(seed ^ salt),
            reader,
            seeds,
            map_types,
            problems: Vec::new(),
            slowest: (Duration::ZERO, String::new()),
        }
    }

    /// Runs `f`, noting a panic or a slow call with `what` (a description of the input).
    fn guard<T>(&mut self, what: impl Fn() -> String, f: impl FnOnce() -> T) -> Option<T> {
        quiet_panics();
        let start = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(f));
        let took = start.elapsed();
        if took > self.slowest.0 {
            self.slowest = (took, what());
        }
        if took > SLOW {
            self.problems.push(format!("took {took:?}: {}", what()));
        }
        match r {
            Ok(v) => Some(v),
            Err(_) => {
                let at = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
                self.problems.push(format!("panicked ({at}): {}", what()));
                None
            }
        }
    }

    fn finish(self, test: &str) {
        eprintln!("{test}: slowest call {:?}: {}", self.slowest.0, truncate(&self.slowest.1));
        let n = self.problems.len();
        let list: Vec<String> = self.problems.into_iter().take(30).map(|p| truncate(&p)).collect();
        assert!(n == 0, "{test}: {n} problems (seed {:?}):\n{}", std::env::var("PFMT_FUZZ_SEED").ok(), list.join("\n"));
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.usize(..items.len())]
    }

    /// A format string: valid in shape most of the time, then perhaps mutated.
    fn format(&mut self) -> String {
        let mut f = String::from("%");
        for _ in 0..self.rng.usize(0..4) {
            f.push(*self.pick(FLAGS));
        }
        f.push_str(self.pick::<&str>(NUMBERS));
        if self.rng.bool() {
            f.push('.');
            f.push_str(self.pick::<&str>(NUMBERS));
        }
        let letters: Vec<char> = LETTERS.chars().collect();
        f.push(*self.pick(&letters));
        if self.rng.u8(..10) < 3 {
            f = self.mutate(
                &f,
                &["%", "#", "0", "9", ".", "-", "x", "s", " ", "[", "{", "a", "h", "\u{e9}", "99999999999"],
            );
        }
        f
    }

    /// `s` with a few random edits: tokens inserted, characters deleted, a cut, a doubling.
    fn mutate(&mut self, s: &str, tokens: &[&str]) -> String {
        let mut chars: Vec<char> = s.chars().collect();
        for _ in 0..self.rng.usize(1..4) {
            let at = self.rng.usize(..=chars.len());
            match self.rng.u8(..5) {
                0 | 1 => {
                    let t: Vec<char> = self.pick(tokens).chars().collect();
                    chars.splice(at..at, t);
                }
                2 if at < chars.len() => {
                    let end = (at + self.rng.usize(1..4)).min(chars.len());
                    chars.drain(at..end);
                }
                3 => chars.truncate(at),
                _ => {
                    let copy = chars[at..].to_vec();
                    chars.extend(copy);
                }
            }
        }
        chars.into_iter().collect()
    }

    fn string(&mut self) -> String {
        const POOL: &[&str] = &[
            "a",
            "B",
            " ",
            "'",
            "\"",
            "\\",
            "\n",
            "\t",
            "\r",
            "\u{0}",
            "\u{1b}",
            "\u{7f}",
            "\u{85}",
            "é",
            "€",
            "\u{1F600}",
            "$",
            "%",
            "::",
            "x::y",
            "\u{200b}",
            "\u{fffd}",
        ];
        (0..self.rng.usize(0..8)).map(|_| *self.pick(POOL)).collect()
    }

    /// A random value, containers at most `depth` deep.
    fn value(&mut self, depth: usize) -> Value {
        match self.rng.u8(..16) {
            0 => Value::Undef,
            1 => Value::Default,
            2 => Value::Boolean(self.rng.bool()),
            3 => Value::Integer(*self.pick(&[
                0,
                1,
                -1,
                7,
                255,
                -255,
                65,
                0x1F600,
                0x110000,
                i64::MAX,
                i64::MIN,
                i64::MIN + 1,
            ])),
            4 => Value::Integer(self.rng.i64(..)),
            5 => Value::Float(*self.pick(&[
                0.0,
                -0.0,
                0.1,
                -2.5,
                1e16,
                1e-7,
                1e300,
                -1e-300,
                f64::MAX,
                f64::MIN_POSITIVE,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ])),
            6 => Value::Float(f64::from_bits(self.rng.u64(..))),
            7 | 8 => Value::from(self.string().as_str()),
            9 | 10 if depth > 0 => {
                let n = self.rng.usize(0..5);
                Value::array((0..n).map(|_| self.value(depth - 1)).collect())
            }
            11 if depth > 0 => {
                let mut h = Hash::default();
                for _ in 0..self.rng.usize(0..4) {
                    let k = self.value(depth - 1);
                    let v = self.value(depth - 1);
                    h.insert(k, v);
                }
                Value::hash(h)
            }
            12 if depth > 0 => {
                let source = self.value(depth - 1);
                let kind = *self.pick(&[
                    IteratorKind::Forward,
                    IteratorKind::Reverse,
                    IteratorKind::Step(2),
                    IteratorKind::Step(0),
                    IteratorKind::Step(-1),
                ]);
                Value::Iterator(Rc::new(PIterator { source, kind }))
            }
            _ => self.pick(&self.seeds.clone()).clone(),
        }
    }

    /// A format map, or one of the other things `String.new`'s second argument may be.
    fn formats(&mut self) -> Value {
        match self.rng.u8(..12) {
            0 => Value::Default,
            1 => Value::Undef,
            2 => Value::Integer(5),
            3 => Value::from(""),
            4..=6 => Value::from(self.format().as_str()),
            _ => {
                let mut map = Hash::default();
                for _ in 0..self.rng.usize(0..5) {
                    let key =
                        if self.rng.u8(..10) == 0 { self.value(1) } else { self.pick(&self.map_types.clone()).clone() };
                    let value = self.entry();
                    map.insert(key, value);
                }
                Value::hash(map)
            }
        }
    }

    /// A map's value: a format, a container format, or something else.
    fn entry(&mut self) -> Value {
        match self.rng.u8(..10) {
            0 => self.value(1),
            1..=5 => Value::from(self.format().as_str()),
            _ => {
                let mut h = Hash::default();
                for key in ["format", "separator", "separator2", "string_formats", "bogus"] {
                    if self.rng.u8(..3) != 0 {
                        continue;
                    }
                    let v = match key {
                        "format" => Value::from(self.format().as_str()),
                        "string_formats" => {
                            let mut inner = Hash::default();
                            for _ in 0..self.rng.usize(0..3) {
                                let t = self.pick(&self.map_types.clone()).clone();
                                let f = if self.rng.u8(..8) == 0 {
                                    self.value(1)
                                } else {
                                    Value::from(self.format().as_str())
                                };
                                inner.insert(t, f);
                            }
                            Value::hash(inner)
                        }
                        _ if self.rng.u8(..8) == 0 => self.value(1),
                        _ => Value::from(self.string().as_str()),
                    };
                    h.insert(Value::from(key), v);
                }
                Value::hash(h)
            }
        }
    }

    /// `string_new(value, formats)`, guarded.
    fn convert(&mut self, value: &Value, formats: Option<&Value>) {
        let what =
            || format!("String({}, {})", value_to_string(value), formats.map(value_to_string).unwrap_or_default());
        self.guard(what, || {
            let _ = pfmt::string_new(value, formats);
        });
    }

    /// A literal source: a valid one, perhaps mutated, sometimes several joined into a
    /// container.
    fn source(&mut self) -> String {
        let s = match self.rng.u8(..4) {
            0 => {
                let parts: Vec<&str> = (0..self.rng.usize(1..4)).map(|_| *self.pick(LITERALS)).collect();
                if self.rng.bool() {
                    format!("[{}]", parts.join(", "))
                } else {
                    format!(
                        "{{{}}}",
                        parts.iter().enumerate().map(|(i, p)| format!("k{i} => {p}")).collect::<Vec<_>>().join(", ")
                    )
                }
            }
            1 => value_to_string(&self.value(3)),
            _ => self.pick(LITERALS).to_string(),
        };
        if self.rng.u8(..4) == 0 {
            s
        } else {
            self.mutate(&s, TOKENS)
        }
    }
}

thread_local! {
    /// The message and place of this thread's last panic, kept by the quiet hook.
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Replaces the panic hook, once, by one that keeps the message and place for [`Fuzz::guard`]
/// instead of printing them (and a backtrace) for every panicking input. Panics outside a
/// guard (a failing assertion) still print.
fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let msg = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let place = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            if msg.contains("problems (seed") {
                default(info);
            } else {
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg} at {place}")));
            }
        }));
    });
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 400 {
        format!("{}...", s.chars().take(400).collect::<String>())
    } else {
        s.to_string()
    }
}

#[test]
fn random_formats() {
    let mut f = Fuzz::new(1);
    for _ in 0..iterations(30_000) {
        let value = f.value(2);
        let format = Value::from(f.format().as_str());
        f.convert(&value, Some(&format));
    }
    f.finish("random_formats");
}

#[test]
fn random_maps() {
    let mut f = Fuzz::new(2);
    for _ in 0..iterations(30_000) {
        let value = f.value(3);
        let formats = f.formats();
        f.convert(&value, Some(&formats));
        if f.rng.u8(..8) == 0 {
            f.convert(&value, None);
        }
    }
    f.finish("random_maps");
}

/// Random literal sources through the reader, then what it read through `string_new`; random
/// sources as maps too.
#[test]
fn random_literal_sources() {
    let mut f = Fuzz::new(3);
    for _ in 0..iterations(30_000) {
        let src = f.source();
        quiet_panics();
        let read = {
            let reader = &f.reader;
            let s = src.clone();
            let r = catch_unwind(AssertUnwindSafe(|| reader.read(&s)));
            match r {
                Ok(r) => r.ok(),
                Err(_) => {
                    let at = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
                    f.problems.push(format!("the reader panicked ({at}) on {src:?}"));
                    None
                }
            }
        };
        if let Some(value) = read {
            let formats = f.formats();
            f.convert(&value, Some(&formats));
            // the value as a map
            let other = f.value(2);
            f.convert(&other, Some(&value));
        }
    }
    f.finish("random_literal_sources");
}

/// Random JSON and YAML documents through `pfmt`'s readers (`--json`, `--yaml`).
#[test]
fn random_json_and_yaml() {
    const JSON_TOKENS: &[&str] = &[
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        "\"",
        "\\",
        "\\u",
        "\\ud800",
        "null",
        "1e999",
        "-",
        "0",
        "\n",
        "1",
        "\"k\":",
        "18446744073709551616",
        "1.5",
    ];
    const YAML_TOKENS: &[&str] = &[
        "- ",
        "\n",
        "  ",
        ": ",
        "? ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "'",
        "\"",
        "&a ",
        "*a",
        "!!int ",
        "!!str ",
        "!!float ",
        "!!bool ",
        "!!null ",
        "!x ",
        "---\n",
        "...\n",
        "|\n",
        ">-\n",
        "#",
        "%YAML 1.2\n",
        "<<: ",
        "~",
        "0x",
        "0o",
        ".inf",
        "\t",
        "@",
        "`",
    ];
    let mut f = Fuzz::new(4);
    let json_seeds = [r#"{"a": [1, null, true, 2.5, "x"], "b": {"c": -3}}"#, "1\n\"two\"\n[3]\n", "[]", r#"{"":{}}"#];
    let yaml_seeds = [
        "a: [1, ~, yes]\nb:\n  - x\n  - &r {c: 1}\nd: *r\n",
        "--- 1\n--- x\n",
        "? [1]\n: !!str 2\n",
        "- |\n  text\n- >\n  folded\n",
    ];
    for i in 0..iterations(20_000) {
        let yaml = i % 2 == 1;
        let src = if yaml {
            let s = *f.pick(&yaml_seeds);
            f.mutate(s, YAML_TOKENS)
        } else {
            let s = *f.pick(&json_seeds);
            f.mutate(s, JSON_TOKENS)
        };
        let what = || format!("{} {src:?}", if yaml { "--yaml" } else { "--json" });
        let values = f.guard(what, || {
            let docs: Vec<Result<Value, String>> = if yaml {
                cli::yaml::documents(&src).take(100).collect()
            } else {
                cli::json::documents(&src).take(100).collect()
            };
            docs.into_iter().filter_map(Result::ok).collect::<Vec<_>>()
        });
        for v in values.unwrap_or_default() {
            let formats = f.formats();
            f.convert(&v, Some(&formats));
        }
    }
    f.finish("random_json_and_yaml");
}

/// Values nested as deeply as the reader allows, and far deeper (a library user may build
/// them): an error or a result, no stack overflow.
#[test]
fn deep_nesting() {
    let mut f = Fuzz::new(5);
    for depth in [150, 200, 5_000, 100_000] {
        let mut a = Value::Integer(1);
        let mut h = Value::Integer(1);
        for _ in 0..depth {
            a = Value::array(vec![a, Value::from("x")]);
            let mut m = Hash::default();
            m.insert(Value::from("k"), h);
            h = Value::hash(m);
        }
        for v in [&a, &h] {
            for formats in [None, Some(Value::from("%#p")), Some(Value::from("%a")), Some(Value::from("%s"))] {
                let what = || format!("depth {depth}, {formats:?}");
                f.guard(what, || {
                    let _ = pfmt::string_new(v, formats.as_ref());
                });
            }
        }
    }
    let src = format!("{}1{}", "[".repeat(199), "]".repeat(199));
    let v = f.reader.read(&src).expect("199 levels read");
    f.convert(&v, None);
    f.finish("deep_nesting");
}

/// The `pfmt` binary with random command lines and standard input: it exits 0, 1 or 2, never
/// with a panic (101) or a signal.
#[test]
fn random_command_lines() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    const OPTIONS: &[&str] =
        &["-m", "--map", "--json", "--yaml", "-r", "--raw", "--", "-h", "--bogus", "-", "-5", "-m{}", "--map={}", "-V"];
    let mut f = Fuzz::new(6);
    let mut failures = Vec::new();
    for _ in 0..iterations(300) {
        let mut args: Vec<String> = Vec::new();
        for _ in 0..f.rng.usize(0..5) {
            let arg = match f.rng.u8(..4) {
                0 => f.pick::<&str>(OPTIONS).to_string(),
                1 => f.format(),
                _ => f.source(),
            };
            // a command line cannot hold a NUL
            args.push(arg.replace('\0', "0"));
        }
        let stdin = match f.rng.u8(..3) {
            0 => String::new(),
            1 => value_to_string(&f.value(2)),
            _ => f.mutate("{\"a\": [1, null]}\n2\n- x\n", &["[", "{", "\"", ":", "\n", "- ", "---\n"]),
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_pfmt"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("pfmt starts");
        let mut pipe = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let _ = pipe.write_all(stdin.as_bytes());
        });
        let out = child.wait_with_output().expect("pfmt runs");
        let _ = writer.join();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !matches!(out.status.code(), Some(0..=2)) || stderr.contains("panicked") {
            failures.push(format!("pfmt {args:?}: {:?} {}", out.status.code(), truncate(&stderr)));
        }
    }
    assert!(failures.is_empty(), "{} command lines failed:\n{}", failures.len(), failures.join("\n"));
}
