//! `cargo xtask`: the project's tools, one subcommand each (`.cargo/config.toml` makes
//! `cargo xtask …` run this package in release):
//!
//! ```text
//! cargo xtask record pn|validate|eval|types|catalog CASE-FILE...  golden expectations from Puppet 7.23
//! cargo xtask record lexer CASES.txt                      the lexer's cases, from Puppet's lexer
//! cargo xtask check parse-corpus|pn-corpus|validate-corpus|eval-corpus PP-FILES.txt
//! cargo xtask record lookup-cli [--check]                 `puppet lookup` of tests/lookup/cases.txt and the corpus modules' data
//! cargo xtask check lookup-cli [--live]                   `poppet lookup` against that recording
//! cargo xtask record compile-cli [--check]                `puppet catalog compile` of tests/compile/cases.txt
//! cargo xtask check compile-cli [--live]                  `poppet catalog compile` against that recording
//! cargo xtask check modules [MODULEPATH]                  every class of the corpus modules
//! cargo xtask fuzz mutate|lower [--corpus PP-FILES.txt]   parser and lowering fuzzers
//! cargo xtask fuzz syntax-mutants|validate-mutants …      syntax-error and validation mutants
//! cargo xtask gen lr-tables|resource-types|settings|did-you-mean|ruby-methods|issues|catalog-edges  generated files, from Puppet 7.23
//! cargo xtask dump tokens FILE...                         our lexer's tokens as JSON lines
//! ```
//!
//! Each subcommand's own options follow it (`cargo xtask fuzz mutate --help`); the Ruby
//! generators are the scripts of `xtask/ruby/`, run with the Ruby Puppet is installed for.

// The subcommands' doc comments are their `--help` text, written as usage lines
// (`[MODULEPATH]`), not rustdoc links.
#![allow(rustdoc::broken_intra_doc_links)]

mod eval;
mod parse;
mod syntax;
mod types;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "The project's recorders, checks, fuzzers and generators"
)]
struct Cli {
    #[command(subcommand)]
    group: Group,
}

#[derive(Subcommand)]
enum Group {
    /// Record golden expectations from Puppet 7.23 (never from our code)
    #[command(subcommand)]
    Record(Record),
    /// Compare our code with Puppet 7.23 over the real-code corpus
    #[command(subcommand)]
    Check(Check),
    /// Fuzz the parser, the lowering and the validation
    #[command(subcommand)]
    Fuzz(Fuzz),
    /// Write generated files from Puppet 7.23, on standard output unless said otherwise
    #[command(subcommand)]
    Gen(Gen),
    /// Print what our code makes of files, to compare with Puppet
    #[command(subcommand)]
    Dump(Dump),
}

/// The arguments a subcommand reads itself.
#[derive(Args)]
struct Rest {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    args: Vec<String>,
}

#[derive(Subcommand)]
enum Record {
    /// [--check] CASE-FILE...: Puppet's PN (`puppet parser dump --format pn`), syntax/tests/pn
    Pn(Rest),
    /// [--check] CASE-FILE...: Puppet's diagnostics (`puppet parser validate`), syntax/tests/validate
    Validate(Rest),
    /// CASES.txt: Puppet's errors and token kinds for the lexer's cases (syntax/tests/lexer)
    Lexer { cases: String },
    /// [--all] TABLE.txt...: golden tables of puppet-types and pfmt (`notice(LINE)` through the oracle)
    Types(Rest),
    /// [--check] [--modulepath DIR] CASE-FILE...: the evaluator's golden suites through the oracle
    Eval(Rest),
    /// [--check] CASE-FILE...: the whole-catalog suite (eval/tests/golden_catalog) with its settings
    Catalog(Rest),
    /// [--check]: `puppet lookup` of tests/lookup/cases.txt and of the corpus modules' data, tests/lookup/recorded.txt
    LookupCli(Rest),
    /// [--check]: `puppet catalog compile` of tests/compile/cases.txt in the fixture control repo, tests/compile/recorded.txt
    CompileCli(Rest),
}

#[derive(Subcommand)]
enum Check {
    /// PP-FILES.txt: every manifest parses with no ERROR or MISSING node (tree-sitter-puppet)
    ParseCorpus(Rest),
    /// PP-FILES.txt: our PN of every manifest is Puppet's
    PnCorpus(Rest),
    /// PP-FILES.txt: our validation of every manifest is Puppet's
    ValidateCorpus(Rest),
    /// PP-FILES.txt: `poppet parser validate|dump` print what `puppet parser validate|dump` print, over the corpus and mutants of it
    ParserCli(Rest),
    /// EPP-FILES.txt: `poppet epp validate|render|dump` print what `puppet epp validate|render|dump` print, over the corpus templates, mutants of them and fixtures
    EppCli(Rest),
    /// [--live] [--show N]: `poppet lookup` prints what `puppet lookup` printed (tests/lookup/recorded.txt)
    LookupCli(Rest),
    /// [--live] [--show N]: `poppet catalog compile` prints what `puppet catalog compile` printed (tests/compile/recorded.txt)
    CompileCli(Rest),
    /// PP-FILES.txt: every manifest evaluates as in Puppet 7.23 (no panic; notices, warnings, errors)
    EvalCorpus(Rest),
    /// [MODULEPATH] [--show N]: every class of the corpus modules compiled here and in Puppet 7.23
    Modules(Rest),
    /// [MODULEPATH] [--show N] [--answers FILE]: every ERB template of the corpus modules rendered at the top scope here and in Puppet 7.23
    Templates(Rest),
}

