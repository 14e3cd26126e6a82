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
//! match frames (see `Evaluator::with_match_frame`): one frame per `if`/`unless`, case
//! option, selector option, lambda call and function call. A failed match leaves the frame as
//! it was.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use puppet_types::Value;

#[derive(Clone)]
enum Vars {
    Few(Vec<(Rc<str>, Value)>),
    Many(HashMap<Rc<str>, Value, foldhash::fast::RandomState>),
}

/// A scope's variables as they were (a checkpoint's).
pub(crate) struct SavedVars(Vars);

pub struct Scope {
    vars: RefCell<Vars>,
    parent: Option<Rc<Scope>>,
}

impl Scope {
    pub fn top() -> Rc<Scope> {
        Rc::new(Scope { vars: RefCell::new(Vars::Many(HashMap::default())), parent: None })
    }

    /// A scope of many variables (a hash map, as the top scope's) whose lookups fall through
    /// to `parent`: the settings class's.
    pub fn many(parent: &Rc<Scope>) -> Rc<Scope> {
        Rc::new(Scope { vars: RefCell::new(Vars::Many(HashMap::default())), parent: Some(parent.clone()) })
    }

    /// A local scope whose lookups fall through to `parent`.
    pub fn local(parent: &Rc<Scope>) -> Rc<Scope> {
        Rc::new(Scope { vars: RefCell::new(Vars::Few(Vec::new())), parent: Some(parent.clone()) })
    }

    /// A local scope made from `spare`, a finished local scope given back by [`Scope::recycle`]
    /// (its allocation and its emptied variable list reused), else a new one.
    pub fn local_reusing(parent: &Rc<Scope>, spare: Option<Rc<Scope>>) -> Rc<Scope> {
        if let Some(mut scope) = spare {
            if let Some(s) = Rc::get_mut(&mut scope) {
                s.parent = Some(parent.clone());
                return scope;
            }
        }
        Scope::local(parent)
    }

    /// A finished local scope that nothing else holds any more, emptied (no variables, no
    /// parent), for [`Scope::local_reusing`].
    pub fn recycle(mut scope: Rc<Scope>) -> Option<Rc<Scope>> {
        let s = Rc::get_mut(&mut scope)?;
        match s.vars.get_mut() {
            Vars::Few(list) => list.clear(),
            Vars::Many(_) => return None,
        }
        s.parent = None;
        Some(scope)
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

    /// The variable of this scope itself (not of an enclosing one).
    pub fn get_own(&self, name: &str) -> Option<Value> {
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

    /// This scope's own variables as they are now, for [`Scope::restore`].
    pub(crate) fn saved(&self) -> SavedVars {
        SavedVars(self.vars.borrow().clone())
    }

    /// Puts back the variables [`Scope::saved`] took.
    pub(crate) fn restore(&self, saved: SavedVars) {
        *self.vars.borrow_mut() = saved.0;
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
