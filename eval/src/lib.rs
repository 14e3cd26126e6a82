//! Poppet's evaluator: Puppet 7.23's semantics over a persistent top scope, its built-in
//! functions, the catalog compiler, Hiera 5, facts and templates. A library with no terminal
//! or command-line dependency: the `poppet` runner and shell are built on it.
//!
//! ```
//! let mut session = puppet_eval::Session::default();
//! let outcome = session.run("$x = [1, 2].map |$v| { $v * 10 }\nnotice($x)");
//! assert_eq!(outcome.notices(), ["[10, 20]"]);
//! assert_eq!(session.run("notice($x[1])").notices(), ["20"]);
//! ```

pub mod catalog;
pub mod error;
pub mod eval;
pub mod facts;
pub mod functions;
pub mod hiera;
pub mod resource_types;
pub mod scope;
mod session;

pub use eval::{Evaluator, Level, Log, Options, Strict};
pub use session::{Failure, FailureKind, Outcome, Session};
