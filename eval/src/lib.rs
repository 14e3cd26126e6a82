//! Poppet's evaluator: Puppet 7.23's semantics over a persistent top scope, its built-in
//! functions, the catalog compiler, Hiera 5, facts and templates. A library with no terminal
//! or command-line dependency: the `poppet` runner and shell are built on it.
//!
//! - [`Session`] (`session.rs`): parse, validate (puppet-syntax) and evaluate one program after
//!   another against one top scope; an [`Outcome`] holds the logs, the value and the failure
//!   (`Failure::puppet_text` is the line `puppet apply` prints after `Error: `).
//! - [`eval`]: the [`Evaluator`], one arm per AST node; [`scope`]: where variables live.
//! - [`functions`]: the built-in functions, one table, one module per family.
//! - [`catalog`]: the catalog compiler (resources, classes, defined types, nodes,
//!   relationships, collectors) and [`hiera`]: Hiera 5 data and `lookup`.
//! - [`facts`]: the node's facts (`--facts` files, or a small built-in set);
//!   [`resource_types`]: the core resource types' schemas, generated from Puppet.
//! - [`environment`]: directory environments (`environment.conf`, the environment path).
//! - [`json`]: values as JSON (`--output json`, the catalog's JSON form).
//! - [`error`]: `Flow`, the unwinding type (errors, and `break`/`next`/`return` as values).
//!
//! ```
//! let mut session = puppet_eval::Session::default();
//! let outcome = session.run("$x = [1, 2].map |$v| { $v * 10 }\nnotice($x)");
//! assert_eq!(outcome.notices(), ["[10, 20]"]);
//! assert_eq!(session.run("notice($x[1])").notices(), ["20"]);
//! ```

pub mod catalog;
pub mod environment;
pub mod error;
pub mod eval;
pub mod facts;
pub mod functions;
pub mod hiera;
pub mod json;
pub mod resource_types;
pub mod ruby;
pub mod scope;
mod session;

pub use eval::checkpoint::Checkpoint;
pub use eval::{Evaluator, Level, Log, Options, Strict};
pub use session::{Failure, FailureKind, Outcome, Session};
