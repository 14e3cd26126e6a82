//! A session: one evaluator and its top scope, fed one program after another (the REPL's
//! inputs, or one file or `-e` code).

use std::cell::RefCell;
use std::rc::Rc;

use puppet_syntax::{Diagnostic, Severity};
use puppet_types::Value;

use crate::error::{EvalError, Flow};
use crate::eval::{Evaluator, Level, Log, Options};
use crate::facts;

/// What running one program did.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The value of the last statement, when the program ran to its end.
    pub value: Option<Value>,
    /// Everything logged, in order.
    pub logs: Vec<Log>,
    pub error: Option<Failure>,
    /// The catalog's resources in order, as references (`File[/tmp/x]`), without
    /// `Stage[main]`, `Class[Settings]` and `Class[main]`; empty after an error.
    pub resources: Vec<String>,
    /// The catalog's relationships, sorted: `File[/a] -> File[/b]`, `A ~> B`.
    pub relationships: Vec<String>,
}

impl Outcome {
    /// The messages of `notice()`.
    pub fn notices(&self) -> Vec<&str> {
        self.messages(Level::Notice)
    }

    pub fn messages(&self, level: Level) -> Vec<&str> {
        self.logs.iter().filter(|l| l.level == level).map(|l| l.message.as_str()).collect()
    }
}

/// A bare error's trailing location (`... on Notify[a] (line: 1)`, `(file: F, line: 3)`):
/// the message before it, the line and the file.
fn split_bare_location(message: &str) -> Option<(String, u32, Option<String>)> {
    let inner = message.strip_suffix(')')?;
    let open = inner.rfind(" (")?;
    let (text, place) = (&inner[..open], &inner[open + 2..]);
    let (file, line) = match place.rsplit_once(", line: ") {
        Some((file, line)) => (Some(file.strip_prefix("file: ")?.to_owned()), line),
        None => (None, place.strip_prefix("line: ")?),
    };
    let line = line.parse().ok().filter(|&l| l > 0)?;
    Some((text.to_owned(), line, file))
}

/// What stopped a program.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: FailureKind,
    /// Puppet's message, without location.
    pub message: String,
    /// 0 when Puppet gives no position.
    pub line: u32,
    /// 0 when Puppet gives no column.
    pub column: u32,
    /// The manifest of the position when it is not the program's (a module's file).
    pub file: Option<String>,
    /// The function calls the error unwound through, innermost first.
    pub trace: Vec<crate::error::TraceFrame>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// A syntax or validation error: Puppet's `Could not parse for environment production:`.
    Parse,
    /// Several validation errors: `Language validation logged N errors. Giving up`.
    Validation,
    /// An evaluation error: Puppet's `Evaluation Error:`.
    Evaluation,
    /// `break()`, `next()` or `return()` where they cannot go: Puppet gives no column.
    Context,
    /// An error Puppet reports without position or prefix (a redefinition).
    Bare,
}

impl Failure {
    /// The location as Puppet appends it: ` (line: N, column: M)`, or nothing.
    pub fn location(&self) -> String {
        if let Some(file) = &self.file {
            return match (self.line, self.column) {
                (0, _) => format!(" (file: {file})"),
                (l, 0) => format!(" (file: {file}, line: {l})"),
                (l, c) => format!(" (file: {file}, line: {l}, column: {c})"),
            };
        }
        match (self.line, self.column) {
            (0, _) => String::new(),
            (l, 0) => format!(" (line: {l})"),
            (l, c) => format!(" (line: {l}, column: {c})"),
        }
    }

    /// The error as `puppet apply` prints it after `Error: ` (without ` on node NAME`).
    pub fn puppet_text(&self) -> String {
        self.text_in("production")
    }

    /// The error as Puppet prints it when it compiles for `environment`.
    pub fn text_in(&self, environment: &str) -> String {
        match self.kind {
            FailureKind::Parse => {
                format!("Could not parse for environment {environment}: {}{}", self.message, self.location())
            }
            FailureKind::Validation => self.message.clone(),
            FailureKind::Evaluation => format!("Evaluation Error: {}{}", self.message, self.location()),
            FailureKind::Context => format!("{} (file: unknown, line: {})", self.message, self.line),
            FailureKind::Bare => format!("{}{}", self.message, self.location()),
        }
    }
}

