//! Templates and files of modules: `inline_epp` and `epp` (Puppet's `EppEvaluator`),
//! `file`, `binary_file`, `find_file`, `find_template` and `module_directory`. A template is parsed by [`puppet_syntax::epp`] into a body whose text parts and
//! `<%= %>` expressions append to the output the evaluator keeps for it (see
//! `Evaluator::render_template`). `inline_epp` renders in a scope local to the caller's,
//! `epp` in one local to the top scope; parameters are bound as a lambda's, by name. ERB
//! templates (`template`, `inline_template`) are `functions/erb.rs`'s.

use std::path::{Path, PathBuf};
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
    Builtin { name: "file", dispatches: &["Any *$files"], call: file },
    Builtin { name: "binary_file", dispatches: &["String $path"], call: binary_file },
    Builtin { name: "find_file", dispatches: &["String *$paths", "Array[String] *$paths_array"], call: find_file },
    Builtin {
        name: "find_template",
        dispatches: &["String *$paths", "Array[String] *$paths_array"],
        call: find_template,
    },
    Builtin {
        name: "module_directory",
        dispatches: &["String *$names", "Array[String] *$names"],
        call: module_directory,
    },
];

/// The file name Puppet gives an inline template in messages.
const INLINE_FILE: &str = "inlined-epp-text";

fn inline_epp(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let source = call.arg(0);
    render_inline(ev, source.as_str().unwrap_or_default(), parameters(&call))
}

fn epp(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let name = call.arg(0);
    render_file(ev, name.as_str().unwrap_or_default(), parameters(&call))
}

/// `inline_epp(text, args)`: the template rendered in a scope local to the caller's.
pub fn render_inline(ev: &mut Evaluator, text: &str, args: Option<Rc<Hash>>) -> Eval<Value> {
    let template = parse(ev, text, INLINE_FILE, "inline_epp")?;
    // an inline template sees the calling scope
    let scope = ev.scope.clone();
    ev.render_template(&template, INLINE_FILE.into(), scope, args.as_deref())
}

/// `epp(name, args)`: the template (`module/name.epp` in the module's `templates`, or an
/// absolute path) rendered in a scope local to the top scope. `.epp` is added to a name that
/// is not an existing file.
pub fn render_file(ev: &mut Evaluator, name: &str, args: Option<Rc<Hash>>) -> Eval<Value> {
    let name = if name.ends_with(".epp") || Path::new(name).exists() { name.to_owned() } else { format!("{name}.epp") };
    let Some(path) = find_in_module(ev, &name, "templates") else {
        return Err(fail(format!("Could not find template '{name}'")));
    };
    let text = std::fs::read(&path).map_err(|e| fail(format!("epp(): {}: {e}", path.display())))?;
    let file: Rc<str> = path.display().to_string().into();
    let template = parse(ev, &String::from_utf8_lossy(&text), &file, "epp")?;
    // a template file sees the global scope only
    let scope = ev.top.clone();
    ev.render_template(&template, file, scope, args.as_deref())
}

/// The template, parsed and validated as Puppet's `EvaluatingEppParser` does: its warnings
/// logged (placed in `file`), and when it gives up after several errors, each of them (as
/// the evaluator's error logs are: their messages).
fn parse(ev: &mut Evaluator, text: &str, file: &str, function: &str) -> Eval<epp::Template> {
    let checked = epp::check(text);
    for d in &checked.warnings {
        ev.log(crate::eval::Level::Warning, format!("{}{}", d.message, placed(d, file)));
    }
    for d in &checked.logged {
        ev.log(crate::eval::Level::Err, d.message.clone());
    }
    checked.result.map_err(|d| fail(format!("{function}(): Invalid EPP: {}{}", d.message, placed(&d, file))))
}

/// ` (file: F, line: L, column: C)`, or ` (file: F)` for no position (line 0).
pub fn placed(d: &puppet_syntax::Diagnostic, file: &str) -> String {
    match d.span.line {
        0 => format!(" (file: {file})"),
        line => format!(" (file: {file}, line: {line}, column: {})", d.span.column),
    }
}

