//! The project's test kit, shared by the crates' tests and by the tools (`xtask`):
//!
//! - [`catalog`]: whole compiled catalogs as expectation lines, and the settings of the
//!   golden suite of whole catalogs;
//! - [`cases`]: golden case files (`=== name`, source, `---`, expectation), the test runner's
//!   loop over a directory of them and the recorders' driver;
//! - [`escapes`]: the escapes of the lexer's one-line case sources;
//! - [`table`]: golden tables (a line of Puppet, then `=> NOTICE` or `!! ERROR`);
//! - [`ratchet`]: `disagree.todo`, the list of golden cases known to disagree with Puppet,
//!   which may only shrink;
//! - [`oracle`]: the client of the Puppet 7.23 oracle (`oracle/oracle.rb` beside this crate):
//!   programs in, one JSON outcome per program out, and those outcomes as expectation lines.
//!
//! It depends on no crate of the workspace, so that each of them can dev-depend on it.

pub mod cases;
pub mod catalog;
pub mod escapes;
pub mod oracle;
pub mod ratchet;
pub mod table;