pub struct Session {
    pub evaluator: Evaluator,
    logs: Rc<RefCell<Vec<Log>>>,
}

impl Default for Session {
    /// A session as `puppet apply` compiles on a real node: Puppet's default settings, node
    /// `testnode` with the built-in Debian 12 facts.
    fn default() -> Session {
        Session::new(Options::default(), &facts::builtin("testnode"), "testnode")
    }
}

impl Session {
    /// A session as the oracle compiles without options, the settings the evaluator's golden
    /// suites are recorded with: `strict_variables` on, node `testnode` with the oracle's
    /// small fact set ([`facts::small`]).
    pub fn oracle_node() -> Session {
        Session::new(Options { strict_variables: true, ..Options::default() }, &facts::small("testnode"), "testnode")
    }

    pub fn new(options: Options, facts: &puppet_types::value::Hash, node: &str) -> Session {
        let logs: Rc<RefCell<Vec<Log>>> = Rc::default();
        let sink_logs = logs.clone();
        let evaluator = Evaluator::new(options, Box::new(move |log: &Log| sink_logs.borrow_mut().push(log.clone())));
        let settings = facts::install(&evaluator.top, facts, node, &options);
        let mut evaluator = evaluator;
        evaluator.install_settings_class(&settings);
        evaluator.compiler.node_name = node.to_owned();
        Session { evaluator, logs }
    }

    /// What was logged since the last program ran (by calls into the evaluator outside
    /// [`Session::run`], such as `Evaluator::hiera_search`), taken.
    pub fn take_logs(&self) -> Vec<Log> {
        std::mem::take(&mut *self.logs.borrow_mut())
    }

    /// Parses, validates and evaluates `source` against the session's scope.
    pub fn run(&mut self, source: &str) -> Outcome {
        let name = self.evaluator.program_name.clone();
        self.outcome(&[(name, source)], false)
    }

    /// Parses, validates and evaluates a main manifest's files (each named, and its text) as
    /// one program against the session's scope, as Puppet compiles an environment's
    /// manifest (a file, or a directory's files in order): the first file that does not
    /// parse or validate stops it.
    pub fn run_manifests(&mut self, files: &[(Option<Rc<str>>, &str)]) -> Outcome {
        self.outcome(files, true)
    }

    /// The outcome of evaluating `files`; a parse error names its file when `named`.
    fn outcome(&mut self, files: &[(Option<Rc<str>>, &str)], named: bool) -> Outcome {
        self.logs.borrow_mut().clear();
        let (value, error, compiled) = self.evaluate(files, named);
        let logs = std::mem::take(&mut *self.logs.borrow_mut());
        let (resources, relationships) = if compiled {
            (self.evaluator.compiler.catalog.references(), self.evaluator.compiler.catalog.edges())
        } else {
            (Vec::new(), Vec::new())
        };
        Outcome { value, logs, error, resources, relationships }
    }

    fn log(&mut self, log: Log) {
        self.evaluator.log(log.level, log.message);
    }

    /// The program's value or failure, and whether its catalog compiled (a resource the
    /// core types' checks refuse fails a catalog that did).
    fn evaluate(&mut self, files: &[(Option<Rc<str>>, &str)], named: bool) -> (Option<Value>, Option<Failure>, bool) {
        self.evaluator.announce_modules();
        let mut programs = Vec::new();
        for (name, source) in files {
            match self.parse(source) {
                Ok(program) => programs.push(program),
                Err(mut failure) => {
                    if named && failure.kind == FailureKind::Parse {
                        failure.file = name.as_deref().map(str::to_owned);
                    }
                    return (None, Some(failure), false);
                }
            }
        }
        let named: Vec<(Option<Rc<str>>, &puppet_syntax::ast::Program, &str)> =
            files.iter().zip(&programs).map(|((name, source), p)| (name.clone(), p, *source)).collect();
        let compiled = self.evaluator.run_manifests(&named).and_then(|v| {
            self.evaluator.evaluate_node()?;
            self.evaluator.finish_catalog()?;
            Ok(v)
        });
        // The catalog compiled; the core types' checks may still refuse it.
        let checked = compiled.map(|v| match self.evaluator.options.validate_resources {
            true => crate::catalog::validate::check(&self.evaluator.compiler.catalog).map(|()| v),
            false => Ok(v),
        });
        match checked {
            Ok(Ok(v)) => (Some(v), None, true),
            Ok(Err(refused)) => (None, Some(flow_failure(refused)), true),
            Err(flow) => {
                self.evaluator.reset_after_error();
                (None, Some(flow_failure(flow)), false)
            }
        }
    }

