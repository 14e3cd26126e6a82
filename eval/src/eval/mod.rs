//! The evaluator: one arm per AST node, Puppet 7.23's semantics (`pops/evaluator/
//! evaluator_impl.rb`). Operators are in `operators` (`calculate`, `coerce_numeric` with the
//! `strict` setting's warning or error, Ruby's flooring `/` and `%`, overflow and Infinity
//! errors, collection `+ - <<`, Timespan/Timestamp arithmetic, `=~`, `in`), the access
//! operator in `access` (`access_operator.rb`: substrings, slices, hash keys, type parameters
//! with the blamed key's position), calls, lambdas and object attributes in `call`, modules on
//! the module path in [`modules`]. Each error carries the position Puppet reports
//! (`Expr::at`, an operand, or a key), never the position of whatever node was being
//! evaluated.
//!
//! - **Non-local exits are values.** `Flow` is `Error | Break | Next | Return`, carried by
//!   `Result` through the Rust stack: `next()` ends a lambda call, `return()` a function call,
//!   `break()` the innermost iterating function (each catches it itself, as its Ruby does), and
//!   any of them reaching the top is Puppet's `... from context where this is illegal`.
//! - **Errors without a position** come from built-in functions and type checks: the call site
//!   adds Puppet's `Error while evaluating a Function Call, ` (or `a Method call, `) and its
//!   own position. Errors from Puppet code run inside a function (a lambda's body) keep theirs.
//! - **Definitions come first**, as Puppet's loaders know them before evaluation: a program's
//!   functions and type aliases are registered, then the aliases' bodies are evaluated (an
//!   alias exists before its body, so recursive and forward references work; unknown names in
//!   a body are type references, as Puppet's type parser makes them; a body is normalized as
//!   Puppet's `PTypeAliasType#resolve` does, so `Variant[Undef, T]` is `Optional[T]`; while it
//!   is evaluated the alias stands for an unresolved reference that accepts nothing, so a
//!   recursive `Struct[{a => T}]` keeps `a` required), then classes and defined types are
//!   made known (`catalog::compiler`). A name defined twice in one program is Puppet's
//!   `Attempt to redefine entity`; a later program (the REPL's next input) replaces it.
//! - **Closures share the AST.** A lambda is an `Rc<Lambda>`, so a closure
//!   (`Value::Callable`) keeps its lambda and scope alive after the program that made it is
//!   gone; function definitions copy their parameters and body once.
//! - **Speed** (`bench/README.md`). An evaluation result is 32 bytes (`Flow` boxes its
//!   payloads); string literals share their `Rc<str>` with the AST; a function's parameter
//!   types, signature and return type are evaluated once; arguments are checked by `Signature::accepts`
//!   (the mismatch message is built only when nothing fits); local scopes are short lists, the
//!   top scope a foldhash map; finished calls' scopes are reused; integers, one-key access and
//!   interpolation have direct paths. The accumulator idiom (`reduce` whose lambda ends in
//!   `$memo + X` or `$memo << X`, no `break()` in it: `call.rs`, `accumulator_body`) gets the
//!   only handle of the memo and adds in place, so building a hash this way is linear.
//! - **Pcore objects.** The `Error` data type is `Value::Error` / `Type::Error` (as `Deferred`
//!   is `Value::Deferred`): `Error.new`, attributes and `message()` by method call,
//!   `Error[kind, issue_code]` matching its attributes as `=~` does; `get` hands its lambda
//!   one. `Deferred` values are objects too (`$d.name`, `$d.arguments`, with the same errors
//!   for arguments and blocks), and so is a `URI` (`$uri.host`, `.port`, …, the arguments
//!   evaluated and ignored as Puppet's are): see `object_member` in `call`. User-defined
//!   `Object` types and annotations are not modelled (`annotate` says so).
//! - **Integers beyond 64 bits** are values too (`Value::BigInt`, `puppet_types::int` says
//!   where they come from and where Puppet stops them); `--output json` writes one as a
//!   string of its digits. A quirk of Puppet's is reproduced: an unknown parameterised type at
//!   the top of an alias body (`type U = Nope[1]`) becomes a reference named by garbled
//!   source text, and naming that alias a second time in a program fails.
//! - **Depth and interrupts.** `eval` grows the stack on demand (`stacker`), so calls nest up
//!   to `Options::max_depth` (10,000) on any thread and then stop with an error; an atomic
//!   flag (Ctrl-C in the runner, a watchdog in the tests) stops a running evaluation at the
//!   next call.

mod access;
mod call;
pub mod checkpoint;
pub mod debug;
pub mod modules;
mod operators;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use puppet_syntax::ast::{AssignOp, Expr, ExprKind, Program};
use puppet_syntax::Span;
use puppet_types::display;
use puppet_types::ty::TypeAlias;
use puppet_types::value::Hash;
use puppet_types::{Type, Value};

pub use call::{Closure, FunctionDef};
pub use modules::Loader;

use crate::catalog::compiler::Compiler;
use crate::error::{fail_at, Eval, EvalError, Flow};
use crate::functions::Registry;
use crate::scope::Scope;

/// Puppet's `strict` setting: what happens where Puppet 7 accepts questionable code (a
/// string used as a number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strict {
    Off,
    #[default]
    Warning,
    Error,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub strict: Strict,
    /// `strict_variables`: an unknown variable is an error; off (Puppet's default), it is
    /// undef, with a warning under `strict=warning`.
    pub strict_variables: bool,
    /// Deepest nesting of function and lambda calls before evaluation stops with an error.
    pub max_depth: usize,
    /// Whether `generate()` may run commands.
    pub allow_generate: bool,
    /// Check the core resources' parameters once the catalog is compiled, as `puppet apply`
    /// does when it converts the catalog for applying (`catalog::validate`).
    pub validate_resources: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            strict: Strict::Warning,
            strict_variables: false,
            max_depth: 10_000,
            allow_generate: false,
            validate_resources: false,
        }
    }
}

/// Puppet's log levels, most severe last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Debug,
    Info,
    Notice,
    Warning,
    Err,
    Alert,
    Emerg,
    Crit,
}

impl Level {
    /// The name Puppet prints before the message (`Notice: ...`).
    pub fn label(self) -> &'static str {
        match self {
            Level::Debug => "Debug",
            Level::Info => "Info",
            Level::Notice => "Notice",
            Level::Warning => "Warning",
            Level::Err => "Error",
            Level::Alert => "Alert",
            Level::Emerg => "Emergency",
            Level::Crit => "Critical",
        }
    }
}

/// One logged message.
#[derive(Clone, Debug, PartialEq)]
pub struct Log {
    pub level: Level,
    pub message: String,
    /// What Puppet's console names as the message's source, for the messages of logging
    /// functions: the scope's resource (`Scope(Class[main])`), `Scope(FILE, LINE)` in a
    /// template's code.
    pub source: Option<String>,
    /// Where Ruby code that logged it was (`FILE:LINE:in `METHOD'`), which Puppet's console
    /// adds on a line of its own (`(location: ...)`) for a deprecation.
    pub location: Option<String>,
}

/// Where log messages go as they are made.
pub type LogSink = Box<dyn FnMut(&Log)>;

