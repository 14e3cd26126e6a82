//! Scopes: where variables live.
//!
//! Puppet's scopes nest: the top scope (facts, `$environment`, top-level assignments), named
//! scopes of classes and defines, and local scopes (a lambda's, a function's) whose lookups
//! fall through to their parent: a lambda sees the scope it was written in, a function the top
//! scope. Variables are immutable within their scope; a local scope may shadow an outer
//! variable.
//!
//! A local scope holds a few variables (a lambda's parameters and what its body assigns):
//! they are a list searched in order, and their names are shared with the code that binds
//! them. The top scope holds many, in a hash map.
//!
//! Match variables (`$0`, `$1`, ...) are not in scopes: they live in the evaluator's stack of
//! match frames (see `Evaluator::with_match_frame`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use puppet_types::Value;

enum Vars {
    Few(Vec<(Rc<str>, Value)>),
    Many(HashMap<Rc<str>, Value, foldhash::fast::RandomState>),
}

pub struct Scope {
    vars: RefCell<Vars>,
    parent: Option<Rc<Scope>>,
}

impl Scope {
    pub fn top() -> Rc<Scope> {
        Rc::new(Scope { vars: RefCell::new(Vars::Many(HashMap::default())), parent: None })
    }

    /// A local scope whose lookups fall through to `parent`.
    pub fn local(parent: &Rc<Scope>) -> Rc<Scope> {
        Scope::local_in(parent, Vec::new())
    }

    /// A local scope keeping its variables in `buffer` (an empty list to reuse).
    pub fn local_in(parent: &Rc<Scope>, buffer: Vec<(Rc<str>, Value)>) -> Rc<Scope> {
        Rc::new(Scope { vars: RefCell::new(Vars::Few(buffer)), parent: Some(parent.clone()) })
    }

    /// The list of a local scope nothing else holds any more, emptied, to reuse.
    pub fn recycle(scope: Rc<Scope>) -> Option<Vec<(Rc<str>, Value)>> {
        let scope = Rc::try_unwrap(scope).ok()?;
        match scope.vars.into_inner() {
            Vars::Few(mut list) => {
                list.clear();
                Some(list)
            }
            Vars::Many(_) => None,
        }
    }

    /// The enclosing scope.
    pub fn parent(&self) -> Option<Rc<Scope>> {
        self.parent.clone()
    }

    /// The variable, here or in an enclosing scope.
    pub fn get(&self, name: &str) -> Option<Value> {
        let mut scope = self;
        loop {
            if let Some(v) = scope.get_own(name) {
                return Some(v);
            }
            scope = scope.parent.as_deref()?;
        }
    }

    fn get_own(&self, name: &str) -> Option<Value> {
        match &*self.vars.borrow() {
            Vars::Few(list) => list.iter().find(|(n, _)| same_name(n, name)).map(|(_, v)| v.clone()),
            Vars::Many(map) => map.get(name).cloned(),
        }
    }

    /// Whether this scope itself (not an enclosing one) has the variable.
    pub fn has_own(&self, name: &str) -> bool {
        match &*self.vars.borrow() {
            Vars::Few(list) => list.iter().any(|(n, _)| same_name(n, name)),
            Vars::Many(map) => map.contains_key(name),
        }
    }

    /// Sets the variable in this scope; false when it is already set here.
    pub fn set(&self, name: &str, value: Value) -> bool {
        if self.has_own(name) {
            return false;
        }
        self.bind(Rc::from(name), value);
        true
    }

    /// Sets a variable known not to be set here yet (a parameter), sharing its name.
    pub fn bind(&self, name: Rc<str>, value: Value) {
        match &mut *self.vars.borrow_mut() {
            Vars::Few(list) => list.push((name, value)),
            Vars::Many(map) => {
                map.insert(name, value);
            }
        }
    }

    /// Sets or replaces the variable (the REPL's top-level reassignment, facts).
    pub fn replace(&self, name: &str, value: Value) {
        match &mut *self.vars.borrow_mut() {
            Vars::Few(list) => match list.iter_mut().find(|(n, _)| &**n == name) {
                Some(slot) => slot.1 = value,
                None => list.push((Rc::from(name), value)),
            },
            Vars::Many(map) => {
                map.insert(Rc::from(name), value);
            }
        }
    }

    /// Takes the variable out of this scope (its last use: see the accumulator idiom in
    /// `eval::operators`).
    pub fn take_own(&self, name: &str) -> Option<Value> {
        match &mut *self.vars.borrow_mut() {
            Vars::Few(list) => {
                let i = list.iter().position(|(n, _)| &**n == name)?;
                Some(list.swap_remove(i).1)
            }
            Vars::Many(map) => map.remove(name),
        }
    }

    pub fn remove(&self, name: &str) -> Option<Value> {
        self.take_own(name)
    }

    /// This scope's own variables, sorted by name.
    pub fn variables(&self) -> Vec<(Rc<str>, Value)> {
        let mut vars: Vec<(Rc<str>, Value)> = match &*self.vars.borrow() {
            Vars::Few(list) => list.clone(),
            Vars::Many(map) => map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        };
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        vars
    }
}

/// Name equality, quick for the usual case of short names that differ in length or in their
/// first byte.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}
