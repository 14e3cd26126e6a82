//! The benchmarks' shared code: [`harness`] (measuring parsers over the corpus, also included
//! by `bench/theirs`) and [`common`] (temporary directories and files). The benchmarks are the
//! binaries of this package: `poppet-bench` (parse throughput, `src/main.rs`),
//! `poppet-bench-eval` (`eval/`), `poppet-bench-fmt` (`fmt/`) and `poppet-bench-shell`
//! (`shell/`); see `bench/README.md`.

pub mod common;
pub mod harness;