/// Puppet's evaluator over a persistent top scope. Its state, by what it serves:
/// - evaluation: the scopes, match data, nesting and the program being run;
/// - definitions: user functions, type aliases and the built-in functions;
/// - the catalog compiler ([`Compiler`]), module loading ([`Loader`]) and Hiera.
pub struct Evaluator {
    pub options: Options,
    /// Ruby objects ERB templates stored in variables (`scope.setvar`).
    pub(crate) erb_objects: Vec<crate::functions::erb::ErbObject>,
    /// When set, each ERB template file rendered, with its output or error (for checking
    /// templates against Puppet's catalogs: `cargo xtask check modules`).
    pub template_log: Option<Vec<crate::functions::erb::Rendered>>,
    /// Set from another thread (Ctrl-C) to stop a running evaluation.
    pub interrupt: Arc<AtomicBool>,
    sink: LogSink,

    // Evaluation.
    /// The top scope.
    pub top: Rc<Scope>,
    /// The current scope.
    pub(crate) scope: Rc<Scope>,
    /// Finished lambda calls' local scopes, emptied, reused by the next calls (`Scope::recycle`).
    pub(crate) scope_pool: Vec<Rc<Scope>>,
    /// Match data of `=~`, case and selector options: one frame per construct that scopes
    /// them, innermost last; `None` where no match has been made in the frame.
    matches: Vec<Rc<[Value]>>,
    /// Where the innermost frame's match data starts in `matches` (a frame holds at most one:
    /// the last successful match made in it).
    frame_start: usize,
    /// The first match frame the current function call sees (a function does not see its
    /// caller's match variables).
    match_base: usize,
    /// Regexps compiled so far, by source.
    regexps: HashMap<String, Rc<puppet_types::regexp::Regexp>>,
    /// How deeply `eval` is nested (the stack is checked every few levels).
    nesting: usize,
    /// How deeply calls are nested (`Options::max_depth`).
    depth: usize,
    /// The source of the program being run (type references quote it).
    pub(crate) source: Rc<str>,
    /// Evaluating a parameter's default: the parameters not bound yet.
    pub(crate) param_guard: Option<ParamGuard>,
    /// Evaluating the body of a type alias.
    pub(crate) in_type_alias: bool,
    /// The output of the EPP templates being rendered, innermost last, with whether a
    /// Sensitive value was rendered into it.
    pub(crate) epp_output: Vec<(String, bool)>,
    /// The template being evaluated, if any: its file and where its rewritten source's
    /// positions are in it (for warnings placed in it).
    pub(crate) epp_positions: Option<(Rc<str>, Rc<puppet_syntax::epp::Positions>)>,
    next_closure_id: usize,
    /// Puppet's stack of calls (`Puppet::Pops::PuppetStack`), outermost first: the program's
    /// frame (line 0) while its statements run, and one per function called from Puppet code,
    /// with the file (`None`: the program) and line of the call.
    pub(crate) call_frames: Vec<(Option<Rc<str>>, u32)>,
    /// What happens once a compilation (a session's top scope: a new top scope starts
    /// afresh), by key: a warning Puppet gives once a process, a 3.x function its
    /// autoloader loads once ([`Evaluator::first_time`]).
    once: (std::rc::Weak<Scope>, std::collections::HashSet<String>),

    // Definitions.
    /// User functions by name.
    pub functions: HashMap<String, Rc<FunctionDef>>,
    /// Type aliases by lower-case name.
    pub aliases: HashMap<String, Type>,
    /// Aliases Puppet's type parser left as a garbled reference (`type U = Nope[1]`), and
    /// whether the current program has named one yet: Puppet fails on the second time.
    garbled: HashMap<String, bool>,
    /// Object types declared by type aliases (`type T = Object[{...}]`) and not yet
    /// resolved: Puppet resolves each the first time it is named, so a parent may come
    /// later and an unused definition's errors are never seen.
    pending_objects: HashMap<String, PendingObject>,
    /// The names of the classes and defined types programs have defined (for completion).
    pub classes: std::collections::BTreeSet<String>,
    /// The built-in functions.
    pub registry: Registry,

    // The shell.
    /// The name the program's own code goes by in positions (`<input 3>`, a file the shell
    /// loads): what it defines and declares is placed there, so that errors met later name it.
    /// `None` for the runner's program (Puppet's `unknown`).
    pub program_name: Option<Rc<str>>,
    /// At the shell's prompt, the top-scope variables the program may assign again, each
    /// once (see [`Evaluator::allow_rebinding`]).
    rebind: Option<Rebind>,
    /// What `debug::break()` runs (the shell's nested prompt); without it the function is
    /// unknown (see [`debug`]).
    pub breakpoint: Option<debug::BreakHook>,

    // The catalog, modules and data.
    /// The catalog compiler's state: the catalog, the definitions of classes, defined types
    /// and nodes, and what compilation still has to do.
    pub compiler: Compiler,
    /// Where modules are loaded from and what has been loaded.
    pub loader: Loader,
    /// The Hiera data read while compiling the current program.
    pub(crate) hiera: crate::hiera::Hiera,
}

impl Evaluator {
    pub fn new(options: Options, sink: LogSink) -> Evaluator {
        let top = Scope::top();
        Evaluator {
            options,
            scope: top.clone(),
            top: top.clone(),
            matches: Vec::new(),
            frame_start: 0,
            match_base: 0,
            nesting: 0,
            functions: HashMap::new(),
            aliases: HashMap::new(),
            classes: Default::default(),
            compiler: Compiler::new(&top),
            loader: Loader::default(),
            registry: Registry::default(),
            sink,
            depth: 0,
            interrupt: Arc::new(AtomicBool::new(false)),
            next_closure_id: 1,
            in_type_alias: false,
            source: Rc::from(""),
            scope_pool: Vec::new(),
            epp_output: Vec::new(),
            epp_positions: None,
            call_frames: Vec::new(),
            once: Default::default(),
            garbled: HashMap::new(),
            pending_objects: HashMap::new(),
            param_guard: None,
            regexps: HashMap::new(),
            hiera: Default::default(),
            erb_objects: Vec::new(),
            template_log: None,
            program_name: None,
            rebind: None,
            breakpoint: None,
        }
    }

    /// Replaces where log messages go.
    pub fn set_sink(&mut self, sink: LogSink) {
        self.sink = sink;
    }

    pub fn log(&mut self, level: Level, message: impl Into<String>) {
        let log = Log { level, message: message.into(), source: None, location: None };
        (self.sink)(&log);
    }

    /// A message logged by (ported) Ruby code at `location` (see [`Log::location`]).
    pub(crate) fn log_at(&mut self, level: Level, message: String, location: Option<String>) {
        (self.sink)(&Log { level, message, source: None, location });
    }

    /// A logging function's message (`notice(...)` called at `at`), its source the scope's
    /// resource (`Scope(Class[main])`, `Scope(Node[web01])`), in a template's code the
    /// template's scope, `Scope(FILE, LINE)`.
    pub(crate) fn log_call(&mut self, level: Level, message: String, at: Span) {
        let source = match (&self.epp_positions, &self.loader.current_file) {
            (Some((template, positions)), Some(current)) if Rc::ptr_eq(template, current) => {
                format!("Scope({template}, {})", positions.position(at).0)
            }
            _ => format!("Scope({})", self.compiler.container.reference()),
        };
        let source = Some(source);
        (self.sink)(&Log { level, message, source, location: None });
    }

    /// A warning at a position, as Puppet logs it: `MESSAGE (line: N, column: M)`.
    pub fn warn_at(&mut self, message: &str, at: Span) {
        let file = self.loader.current_file.as_ref().map(|f| format!("file: {f}, ")).unwrap_or_default();
        let (line, column) = match (&self.epp_positions, &self.loader.current_file) {
            // In a template's code: its place in the template.
            (Some((template, positions)), Some(current)) if Rc::ptr_eq(template, current) => positions.position(at),
            _ => (at.line, at.column),
        };
        self.log(Level::Warning, format!("{message} ({file}line: {line}, column: {column})"));
    }

