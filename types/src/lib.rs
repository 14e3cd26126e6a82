//! Puppet's values and Puppet 7.23's type system.
//!
//! - [`Value`] and [`Type`] are the data;
//! - one file per question asked of them: [`instance`] (`=~`), [`assignable`],
//!   [`normalize`], [`common`] (the type algebra), [`infer`], [`display`] (string forms),
//!   [`mismatch`] (type-mismatch messages), [`params`] (parameterising a type from values),
//!   [`compare`] (`==` and ordering as Puppet's operators need them), [`dispatch`] (which
//!   signature of a function accepts a call);
//! - the value kinds with their own rules: [`regexp`], [`semver`], [`time`], [`binary`],
//!   [`uri`];
//! - [`new`]: conversions (`Integer.new`, `Timestamp.new`, ...); [`assert_type`], the
//!   function;
//! - [`literal`]: reading data literals, type expressions and constructor calls from source.
//! - [`type_parser`]: Puppet's string type parser (`Type('Integer[1, 2]')`), with its own
//!   messages.
//!
//! Deep values: [`Value`] and [`Type`] free nested containers without deep recursion (their
//! `Drop`), the notice form prints iteratively, and the recursive questions stop at a nesting
//! bound (answering "no", or printing `...`) far beyond what the parser lets source reach.

pub mod assert_type;
pub mod assignable;
pub mod binary;
pub mod common;
pub mod compare;
pub mod dispatch;
pub mod display;
pub mod error;
pub mod infer;
pub mod instance;
pub mod int;
pub mod literal;
pub mod mismatch;
pub mod new;
pub mod normalize;
pub mod object;
pub mod params;
pub mod regexp;
pub mod semver;
pub mod time;
pub mod ty;
pub mod type_parser;
pub mod uri;
pub mod value;

pub use error::{Error, Result};
pub use int::Int;
pub use ty::Type;
pub use value::Value;
