//! Tools for puppet-syntax: the recorders of its golden suites (PN, validation, the lexer's
//! cases), its checks against Puppet over the corpus, and its fuzzers.

pub mod lexer;
pub mod lower_fuzz;
pub mod pn_corpus;
pub mod record_pn;
pub mod record_validate;
pub mod syntax_mutants;
pub mod validate_corpus;
pub mod validate_mutants;