fn parameters(call: &Call) -> Option<Rc<Hash>> {
    match call.args.get(1) {
        Some(Value::Hash(h)) => Some(h.clone()),
        _ => None,
    }
}

/// `file(files...)` (a 3.x function): the contents of the first file found, a module's
/// (`module/path` in its `files` directory) or an absolute path.
fn file(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let args = super::strings::args_3x(&call.args)?;
    super::strings::check_arity("file", &args, -2)?;
    let names: Vec<String> = args.iter().map(super::ruby::to_s).collect();
    for name in &names {
        if let Some(path) = find_in_module(ev, name, "files") {
            let bytes = std::fs::read(&path).map_err(|e| fail(format!("file(): {}: {e}", path.display())))?;
            return Ok(Value::from(String::from_utf8_lossy(&bytes).as_ref()));
        }
    }
    Err(fail(format!("Could not find any files from {}", names.join(", "))))
}

/// `module/name` in the module's `templates`, or an absolute path, when it is a file
/// (Puppet's `Puppet::Parser::Files.find_template`).
pub fn template_file(ev: &Evaluator, name: &str) -> Option<PathBuf> {
    find_in_module(ev, name, "templates")
}

/// `module/path` in the module's `dir` (`templates`, `files`), as Puppet's `find_template` and
/// `find_file` find it; an absolute path as it is. A file only.
pub(crate) fn find_in_module(ev: &Evaluator, name: &str, dir: &str) -> Option<PathBuf> {
    module_path(ev, name, dir).filter(|path| path.is_file())
}

/// Where `module/path` is in the module's `dir`, or an absolute path, when that exists, a
/// file or a directory (`Puppet::Parser::Files.find_in_module`).
fn module_path(ev: &Evaluator, name: &str, dir: &str) -> Option<PathBuf> {
    let path = if Path::new(name).is_absolute() {
        PathBuf::from(name)
    } else {
        let (module, rest) = name.split_once('/')?;
        ev.module_dir(module)?.join(dir).join(rest)
    };
    path.exists().then_some(path)
}

/// The names a `find_*` function was given: its strings, or the strings of its one array
/// (its Ruby method takes one: more is Ruby's `ArgumentError`).
fn names(call: &Call) -> Eval<Vec<String>> {
    let values = match (call.dispatch, call.args.as_slice()) {
        (1, [Value::Array(items)]) => items.as_ref().clone(),
        (1, arrays) => return Err(fail(format!("wrong number of arguments (given {}, expected 2)", arrays.len() + 1))),
        _ => call.args.clone(),
    };
    Ok(values.iter().map(puppet_types::display::value_to_s).collect())
}

/// `find_file(paths...)`: the first of the paths that exists, a module's file
/// (`module/path` in its `files` directory) or an absolute path; undef when none does.
fn find_file(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(first_found(ev, &names(&call)?, "files"))
}

/// `find_template(paths...)`: as `find_file`, in modules' `templates` directories.
fn find_template(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(first_found(ev, &names(&call)?, "templates"))
}

fn first_found(ev: &Evaluator, names: &[String], dir: &str) -> Value {
    names
        .iter()
        .find_map(|name| module_path(ev, name, dir))
        .map_or(Value::Undef, |path| Value::from(path.to_string_lossy().as_ref()))
}

/// `module_directory(names...)`: the directory of the first of the modules on the module
/// path; undef when none is.
fn module_directory(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(names(&call)?
        .iter()
        .find_map(|name| ev.module_dir(name))
        .map_or(Value::Undef, |dir| Value::from(dir.to_string_lossy().as_ref())))
}

/// `binary_file(path)`: a module's file (or an absolute path) as a Binary value.
fn binary_file(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let name = puppet_types::display::value_to_s(&call.arg(0));
    let missing = || fail(format!("binary_file(): The given file '{name}' does not exist"));
    let path = module_path(ev, &name, "files").ok_or_else(missing)?;
    let bytes = std::fs::read(&path).map_err(|e| fail(format!("binary_file(): {}: {e}", path.display())))?;
    Ok(Value::Binary(Rc::new(puppet_types::binary::Binary(bytes))))
}
