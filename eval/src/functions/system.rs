//! `generate`: runs a command on the machine evaluating the code (Puppet's 3.x function).
//! It runs only where the user allowed it (`Options::allow_generate`, `poppet
//! --allow-generate`); otherwise it is an error saying so.

use std::process::Command;

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
    let output = Command::new(program)
        .args(&args[1..])
        .current_dir(dir)
        .output()
        .map_err(|e| fail(format!("Failed to execute generator {program}: {e}")))?;
    if !output.status.success() {
        let code = output.status.code().map_or_else(|| "a signal".to_string(), |c| c.to_string());
        return Err(fail(format!(
            "Failed to execute generator {program}: Execution of '{}' returned {code}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stdout)
        )));
    }
    Ok(Value::from(String::from_utf8_lossy(&output.stdout).as_ref()))
}

pub static FUNCTIONS: &[Builtin] = &[Builtin { name: "generate", dispatches: &["Any +$args"], call: generate }];
