//! The catalog side of evaluation (`runtime3_resource_support.rb`, `Puppet::Parser::Compiler`):
//! resource declarations, defaults and overrides, classes and defined types, relationships,
//! collectors, and finishing the catalog when a program's statements are done.

use std::rc::Rc;

use indexmap::IndexMap;
use puppet_syntax::ast::{AttributeOp, BinaryOp, Expr, ExprKind, Parameter, RelationshipOp, ResourceBody, ResourceForm};
use puppet_syntax::Span;
use puppet_types::display::{capitalize_segments, value_to_s};
use puppet_types::{Type, Value};

use super::{truthy, Evaluator};
use crate::catalog::{self, Collector, Definition, Kind, Override, Resource};
use crate::error::{fail, fail_at, Eval, EvalError, Flow};
use crate::scope::Scope;

/// A reference value: `File['x']`.
pub fn reference_value(type_name: &str, title: &str) -> Value {
    if type_name.eq_ignore_ascii_case("class") {
        return Value::ty(Type::Class(Some(title.trim_start_matches("::").to_lowercase().into())));
    }
    Value::ty(Type::Resource { type_name: Some(type_name.into()), title: Some(title.into()) })
}

/// A reference value's type and title, if it is one.
fn reference_of(v: &Value) -> Option<(String, String)> {
    match v {
        Value::Type(t) => match &**t {
            Type::Resource { type_name: Some(type_name), title: Some(title) } => Some((type_name.to_string(), title.to_string())),
            Type::Class(Some(name)) => Some(("Class".into(), name.to_string())),
            _ => None,
        },
        _ => None,
    }
}

/// One side of a relationship: references now, or a collector's resources at the end.
pub(crate) enum Operand {
    Values(Vec<Value>),
    Collector(usize),
}

impl Evaluator {
    // ---- declarations

    /// `type { title: attribute => value, ... }`, `@type { ... }`, `class { 'name': ... }`.
    pub(super) fn resource_expression(
        &mut self,
        form: ResourceForm,
        type_expr: &Expr,
        bodies: &[ResourceBody],
        e: &Expr,
    ) -> Eval<Value> {
        let type_name = match &type_expr.kind {
            ExprKind::QualifiedName(name) => name.clone(),
            ExprKind::QualifiedReference(name) => name.clone(),
            _ => match &self.eval(type_expr)? {
                Value::String(s) => s.to_string(),
                Value::Type(t) => match &**t {
                    Type::Resource { type_name: Some(n), title: None } => n.to_string(),
                    Type::Class(None) => "class".into(),
                    other => return Err(fail_at(format!("Illegal Resource Type expression, expected result of type String, got {other}"), type_expr.at)),
                },
                other => return Err(fail_at(format!("Illegal Resource Type expression, expected result of type String, got {}", value_to_s(other)), type_expr.at)),
            },
        };
        let lower = type_name.trim_start_matches("::").to_lowercase();
        // A `default:` body gives the other bodies of the expression their defaults.
        let mut defaults: IndexMap<Rc<str>, Value> = IndexMap::new();
        let mut declared = Vec::new();
        let mut plans = Vec::new();
        for body in bodies {
            let title = self.eval(&body.title)?;
            let params = self.attribute_values(&body.operations)?;
            if matches!(title, Value::Default) {
                defaults.extend(params);
                continue;
            }
            plans.push((title, params, body.span, body.title.at));
        }
        for (title, mut params, span, title_at) in plans {
            for (k, v) in &defaults {
                if !params.contains_key(k) {
                    params.insert(k.clone(), v.clone());
                }
            }
            for title in self.titles(&title, title_at)? {
                let reference = if lower == "class" {
                    self.declare_class_like(&title, params.clone(), span)?
                } else {
                    self.declare_resource(&lower, &title, params.clone(), form, span)?
                };
                declared.push(reference);
            }
        }
        let _ = e;
        Ok(Value::array(declared))
    }

