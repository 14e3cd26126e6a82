//! Lowering and PN printing over the grammar fuzzer's inputs: no panic, no stack overflow.
//!
//! ```sh
//! cargo xtask fuzz lower [--inputs N] [--seed S] [--corpus FILE_LIST]
//! ```
//!
//! The inputs are those of `cargo xtask fuzz mutate` (`crate::parse::inputs`: mutated corpus files and
//! generated stress inputs, the same for the same seed). Each is parsed, lowered and, when it
//! lowers, printed as PN, on a thread with a 2 MiB stack; a panic is a failure, and the input is
//! written to `target/lower_fuzz/`. Prints `N passed, N failed`; exits 1 on any failure.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::parse::inputs;

struct Options {
    inputs: u64,
    seed: u64,
    corpus: Option<PathBuf>,
}

fn options(args: Vec<String>) -> Result<Options, String> {
    let mut options = Options { inputs: 200_000, seed: 1, corpus: None };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--inputs" => options.inputs = value()?.parse().map_err(|e| format!("--inputs: {e}"))?,
            "--seed" => options.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--corpus" => options.corpus = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

fn run(options: &Options) -> (u64, u64, u64) {
    let corpus = inputs::Corpus::load(options.corpus.as_deref(), true);
    eprintln!("lower_fuzz: seed {}, {} inputs, corpus of {}", options.seed, options.inputs, corpus.description);
    let (mut lowered, mut rejected, mut failed) = (0, 0, 0);
    for index in 0..options.inputs {
        let input = inputs::make_input(options.seed, index, &corpus);
        let source = String::from_utf8_lossy(&input.bytes).into_owned();
        let outcome = catch_unwind(AssertUnwindSafe(|| match puppet_syntax::parse(&source) {
            Ok(program) => Some(puppet_syntax::pn::program(&program).to_text().len()),
            Err(_) => None,
        }));
        match outcome {
            Ok(Some(_)) => lowered += 1,
            Ok(None) => rejected += 1,
            Err(_) => {
                failed += 1;
                let dir = PathBuf::from("target/lower_fuzz");
                let _ = std::fs::create_dir_all(&dir);
                let path = dir.join(format!("seed{}-input{index}.pp", options.seed));
                let _ = std::fs::write(&path, &input.bytes);
                eprintln!("lower_fuzz: input {index} ({}) panicked; saved as {}", input.kind, path.display());
            }
        }
    }
    (lowered, rejected, failed)
}

pub fn main(args: Vec<String>) -> ExitCode {
    let options = match options(args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("lower_fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    let start = std::time::Instant::now();
    let worker = std::thread::Builder::new().stack_size(2 << 20).spawn(move || run(&options));
    let Ok(Ok((lowered, rejected, failed))) = worker.map(|w| w.join()) else {
        eprintln!("lower_fuzz: the worker thread died");
        return ExitCode::FAILURE;
    };
    println!("lowered {lowered}, rejected with diagnostics {rejected}, in {:.1} s", start.elapsed().as_secs_f64());
    println!("lower_fuzz: {} passed, {failed} failed", lowered + rejected);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
