//! Scopes: where variables live.
//!
//! Puppet's scopes nest: the top scope (facts, `$environment`, top-level assignments), named
//! scopes of classes and defines, and local scopes (a lambda's, a function's) whose lookups
//! fall through to their parent: a lambda sees the scope it was written in, a function the top
//! scope. Variables are immutable within their scope; a local scope may shadow an outer
//! variable.
//!
//! Match variables (`$0`, `$1`, ...) are not in scopes: they live in the evaluator's stack of
//! match frames (see `Evaluator::with_match_frame`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use puppet_types::Value;

#[derive(Default)]
pub struct Scope {
    vars: RefCell<HashMap<Rc<str>, Value>>,
    parent: Option<Rc<Scope>>,
}

impl Scope {
    pub fn top() -> Rc<Scope> {
        Rc::new(Scope::default())
    }

    /// A local scope whose lookups fall through to `parent`.
    pub fn local(parent: &Rc<Scope>) -> Rc<Scope> {
        Rc::new(Scope { vars: RefCell::default(), parent: Some(parent.clone()) })
    }

    /// The variable, here or in an enclosing scope.
    pub fn get(&self, name: &str) -> Option<Value> {
        let mut scope = self;
        loop {
            if let Some(v) = scope.vars.borrow().get(name) {
                return Some(v.clone());
            }
            scope = scope.parent.as_deref()?;
        }
    }

    /// Whether this scope itself (not an enclosing one) has the variable.
    pub fn has_own(&self, name: &str) -> bool {
        self.vars.borrow().contains_key(name)
    }

    /// Sets the variable in this scope; false when it is already set here.
    pub fn set(&self, name: &str, value: Value) -> bool {
        let mut vars = self.vars.borrow_mut();
        if vars.contains_key(name) {
            return false;
        }
        vars.insert(Rc::from(name), value);
        true
    }

    /// Sets or replaces the variable (the REPL's top-level reassignment, parameters).
    pub fn replace(&self, name: &str, value: Value) {
        self.vars.borrow_mut().insert(Rc::from(name), value);
    }

    pub fn remove(&self, name: &str) -> Option<Value> {
        self.vars.borrow_mut().remove(name)
    }

    /// This scope's own variables, sorted by name.
    pub fn variables(&self) -> Vec<(Rc<str>, Value)> {
        let mut vars: Vec<(Rc<str>, Value)> = self.vars.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        vars
    }
}