#[derive(Subcommand)]
enum Fuzz {
    /// [--inputs N] [--seed S] [--corpus FILE] [--jobs J] …: mutated inputs through the parser
    Mutate(Rest),
    /// [--inputs N] [--seed S] [--corpus FILE]: the same inputs through lowering and PN
    Lower(Rest),
    /// [--seed N] [--per-case N] CASE-FILE...: syntax-error candidates as a case file, on stdout
    SyntaxMutants(Rest),
    /// PP-FILES.txt [KIND...]: corpus manifests made invalid on purpose, validated here and by Puppet
    ValidateMutants(Rest),
}

#[derive(Subcommand)]
enum Gen {
    /// The LALR tables of Puppet's parser, for syntax/src/lr_tables.rs
    LrTables,
    /// Puppet's core resource types as JSON, for eval/src/resource_types.json
    ResourceTypes,
    /// Puppet's settings as `$settings::NAME` shows them, for eval/src/facts/settings.json
    Settings,
    /// Ruby's "Did you mean?" suggestions for the ports' missing methods, for ruby/src/did_you_mean.tsv
    DidYouMean,
    /// The methods Ruby's objects have in Puppet's Ruby, for erb/src/ruby_methods.tsv
    RubyMethods,
    /// Puppet's issues (codes and message templates), for syntax/src/issues.tsv
    Issues,
    /// CASE-FILE: rewrites the catalog edges, classes and tags of each case (repl/tests/catalog_edges.txt)
    CatalogEdges { file: String },
}

#[derive(Subcommand)]
enum Dump {
    /// FILE...: our lexer's tokens as JSON lines (as syntax/tests/lexer/puppet_tokens.rb prints Puppet's)
    Tokens { files: Vec<String> },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.group {
        Group::Record(r) => match r {
            Record::Pn(a) => syntax::record_pn::main(a.args),
            Record::Validate(a) => syntax::record_validate::main(a.args),
            Record::Lexer { cases } => match syntax::lexer::record(&cases) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(2)
                }
            },
            Record::Types(a) => types::record::main(a.args),
            Record::Eval(a) => eval::record::main(a.args),
            Record::Catalog(a) => eval::record::catalog_main(a.args),
            Record::LookupCli(a) => eval::lookup_cli::record_main(a.args),
            Record::CompileCli(a) => eval::compile_cli::record_main(a.args),
        },
        Group::Check(c) => match c {
            Check::ParseCorpus(a) => parse::corpus::main(a.args),
            Check::PnCorpus(a) => syntax::pn_corpus::main(a.args),
            Check::ValidateCorpus(a) => syntax::validate_corpus::main(a.args),
            Check::ParserCli(a) => syntax::parser_cli::main(a.args),
            Check::EppCli(a) => syntax::epp_cli::main(a.args),
            Check::LookupCli(a) => eval::lookup_cli::check_main(a.args),
            Check::CompileCli(a) => eval::compile_cli::check_main(a.args),
            Check::EvalCorpus(a) => eval::corpus::main(a.args),
            Check::Modules(a) => eval::modules_corpus::main(a.args),
            Check::Templates(a) => eval::modules_corpus::templates_main(a.args),
        },
        Group::Fuzz(f) => match f {
            Fuzz::Mutate(a) => parse::mutate::main(a.args),
            Fuzz::Lower(a) => syntax::lower_fuzz::main(a.args),
            Fuzz::SyntaxMutants(a) => syntax::syntax_mutants::main(a.args),
            Fuzz::ValidateMutants(a) => syntax::validate_mutants::main(a.args),
        },
        Group::Gen(g) => match g {
            Gen::LrTables => ruby("lr_tables.rb", &[]),
            Gen::ResourceTypes => ruby("resource_types.rb", &[]),
            Gen::Settings => ruby("settings.rb", &[]),
            Gen::DidYouMean => ruby("did_you_mean.rb", &[]),
            Gen::RubyMethods => ruby("ruby_methods.rb", &[]),
            Gen::Issues => ruby("issues.rb", &[]),
            Gen::CatalogEdges { file } => ruby("catalog_edges.rb", &[file]),
        },
        Group::Dump(Dump::Tokens { files }) => {
            for file in &files {
                syntax::lexer::dump(file);
            }
            ExitCode::SUCCESS
        }
    }
}

/// Runs `xtask/ruby/SCRIPT ARGS...` with `ruby`, its output and errors this program's.
fn ruby(script: &str, args: &[String]) -> ExitCode {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("ruby").join(script);
    match Command::new("ruby").arg(&path).args(args).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => {
            eprintln!("{}: {status}", path.display());
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("cannot run ruby {}: {e}", path.display());
            ExitCode::from(2)
        }
    }
}
