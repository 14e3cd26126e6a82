//! `poppet epp validate|render|dump`: Puppet 7.23's `puppet epp` face.

use std::ffi::OsString;
use std::process::ExitCode;

/// `poppet epp ACTION ARGS` (`args` starts with `epp`); returns the exit code.
pub fn command(args: impl Iterator<Item = OsString>) -> ExitCode {
    let _ = args;
    eprintln!("Error: poppet epp is not written yet");
    ExitCode::from(1)
}