    /// The titles a title expression gives: a string, or an array of them (flattened).
    fn titles(&self, title: &Value, at: Span) -> Eval<Vec<String>> {
        let mut out = Vec::new();
        let mut stack = vec![title.clone()];
        while let Some(v) = stack.pop() {
            match &v {
                Value::String(s) => out.push(s.to_string()),
                Value::Array(items) => stack.extend(items.iter().rev().cloned()),
                other => {
                    return Err(fail_at(
                        format!("Illegal title type at index 0. Expected String, got {}", puppet_types::infer::infer_generalized(other)),
                        at,
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The values of `name => value` operations and `* => hash` splats, in order; undef
    /// values leave the attribute unset.
    fn attribute_values(&mut self, operations: &[AttributeOp]) -> Eval<IndexMap<Rc<str>, Value>> {
        let mut params: IndexMap<Rc<str>, Value> = IndexMap::new();
        for op in operations {
            match op {
                AttributeOp::Set { name, value, span, .. } => {
                    let v = self.eval(value)?;
                    if params.contains_key(name.as_str()) {
                        return Err(fail_at(format!("The attribute '{name}' has already been set"), *span));
                    }
                    params.insert(name.as_str().into(), v);
                }
                AttributeOp::Splat { value, span } => match &self.eval(value)? {
                    Value::Hash(h) => {
                        for (k, v) in h.iter() {
                            let Some(name) = k.as_str() else {
                                return Err(fail_at("Attribute name is not a String", *span));
                            };
                            if params.contains_key(name) {
                                return Err(fail_at(format!("The attribute '{name}' has already been set"), *span));
                            }
                            params.insert(name.into(), v.clone());
                        }
                    }
                    Value::Undef => {}
                    other => {
                        return Err(fail_at(
                            format!(
                                "Unfolding of attributes from Hash can only be used with a Hash value, got {}",
                                puppet_types::infer::infer_generalized(other)
                            ),
                            *span,
                        ))
                    }
                },
            }
        }
        Ok(params)
    }

    /// Adds one resource of a core or defined type to the catalog.
    fn declare_resource(
        &mut self,
        lower: &str,
        title: &str,
        params: IndexMap<Rc<str>, Value>,
        form: ResourceForm,
        at: Span,
    ) -> Eval<Value> {
        let (kind, type_name) = if let Some(t) = crate::resource_types::get(lower) {
            (Kind::Builtin, capitalize_segments(&t.name))
        } else if self.defines.contains_key(lower) {
            (Kind::Define, capitalize_segments(lower))
        } else {
            return Err(fail_at(
                format!("Error while evaluating a Resource Statement, Unknown resource type: '{lower}'"),
                at,
            ));
        };
        if kind == Kind::Builtin {
            self.check_parameters(lower, &type_name, title, &params, at)?;
        }
        let params: IndexMap<Rc<str>, Value> = params.into_iter().filter(|(_, v)| !v.is_undef()).collect();
        let resource = Resource {
            type_name: type_name.as_str().into(),
            title: title.into(),
            params,
            kind,
            virtual_: form != ResourceForm::Regular,
            exported: form == ResourceForm::Exported,
            evaluated: kind != Kind::Define,
            at,
            scope: self.scope.clone(),
            container: self.container.clone(),
        };
        let reference = resource.reference();
        if let Err(existing) = self.catalog.add(resource) {
            let message = format!(
                "Error while evaluating a Resource Statement, Duplicate declaration: {reference} is already declared at (line: {}); cannot redeclare",
                existing.at.line
            );
            return Err(fail_at(message, at));
        }
        Ok(reference_value(&type_name, title))
    }

    /// A core type's parameters must be its attributes or metaparameters.
    fn check_parameters(&self, lower: &str, type_name: &str, title: &str, params: &IndexMap<Rc<str>, Value>, at: Span) -> Eval<()> {
        let Some(t) = crate::resource_types::get(lower) else { return Ok(()) };
        for name in params.keys() {
            if t.attribute(name).is_none() && crate::resource_types::metaparameter(name).is_none() {
                return Err(Flow::error(EvalError {
                    message: format!(
                        "no parameter named '{name}' (line: {}) on {} (line: {})",
                        at.line,
                        catalog::reference(type_name, title),
                        at.line
                    ),
                    at: None,
                }));
            }
        }
        Ok(())
    }

    // ---- classes

    /// `include name`: evaluates the class unless it has been.
    pub fn include_class(&mut self, name: &str, at: Span) -> Eval<Value> {
        let lower = name.trim_start_matches("::").to_lowercase();
        if self.catalog.get("Class", &lower).is_none() {
            self.evaluate_class(&lower, None, at)?;
        }
        Ok(reference_value("Class", &lower))
    }

    /// `class { 'name': p => v }`: declares the class with parameters, once.
    fn declare_class_like(&mut self, name: &str, params: IndexMap<Rc<str>, Value>, at: Span) -> Eval<Value> {
        let lower = name.trim_start_matches("::").to_lowercase();
        if let Some(existing) = self.catalog.get("Class", &lower) {
            let message = format!(
                "Error while evaluating a Resource Statement, Duplicate declaration: {} is already declared at (line: {}); cannot redeclare",
                existing.reference(),
                existing.at.line
            );
            return Err(fail_at(message, at));
        }
        self.evaluate_class(&lower, Some(params), at)?;
        Ok(reference_value("Class", &lower))
    }

    /// Adds `Class[name]` to the catalog and evaluates the class's body in its own scope
    /// (its parent class first).
    fn evaluate_class(&mut self, lower: &str, params: Option<IndexMap<Rc<str>, Value>>, at: Span) -> Eval<()> {
        let Some(def) = self.classes_defs.get(lower).cloned() else {
            return Err(fail_at(format!("Could not find class ::{lower} for {}", self.node_name), at));
        };
        let parent_scope = match &def.parent {
            Some(parent) => {
                let parent = parent.trim_start_matches("::").to_lowercase();
                if self.catalog.get("Class", &parent).is_none() {
                    self.evaluate_class(&parent, None, at)?;
                }
                self.class_scopes.get(&parent).cloned().unwrap_or_else(|| self.top.clone())
            }
            None => self.top.clone(),
        };
        let resource = Resource {
            type_name: "Class".into(),
            title: lower.into(),
            params: params.clone().unwrap_or_default(),
            kind: Kind::Class,
            virtual_: false,
            exported: false,
            evaluated: true,
            at,
            scope: self.scope.clone(),
            container: self.container.clone(),
        };
        if self.catalog.add(resource).is_err() {
            return Ok(());
        }
        let scope = Scope::local(&parent_scope);
        self.class_scopes.insert(lower.to_owned(), scope.clone());
        let reference = catalog::reference("Class", lower);
        let saved = std::mem::replace(&mut self.container, reference.as_str().into());
        let result = self.in_definition_scope(scope, |ev| {
            ev.scope.bind("title".into(), Value::from(lower));
            ev.scope.bind("name".into(), Value::from(lower));
            ev.bind_definition_parameters(&def.parameters, params.unwrap_or_default(), &reference, at)?;
            match &def.body {
                Some(body) => ev.eval(body).map(drop),
                None => Ok(()),
            }
        });
        self.container = saved;
        result
    }

    /// Runs `f` with `scope` as the current scope and its own match frames.
    fn in_definition_scope<T>(&mut self, scope: Rc<Scope>, f: impl FnOnce(&mut Self) -> Eval<T>) -> Eval<T> {
        let saved = std::mem::replace(&mut self.scope, scope);
        let result = self.with_function_match_frames(f);
        self.scope = saved;
        result
    }

    /// Binds a class's or defined type's parameters in the current scope: the given values
    /// (checked against the parameter types), else the defaults.
    fn bind_definition_parameters(
        &mut self,
        parameters: &[Parameter],
        mut given: IndexMap<Rc<str>, Value>,
        reference: &str,
        at: Span,
    ) -> Eval<()> {
        for p in parameters {
            let value = match given.shift_remove(p.name.as_str()) {
                Some(v) => v,
                None => match &p.value {
                    Some(default) => self.eval(default)?,
                    None => {
                        return Err(fail_at(format!("{reference}: expects a value for parameter '{}'", p.name), at));
                    }
                },
            };
            if let Some(type_expr) = &p.type_expr {
                let t = match &self.eval(type_expr)? {
                    Value::Type(t) => (**t).clone(),
                    _ => Type::Any,
                };
                if !puppet_types::instance::is_instance(&t, &value) {
                    let subject = format!("{reference}: parameter '{}'", p.name);
                    return Err(fail_at(puppet_types::mismatch::describe_value(&subject, &t, &value), at));
                }
            }
            self.scope.bind(p.name.as_str().into(), value);
        }
        let unknown: Vec<&Rc<str>> =
            given.keys().filter(|k| crate::resource_types::metaparameter(k).is_none()).collect();
        if let Some(name) = unknown.first() {
            return Err(fail_at(format!("{reference}: has no parameter named '{name}'"), at));
        }
        Ok(())
    }

    /// Whether a class or defined type of that (lower-case) name is known.
    pub fn is_class_or_define(&self, lower: &str) -> bool {
        self.classes_defs.contains_key(lower) || self.defines.contains_key(lower)
    }

    /// The value of `$class::variable`: the evaluated class's scope.
    pub(super) fn qualified_variable(&self, name: &str) -> Option<Value> {
        let name = name.trim_start_matches("::");
        let (class, var) = name.rsplit_once("::")?;
        self.class_scopes.get(&class.to_lowercase())?.get(var)
    }

    // ---- defined types

    /// Evaluates one defined resource's body.
    fn evaluate_define(&mut self, index: usize) -> Eval<()> {
        let r = self.catalog.at(index).clone();
        self.catalog.at_mut(index).evaluated = true;
        let lower = r.type_name.to_lowercase();
        let Some(def) = self.defines.get(&lower).cloned() else { return Ok(()) };
        let scope = Scope::local(&self.top);
        let reference = r.reference();
        let saved = std::mem::replace(&mut self.container, reference.as_str().into());
        let result = self.in_definition_scope(scope, |ev| {
            ev.scope.bind("title".into(), Value::String(r.title.clone()));
            ev.scope.bind("name".into(), r.params.get("name").cloned().unwrap_or(Value::String(r.title.clone())));
            let mut given = r.params.clone();
            given.shift_remove("name");
            ev.bind_definition_parameters(&def.parameters, given, &reference, r.at)?;
            match &def.body {
                Some(body) => ev.eval(body).map(drop),
                None => Ok(()),
            }
        });
        self.container = saved;
        result
    }

    // ---- defaults, overrides, relationships, collectors

    /// `File { mode => '0644' }`: defaults for the resources of the current scope.
    pub(super) fn resource_defaults(&mut self, type_ref: &Expr, operations: &[AttributeOp]) -> Eval<Value> {
        let t = self.eval(type_ref)?;
        let lower = match &t {
            Value::Type(t) => match &**t {
                Type::Resource { type_name: Some(n), title: None } => n.to_lowercase(),
                Type::Class(None) => "class".into(),
                _ => return Ok(Value::Undef),
            },
            _ => return Ok(Value::Undef),
        };
        let params = self.attribute_values(operations)?;
        let key = Rc::as_ptr(&self.scope) as usize;
        let entry = self.catalog.defaults.entry(key).or_default().by_type.entry(lower).or_default();
        entry.extend(params);
        Ok(Value::Undef)
    }

    /// `File['x'] { mode => '0600' }`: parameters set on the resources when the catalog is
    /// finished.
    pub(super) fn resource_override(&mut self, resources: &Expr, operations: &[AttributeOp], at: Span) -> Eval<Value> {
        let target = self.eval(resources)?;
        let mut params = Vec::new();
        for op in operations {
            match op {
                AttributeOp::Set { name, append, value, .. } => {
                    params.push((Rc::from(name.as_str()), self.eval(value)?, *append));
                }
                AttributeOp::Splat { value, .. } => {
                    if let Value::Hash(h) = &self.eval(value)? {
                        for (k, v) in h.iter() {
                            params.push((Rc::from(value_to_s(k).as_str()), v.clone(), false));
                        }
                    }
                }
            }
        }
        for v in flatten(&target) {
            if let Some((type_name, title)) = reference_of(&v) {
                self.catalog.overrides.push(Override { key: catalog::key(&type_name, &title), params: params.clone(), at });
            }
        }
        Ok(target)
    }

    /// `a -> b`, `a ~> b`, `a <- b`, `a <~ b`: recorded, applied when the catalog is
    /// finished. The value is the right operand.
    pub(super) fn relationship(&mut self, op: RelationshipOp, left: &Expr, right: &Expr, at: Span) -> Eval<Value> {
        let l = self.operand(left)?;
        let (r, value) = self.operand_with_value(right)?;
        let (sources, targets) = match op {
            RelationshipOp::Before | RelationshipOp::Notify => (l, r),
            RelationshipOp::Require | RelationshipOp::Subscribe => (r, l),
        };
        let notify = matches!(op, RelationshipOp::Notify | RelationshipOp::Subscribe);
        self.pending_relationships.push((sources, targets, notify, at));
        Ok(value)
    }

    fn operand(&mut self, e: &Expr) -> Eval<Operand> {
        Ok(self.operand_with_value(e)?.0)
    }

    /// An operand of a relationship: a collector stays a collector (its resources are known
    /// at the end); a chained relationship gives its right operand.
    fn operand_with_value(&mut self, e: &Expr) -> Eval<(Operand, Value)> {
        match &e.kind {
            ExprKind::Collect { .. } => {
                let value = self.eval(e)?;
                Ok((Operand::Collector(self.catalog.collectors.len() - 1), value))
            }
            ExprKind::Relationship { op, left, right } => {
                let value = self.relationship(*op, left, right, e.at)?;
                let operand = match self.pending_relationships.last() {
                    Some((sources, targets, _, _)) => {
                        let side = if matches!(op, RelationshipOp::Before | RelationshipOp::Notify) { targets } else { sources };
                        match side {
                            Operand::Collector(i) => Operand::Collector(*i),
                            Operand::Values(v) => Operand::Values(v.clone()),
                        }
                    }
                    None => Operand::Values(flatten(&value)),
                };
                Ok((operand, value))
            }
            _ => {
                let value = self.eval(e)?;
                Ok((Operand::Values(flatten(&value)), value))
            }
        }
    }

    /// `Type <| query |> { overrides }`: registered; it realizes and overrides the resources
    /// it matches until compilation ends.
    pub(super) fn collect(&mut self, type_expr: &Expr, exported: bool, query: Option<&Expr>, operations: &[AttributeOp], at: Span) -> Eval<Value> {
        let type_name = match &self.eval(type_expr)? {
            Value::Type(t) => match &**t {
                Type::Resource { type_name: Some(n), .. } => n.to_string(),
                Type::Class(_) => "Class".into(),
                other => other.to_string(),
            },
            other => value_to_s(other),
        };
        self.catalog.collectors.push(Collector {
            type_name,
            query: query.cloned(),
            exported,
            operations: operations.to_vec(),
            scope: self.scope.clone(),
            at,
            matched: Vec::new(),
        });
        Ok(Value::Undef)
    }

    /// Runs the collectors: realizes what they match; returns whether anything changed.
    fn run_collectors(&mut self) -> Eval<bool> {
        let mut changed = false;
        for ci in 0..self.catalog.collectors.len() {
            let collector = self.catalog.collectors[ci].clone();
            for index in 0..self.catalog.len() {
                let r = self.catalog.at(index).clone();
                if !r.type_name.eq_ignore_ascii_case(&collector.type_name) || collector.matched.contains(&index) {
                    continue;
                }
                if collector.exported && !r.exported {
                    continue;
                }
                let saved = std::mem::replace(&mut self.scope, collector.scope.clone());
                let matches = match &collector.query {
                    Some(q) => self.query_matches(q, &r),
                    None => Ok(true),
                };
                self.scope = saved;
                if !matches? {
                    continue;
                }
                self.catalog.collectors[ci].matched.push(index);
                if self.catalog.at(index).virtual_ {
                    self.catalog.at_mut(index).virtual_ = false;
                    changed = true;
                }
                if !collector.operations.is_empty() {
                    let saved = std::mem::replace(&mut self.scope, collector.scope.clone());
                    let params = self.attribute_values(&collector.operations);
                    self.scope = saved;
                    for (k, v) in params? {
                        self.catalog.at_mut(index).params.insert(k, v);
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Whether a collector's query matches a resource: `attr == value`, `!=`, `and`, `or`.
    fn query_matches(&mut self, q: &Expr, r: &Resource) -> Eval<bool> {
        match &q.kind {
            ExprKind::Paren(inner) => self.query_matches(inner, r),
            ExprKind::Binary { op: BinaryOp::And, left, right } => {
                Ok(self.query_matches(left, r)? && self.query_matches(right, r)?)
            }
            ExprKind::Binary { op: BinaryOp::Or, left, right } => {
                Ok(self.query_matches(left, r)? || self.query_matches(right, r)?)
            }
            ExprKind::Binary { op: op @ (BinaryOp::Equal | BinaryOp::NotEqual), left, right } => {
                let name = match &left.kind {
                    ExprKind::QualifiedName(n) => n.clone(),
                    _ => value_to_s(&self.eval(left)?),
                };
                let wanted = self.eval(right)?;
                let actual = match name.as_str() {
                    "title" => Some(Value::String(r.title.clone())),
                    "tag" => None,
                    _ => r.params.get(name.as_str()).cloned(),
                };
                let equal = match (&actual, name.as_str()) {
                    (_, "tag") => {
                        let wanted = value_to_s(&wanted).to_lowercase();
                        resource_tags(r).iter().any(|t| *t == wanted)
                    }
                    (Some(Value::Array(items)), _) => items.iter().any(|i| puppet_types::compare::values_equal(i, &wanted)),
                    (Some(v), _) => puppet_types::compare::values_equal(v, &wanted),
                    (None, _) => wanted.is_undef(),
                };
                Ok(if *op == BinaryOp::Equal { equal } else { !equal })
            }
            _ => Ok(truthy(&self.eval(q)?)),
        }
    }

    /// `realize(File['x'])`: the virtual resources become part of the catalog at the end.
    pub fn realize(&mut self, refs: &[Value], at: Span) -> Eval<()> {
        for v in refs.iter().flat_map(flatten) {
            match reference_of(&v) {
                Some((t, title)) => self.catalog.to_realize.push((catalog::key(&t, &title), at)),
                None => return Err(fail(format!("Invalid reference: {}", value_to_s(&v)))),
            }
        }
        Ok(())
    }

    // ---- finishing

    /// What the compiler does after the program's statements: evaluates defined resources
    /// and collectors until nothing changes, realizes, applies overrides, defaults and
    /// relationships.
    pub fn finish_catalog(&mut self) -> Eval<()> {
        let mut rounds = 0;
        loop {
            let mut done = !self.run_collectors()?;
            let pending: Vec<usize> = (0..self.catalog.len())
                .filter(|&i| {
                    let r = self.catalog.at(i);
                    r.kind == Kind::Define && !r.evaluated && !r.virtual_
                })
                .collect();
            for index in pending {
                done = false;
                self.evaluate_define(index)?;
            }
            if done {
                break;
            }
            rounds += 1;
            if rounds > 1000 {
                return Err(fail("Somehow looped more than 1000 times while evaluating host catalog"));
            }
        }
        let mut missing = Vec::new();
        for (key, _) in std::mem::take(&mut self.catalog.to_realize) {
            match self.catalog.get_mut(&key.0, &key.1) {
                Some(r) => r.virtual_ = false,
                None => missing.push(catalog::reference(&capitalize_segments(&key.0), &key.1)),
            }
        }
        if !missing.is_empty() {
            return Err(fail(format!("Failed to realize virtual resources {}", missing.join(", "))));
        }
        self.apply_relationships()?;
        for o in std::mem::take(&mut self.catalog.overrides) {
            if let Some(r) = self.catalog.get_mut(&o.key.0, &o.key.1) {
                for (k, v, append) in o.params {
                    if append {
                        let old = r.params.get(&k).cloned();
                        let mut items: Vec<Value> = old.map(|o| flatten(&o)).unwrap_or_default();
                        items.extend(flatten(&v));
                        r.params.insert(k, Value::array(items));
                    } else if v.is_undef() {
                        r.params.shift_remove(&k);
                    } else {
                        r.params.insert(k, v);
                    }
                }
            }
        }
        self.apply_defaults();
        Ok(())
    }

    /// Each resource takes the defaults of its scope and the scopes around it.
    fn apply_defaults(&mut self) {
        if self.catalog.defaults.is_empty() {
            return;
        }
        for index in 0..self.catalog.len() {
            let r = self.catalog.at(index);
            let lower = r.type_name.to_lowercase();
            let mut chain = vec![r.scope.clone()];
            while let Some(parent) = chain.last().and_then(|s| s.parent()) {
                chain.push(parent);
            }
            let mut add: IndexMap<Rc<str>, Value> = IndexMap::new();
            for scope in &chain {
                if let Some(d) = self.catalog.defaults.get(&(Rc::as_ptr(scope) as usize)).and_then(|d| d.by_type.get(&lower)) {
                    for (k, v) in d {
                        if !add.contains_key(k) {
                            add.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
            let r = self.catalog.at_mut(index);
            for (k, v) in add {
                if !r.params.contains_key(&k) && !v.is_undef() {
                    r.params.insert(k, v);
                }
            }
        }
    }

    /// Sets `before`/`notify` on each source of each relationship.
    fn apply_relationships(&mut self) -> Eval<()> {
        for (sources, targets, notify, at) in std::mem::take(&mut self.pending_relationships) {
            let sources = self.resolve_operand(sources);
            let targets = self.resolve_operand(targets);
            let param: Rc<str> = if notify { "notify".into() } else { "before".into() };
            for s in &sources {
                let Some((st, stitle)) = reference_of(s) else {
                    return Err(fail_at(format!("Illegal relationship operand, can not form a relationship with a {}. A Catalog type is required.", puppet_types::infer::infer_generalized(s)), at));
                };
                for t in &targets {
                    let Some((tt, ttitle)) = reference_of(t) else {
                        return Err(fail_at(format!("Illegal relationship operand, can not form a relationship with a {}. A Catalog type is required.", puppet_types::infer::infer_generalized(t)), at));
                    };
                    if self.catalog.get(&tt, &ttitle).is_none() {
                        return Err(fail(format!("Could not find resource '{}' for relationship from '{}'", catalog::reference(&tt, &ttitle), catalog::reference(&st, &stitle))));
                    }
                    let Some(source) = self.catalog.get_mut(&st, &stitle) else {
                        return Err(fail(format!("Could not find resource '{}' for relationship on '{}'", catalog::reference(&st, &stitle), catalog::reference(&tt, &ttitle))));
                    };
                    let target = reference_value(&tt, &ttitle);
                    let merged = match source.params.get(&param) {
                        None => target,
                        Some(old) => {
                            let mut items = flatten(old);
                            items.push(target);
                            Value::array(items)
                        }
                    };
                    source.params.insert(param.clone(), merged);
                }
            }
        }
        Ok(())
    }

    fn resolve_operand(&self, operand: Operand) -> Vec<Value> {
        match operand {
            Operand::Values(v) => v,
            Operand::Collector(i) => self
                .catalog
                .collectors
                .get(i)
                .map(|c| {
                    c.matched
                        .iter()
                        .map(|&index| {
                            let r = self.catalog.at(index);
                            reference_value(&r.type_name, &r.title)
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    // ---- definitions

    /// Keeps a program's classes, defined types and node definitions.
    pub(super) fn define_catalog_entities(&mut self, statements: &[Expr]) {
        for statement in statements {
            match &statement.kind {
                ExprKind::Class { name, parameters, parent, body } => {
                    let def = Definition {
                        name: name.clone(),
                        parameters: parameters.clone(),
                        parent: parent.clone(),
                        body: body.as_deref().cloned(),
                        at: statement.at,
                    };
                    self.classes_defs.insert(name.trim_start_matches("::").to_lowercase(), Rc::new(def));
                    if let Some(body) = body {
                        let inner = match &body.kind {
                            ExprKind::Block(s) => s.as_slice(),
                            _ => std::slice::from_ref(&**body),
                        };
                        self.define_catalog_entities(inner);
                    }
                }
                ExprKind::Define { name, parameters, body } => {
                    let def = Definition {
                        name: name.clone(),
                        parameters: parameters.clone(),
                        parent: None,
                        body: body.as_deref().cloned(),
                        at: statement.at,
                    };
                    self.defines.insert(name.trim_start_matches("::").to_lowercase(), Rc::new(def));
                }
                ExprKind::Node { matches, body, .. } => {
                    let def = Definition {
                        name: String::new(),
                        parameters: Vec::new(),
                        parent: None,
                        body: body.as_deref().cloned(),
                        at: statement.at,
                    };
                    self.nodes.push((matches.clone(), Rc::new(def)));
                }
                _ => {}
            }
        }
    }

    /// Evaluates the node definition that matches the node's name, if there are any.
    pub fn evaluate_node(&mut self) -> Eval<()> {
        if self.nodes.is_empty() {
            return Ok(());
        }
        let node = self.node_name.clone();
        let mut exact = None;
        let mut regex = None;
        let mut default = None;
        for (matches, def) in &self.nodes {
            for m in matches {
                match &m.kind {
                    ExprKind::Default => default = default.or(Some(def.clone())),
                    ExprKind::Regex(source) => {
                        let re = puppet_types::regexp::Regexp::new(source.as_str());
                        if regex.is_none() && re.is_match(&node) {
                            regex = Some(def.clone());
                        }
                    }
                    ExprKind::String(name) if name.eq_ignore_ascii_case(&node) => exact = exact.or(Some(def.clone())),
                    ExprKind::QualifiedName(name) if name.eq_ignore_ascii_case(&node) => {
                        exact = exact.or(Some(def.clone()))
                    }
                    _ => {}
                }
            }
        }
        let Some(def) = exact.or(regex).or(default) else {
            return Err(fail(format!("Could not find node statement with name 'default' or '{node}'")));
        };
        let scope = Scope::local(&self.top);
        self.in_definition_scope(scope, |ev| match &def.body {
            Some(body) => ev.eval(body).map(drop),
            None => Ok(()),
        })
    }
}

/// Arrays flattened; anything else as one item.
fn flatten(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items.iter().flat_map(flatten).collect(),
        other => vec![other.clone()],
    }
}

/// A resource's tags: its type, its title when it is a name, and its `tag` parameter.
fn resource_tags(r: &Resource) -> Vec<String> {
    let mut tags = vec![r.type_name.to_lowercase()];
    tags.push(r.title.to_lowercase());
    if let Some(t) = r.params.get("tag") {
        tags.extend(flatten(t).iter().map(|v| value_to_s(v).to_lowercase()));
    }
    tags
}
