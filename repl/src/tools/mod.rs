//! Puppet's developer commands, as `poppet` subcommands with Puppet's options, output and
//! exit codes: `poppet parser validate|dump` (Puppet's `puppet parser` face).

pub mod catalog;
pub mod epp;
pub mod lookup;
pub mod node;
pub mod parser;

use std::io::Write;
use std::process::ExitCode;

/// A log level of Puppet's console destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Err,
    Warning,
    /// A warning Puppet gives once in a run (`warnonce`).
    WarningOnce,
    Notice,
}

/// Puppet's console log destination: `Error: ` and `Warning: ` lines on standard error,
/// `Notice: ` on standard output, coloured as Puppet's `color` setting says (ANSI by default,
/// whether or not the stream is a terminal, as Puppet does).
pub struct Console {
    pub color: bool,
}

impl Console {
    /// One log line at `level` (its `Level: ` prefix and colour added).
    pub fn line(&self, out: &mut impl Write, level: Level, message: &str) {
        let (name, color) = match level {
            Level::Err => ("Error", "\x1b[1;31m"),
            Level::Warning | Level::WarningOnce => ("Warning", "\x1b[1;33m"),
            Level::Notice => ("Notice", "\x1b[m"),
        };
        let text = format!("{name}: {message}");
        // a write that fails (a closed pipe) loses the line, as Puppet's would
        let _ = if self.color {
            // `console_color`: a reset inside the text restarts the level's colour
            writeln!(out, "{color}{}\x1b[0m", text.replace("\x1b[0m", color))
        } else {
            writeln!(out, "{text}")
        };
    }

    /// A notice on standard output.
    pub fn notice(&self, message: &str) {
        self.line(&mut std::io::stdout().lock(), Level::Notice, message);
    }
}

/// What Puppet says of a `--strict` value that is none of `off`, `warning`, `error`: its
/// settings refuse it before anything runs.
pub fn invalid_strict(value: &str) -> String {
    format!(
        "Could not initialize global default settings: Invalid value '{value}' for parameter strict. Allowed values are 'off', 'warning', 'error'"
    )
}

/// Puppet's `--color` values: `ansi`, `true` and `yes` colour; `false`, `no` and anything
/// else do not (`html` is not offered).
pub fn color_setting(value: &str) -> bool {
    matches!(value, "ansi" | "true" | "yes")
}

/// Runs `work` on a thread with a deep stack (parsing and evaluating deep nesting recurse),
/// as the runner does; a thread that fails is reported as `what` failing.
pub fn on_deep_stack(what: &str, work: impl FnOnce() -> ExitCode + Send + 'static) -> ExitCode {
    match std::thread::Builder::new().stack_size(1 << 30).spawn(work).map(|w| w.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("Error: {what} failed");
            ExitCode::from(1)
        }
    }
}