    /// Lets the next program assign again, once each, the top-scope variables set so far
    /// (but those `protected` names): at the shell's prompt, inputs are not one program, and
    /// `$x = $x + 1` replaces `$x`. Within the program Puppet's rule holds (a second
    /// assignment is an error). [`Evaluator::take_rebound`] tells which were replaced.
    pub fn allow_rebinding(&mut self, protected: impl Fn(&str) -> bool) {
        let allowed = self.top.variables().into_iter().map(|(name, _)| name).filter(|name| !protected(name)).collect();
        self.rebind = Some(Rebind { allowed, rebound: Vec::new() });
    }

    /// The variables the program assigned again, in order; rebinding ends.
    pub fn take_rebound(&mut self) -> Vec<String> {
        self.rebind.take().map(|r| r.rebound).unwrap_or_default()
    }

    /// Evaluates a program (parsed from `source`) in the current scope: its definitions
    /// (functions, type aliases) first, as Puppet's loaders know them before evaluation
    /// starts, then its statements.
    pub fn run(&mut self, program: &Program, source: &str) -> Eval<Value> {
        let name = self.program_name.clone();
        self.run_programs(&[(name, program, source)], false)
    }

    /// Evaluates the files of a main manifest as one program, as Puppet's code merger joins
    /// a manifest directory's files: every file's definitions first, then each file's
    /// statements in order, each file named in what it declares and in its errors (`None`:
    /// the program has no file).
    pub fn run_manifests(&mut self, programs: &[(Option<Rc<str>>, &Program, &str)]) -> Eval<Value> {
        self.run_programs(programs, true)
    }

    /// [`Evaluator::run_manifests`]; an error in a program's own code names its file when
    /// `named`.
    fn run_programs(&mut self, programs: &[(Option<Rc<str>>, &Program, &str)], named: bool) -> Eval<Value> {
        self.interrupt.store(false, Ordering::Relaxed);
        self.matches.clear();
        self.frame_start = 0;
        self.match_base = 0;
        let bodies: Vec<(&Option<Rc<str>>, &Expr, &str)> =
            programs.iter().filter_map(|(name, p, source)| p.body.as_ref().map(|b| (name, b, *source))).collect();
        if bodies.is_empty() {
            return Ok(Value::Undef);
        }
        self.garbled.values_mut().for_each(|named| *named = false);
        self.hiera.reset();
        for (name, body, source) in &bodies {
            self.source = Rc::from(*source);
            let saved_loading = std::mem::replace(&mut self.loader.loading_file, (*name).clone());
            let defined = self.define_all(body, source);
            self.loader.loading_file = saved_loading;
            defined?;
        }
        self.run_settings_code()?;
        let mut value = Value::Undef;
        for (name, body, source) in bodies {
            self.source = Rc::from(source);
            let frames = self.call_frames.len();
            let saved_file = std::mem::replace(&mut self.loader.current_file, name.clone());
            self.call_frames.push((name.clone(), 0));
            let mut result = self.eval(body);
            if named {
                result = result.map_err(|flow| crate::catalog::compiler::in_file(flow, name.as_ref()));
            }
            self.call_frames.truncate(frames);
            self.loader.current_file = saved_file;
            value = match result {
                Err(Flow::Break(at)) => Err(illegal_context("break", *at)),
                Err(Flow::Next(exit)) => Err(illegal_context("next", exit.at)),
                Err(Flow::Return(exit)) => Err(illegal_context("return", exit.at)),
                other => other,
            }?;
        }
        Ok(value)
    }

    /// Puppet's stack trace as stdlib's `deprecation` writes it (`"#{stack[0]}:#{stack[1]}"`):
    /// the innermost call's `["FILE", LINE]` (`"unknown"` for the program), then the one
    /// around it; empty where there is none (a defined resource, evaluated after the program).
    pub fn stack_location(&self) -> String {
        let frame = |i: usize| {
            self.call_frames.iter().rev().nth(i).map_or_else(String::new, |(file, line)| {
                format!("[{}, {line}]", poppet_ruby::string::inspect(file.as_deref().unwrap_or("unknown")))
            })
        };
        format!("{}:{}", frame(0), frame(1))
    }

