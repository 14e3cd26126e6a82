//! Relationships and collectors: `->`, `~>`, `<-`, `<~` between references, resources and
//! collectors, resolved when the catalog is finished; collectors (`File <| ... |>`) and
//! `realize`, which make virtual resources real.

use puppet_syntax::ast::{AttributeOp, BinaryOp, Expr, ExprKind, RelationshipOp};
use puppet_syntax::Span;
use puppet_types::display::{capitalize_segments, value_to_s};
use puppet_types::{Type, Value};

use super::resources::parse_reference;
use crate::catalog::{self, flatten, Collector, Override, Resource};
use crate::error::{bare, fail, fail_at, Eval};
use crate::eval::{truthy, Evaluator};

impl Evaluator {
    /// `a -> b`, `a ~> b`, `a <- b`, `a <~ b`: recorded, applied when the catalog is
    /// finished. The value is the right operand.
    pub(crate) fn relationship(&mut self, op: RelationshipOp, left: &Expr, right: &Expr, at: Span) -> Eval<Value> {
        let l = self.operand(left)?;
        let (r, value) = self.operand_with_value(right)?;
        let (sources, targets) = match op {
            RelationshipOp::Before | RelationshipOp::Notify => (l, r),
            RelationshipOp::Require | RelationshipOp::Subscribe => (r, l),
        };
        let notify = matches!(op, RelationshipOp::Notify | RelationshipOp::Subscribe);
        // Operands are checked now: references (strings on the right are read as ones).
        let (source_left, target_left) = match op {
            RelationshipOp::Before | RelationshipOp::Notify => (true, false),
            RelationshipOp::Require | RelationshipOp::Subscribe => (false, true),
        };
        let sources = self.check_operand(sources, at, source_left, op)?;
        let targets = self.check_operand(targets, at, target_left, op)?;
        // A collector on the right that collects nothing stands, as the source of the next
        // relationship in a chain, for what was on its left (Puppet's empty alternative).
        if let Operand::Collector(i) = &targets {
            self.compiler.collector_alternatives.insert(*i, sources.clone());
        }
        self.compiler.pending_relationships.push((sources, targets, notify, at));
        Ok(match value {
            Value::Array(_) => value,
            other => Value::array(vec![other]),
        })
    }

    /// A relationship operand's values must be resource references; a string on the right
    /// is read as one (`'Notify[x]'`), on the left it is not a type.
    pub(super) fn check_operand(&self, operand: Operand, at: Span, left: bool, op: RelationshipOp) -> Eval<Operand> {
        let symbol = match op {
            RelationshipOp::Before => "->",
            RelationshipOp::Notify => "~>",
            RelationshipOp::Require => "<-",
            RelationshipOp::Subscribe => "<~",
        };
        let not_a_type = |text: &str| {
            fail_at(format!("Error while evaluating a '{symbol}' expression, The expression <{text}> is not a valid type specification."), at)
        };
        let Operand::Values(values) = operand else { return Ok(operand) };
        let mut out = Vec::with_capacity(values.len());
        for v in values {
            match &v {
                _ if reference_of(&v).is_some() => out.push(v),
                Value::String(text) if !left => match parse_reference(text) {
                    Some((t, title)) => out.push(reference_value(&t, &title)),
                    None => return Err(not_a_type(text)),
                },
                Value::String(text) => return Err(not_a_type(text)),
                Value::Type(t) if matches!(&**t, Type::Resource { title: None, type_name: Some(_) }) => {
                    return Err(bare(format!("No title provided and \"{t}[]\" is not a valid resource reference")));
                }
                other => {
                    let label = puppet_types::display::label(other);
                    let article = if label.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
                    return Err(fail_at(
                        format!("Illegal relationship operand, can not form a relationship with {article} {label}. A Catalog type is required."),
                        at,
                    ));
                }
            }
        }
        Ok(Operand::Values(out))
    }

    pub(super) fn operand(&mut self, e: &Expr) -> Eval<Operand> {
        Ok(self.operand_with_value(e)?.0)
    }

