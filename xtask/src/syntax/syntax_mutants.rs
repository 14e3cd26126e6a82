//! Writes syntax-error candidates as a case file (the format of `poppet_tests::cases` (tests/src/cases.rs)):
//! the sources of the given case files, each edited at one token by a seeded generator
//! (a token deleted, repeated, replaced, or inserted; the source cut after a token). The
//! expectations are left empty for `record_validate` to fill in from Puppet.
//!
//! ```sh
//! cargo xtask fuzz syntax-mutants [--seed N] [--per-case N] syntax/tests/pn/*.txt > /tmp/mutants.txt
//! cargo xtask record validate /tmp/mutants.txt
//! ```

use poppet_tests::cases;

use std::process::ExitCode;

use puppet_syntax::lexer;

/// Tokens to insert or to replace with: brackets, operators, separators and keywords, the
/// places where Puppet's grammar is most particular.
const INSERTS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ":",
    "=>",
    "+>",
    "=",
    "|",
    "?",
    ".",
    "@",
    "@@",
    "->",
    "<|",
    "|>",
    "<<|",
    "+",
    "!",
    "if",
    "else",
    "elsif",
    "case",
    "class",
    "define",
    "node",
    "default",
    "function",
    "type",
    "unless",
    "and",
    "in",
    "$x",
    "foo",
    "Foo",
    "'s'",
    "1",
    "/r/",
    "*",
    "~",
    "\"d$x\"",
    "@(E)\n  t\n  |-E\n",
    "::",
];

/// A small, seeded generator (xorshift64*): the same seed makes the same file.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Spells a source as case lines: control pictures for what a case file cannot hold.
fn lines(source: &str) -> Vec<String> {
    let mut out: Vec<String> = source
        .split_inclusive('\n')
        .map(|l| {
            let body = l.strip_suffix('\n').unwrap_or(l);
            let mut s = body.replace('\r', "\u{240D}").replace('\t', "\u{2409}");
            if s.ends_with(' ') {
                s.pop();
                s.push('\u{2420}');
            }
            if !l.ends_with('\n') {
                s.push('\u{2404}');
            }
            s
        })
        .collect();
    if out.is_empty() {
        out.push("\u{2404}".into());
    }
    out
}

pub fn main(args: Vec<String>) -> ExitCode {
    let mut seed = 1u64;
    let mut per_case = 2usize;
    let mut paths = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seed" => seed = args.next().and_then(|n| n.parse().ok()).unwrap_or(1),
            "--per-case" => per_case = args.next().and_then(|n| n.parse().ok()).unwrap_or(2),
            _ => paths.push(arg),
        }
    }
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = cases::File {
        header: vec!["# Syntax-error candidates (`cargo xtask fuzz syntax-mutants`).".into()],
        cases: Vec::new(),
    };
    for path in &paths {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        let file = match cases::parse(&text) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        for case in &file.cases {
            let source = case.source();
            let tokens = lexer::lex(&source).tokens;
            if tokens.is_empty() {
                continue;
            }
            for k in 0..per_case {
                let t = tokens[rng.below(tokens.len())];
                let insert = INSERTS[rng.below(INSERTS.len())];
                let (kind, mutant) = match rng.below(5) {
                    0 => ("delete", format!("{}{}", &source[..t.start], &source[t.end..])),
                    1 => ("repeat", format!("{}{}", &source[..t.end], &source[t.start..])),
                    2 => ("replace", format!("{}{insert}{}", &source[..t.start], &source[t.end..])),
                    3 => ("insert", format!("{}{insert} {}", &source[..t.start], &source[t.start..])),
                    _ => ("cut", source[..t.end].to_string()),
                };
                if mutant == source {
                    continue;
                }
                out.cases.push(cases::Case {
                    name: format!("{} {k} {kind}: {}", out.cases.len(), case.name),
                    lines: lines(&mutant),
                    expected: Vec::new(),
                    line: 0,
                    oracle_options: Vec::new(),
                });
            }
        }
    }
    print!("{}", cases::render(&out));
    ExitCode::SUCCESS
}