    /// Makes the program's top-level functions and type aliases known. A name defined twice
    /// in one program is Puppet's redefinition error; a later program (the REPL's next
    /// input) replaces earlier definitions.
    fn define_all(&mut self, body: &Expr, source: &str) -> Eval<()> {
        let statements = match &body.kind {
            ExprKind::Block(statements) => statements.as_slice(),
            _ => std::slice::from_ref(body),
        };
        let mut aliases = Vec::new();
        let mut seen: HashMap<String, Span> = HashMap::new();
        let redefined = |kind: &str, key: &str, first: Option<&Span>| {
            let origin = match first {
                Some(at) => format!("Originally set at string:?line={}&pos={}.", at.line, at.column),
                None if kind == "type" && puppet_types::literal::RESOURCE_TYPES.contains(&key) => {
                    "Set at unknown location".to_string()
                }
                None => "Originally set by Puppet-Type-System/Static-Loader.".to_string(),
            };
            Flow::error(EvalError {
                message: format!(
                    "Attempt to redefine entity 'http://puppet.com/2016.1/runtime/{kind}/{key}'. {origin}"
                ),
                at: None,
                file: None,
                bare: false,
                trace: Vec::new(),
            })
        };
        for statement in statements {
            match &statement.kind {
                ExprKind::TypeMapping { type_expr, mapping_expr } => self.type_mapping(type_expr, mapping_expr)?,
                ExprKind::Function { name, parameters, body, return_type } => {
                    let key = name.to_lowercase();
                    if let Some(first) = seen.get(&format!("function/{key}")) {
                        return Err(redefined("function", &key, Some(first)));
                    }
                    seen.insert(format!("function/{key}"), statement.at);
                    let file = self.loader.loading_file.clone();
                    let def = FunctionDef::new(name, parameters, body.as_deref(), return_type.as_deref(), file);
                    self.functions.insert(key, Rc::new(def));
                }
                ExprKind::TypeAlias { name, type_expr } => {
                    let key = name.to_lowercase();
                    if let Some(first) = seen.get(&format!("type/{key}")) {
                        return Err(redefined("type", &key, Some(first)));
                    }
                    if puppet_types::literal::builtin_type(&key).is_some()
                        || puppet_types::literal::RESOURCE_TYPES.contains(&key.as_str())
                    {
                        return Err(redefined("type", &key, None));
                    }
                    seen.insert(format!("type/{key}"), statement.at);
                    let alias = TypeAlias::new(name.as_str());
                    self.aliases.insert(key.clone(), Type::Alias(alias.clone()));
                    self.pending_objects.remove(&key);
                    match object_definition(type_expr) {
                        Some(init) => {
                            let invalid = init.and_then(not_a_type_specification).map(|e| {
                                let text = source.get(e.span.start..e.span.end).unwrap_or_default();
                                format!("The expression <{text}> is not a valid type specification.")
                            });
                            let init = init.map(|e| Rc::new(e.clone()));
                            self.pending_objects.insert(key, PendingObject { alias, init, invalid });
                        }
                        None => aliases.push((alias, type_expr, statement.at)),
                    }
                }
                _ => {}
            }
        }
        let saved = std::mem::replace(&mut self.in_type_alias, true);
        let mut result = Ok(());
        for (alias, type_expr, at) in aliases {
            if let Some(text) = self.unknown_parameterized(type_expr, at, source) {
                alias.resolve_to(Type::Reference(Rc::from(text)));
                self.garbled.insert(alias.name.to_lowercase(), false);
                continue;
            }
            self.garbled.remove(&alias.name.to_lowercase());
            match self.eval_type(type_expr) {
                Ok(t) => {
                    alias.resolve_to(puppet_types::normalize::normalize(&t));
                    puppet_types::normalize::settle_recursive_alias(&alias);
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.in_type_alias = saved;
        result?;
        self.define_catalog_entities(statements);
        if let Some(message) = self.compiler.definition_error.take() {
            return Err(crate::error::bare(message));
        }
        let mut definitions = Vec::new();
        collect_definitions(statements, &mut definitions);
        for (name, parameters) in definitions {
            self.classes.insert(name.to_lowercase());
            self.instantiate_definition(name, parameters)?;
        }
        Ok(())
    }

    /// `instantiate_TypeMapping`: `type Runtime[ruby, 'Name'] = T` (or a pair of patterns),
    /// read by Puppet's type parser and checked as its implementation registry does. There is
    /// no Ruby implementation to map here, so a mapping that passes is kept nowhere.
    fn type_mapping(&mut self, type_expr: &Expr, mapping_expr: &Expr) -> Eval<()> {
        use puppet_types::ty::RuntimeName;
        let saved = std::mem::replace(&mut self.in_type_alias, true);
        let sides = (|| {
            // The type parser's `Runtime[runtime, name_or_pattern]`: exactly two parameters,
            // the second a name or a `[regexp, replacement]` pair (not flattened).
            let lhs = match &type_expr.kind {
                ExprKind::Access { left, keys } if matches!(&left.kind, ExprKind::QualifiedReference(n) if n == "Runtime") =>
                {
                    let [runtime, name] = keys.as_slice() else {
                        return Err(crate::error::bare(format!(
                            "Invalid number of type parameters specified: Runtime requires 2, {} provided",
                            keys.len()
                        )));
                    };
                    let runtime = self.eval(runtime)?;
                    let name = match &self.eval(name)? {
                        Value::String(s) => Some(RuntimeName::Name(s.clone())),
                        Value::Array(pair) => match pair.as_slice() {
                            [Value::Regexp(r), Value::String(s)] => Some(RuntimeName::Pattern(r.clone(), s.clone())),
                            _ => None,
                        },
                        _ => None,
                    };
                    Type::Runtime { runtime: runtime.as_str().map(Rc::from), name }
                }
                _ => self.eval_type(type_expr)?,
            };
            Ok((lhs, self.eval(mapping_expr)?))
        })();
        self.in_type_alias = saved;
        let (lhs, rhs) = sides?;
        let ruby = Type::Runtime { runtime: Some(Rc::from("ruby")), name: None };
        if !puppet_types::assignable::is_assignable(&ruby, &lhs) {
            return Err(crate::error::bare(format!(
                "First argument of type mapping is incorrect, expects a Runtime[ruby, undef] value, got {lhs}"
            )));
        }
        let (expected, what) = match &lhs {
            Type::Runtime { name: Some(RuntimeName::Pattern(..)), .. } => (
                Type::Tuple { types: Rc::from(vec![Type::Regexp(None), Type::String(None)]), size: None },
                "Second argument of type mapping",
            ),
            _ => (Type::Type(None), "Second argument of type mapping"),
        };
        if !puppet_types::instance::is_instance(&expected, &rhs) {
            let subject = format!("{what} has wrong type,");
            return Err(crate::error::bare(puppet_types::mismatch::describe_value(&subject, &expected, &rhs)));
        }
        Ok(())
    }

    /// Resolves the program's Object type of this lower-case name if it is still pending
    /// (see [`Evaluator::type_reference`]), with its error as it is raised.
    pub(crate) fn resolve_pending_object(&mut self, lower: &str) -> Eval<()> {
        match self.pending_objects.remove(lower) {
            Some(pending) => self.resolve_object(pending),
            None => Ok(()),
        }
    }

    /// `PObjectType#resolve`: the Object type of an alias from its hash, read as Puppet's
    /// type parser reads it (unknown names are references), named after the alias.
    fn resolve_object(&mut self, pending: PendingObject) -> Eval<()> {
        if let Some(message) = pending.invalid {
            return Err(crate::error::fail(message));
        }
        let saved = std::mem::replace(&mut self.in_type_alias, true);
        let init = match &pending.init {
            Some(e) => self.eval(e),
            None => Ok(Value::Undef),
        };
        self.in_type_alias = saved;
        let init = init?;
        let name = pending.alias.name.clone();
        let object = match &init {
            Value::Hash(h) if !h.is_empty() => {
                puppet_types::object::from_init_hash(Some(name), &init).map_err(|e| crate::error::fail(e.message))?
            }
            _ => puppet_types::ty::ObjectType { name: Some(name), ..Default::default() },
        };
        pending.alias.resolve_to(Type::Object(Rc::new(object)));
        Ok(())
    }

    /// An alias body that parameterises an unknown type (`type A = Nope[1]`): Puppet's type
    /// parser makes it a type reference, named by the source text from the alias's name to
    /// the end of the last parameter (`'A = Nope[1'`, as Puppet prints it).
    fn unknown_parameterized<'s>(&self, body: &Expr, name_at: Span, source: &'s str) -> Option<&'s str> {
        let ExprKind::Access { left, keys } = &body.kind else { return None };
        let ExprKind::QualifiedReference(name) = &left.kind else { return None };
        let lower = name.to_lowercase();
        let known = puppet_types::literal::builtin_type(&lower).is_some()
            || self.aliases.contains_key(&lower)
            || puppet_types::literal::RESOURCE_TYPES.contains(&lower.as_str());
        if known {
            return None;
        }
        source.get(name_at.start..keys.last()?.span.end)
    }

    /// What Puppet does when it instantiates a class or defined type of the program, before
    /// evaluating it: evaluates the parameter types in the top scope, and checks the names
    /// against the metaparameters.
    fn instantiate_definition(&mut self, name: &str, parameters: &[puppet_syntax::ast::Parameter]) -> Eval<()> {
        let saved = std::mem::replace(&mut self.scope, self.top.clone());
        let types: Eval<()> =
            parameters.iter().filter_map(|p| p.type_expr.as_ref()).try_for_each(|t| self.eval_type(t).map(drop));
        self.scope = saved;
        types?;
        const METAPARAMS: &[&str] = &[
            "alias",
            "audit",
            "before",
            "loglevel",
            "noop",
            "notify",
            "require",
            "schedule",
            "stage",
            "subscribe",
            "tag",
        ];
        let name = name.to_lowercase();
        for p in parameters.iter().filter(|p| METAPARAMS.contains(&p.name.as_str())) {
            if p.value.is_some() {
                self.log(
                    Level::Warning,
                    format!("{} is a metaparam; this value will inherit to all contained resources in the {name} definition", p.name),
                );
            } else {
                return Err(Flow::error(EvalError {
                    message: format!(
                        "{} is a metaparameter; please choose another parameter name in the {name} definition",
                        p.name
                    ),
                    at: None,
                    file: None,
                    bare: false,
                    trace: Vec::new(),
                }));
            }
        }
        Ok(())
    }

    /// Evaluates an expression that must give a type (a type alias's right side).
    fn eval_type(&mut self, e: &Expr) -> Eval<Type> {
        match &self.eval(e)? {
            Value::Type(t) => Ok((**t).clone()),
            v => Err(fail_at(
                format!("The expression <{}> is not a valid type specification.", display::value_to_string(v)),
                e.at,
            )),
        }
    }

    /// Whether `key` comes up for the first time in this compilation (its top scope).
    pub(crate) fn first_time(&mut self, key: &str) -> bool {
        if !std::ptr::eq(self.once.0.as_ptr(), Rc::as_ptr(&self.top)) {
            self.once = (Rc::downgrade(&self.top), Default::default());
        }
        self.once.1.insert(key.to_owned())
    }

    /// Checks that the evaluation may go on (not interrupted).
    pub(crate) fn check_interrupt(&self, at: Span) -> Eval<()> {
        if self.interrupt.load(Ordering::Relaxed) {
            return Err(fail_at("Evaluation interrupted", at));
        }
        Ok(())
    }

    pub fn eval(&mut self, e: &Expr) -> Eval<Value> {
        // Grow the stack on demand, checked every few levels: code and calls may nest deeper
        // than a thread's stack.
        self.nesting += 1;
        let result = if self.nesting.is_multiple_of(8) {
            stacker::maybe_grow(1024 * 1024, 8 * 1024 * 1024, || self.eval_node(e))
        } else {
            self.eval_node(e)
        };
        self.nesting -= 1;
        result
    }

    fn eval_node(&mut self, e: &Expr) -> Eval<Value> {
        use ExprKind as K;
        match &e.kind {
            K::Nop => Ok(Value::Undef),
            K::Block(statements) => {
                let mut last = Value::Undef;
                for s in statements {
                    last = self.eval(s)?;
                }
                Ok(last)
            }
            K::Integer { value, .. } => match i64::try_from(value) {
                Ok(i) => Ok(Value::Integer(i)),
                Err(_) => Err(fail_at(
                    format!(
                        "A Literal Integer resulted in a value outside of Puppet Integer max range, got '{}0x{:x}'",
                        if value.sign() == num_bigint::Sign::Minus { '-' } else { '+' },
                        value.magnitude()
                    ),
                    e.at,
                )),
            },
            K::Float(f) => Ok(Value::Float(*f)),
            K::String(s) => Ok(Value::String(s.clone())),
            K::QualifiedName(s) => Ok(Value::from(s.as_str())),
            K::Boolean(b) => Ok(Value::Boolean(*b)),
            K::Undef => Ok(Value::Undef),
            K::Default => Ok(Value::Default),
            K::Regex(source) => Ok(Value::Regexp(self.regexp(source))),
            K::Concat(parts) => {
                let mut out = String::new();
                for part in parts {
                    match &part.kind {
                        K::String(s) => out.push_str(s),
                        K::Text(inner) => {
                            let v = self.eval(inner)?;
                            interpolate_into(&mut out, &v);
                        }
                        _ => {
                            let v = self.eval(part)?;
                            interpolate_into(&mut out, &v);
                        }
                    }
                }
                Ok(Value::from(out.as_str()))
            }
            K::Text(inner) => {
                let v = self.eval(inner)?;
                Ok(Value::from(self.interpolate(&v).as_str()))
            }
            K::Heredoc { text, .. } => self.eval(text),
            K::Array(items) => Ok(Value::array(self.eval_list(items)?)),
            K::Hash(entries) => {
                let mut hash = Hash::with_capacity_and_hasher(entries.len(), Default::default());
                for entry in entries {
                    if let K::KeyedEntry { key, value } = &entry.kind {
                        let k = self.eval(key)?;
                        let v = self.eval(value)?;
                        hash.insert(k, v);
                    }
                }
                Ok(Value::hash(hash))
            }
            K::KeyedEntry { .. } => Err(fail_at("A hash entry is not an expression", e.at)),
            K::QualifiedReference(name) => self.type_reference(name, e.at).map(Value::ty),
            K::Variable(name) => self.variable(name, e.at),
            K::VariableOf(inner) => {
                let v = self.eval(inner)?;
                self.variable(&display::value_to_s(&v), e.at)
            }
            K::Reserved(word) => Err(fail_at(
                format!("Use of reserved word: {word}, must be quoted if intended to be a String value"),
                e.at,
            )),
            K::Binary { op, left, right } => self.binary(*op, left, right, e),
            K::Not(inner) => Ok(Value::Boolean(!truthy(&self.eval(inner)?))),
            K::Negate(inner) => self.negate(inner, e),
            K::Unfold(inner) => {
                let v = self.eval(inner)?;
                unfold(v)
            }
            K::Paren(inner) => self.eval(inner),
            K::Assignment { op, left, right } => self.assignment(*op, left, right, e),
            K::Access { left, keys } => self.access(left, keys, e),
            K::Selector { left, entries } => self.selector(left, entries, e),
            K::Call { .. } => self.call(e),
            K::NamedAccess { .. } => Err(fail_at("Method call syntax without a call", e.at)),
            K::If { test, then, otherwise } => self.conditional(test, true, then.as_deref(), otherwise.as_deref()),
            K::Unless { test, then, otherwise } => self.conditional(test, false, then.as_deref(), otherwise.as_deref()),
            K::Case { test, options } => self.case(test, options),
            // Definitions were made known before evaluation (functions, type aliases); classes
            // and defined types are used only by the catalog, which comes later.
            K::Function { .. } | K::TypeAlias { .. } | K::Class { .. } | K::Define { .. } => Ok(Value::Undef),
            K::Relationship { op, left, right } => self.relationship(*op, left, right, e.at),
            K::Resource { form, type_name, bodies } => self.resource_expression(*form, type_name, bodies, e),
            K::ResourceDefaults { type_ref, operations, .. } => self.resource_defaults(type_ref, operations),
            K::ResourceOverride { resources, operations, .. } => self.resource_override(resources, operations, e.at),
            K::Collect { type_expr, exported, query, operations } => {
                self.collect(type_expr, *exported, query.as_deref(), operations, e.at)
            }
            K::Node { .. } => Ok(Value::Undef),
            // Registered with the definitions; Poppet has no Ruby implementations to map.
            K::TypeMapping { .. } => Ok(Value::Undef),
            K::TypeDefinition { .. } => Err(not_yet("Object type definitions", e.at)),
        }
    }

    /// Evaluates a list of expressions (array elements, arguments, a method's receiver),
    /// splicing unfolded values (`*$x`, also in parentheses: `(*$x)`), as Puppet's `unfold`.
    pub(crate) fn eval_list(&mut self, items: &[Expr]) -> Eval<Vec<Value>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match &unwind_parentheses(item).kind {
                ExprKind::Unfold(inner) => match &unfold(self.eval(inner)?)? {
                    Value::Array(a) => out.extend(a.iter().cloned()),
                    v => out.push(v.clone()),
                },
                _ => out.push(self.eval(item)?),
            }
        }
        Ok(out)
    }

    /// A value as interpolation renders it.
    pub fn interpolate(&self, v: &Value) -> String {
        let mut out = String::new();
        interpolate_into(&mut out, v);
        out
    }

    // ---- variables

    #[inline]
    fn variable(&mut self, name: &str, at: Span) -> Eval<Value> {
        if self.param_guard.is_some() {
            self.check_parameter_reference(name)?;
        }
        let bytes = name.as_bytes();
        let found = if bytes.first().is_some_and(u8::is_ascii_digit) {
            if let Some(n) = numeric_variable(name) {
                return Ok(self.match_variable(n));
            }
            self.scope.get(name)
        } else if !bytes.contains(&b':') {
            self.scope.get(name)
        } else {
            match name.strip_prefix("::") {
                Some(top) if !top.contains("::") => self.top.get(top),
                _ => self.top.get(name.trim_start_matches("::")).or_else(|| self.qualified_variable(name)),
            }
        };
        match found {
            Some(v) => Ok(v),
            None => self.unknown_variable(name, at),
        }
    }

    /// An unknown variable: an error with `strict_variables` or `strict=error`, else undef,
    /// with a warning under `strict=warning` (Puppet's `Scope#variable_not_found`).
    #[cold]
    #[inline(never)]
    fn unknown_variable(&mut self, name: &str, at: Span) -> Eval<Value> {
        let message = format!("Unknown variable: '{name}'.");
        match self.options.strict {
            _ if self.options.strict_variables => Err(fail_at(message, at)),
            Strict::Error => Err(fail_at(message, at)),
            Strict::Warning => {
                self.warn_at(&message, at);
                Ok(Value::Undef)
            }
            Strict::Off => Ok(Value::Undef),
        }
    }

    /// `ParameterScope#parameter_reference_failure`: while a parameter's default is
    /// evaluated, reading it or a parameter not bound yet is an error (kept out of the hot
    /// path of [`Self::variable`]).
    #[cold]
    #[inline(never)]
    fn check_parameter_reference(&self, name: &str) -> Eval<()> {
        let Some(g) = &self.param_guard else { return Ok(()) };
        if !g.pending.iter().any(|p| &**p == name) {
            return Ok(());
        }
        // A parameter before the one being defaulted can only be one that was given no value.
        let position = |n: &str| g.names.iter().position(|p| &**p == n);
        let message = if position(name) < position(&g.from) {
            format!("{}: expects a value for parameter ${name}", g.callee)
        } else {
            format!(
                "{}: default expression for ${} tries to illegally access not yet evaluated ${name}",
                g.callee, g.from
            )
        };
        Err(crate::error::fail(message))
    }

    /// Whether a variable is set (`defined('$x')`): in scope, or qualified at the top.
    pub fn variable_exists(&self, name: &str) -> bool {
        if numeric_variable(name).is_some() {
            return false;
        }
        match name.strip_prefix("::") {
            Some(top) if !top.contains("::") => self.qualified_variable_exists(name),
            Some(qualified) => self.qualified_variable_exists(qualified),
            None if name.contains("::") => self.qualified_variable_exists(name),
            None => self.scope.get(name).is_some(),
        }
    }

    fn match_variable(&self, n: usize) -> Value {
        match self.matches[self.match_base..].last() {
            Some(groups) => groups.get(n).cloned().unwrap_or(Value::Undef),
            None => Value::Undef,
        }
    }

    /// Sets the match variables of the current frame (a successful `=~`, case or selector
    /// option with a regexp).
    pub(crate) fn set_match(&mut self, groups: Rc<[Value]>) {
        if self.matches.len() > self.frame_start {
            if let Some(last) = self.matches.last_mut() {
                *last = groups;
            }
        } else {
            self.matches.push(groups);
        }
    }

    /// Runs `f` in the match frames of a function call: a fresh one, the caller's hidden.
    pub(crate) fn with_function_match_frames<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.match_base;
        self.match_base = self.matches.len();
        let result = self.with_match_frame(f);
        self.match_base = saved;
        result
    }

    /// Runs `f` in a new frame of match variables: what it matches is gone afterwards.
    pub(crate) fn with_match_frame<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.frame_start;
        self.frame_start = self.matches.len();
        let result = f(self);
        self.matches.truncate(self.frame_start);
        self.frame_start = saved;
        result
    }

    /// Sets a variable in the current scope, with Puppet's checks.
    pub fn set_variable(&mut self, name: &str, value: Value, at: Span) -> Eval<()> {
        if name == "server_facts" || (matches!(name, "facts" | "trusted") && self.scope.get(name).is_some()) {
            return Err(fail_at(format!("Attempt to assign to a reserved variable name: '${name}'"), at));
        }
        if let Some(rebind) = &mut self.rebind {
            if Rc::ptr_eq(&self.scope, &self.top) && self.top.has_own(name) && rebind.allowed.remove(name) {
                self.top.replace(name, value);
                rebind.rebound.push(name.to_owned());
                return Ok(());
            }
        }
        if !self.scope.set(name, value) {
            let message = if matches!(name, "name" | "title") {
                format!("Cannot reassign built in (or already assigned) variable '${name}'")
            } else {
                format!("Cannot reassign variable '${name}'")
            };
            return Err(fail_at(message, at));
        }
        Ok(())
    }

    fn assignment(&mut self, op: AssignOp, left: &Expr, right: &Expr, e: &Expr) -> Eval<Value> {
        if op != AssignOp::Assign {
            return Err(fail_at(
                format!(
                    "The operator '{}' is no longer supported. See http://links.puppet.com/remove-plus-equals",
                    op.symbol()
                ),
                e.at,
            ));
        }
        let target = lvalue(left)?;
        let value = self.eval(right)?;
        self.assign(&target, value.clone(), left, e.at)?;
        Ok(value)
    }

    /// `assign_String`, `assign_Numeric`, `assign_Array` of Puppet's evaluator.
    fn assign(&mut self, target: &LValue, value: Value, left: &Expr, at: Span) -> Eval<()> {
        match target {
            LValue::Name(name) if name.contains("::") => Err(fail_at(
                format!("Illegal attempt to assign to '{name}'. Cannot assign to variables in other namespaces"),
                left.at,
            )),
            LValue::Name(name) if numeric_variable(name).is_some() => Err(fail_at(
                format!("Illegal attempt to assign to the numeric match result variable '${name}'. Numeric variables are not assignable"),
                left.at,
            )),
            LValue::Name(name) => self.set_variable(name, value, at),
            LValue::List(targets) => match &value {
                Value::Hash(h) => {
                    for t in targets {
                        let key = t.key();
                        let v = h.get(&key).cloned().ok_or_else(|| {
                            fail_at(format!("No value for required key '{}' in assignment to variables from hash", t.ruby_inspect()), at)
                        })?;
                        self.assign(t, v, left, at)?;
                    }
                    Ok(())
                }
                _ => {
                    let values = match &value {
                        Value::Array(a) => a.to_vec(),
                        other => vec![other.clone()],
                    };
                    if values.len() != targets.len() {
                        return Err(fail_at(
                            format!("Mismatched number of assignable entries and values, expected {}, got {}", targets.len(), values.len()),
                            at,
                        ));
                    }
                    for (t, v) in targets.iter().zip(values) {
                        self.assign(t, v, left, at)?;
                    }
                    Ok(())
                }
            },
        }
    }

    // ---- types

    /// The type a capitalised name stands for: a built-in type, a type alias, a resource
    /// type.
    pub fn type_reference(&mut self, name: &str, at: Span) -> Eval<Type> {
        let lower = name.to_lowercase();
        if let Some(t) = puppet_types::literal::builtin_type(&lower) {
            return Ok(t);
        }
        self.resolve_pending_object(&lower).map_err(|e| match e {
            Flow::Error(e) if e.at.is_none() => {
                fail_at(format!("Error while evaluating a Type-Name, {}", e.message), at)
            }
            other => other,
        })?;
        if let Some(Type::Alias(a)) = self.aliases.get(&lower) {
            // An Object type declared by an alias is that type, named after it.
            if a.is_resolved() {
                if let Type::Object(o) = &a.resolved_type() {
                    if o.name.as_deref() == Some(&*a.name) {
                        return Ok(Type::Object(o.clone()));
                    }
                }
            }
        }
        if let Some(t) = self.aliases.get(&lower) {
            // Puppet loads such an alias the first time; naming it again makes its type
            // parser read the garbled text, which fails.
            if let Some(named) = self.garbled.get(&lower).copied() {
                if named {
                    return Err(fail_at("Error while evaluating a Type-Name, Syntax error at end of input", at));
                }
                self.garbled.insert(lower.clone(), true);
            }
            if !self.in_type_alias && alias_loops(t) {
                return Err(fail_at(
                    format!(
                        "Error while evaluating a Type-Name, Type alias '{name}' cannot be resolved to a real type"
                    ),
                    at,
                ));
            }
            return Ok(t.clone());
        }
        // `Node` names the resource type of node definitions (Puppet's loaders know it),
        // though nothing can declare one.
        if puppet_types::literal::RESOURCE_TYPES.contains(&lower.as_str())
            || lower == "node"
            || self.compiler.defines.contains_key(&lower)
            || self.ruby_type_exists(&lower)
        {
            return Ok(Type::Resource { type_name: Some(display::capitalize_segments(name).into()), title: None });
        }
        // A type alias or a defined type of a module on the module path (`Concat`: the
        // module `concat`'s `init.pp`).
        if self.autoload(modules::Entity::TypeAlias, &lower)? || self.autoload(modules::Entity::Definition, &lower)? {
            return self.type_reference(name, at);
        }
        if self.in_type_alias {
            // A type alias's body is read by Puppet's type parser: unknown names are
            // references to types that may come later.
            return Ok(Type::Reference(Rc::from(name)));
        }
        Err(fail_at(format!("Resource type not found: {}", display::capitalize_segments(name)), at))
    }

    // ---- conditionals

    fn conditional(&mut self, test: &Expr, when: bool, then: Option<&Expr>, otherwise: Option<&Expr>) -> Eval<Value> {
        self.with_match_frame(|ev| {
            let t = truthy(&ev.eval(test)?);
            let branch = if t == when { then } else { otherwise };
            match branch {
                Some(b) => ev.eval(b),
                None => Ok(Value::Undef),
            }
        })
    }

    fn case(&mut self, test: &Expr, options: &[puppet_syntax::ast::CaseOption]) -> Eval<Value> {
        let value = self.eval(test)?;
        let mut default = None;
        for option in options {
            for candidate in &option.values {
                if matches!(unwind_parentheses(candidate).kind, ExprKind::Default) {
                    default = Some(option);
                    continue;
                }
                if let Some(v) = self.option_arm(&value, candidate, option.body.as_ref())? {
                    return Ok(v);
                }
            }
        }
        match default.and_then(|o| o.body.as_ref()) {
            Some(b) => self.eval(b),
            None => Ok(Value::Undef),
        }
    }

    fn selector(&mut self, left: &Expr, entries: &[puppet_syntax::ast::SelectorEntry], e: &Expr) -> Eval<Value> {
        let value = self.eval(left)?;
        let mut default = None;
        for entry in entries {
            if matches!(unwind_parentheses(&entry.matching).kind, ExprKind::Default) {
                default = Some(entry);
                continue;
            }
            if let Some(v) = self.option_arm(&value, &entry.matching, Some(&entry.value))? {
                return Ok(v);
            }
        }
        match default {
            Some(entry) => self.eval(&entry.value),
            None => Err(fail_at(
                format!("No matching entry for selector parameter with value '{}'", display::value_to_s(&value)),
                e.at,
            )),
        }
    }

    /// A case or selector option in its own match frame: the value of `body` when the option
    /// matches, `None` when it does not.
    fn option_arm(&mut self, value: &Value, option: &Expr, body: Option<&Expr>) -> Eval<Option<Value>> {
        self.with_match_frame(|ev| {
            if !ev.case_matches(value, option)? {
                return Ok(None);
            }
            match body {
                Some(b) => ev.eval(b).map(Some),
                None => Ok(Some(Value::Undef)),
            }
        })
    }

    /// Whether a case or selector option matches: regexps match strings (setting the match
    /// variables), types match their instances, `default` anything, an unfolded value
    /// (`*$x`, also in parentheses) matches when one of its elements does, anything else by
    /// `==` (arrays and hashes element-wise with the same rules).
    fn case_matches(&mut self, value: &Value, option: &Expr) -> Eval<bool> {
        if let ExprKind::Unfold(inner) = &unwind_parentheses(option).kind {
            let candidates = unfold(self.eval(inner)?)?;
            let list = match &candidates {
                Value::Array(a) => a.to_vec(),
                v => vec![v.clone()],
            };
            for c in &list {
                if self.option_match(value, c)? {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        let candidate = self.eval(option)?;
        self.option_match(value, &candidate)
    }

    pub(crate) fn option_match(&mut self, value: &Value, candidate: &Value) -> Eval<bool> {
        match candidate {
            Value::Regexp(re) => match value {
                Value::String(s) => match match_groups(re, s) {
                    Some(groups) => {
                        self.set_match(groups);
                        Ok(true)
                    }
                    None => Ok(false),
                },
                _ => Ok(false),
            },
            Value::Type(t) => Ok(puppet_types::instance::is_instance(t, value)),
            Value::Array(options) => match value {
                Value::Array(values) if values.len() == options.len() => {
                    for (v, o) in values.iter().zip(options.iter()) {
                        if !self.option_match(v, o)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                _ => Ok(false),
            },
            Value::Hash(options) => match value {
                // A key the value lacks is matched as undef (Ruby's `left[x]`).
                Value::Hash(values) => {
                    for (k, o) in options.iter() {
                        let v = values.get(k).cloned().unwrap_or(Value::Undef);
                        if !self.option_match(&v, o)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                _ => Ok(false),
            },
            _ => Ok(puppet_types::compare::match_value(value, candidate)),
        }
    }

    /// The regexp of a literal, compiled once per source.
    pub(crate) fn regexp(&mut self, source: &str) -> Rc<puppet_types::regexp::Regexp> {
        if let Some(r) = self.regexps.get(source) {
            return r.clone();
        }
        let r = Rc::new(puppet_types::regexp::Regexp::new(source));
        if self.regexps.len() < 10_000 {
            self.regexps.insert(source.to_string(), r.clone());
        }
        r
    }

    pub(crate) fn new_closure_id(&mut self) -> usize {
        self.next_closure_id += 1;
        self.next_closure_id
    }

    /// Enters a call (function or lambda): counts the depth and checks for an interrupt.
    pub(crate) fn enter(&mut self, at: Span) -> Eval<()> {
        self.check_interrupt(at)?;
        if self.depth >= self.options.max_depth {
            return Err(fail_at(
                format!("Calls nested more than {} deep (runaway recursion?)", self.options.max_depth),
                at,
            ));
        }
        self.depth += 1;
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Puts the evaluator back at the top after a failed evaluation.
    pub fn reset_after_error(&mut self) {
        self.scope = self.top.clone();
        self.param_guard = None;
        self.depth = 0;
        self.nesting = 0;
        self.match_base = 0;
        self.frame_start = 0;
        self.matches.clear();
    }
}

/// The top-scope variables a shell input may assign again ([`Evaluator::allow_rebinding`]).
struct Rebind {
    allowed: std::collections::HashSet<Rc<str>>,
    rebound: Vec<String>,
}

/// The classes and defined types of a program (classes nest in classes), in order.
fn collect_definitions<'a>(statements: &'a [Expr], out: &mut Vec<(&'a str, &'a [puppet_syntax::ast::Parameter])>) {
    for statement in statements {
        match &statement.kind {
            ExprKind::Class { name, parameters, body, .. } => {
                out.push((name, parameters));
                if let Some(body) = body {
                    let inner = match &body.kind {
                        ExprKind::Block(s) => s.as_slice(),
                        _ => std::slice::from_ref(&**body),
                    };
                    collect_definitions(inner, out);
                }
            }
            ExprKind::Define { name, parameters, .. } => out.push((name, parameters)),
            _ => {}
        }
    }
}

/// Whether an alias resolves only to aliases, back to itself (`type Loop = Loop`).
/// An Object type declared by a type alias, waiting to be named for the first time.
#[derive(Clone)]
pub(crate) struct PendingObject {
    alias: Rc<TypeAlias>,
    /// The expression of its hash (`None` for `Object[]`).
    init: Option<Rc<Expr>>,
    /// The type parser's error for an expression in it that it does not read (a variable,
    /// a call): Puppet's type parser reads the hash, not the evaluator.
    invalid: Option<String>,
}

/// The first part of a type alias's Object hash that Puppet's type parser does not read
/// (`interpret_Object`): anything but literals, names, types and their parameters.
fn not_a_type_specification(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Integer { .. }
        | ExprKind::Float(_)
        | ExprKind::String(_)
        | ExprKind::Boolean(_)
        | ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Regex(_)
        | ExprKind::QualifiedName(_)
        | ExprKind::QualifiedReference(_) => None,
        ExprKind::Heredoc { text, .. } => not_a_type_specification(text),
        ExprKind::Negate(inner) => not_a_type_specification(inner),
        ExprKind::Array(items) | ExprKind::Hash(items) => items.iter().find_map(not_a_type_specification),
        ExprKind::KeyedEntry { key, value } => {
            not_a_type_specification(key).or_else(|| not_a_type_specification(value))
        }
        ExprKind::Access { left, keys } => {
            not_a_type_specification(left).or_else(|| keys.iter().find_map(not_a_type_specification))
        }
        _ => Some(e),
    }
}

/// Whether an alias body declares an Object type (`TypeDefinitionInstantiator`'s
/// `named_definition`): `Object[...]` or a bare hash. Gives the hash expression.
fn object_definition(body: &Expr) -> Option<Option<&Expr>> {
    match &body.kind {
        ExprKind::Hash(_) => Some(Some(body)),
        ExprKind::Access { left, keys } => match &left.kind {
            ExprKind::QualifiedReference(name) if name == "Object" => Some(keys.first()),
            _ => None,
        },
        _ => None,
    }
}

fn alias_loops(t: &Type) -> bool {
    let mut seen: Vec<Rc<str>> = Vec::new();
    let mut current = t.clone();
    while let Type::Alias(a) = &current {
        if seen.contains(&a.name) {
            return true;
        }
        seen.push(a.name.clone());
        let next = a.resolved_type();
        current = next;
    }
    false
}

/// The target of an assignment: a variable's name, or a list of targets (`[$a, [$b]]`).
enum LValue {
    Name(String),
    List(Vec<LValue>),
}

impl LValue {
    /// The hash key a target takes its value from: its name, or the list of its names.
    fn key(&self) -> Value {
        match self {
            LValue::Name(n) => Value::from(n.as_str()),
            LValue::List(l) => Value::array(l.iter().map(LValue::key).collect()),
        }
    }

    /// Ruby's `inspect` of the key, as Puppet's message shows it (`["b"]`).
    fn ruby_inspect(&self) -> String {
        match self {
            LValue::Name(n) => n.clone(),
            LValue::List(l) => {
                let items: Vec<String> = l
                    .iter()
                    .map(|t| match t {
                        LValue::Name(n) => poppet_ruby::string::inspect(n),
                        list => list.ruby_inspect(),
                    })
                    .collect();
                format!("[{}]", items.join(", "))
            }
        }
    }
}

/// `lvalue`: what an assignment's left side names.
fn lvalue(e: &Expr) -> Eval<LValue> {
    match &e.kind {
        ExprKind::Variable(name) => Ok(LValue::Name(name.clone())),
        ExprKind::Array(items) => Ok(LValue::List(items.iter().map(lvalue).collect::<Eval<_>>()?)),
        _ => Err(fail_at(
            format!(
                "Illegal attempt to assign to '{}'. Not an assignable reference",
                display::a_an(&puppet_syntax::label(e))
            ),
            e.at,
        )),
    }
}

/// Appends a value as interpolation renders it.
pub(crate) fn interpolate_into(out: &mut String, v: &Value) {
    match v {
        Value::String(s) => out.push_str(s),
        Value::Integer(i) => out.push_str(itoa::Buffer::new().format(*i)),
        _ => out.push_str(&display::value_to_s(v)),
    }
}

/// The parameters a default expression may not read yet (Puppet's `ParameterScope`).
pub(crate) struct ParamGuard {
    /// `Class[A]`, `A[x]`, a function's name.
    pub callee: Rc<str>,
    /// The parameter whose default is being evaluated.
    pub from: Rc<str>,
    /// All the parameters, in order.
    pub names: Vec<Rc<str>>,
    /// Those without a value yet.
    pub pending: Vec<Rc<str>>,
}

/// Puppet's truthiness: `undef` and `false` are false, everything else is true.
pub fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Undef | Value::Boolean(false))
}

/// `*x` (Puppet's `eval_UnfoldExpression`): `undef` is no element, an array stays itself, a
/// hash becomes its pairs, an iterator its elements, anything else (a type too) a
/// one-element array.
fn unfold(v: Value) -> Eval<Value> {
    Ok(match &v {
        Value::Undef => Value::array(Vec::new()),
        Value::Array(_) => v,
        Value::Hash(h) => Value::array(h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect()),
        Value::Iterator(_) => puppet_types::new::array::new_array(std::slice::from_ref(&v))?,
        _ => Value::array(vec![v]),
    })
}

/// Puppet's `unwind_parentheses`: the expression inside any number of parentheses, which is
/// where a list, a case or selector option and a method's receiver look for `*`.
fn unwind_parentheses(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

/// The groups of `re`'s first match in `s` (`$0` the whole match), unmatched groups undef.
pub(crate) fn match_groups(re: &puppet_types::regexp::Regexp, s: &str) -> Option<Rc<[Value]>> {
    let groups = re.captures(s)?;
    Some(groups.into_iter().map(|g| g.map_or(Value::Undef, |g| Value::from(g.as_str()))).collect())
}

/// `$0`, `$1`, ...: the group's index.
fn numeric_variable(name: &str) -> Option<usize> {
    if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
        name.parse().ok()
    } else {
        None
    }
}

fn illegal_context(what: &str, at: Span) -> Flow {
    Flow::error(EvalError {
        message: format!("{what}() from context where this is illegal"),
        at: Some(at),
        file: None,
        bare: false,
        trace: Vec::new(),
    })
}

/// `type T inherits U { ... }` definitions, which Puppet's validator refuses before they
/// can run (a program that reaches the evaluator with one was not validated).
fn not_yet(what: &str, at: Span) -> Flow {
    fail_at(format!("{what} are not supported by Poppet"), at)
}
