//! ERB templates: `template()` and `inline_template()` (Puppet's 3.x functions and its
//! `TemplateWrapper`), run by [`poppet_erb`] with the calling scope as its [`Host`]: the
//! scope's variables are the template's instance variables, `scope['x']` and
//! `scope.lookupvar('x')` read variables as Puppet's `Scope#lookupvar` does (warning about
//! unknown ones), and `scope.function_NAME` / `scope.call_function` call Puppet's functions.

use std::path::Path;

use std::rc::Rc;

use poppet_erb::value::RValue;
use poppet_erb::{Error as ErbError, Host, Kind, Printer, Template};
use puppet_syntax::Span;
use puppet_types::Value;

use super::{Builtin, Call};
use crate::error::{fail, Eval, Flow};
use crate::eval::{Evaluator, Level, Strict};
use crate::functions::ruby;
use crate::functions::strings::{check_arity, to_3x};
use crate::scope::Scope;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin { name: "template", dispatches: &["Any *$names"], call: template },
    Builtin { name: "inline_template", dispatches: &["Any *$templates"], call: inline_template },
];

/// `template(names...)`: each template of a module (`module/file.erb`, or an absolute path)
/// rendered, the outputs concatenated.
fn template(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    check_arity("template", &call.args, -2)?;
    let mut out = String::new();
    for name in call.args.iter().map(|a| to_3x(a, true, 0)) {
        let name = ruby::to_s(&name);
        let Some(path) = super::templates::find_in_module(ev, &name, "templates") else {
            return Err(fail(format!("Could not find template '{name}'")));
        };
        out.push_str(&render_file(ev, &name, &path, call.at)?);
    }
    Ok(Value::from(out.as_str()))
}

/// Renders the ERB template `name` (a module's `module/file.erb`, or a file) in the
/// evaluator's current scope, as `template(name)` does: for `poppet --erb`.
pub fn render_template(ev: &mut Evaluator, name: &str) -> Eval<String> {
    let path = match super::templates::find_in_module(ev, name, "templates") {
        Some(path) => path,
        None if Path::new(name).is_file() => Path::new(name).to_path_buf(),
        None => return Err(fail(format!("Could not find template '{name}'"))),
    };
    render_file(ev, name, &path, Span::default())
}

/// A template file rendered: its path, and its output or the message of its error.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub path: String,
    pub output: Result<String, String>,
}

/// Renders the template file at `path` (named `name`), with `template()`'s errors.
fn render_file(ev: &mut Evaluator, name: &str, path: &Path, at: Span) -> Eval<String> {
    let result = render_file_inner(ev, name, path, at);
    if let Some(log) = &mut ev.template_log {
        let output = match &result {
            Ok(s) => Ok(s.clone()),
            Err(Flow::Error(e)) => Err(e.message.clone()),
            Err(_) => Err(String::new()),
        };
        log.push(Rendered { path: path.to_string_lossy().into_owned(), output });
    }
    result
}

fn render_file_inner(ev: &mut Evaluator, name: &str, path: &Path, at: Span) -> Eval<String> {
    let text = std::fs::read(path).map_err(|e| fail(format!("Could not read template '{name}': {e}")))?;
    let text = String::from_utf8_lossy(&text);
    let file = path.to_string_lossy().into_owned();
    render(ev, &text, Some(file.clone()), at).map_err(|e| match e {
        Failure::Template(e) => {
            let (file, line) = match &e.origin {
                Some((ruby_file, line)) => (format!("{PUPPET_RUBY}/{ruby_file}"), *line),
                None => (file.clone(), poppet_erb::line_col(&text, e.at.unwrap_or(0)).0),
            };
            let detail = detail(&e, &text);
            fail(format!("Failed to parse template {name}:\n  Filepath: {file}\n  Line: {line}\n  Detail: {detail}\n"))
        }
        Failure::Flow(flow) => flow,
    })
}

