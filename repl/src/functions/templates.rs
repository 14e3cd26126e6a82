//! EPP templates: `inline_epp` and `epp` (Puppet's `EppEvaluator`). A template is parsed by
//! [`puppet_syntax::epp`] into a body whose text parts and `<%= %>` expressions append to
//! the output the evaluator keeps for it (see `Evaluator::render_template`).

use std::path::PathBuf;
use std::rc::Rc;

use puppet_syntax::epp;
use puppet_types::value::Hash;
use puppet_types::Value;

use super::{Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin {
        name: "inline_epp",
        dispatches: &["String $template, Hash[Pattern[/^\\w+$/], Any] $parameters?"],
        call: inline_epp,
    },
    Builtin { name: "epp", dispatches: &["String $path, Hash[Pattern[/^\\w+$/], Any] $parameters?"], call: epp },
];

/// The file name Puppet gives an inline template in messages.
const INLINE_FILE: &str = "inlined-epp-text";

fn inline_epp(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let source = call.arg(0);
    let template = epp::parse_template(source.as_str().unwrap_or_default())
        .map_err(|d| fail(format!("inline_epp(): Invalid EPP: {} (file: {INLINE_FILE}, line: {}, column: {})", d.message, d.span.line, d.span.column)))?;
    // an inline template sees the calling scope
    let scope = ev.scope.clone();
    ev.render_template(&template, INLINE_FILE.into(), scope, parameters(&call).as_deref())
}

fn epp(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let name = call.arg(0);
    let name = name.as_str().unwrap_or_default();
    let Some(path) = find_template(ev, name) else {
        let shown = if name.ends_with(".epp") { name.to_owned() } else { format!("{name}.epp") };
        return Err(fail(format!("Could not find template '{shown}'")));
    };
    let text = std::fs::read(&path).map_err(|e| fail(format!("epp(): {}: {e}", path.display())))?;
    let file: Rc<str> = path.display().to_string().into();
    let text = String::from_utf8_lossy(&text);
    let template = epp::parse_template(&text)
        .map_err(|d| fail(format!("epp(): Invalid EPP: {} (file: {file}, line: {}, column: {})", d.message, d.span.line, d.span.column)))?;
    // a template file sees the global scope only
    let scope = ev.top.clone();
    ev.render_template(&template, file, scope, parameters(&call).as_deref())
}

fn parameters(call: &Call) -> Option<Rc<Hash>> {
    match call.args.get(1) {
        Some(Value::Hash(h)) => Some(h.clone()),
        _ => None,
    }
}

/// `module/path` in the module's `templates` directory (`.epp` added when the name has no
/// such file), as `Puppet::Parser::Files.find_template` finds it; an absolute path as it is.
fn find_template(ev: &Evaluator, name: &str) -> Option<PathBuf> {
    let with_ext = |p: PathBuf| if p.is_file() { Some(p.clone()) } else { Some(p.with_extension("epp")).filter(|p| p.is_file()) };
    if name.starts_with('/') {
        return with_ext(PathBuf::from(name));
    }
    let (module, rest) = name.split_once('/')?;
    ev.modulepath.iter().find_map(|dir| with_ext(dir.join(module).join("templates").join(rest)))
}
