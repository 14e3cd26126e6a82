//! `poppet lookup KEY...`: Puppet 7.23's `puppet lookup` application.

use std::ffi::OsString;
use std::process::ExitCode;

/// `poppet lookup ARGS` (`args` starts with `lookup`); returns the exit code.
pub fn command(args: impl Iterator<Item = OsString>) -> ExitCode {
    let _ = args;
    eprintln!("Error: poppet lookup is not written yet");
    ExitCode::from(1)
}