    /// An operand of a relationship: a collector stays a collector (its resources are known
    /// at the end); a chained relationship gives its right operand.
    pub(super) fn operand_with_value(&mut self, e: &Expr) -> Eval<(Operand, Value)> {
        match &e.kind {
            ExprKind::Collect { .. } => {
                let value = self.eval(e)?;
                Ok((Operand::Collector(self.compiler.catalog.collectors.len() - 1), value))
            }
            ExprKind::Relationship { op, left, right } => {
                let value = self.relationship(*op, left, right, e.at)?;
                let operand = match self.compiler.pending_relationships.last() {
                    Some((sources, targets, _, _)) => {
                        let side = if matches!(op, RelationshipOp::Before | RelationshipOp::Notify) {
                            targets
                        } else {
                            sources
                        };
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
    pub(crate) fn collect(
        &mut self,
        type_expr: &Expr,
        exported: bool,
        query: Option<&Expr>,
        operations: &[AttributeOp],
        at: Span,
    ) -> Eval<Value> {
        let type_name = match &type_expr.kind {
            ExprKind::QualifiedReference(name) => {
                let lower = name.trim_start_matches("::").to_lowercase();
                let defined = |ev: &mut Self| -> Eval<bool> {
                    if !ev.compiler.defines.contains_key(&lower) {
                        ev.autoload(crate::eval::modules::Entity::Definition, &lower)?;
                    }
                    Ok(ev.compiler.defines.contains_key(&lower))
                };
                if crate::resource_types::get(&lower).is_none()
                    && lower != "class"
                    && !self.ruby_type_exists(&lower)
                    && !defined(self)?
                {
                    return Err(fail_at(
                        format!("Error while evaluating a Virtual Query, Resource type {lower} doesn't exist"),
                        at,
                    ));
                }
                capitalize_segments(&lower)
            }
            _ => match &self.eval(type_expr)? {
                Value::Type(t) => match &**t {
                    Type::Resource { type_name: Some(n), .. } => n.to_string(),
                    Type::Class(_) => "Class".into(),
                    other => other.to_string(),
                },
                other => value_to_s(other),
            },
        };
        if let Some(q) = query {
            let what = if exported { "an Exported Query" } else { "a Virtual Query" };
            self.check_query(q).map_err(|e| fail_at(format!("Error while evaluating {what}, {e}"), at))?;
        }
        if exported {
            self.warn_at(
                "You cannot collect exported resources without storeconfigs being set; the collection will be ignored",
                at,
            );
        }
        self.compiler.catalog.collectors.push(Collector {
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

    /// Refuses a query Puppet cannot make into a match (`CollectorTransformer#query`): a
    /// comparison's sides must be names, variables, accesses, strings, numbers, booleans or
    /// `undef`, and a tag no number.
    fn check_query(&mut self, q: &Expr) -> Result<(), String> {
        match &q.kind {
            ExprKind::Paren(inner) => self.check_query(inner),
            ExprKind::Binary { op: BinaryOp::And | BinaryOp::Or, left, right } => {
                self.check_query(left)?;
                self.check_query(right)
            }
            ExprKind::Binary { op: BinaryOp::Equal | BinaryOp::NotEqual, left, right } => {
                check_query_operand(left)?;
                check_query_operand(right)?;
                let is_tag = match &left.kind {
                    ExprKind::QualifiedName(n) => n == "tag",
                    ExprKind::String(s) => &**s == "tag",
                    _ => false,
                };
                if is_tag {
                    // an error here is the match's to report
                    let wanted = self.eval(right).unwrap_or(Value::Undef);
                    if flatten(&wanted).iter().any(|v| matches!(v, Value::Integer(_) | Value::Float(_))) {
                        return Err("Cannot transform a number to a tag".to_owned());
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Runs the collectors: realizes what they match; returns whether anything changed.
    pub(super) fn run_collectors(&mut self) -> Eval<bool> {
        let mut changed = false;
        for ci in 0..self.compiler.catalog.collectors.len() {
            let collector = self.compiler.catalog.collectors[ci].clone();
            for index in 0..self.compiler.catalog.len() {
                let r = self.compiler.catalog.at(index).clone();
                if !r.type_name.eq_ignore_ascii_case(&collector.type_name) || collector.matched.contains(&index) {
                    continue;
                }
                // Without storeconfigs an exported collection is ignored.
                if collector.exported {
                    continue;
                }
                let saved = std::mem::replace(&mut self.scope, collector.scope.clone());
                let matches = match &collector.query {
                    Some(q) => self.query_matches(q, index, &r),
                    None => Ok(true),
                };
                self.scope = saved;
                if !matches? {
                    continue;
                }
                // a resource newly collected is news (Puppet's `evaluate_collections` goes
                // round again): an override may have made it match another collector
                self.compiler.catalog.collectors[ci].matched.push(index);
                changed = true;
                if self.compiler.catalog.at(index).virtual_ {
                    self.compiler.catalog.at_mut(index).virtual_ = false;
                }
                if !collector.operations.is_empty() {
                    let saved = std::mem::replace(&mut self.scope, collector.scope.clone());
                    let params = self.override_params(&collector.operations);
                    self.scope = saved;
                    let params = params?;
                    let (t, title) = (
                        self.compiler.catalog.at(index).type_name.to_string(),
                        self.compiler.catalog.at(index).title.to_string(),
                    );
                    let o = Override { key: catalog::key(&t, &title), params, at: collector.at, source: None };
                    self.apply_override(&o)?;
                }
            }
        }
        Ok(changed)
    }

    /// Whether a collector's query matches a resource: `attr == value`, `!=`, `and`, `or`.
    pub(super) fn query_matches(&mut self, q: &Expr, index: usize, r: &Resource) -> Eval<bool> {
        match &q.kind {
            ExprKind::Paren(inner) => self.query_matches(inner, index, r),
            ExprKind::Binary { op: BinaryOp::And, left, right } => {
                Ok(self.query_matches(left, index, r)? && self.query_matches(right, index, r)?)
            }
            ExprKind::Binary { op: BinaryOp::Or, left, right } => {
                Ok(self.query_matches(left, index, r)? || self.query_matches(right, index, r)?)
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
                        let wanted: Vec<String> =
                            flatten(&wanted).iter().map(|t| value_to_s(t).to_lowercase()).collect();
                        self.compiler.catalog.raw_tagged(index, &wanted)
                    }
                    (Some(Value::Array(items)), _) => {
                        items.iter().any(|i| puppet_types::compare::values_equal(i, &wanted))
                    }
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
            let reference = match &v {
                Value::String(text) => parse_reference(text),
                other => reference_of(other),
            };
            match reference {
                Some((t, title)) => self.compiler.catalog.to_realize.push((catalog::key(&t, &title), at)),
                None => return Err(fail(format!("Invalid reference: {}", value_to_s(&v)))),
            }
        }
        Ok(())
    }

    /// Sets `before`/`notify` on each source of each relationship.
    pub(super) fn apply_relationships(&mut self) -> Eval<()> {
        for (sources, targets, notify, at) in std::mem::take(&mut self.compiler.pending_relationships) {
            let sources = self.resolve_source(sources, 0);
            let targets = self.resolve_operand(targets);
            let param = if notify { "notify" } else { "before" };
            let _ = at;
            for s in &sources {
                let Some((st, stitle)) = reference_of(s) else { continue };
                for t in &targets {
                    let Some((tt, ttitle)) = reference_of(t) else { continue };
                    if self.compiler.catalog.get(&st, &stitle).is_none() {
                        return Err(bare(format!(
                            "Could not find resource '{}' for relationship on '{}'",
                            catalog::reference(&st, &stitle),
                            catalog::reference(&tt, &ttitle)
                        )));
                    }
                    if self.compiler.catalog.get(&tt, &ttitle).is_none() {
                        return Err(bare(format!(
                            "Could not find resource '{}' for relationship from '{}'",
                            catalog::reference(&tt, &ttitle),
                            catalog::reference(&st, &stitle)
                        )));
                    }
                    let Some(source) = self.compiler.catalog.get_mut(&st, &stitle) else { continue };
                    source.append_param(param, reference_value(&tt, &ttitle));
                }
            }
        }
        Ok(())
    }

    /// The resources of a relationship's source: a collector that collected nothing stands
    /// for its empty alternative (`leftmost_alternative`).
    pub(super) fn resolve_source(&self, operand: Operand, depth: usize) -> Vec<Value> {
        if let Operand::Collector(i) = &operand {
            let empty = self.compiler.catalog.collectors.get(*i).is_none_or(|c| c.matched.is_empty());
            if empty && depth < 1000 {
                return match self.compiler.collector_alternatives.get(i) {
                    Some(alternative) => self.resolve_source(alternative.clone(), depth + 1),
                    None => Vec::new(),
                };
            }
        }
        self.resolve_operand(operand)
    }

    pub(super) fn resolve_operand(&self, operand: Operand) -> Vec<Value> {
        match operand {
            Operand::Values(v) => v,
            Operand::Collector(i) => self
                .compiler
                .catalog
                .collectors
                .get(i)
                .map(|c| {
                    c.matched
                        .iter()
                        .map(|&index| {
                            let r = self.compiler.catalog.at(index);
                            reference_value(&r.type_name, &r.title)
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// One side of a relationship: references now, or a collector's resources at the end.
#[derive(Clone)]
pub(crate) enum Operand {
    Values(Vec<Value>),
    Collector(usize),
}

/// A reference value: `File['x']`.
pub fn reference_value(type_name: &str, title: &str) -> Value {
    if type_name.eq_ignore_ascii_case("class") {
        return Value::ty(Type::Class(Some(title.trim_start_matches("::").to_lowercase().into())));
    }
    Value::ty(Type::Resource { type_name: Some(type_name.into()), title: Some(title.into()) })
}

/// A reference value's type and title, if it is one.
pub(super) fn reference_of(v: &Value) -> Option<(String, String)> {
    match v {
        Value::Type(t) => match &**t {
            Type::Resource { type_name: Some(type_name), title: Some(title) } => {
                Some((type_name.to_string(), title.to_string()))
            }
            Type::Class(Some(name)) => Some(("Class".into(), name.to_string())),
            _ => None,
        },
        _ => None,
    }
}

/// A side of a query's comparison Puppet can evaluate (`query_LiteralString`, ...).
fn check_query_operand(e: &Expr) -> Result<(), String> {
    match &e.kind {
        ExprKind::Paren(inner) => check_query_operand(inner),
        ExprKind::Access { .. }
        | ExprKind::Variable(_)
        | ExprKind::VariableOf(_)
        | ExprKind::Boolean(_)
        | ExprKind::String(_)
        | ExprKind::Concat(_)
        | ExprKind::Integer { .. }
        | ExprKind::Float(_)
        | ExprKind::Undef
        | ExprKind::QualifiedName(_) => Ok(()),
        other => Err(format!("Cannot transform object of class Puppet::Pops::Model::{}", other.model_class())),
    }
}
