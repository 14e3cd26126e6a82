//! `generate`: runs a command on the machine evaluating the code (Puppet's 3.x function).
//! It runs only where the user allowed it (`Options::allow_generate`, `poppet
//! --allow-generate`); otherwise it is an error saying so.

use std::process::{Command, Stdio};

use puppet_types::Value;

use super::{Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;

fn generate(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let args: Vec<String> = call.args.iter().map(|v| ev.interpolate(v)).collect();
    let program = &args[0];
    if !program.starts_with('/') {
        return Err(fail("Generators must be fully qualified"));
    }
    if !program.chars().all(|c| c.is_alphanumeric() || "-/_.+".contains(c)) {
        return Err(fail("Generators can only contain alphanumerics, file separators, and dashes"));
    }
    if program.contains("..") {
        return Err(fail("Can not use generators with '..' in them."));
    }
    if !ev.options.allow_generate {
        return Err(fail(format!(
            "generate() would run {program}: running commands is off (allow it with poppet --allow-generate)"
        )));
    }
    let dir = std::path::Path::new(program).parent().unwrap_or(std::path::Path::new("/"));
    let failed = |e: std::io::Error| fail(format!("Failed to execute generator {program}: {e}"));
    let mut command = Command::new(program);
    command.args(&args[1..]).current_dir(dir);
    let (status, output) = run_combined(command).map_err(failed)?;
    let output = String::from_utf8_lossy(&output);
    if !status.success() {
        let code = status.code().map_or_else(|| "a signal".to_string(), |c| c.to_string());
        return Err(fail(format!(
            "Failed to execute generator {program}: Execution of '{}' returned {code}: {}",
            args.join(" "),
            output.trim()
        )));
    }
    Ok(Value::from(output.as_ref()))
}

/// Runs a command with its standard error into the same pipe as its output, as Puppet's
/// `Execution.execute` does (`combine: true`): its status and what it wrote.
pub(crate) fn run_combined(mut command: Command) -> std::io::Result<(std::process::ExitStatus, Vec<u8>)> {
    use std::io::Read;
    let (mut reader, writer) = std::io::pipe()?;
    let mut child = command.stdin(Stdio::null()).stdout(writer.try_clone()?).stderr(writer).spawn()?;
    // the child holds the only writing ends now, so reading ends when it does
    drop(command);
    let mut output = Vec::new();
    reader.read_to_end(&mut output)?;
    Ok((child.wait()?, output))
}

pub static FUNCTIONS: &[Builtin] = &[Builtin { name: "generate", dispatches: &["Any +$args"], call: generate }];
