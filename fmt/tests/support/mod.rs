//! Test support shared by pfmt's integration tests.

/// The golden table format (`=> NOTICE` / `!! ERROR` after each line of Puppet), shared with
/// puppet-types and its recorder (`cargo run -p puppet-types --example record`).
#[path = "../../../types/tests/support/golden.rs"]
pub mod golden;