/// `inline_template(texts...)`: each text rendered as a template, the outputs concatenated.
fn inline_template(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    check_arity("inline_template", &call.args, -2)?;
    let mut out = String::new();
    for text in call.args.iter().map(|a| to_3x(a, true, 0)) {
        let text = match &text {
            Value::String(s) => s.to_string(),
            other => {
                let receiver = puppet_types::params::ruby_receiver(other);
                // with Ruby's error_highlight of Puppet's line that calls it
                return Err(fail(format!(
                    "Failed to parse inline template: undefined method `encoding' for {receiver}\n\n      enc = s.encoding\n             ^^^^^^^^^"
                )));
            }
        };
        let rendered = render(ev, &text, None, call.at).map_err(|e| match e {
            Failure::Template(e) => fail(format!("Failed to parse inline template: {}", detail(&e, &text))),
            Failure::Flow(flow) => flow,
        })?;
        out.push_str(&rendered);
    }
    Ok(Value::from(out.as_str()))
}

/// Whether two values are one array or hash object (not merely equal).
fn same_object(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => Rc::ptr_eq(x, y),
        (Value::Hash(x), Value::Hash(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

/// What stops a render: the template's own error, or the evaluator's (an error of a function
/// it called, an interrupt), passed through.
enum Failure {
    Template(ErbError),
    Flow(Flow),
}

/// An error's message as Ruby's exception shows it (`detail.to_s`).
/// What Ruby it is, and where in the template, for Ruby the engine does not run.
fn detail(e: &ErbError, text: &str) -> String {
    match e.kind {
        Kind::Unsupported => {
            let (line, column) = poppet_erb::line_col(text, e.at.unwrap_or(0));
            format!("{e} ({}) at line {line}, column {column} of the template", e.class())
        }
        _ => e.message.clone(),
    }
}

/// A Ruby object a template stored in a Puppet variable (`scope.setvar`): Puppet keeps the
/// object, so later templates see it and its changes. The variable's Puppet value follows
/// the object after each render.
#[derive(Clone)]
pub struct ErbObject {
    scope: Rc<Scope>,
    name: Rc<str>,
    object: RValue,
}

fn render(ev: &mut Evaluator, text: &str, file: Option<String>, at: Span) -> Result<String, Failure> {
    let compiled = Template::compile(text).map_err(Failure::Template)?;
    let mut host = EvalHost { ev, file, at, flow: None };
    let result = compiled.render(&mut host);
    for o in &host.ev.erb_objects {
        if let Ok(value) = poppet_erb::bridge::to_puppet(&o.object) {
            if o.scope.get(&o.name).as_ref() != Some(&value) {
                o.scope.replace(&o.name, value);
            }
        }
    }
    match (result, host.flow) {
        (_, Some(flow)) => Err(Failure::Flow(flow)),
        (Ok(s), None) => Ok(s),
        (Err(e), None) => Err(Failure::Template(e)),
    }
}

/// The calling scope, as a template sees it.
struct EvalHost<'a> {
    ev: &'a mut Evaluator,
    file: Option<String>,
    at: Span,
    /// An evaluator error that must stop the template and surface as it is (an interrupt).
    flow: Option<Flow>,
}

impl Printer for EvalHost<'_> {
    fn to_s(&self, v: &Value) -> String {
        ruby::to_s(v)
    }

    fn inspect(&self, v: &Value) -> Option<String> {
        match v {
            Value::Sensitive(_) => Some("#<Sensitive [value redacted]>".into()),
            _ => None,
        }
    }

    fn scope_to_s(&self) -> String {
        let c = &self.ev.compiler.container;
        if c.type_name.as_ref() == "Class" && !c.is_main() {
            let name: Vec<String> = c.title.split("::").map(poppet_ruby::string::capitalize).collect();
            format!("Scope(Class[{}])", name.join("::"))
        } else if c.is_main() {
            "Scope(Class[main])".into()
        } else {
            format!("Scope({}[{}])", c.type_name, c.title)
        }
    }
}

/// Where the reference Puppet's Ruby library is (Debian's package of Puppet 7.23): an error
/// Puppet's own Ruby raises under a template names its file there.
const PUPPET_RUBY: &str = "/usr/lib/ruby/vendor_ruby";

impl Host for EvalHost<'_> {
    fn lookupvar(&mut self, name: &str) -> Result<Option<Value>, ErbError> {
        let name = name.strip_prefix("::").map_or(name, |top| if top.contains("::") { top } else { name });
        let found = if let Some(top) = name.strip_prefix("::") {
            self.ev.top.get(top)
        } else if let Some((class, _)) = name.rsplit_once("::") {
            match self.ev.qualified_variable(name) {
                Some(v) => Some(v),
                None => {
                    let class = class.to_lowercase();
                    let _ = self.ev.load_definition(&class);
                    let reason = if self.ev.compiler.class_scopes.contains_key(&class) {
                        String::new()
                    } else if self.ev.is_class_or_define(&class) {
                        format!("class {class} has not been evaluated")
                    } else {
                        format!("class {class} could not be found")
                    };
                    return self.not_found(name, &reason);
                }
            }
        } else {
            self.ev.scope.get(name)
        };
        match found {
            Some(v) => Ok(Some(v)),
            None => self.not_found(name, ""),
        }
    }

    fn variables(&mut self) -> Vec<(String, Value)> {
        let mut chain = Vec::new();
        let mut scope = Some(self.ev.scope.clone());
        while let Some(s) = scope {
            scope = s.parent();
            chain.push(s);
        }
        let mut vars: indexmap::IndexMap<String, Value> = indexmap::IndexMap::new();
        for s in chain.iter().rev() {
            for (name, value) in s.variables() {
                vars.insert(name.to_string(), value);
            }
        }
        vars.into_iter().filter(|(_, v)| !v.is_undef()).collect()
    }

    fn setvar(&mut self, name: &str, value: Value, object: Option<RValue>) -> Result<(), ErbError> {
        if name.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ErbError::puppet(format!("Cannot assign to a numeric match result variable '${name}'")));
        }
        if matches!(name, "trusted" | "facts" | "server_facts") {
            return Err(ErbError::puppet(format!("Attempt to assign to a reserved variable name: '{name}'")));
        }
        if self.ev.scope.has_own(name) {
            return Err(ErbError::puppet(format!("Cannot reassign variable '${name}'")));
        }
        let name: Rc<str> = name.into();
        self.ev.scope.bind(name.clone(), value);
        if let Some(object) = object {
            self.ev.erb_objects.push(ErbObject { scope: self.ev.scope.clone(), name, object });
        }
        Ok(())
    }

    fn write_back(&mut self, name: &str, original: &Value, value: Value) {
        // the variable, wherever it is bound
        let bound = if let Some((class, var)) = name.trim_start_matches("::").rsplit_once("::") {
            self.ev.compiler.class_scopes.get(&class.to_lowercase()).cloned().map(|s| (s, var.to_string()))
        } else if let Some(top) = name.strip_prefix("::") {
            Some((self.ev.top.clone(), top.to_string()))
        } else {
            let mut scope = Some(self.ev.scope.clone());
            let mut found = None;
            while let Some(s) = scope {
                if s.has_own(name) {
                    found = Some((s, name.to_string()));
                    break;
                }
                scope = s.parent();
            }
            found
        };
        if let Some((scope, var)) = bound {
            scope.replace(&var, value.clone());
        }
        // and every resource parameter that is the same object (a defined type's parameter
        // is its resource's parameter value, in Puppet one object)
        let catalog = &mut self.ev.compiler.catalog;
        for i in 0..catalog.len() {
            let resource = catalog.at_mut(i);
            for slot in resource.params.values_mut() {
                if same_object(slot, original) {
                    *slot = value.clone();
                }
            }
        }
    }

    fn ruby_object(&mut self, name: &str) -> Option<RValue> {
        // the scope the variable is bound in, from the calling scope outwards
        let mut scope = Some(self.ev.scope.clone());
        while let Some(s) = scope {
            if s.has_own(name) {
                return self
                    .ev
                    .erb_objects
                    .iter()
                    .find(|o| Rc::ptr_eq(&o.scope, &s) && &*o.name == name)
                    .map(|o| o.object.clone());
            }
            scope = s.parent();
        }
        None
    }

    fn has_variable(&mut self, name: &str) -> bool {
        // Puppet's `Scope#include?`: set, and not to undef
        self.ev.variable_exists(name) && self.ev.scope.get(name).is_none_or(|v| !v.is_undef())
    }

    fn call_function(&mut self, name: &str, args: Vec<Value>, legacy: bool) -> Result<Option<Value>, ErbError> {
        if legacy {
            if !super::ported::stdlib_validate::has_3x_function(self.ev, name) {
                return Ok(None);
            }
            if name == "versioncmp" {
                // the 3.x function hands its arguments to `Puppet::Util::Package.versioncmp`,
                // which scans them as strings
                for (i, (arg, var)) in args.iter().zip(["a", "b"]).enumerate() {
                    if !matches!(arg, Value::String(_)) {
                        let receiver = puppet_types::params::ruby_receiver(arg);
                        let prefix = if i == 0 { "ax" } else { "bx" };
                        let message = format!(
                            "undefined method `scan' for {receiver}\n\n    {prefix} = version_{var}.scan(vre)\n                  ^^^^^"
                        );
                        return Err(
                            ErbError::ruby("NoMethodError", message).raised_in("puppet/util/package.rb", 11 + i)
                        );
                    }
                }
            }
        }
        match self.ev.call_function_inner(name, args, None, self.at) {
            Ok(v) => Ok(Some(v)),
            Err(Flow::Error(e)) if !self.ev.interrupt.load(std::sync::atomic::Ordering::Relaxed) => {
                let error = ErbError::puppet(e.message.clone());
                // where Puppet's Ruby raises the errors of a template the template renders
                Err(match name {
                    "template" if e.message.starts_with("Could not find template") => {
                        error.raised_in("puppet/parser/templatewrapper.rb", 67)
                    }
                    "template" if e.message.starts_with("Failed to parse template") => {
                        error.raised_in("puppet/parser/functions/template.rb", 36)
                    }
                    _ => error,
                })
            }
            Err(other) => {
                self.flow = Some(other);
                Err(ErbError::puppet("interrupted"))
            }
        }
    }

    fn to_yaml(&mut self, value: Value) -> Result<String, ErbError> {
        super::ported::stdlib_data::ruby_to_yaml(&value).map_err(|flow| match flow {
            Flow::Error(e) => ErbError::ruby("RuntimeError", e.message),
            _ => ErbError::ruby("RuntimeError", "to_yaml failed"),
        })
    }

    fn format(&mut self, format: &str, args: Vec<Value>) -> Result<String, ErbError> {
        super::strings::ruby_format(format, &args).map_err(|flow| match flow {
            Flow::Error(e) => ErbError::ruby("ArgumentError", e.message),
            _ => ErbError::ruby("ArgumentError", "format failed"),
        })
    }

    fn log(&mut self, level: &str, message: &str) {
        let level = match level {
            "debug" => Level::Debug,
            "info" => Level::Info,
            "notice" => Level::Notice,
            "err" => Level::Err,
            "alert" => Level::Alert,
            "emerg" => Level::Emerg,
            "crit" => Level::Crit,
            _ => Level::Warning,
        };
        self.ev.log(level, message);
    }

    fn file(&self) -> Option<String> {
        self.file.clone()
    }

    fn interrupted(&mut self) -> bool {
        match self.ev.check_interrupt(self.at) {
            Ok(()) => false,
            Err(flow) => {
                self.flow = Some(flow);
                true
            }
        }
    }
}

impl EvalHost<'_> {
    /// Puppet's `Scope#variable_not_found`: nil, with a warning (once) under `strict`
    /// `warning`, an error under `error`.
    fn not_found(&mut self, name: &str, reason: &str) -> Result<Option<Value>, ErbError> {
        let message = format!("Undefined variable '{name}'; {reason}");
        match self.ev.options.strict {
            Strict::Error => Err(ErbError::ruby("ArgumentError", message)),
            Strict::Warning => {
                if self.ev.first_time(&format!("undefined_variables:Variable: {name}")) {
                    self.ev.log(Level::Warning, message);
                }
                Ok(None)
            }
            Strict::Off => Ok(None),
        }
    }
}