    /// One file parsed and validated, its warnings (and the errors Puppet logs before it
    /// gives up) logged.
    fn parse(&mut self, source: &str) -> Result<puppet_syntax::ast::Program, Failure> {
        let parsed = puppet_syntax::analyze(source);
        for w in &parsed.warnings {
            self.log(Log { level: Level::Warning, message: w.to_string(), source: None, location: None });
        }
        let program = parsed.result.map_err(|errors| parse_failure(&errors))?;
        let diagnostics = puppet_syntax::validate(&program);
        let errors: Vec<Diagnostic> = diagnostics.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
        for w in diagnostics.iter().filter(|d| d.severity == Severity::Warning) {
            self.log(Log { level: Level::Warning, message: w.to_string(), source: None, location: None });
        }
        if !errors.is_empty() {
            // Several validation errors are logged one by one (their bare messages), then
            // reported together; so are those a heredoc's text has.
            for logged in errors.iter().flat_map(|e| &e.logged) {
                self.log(Log { level: Level::Err, message: logged.clone(), source: None, location: None });
            }
            if errors.len() > 1 {
                for e in &errors {
                    self.log(Log { level: Level::Err, message: e.message.clone(), source: None, location: None });
                }
            }
            return Err(parse_failure(&errors));
        }
        Ok(program)
    }
}

pub(crate) fn parse_failure(errors: &[Diagnostic]) -> Failure {
    if errors.len() > 1 {
        return Failure {
            kind: FailureKind::Validation,
            message: format!("Language validation logged {} errors. Giving up", errors.len()),
            line: 0,
            column: 0,
            file: None,
            trace: Vec::new(),
        };
    }
    let d = &errors[0];
    Failure {
        kind: FailureKind::Parse,
        message: d.message.clone(),
        line: d.span.line,
        column: d.span.column,
        file: None,
        trace: Vec::new(),
    }
}

impl From<Flow> for Failure {
    /// An evaluation that left early, as Puppet reports it.
    fn from(flow: Flow) -> Failure {
        flow_failure(flow)
    }
}

pub(crate) fn flow_failure(flow: Flow) -> Failure {
    match flow {
        Flow::Error(e) => {
            let EvalError { message, at, file, trace, .. } = *e;
            let (line, column) = at.map_or((0, 0), |s| (s.line, s.column));
            let kind = if message.ends_with("from context where this is illegal") {
                FailureKind::Context
            } else if at.is_none() {
                // Puppet's own text ends with where it happened: that is the location.
                if let Some((message, line, file)) = split_bare_location(&message) {
                    return Failure { kind: FailureKind::Bare, message, line, column: 0, file, trace };
                }
                FailureKind::Bare
            } else {
                FailureKind::Evaluation
            };
            Failure { kind, message, line, column, file: file.map(|f| f.to_string()), trace }
        }
        Flow::Break(at) => context_failure("break", *at),
        Flow::Next(exit) => context_failure("next", exit.at),
        Flow::Return(exit) => context_failure("return", exit.at),
    }
}

/// `break()`, `next()` or `return()` that nothing caught.
fn context_failure(what: &str, at: puppet_syntax::Span) -> Failure {
    Failure {
        kind: FailureKind::Context,
        message: format!("{what}() from context where this is illegal"),
        line: at.line,
        column: 0,
        file: None,
        trace: Vec::new(),
    }
}
