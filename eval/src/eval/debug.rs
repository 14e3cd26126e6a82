//! Breakpoints: `debug::break()` (puppet-debugger's function) stops evaluation where it is
//! called and hands the evaluator, in the scope of the call, to a hook the shell installs
//! ([`Evaluator::breakpoint`]): a nested prompt whose inputs run in that scope
//! ([`Evaluator::evaluate_here`]) until it returns. Without a hook, `debug::break` is an
//! unknown function, as it is to Puppet without the module that provides it.

use std::rc::Rc;

use puppet_syntax::ast::Span;
use puppet_types::Value;

use super::Evaluator;
use crate::error::Eval;
use crate::session::{flow_failure, Failure};

/// Where evaluation stopped.
#[derive(Clone, Debug)]
pub struct Break {
    /// The manifest or shell input of the call (`None`: the program).
    pub file: Option<Rc<str>>,
    pub line: u32,
    pub column: u32,
    /// The text the position is in, when the evaluator has it (the program's source).
    pub source: Rc<str>,
    /// The calls around it, innermost first: file and line of each.
    pub stack: Vec<(Option<Rc<str>>, u32)>,
}

/// What the shell runs at a breakpoint.
pub type BreakHook = Box<dyn FnMut(&mut Evaluator, &Break)>;

/// The function name of a breakpoint.
pub const BREAK_FUNCTION: &str = "debug::break";

impl Evaluator {
    /// Whether `key` is the breakpoint function and a hook is installed.
    pub(crate) fn is_breakpoint(&self, key: &str) -> bool {
        self.breakpoint.is_some() && key.eq_ignore_ascii_case(BREAK_FUNCTION)
    }

    /// Stops at a `debug::break()` call: the hook runs with the evaluator in the scope of
    /// the call; evaluation goes on when it returns. The call's value is undef.
    pub(crate) fn stop_at(&mut self, at: Span) -> Eval<Value> {
        let Some(mut hook) = self.breakpoint.take() else { return Ok(Value::Undef) };
        let stop = Break {
            file: self.loader.current_file.clone(),
            line: at.line,
            column: at.column,
            source: self.source.clone(),
            stack: self.call_frames.iter().rev().cloned().collect(),
        };
        hook(self, &stop);
        self.breakpoint = Some(hook);
        Ok(Value::Undef)
    }

    /// The variables of the current scope and the scopes around it up to the top scope's
    /// (not included), innermost first: what a breakpoint's code sees besides the top scope.
    pub fn local_variables(&self) -> Vec<(Rc<str>, Value)> {
        let mut all = Vec::new();
        let mut scope = Some(self.scope.clone());
        while let Some(s) = scope {
            if Rc::ptr_eq(&s, &self.top) {
                break;
            }
            all.extend(s.variables());
            scope = s.parent();
        }
        all
    }

    /// Parses, validates and evaluates `source` in the current scope, as at a breakpoint:
    /// what it assigns is set there, what it declares joins the catalog; an error leaves the
    /// evaluation that stopped as it was.
    pub fn evaluate_here(&mut self, source: &str) -> Result<Value, Failure> {
        let parsed = puppet_syntax::analyze(source);
        let program = match parsed.result {
            Ok(program) => program,
            Err(errors) => return Err(crate::session::parse_failure(&errors)),
        };
        let errors: Vec<_> = puppet_syntax::validate(&program)
            .into_iter()
            .filter(|d| d.severity == puppet_syntax::Severity::Error)
            .collect();
        if !errors.is_empty() {
            return Err(crate::session::parse_failure(&errors));
        }
        let Some(body) = &program.body else { return Ok(Value::Undef) };
        let saved_source = std::mem::replace(&mut self.source, Rc::from(source));
        let saved_file = self.loader.current_file.take();
        let scope = self.scope.clone();
        let result = self.define_all(body, source).and_then(|()| self.eval(body));
        self.scope = scope;
        self.loader.current_file = saved_file;
        self.source = saved_source;
        result.map_err(flow_failure)
    }
}
