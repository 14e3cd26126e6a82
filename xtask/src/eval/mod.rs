//! Tools for puppet-eval: the recorder of its golden suites, and its checks against Puppet
//! over the corpus manifests and the corpus modules.

pub mod compile_cli;
pub mod corpus;
pub mod lookup_cli;
pub mod modules_corpus;
pub mod record;
pub mod recorded_cli;

use poppet_tests::oracle::Expectation;
use puppet_eval::{Level, Outcome};

/// Our outcome of a program in the oracle's expectation lines (the whole error, every line
/// of it, as the oracle's `error_full` keeps it). The evaluator's golden test (`eval/tests/golden.rs`) has the same
/// few lines: it cannot depend on this package.
pub fn our_expectation(outcome: &Outcome) -> Vec<String> {
    let error = outcome.error.as_ref().map(|e| e.puppet_text());
    Expectation {
        notices: outcome.messages(Level::Notice),
        // The oracle keeps a warning's first line.
        warnings: outcome.messages(Level::Warning).into_iter().map(|w| w.lines().next().unwrap_or_default()).collect(),
        errs: outcome.messages(Level::Err),
        error: error.as_deref(),
        resources: outcome.resources.iter().map(String::as_str).collect(),
        relationships: outcome.relationships.iter().map(String::as_str).collect(),
    }
    .lines()
}
