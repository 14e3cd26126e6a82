//! The catalog side of evaluation (`runtime3_resource_support.rb`, `Puppet::Parser::Compiler`):
//! resource declarations, defaults and overrides, classes and defined types, relationships,
//! collectors, and finishing the catalog when a program's statements are done.

use std::collections::HashMap;
use std::rc::Rc;

use indexmap::IndexMap;
use puppet_syntax::ast::{AttributeOp, BinaryOp, Expr, ExprKind, Parameter, RelationshipOp, ResourceBody, ResourceForm};
use puppet_syntax::Span;
use puppet_types::display::{capitalize_segments, value_to_s};
use puppet_types::{Type, Value};

use crate::catalog::{self, flatten, valid_tag, Attributes, Catalog, Collector, Container, Definition, Kind, Origin, Override, OverrideParam, Resource};
use crate::eval::{truthy, Evaluator};
use crate::error::{bare, fail, fail_at, Eval, Flow};
use crate::scope::Scope;

/// The catalog compiler's state, beside the evaluator's: the catalog being compiled, what
/// programs have defined (classes, defined types, nodes), the container code is evaluated in,
/// and the work left for the end of compilation (relationships to resolve).
pub struct Compiler {
    /// The catalog being compiled.
    pub catalog: Catalog,
    /// Classes and defined types by lower-case name, and node definitions in order.
    pub(crate) classes_defs: HashMap<String, Rc<Definition>>,
    pub(crate) defines: HashMap<String, Rc<Definition>>,
    pub(crate) nodes: Vec<(Vec<Expr>, Rc<Definition>)>,
    /// The scopes of evaluated classes (`$apache::port`).
    pub(crate) class_scopes: HashMap<String, Rc<Scope>>,
    /// Relationships waiting for the end of compilation.
    pending_relationships: Vec<(Operand, Operand, bool, Span)>,
    /// What a collector on the right of a relationship stands for when it collects nothing.
    collector_alternatives: HashMap<usize, Operand>,
    /// The node's name (`--node`).
    pub node_name: String,
    /// The class or defined resource being evaluated (`Class[main]` at the top).
    pub(crate) container: Container,
    /// The tags resources declared here take: those of the class or defined resource being
    /// evaluated (`class` for the main class).
    pub(crate) tags: Vec<String>,
    /// The scope of the evaluated node definition (the parent of the classes it declares).
    pub(crate) node_scope: Option<Rc<Scope>>,
    /// A definition error found while making a program's definitions known.
    pub(crate) definition_error: Option<String>,
    /// The tags `tag()` gave the current container.
    pub(crate) container_tags: Vec<String>,
    /// Declaring through `create_resources` (its errors name no file).
    pub(crate) created_by_function: bool,
}

impl Compiler {
    /// A compiler with an empty catalog (`Class[main]` only), for node `testnode`.
    pub fn new(top: &Rc<Scope>) -> Compiler {
        Compiler {
            catalog: Catalog::with_main(top),
            classes_defs: HashMap::new(),
            defines: HashMap::new(),
            nodes: Vec::new(),
            class_scopes: HashMap::new(),
            pending_relationships: Vec::new(),
            collector_alternatives: HashMap::new(),
            node_name: "testnode".into(),
            container: Container::main(),
            tags: vec!["class".to_owned()],
            node_scope: None,
            definition_error: None,
            container_tags: Vec::new(),
            created_by_function: false,
        }
    }
}

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
#[derive(Clone)]
pub(crate) enum Operand {
    Values(Vec<Value>),
    Collector(usize),
}

impl Evaluator {
    // ---- declarations

    /// `type { title: attribute => value, ... }`, `@type { ... }`, `class { 'name': ... }`.
    pub(crate) fn resource_expression(
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
        let mut defaults = Attributes::default();
        let mut declared = Vec::new();
        let mut plans = Vec::new();
        for body in bodies {
            let title = self.eval(&body.title)?;
            let params = self.attribute_values(&body.operations, e.at)?;
            if matches!(title, Value::Default) {
                defaults.values.extend(params.values);
                defaults.origins.extend(params.origins);
                continue;
            }
            plans.push((title, params, body.title.at));
        }
        let mut seen: Vec<String> = Vec::new();
        let mut titled = Vec::new();
        for (title, mut params, title_at) in plans {
            for (k, v) in &defaults.values {
                if !params.contains_key(k) {
                    let origin = defaults.origins.get(k).cloned().unwrap_or_default();
                    params.insert(k.clone(), v.clone(), origin);
                }
            }
            for title in self.titles(&title, title_at)? {
                if seen.contains(&title) {
                    return Err(fail_at(format!("The title '{title}' has already been used in this resource expression"), e.at));
                }
                seen.push(title.clone());
                titled.push((title, params.clone()));
            }
        }
        for (title, params) in titled {
            let reference = if lower == "class" {
                self.declare_class_like(&title, params, e.at)
            } else {
                self.declare_resource(&lower, &title, params, form, e.at)
            }
            .map_err(|flow| statement_error(flow, e.at))?;
            declared.push(reference);
        }
        Ok(Value::array(declared))
    }

    /// The titles a title expression gives: a string, or an array of them (flattened).
    fn titles(&self, title: &Value, at: Span) -> Eval<Vec<String>> {
        if title.is_undef() {
            return Err(fail_at("Missing title. The title expression resulted in undef", at));
        }
        let mut out = Vec::new();
        for (index, v) in flatten(title).iter().enumerate() {
            match v {
                Value::String(s) if s.is_empty() => {
                    return Err(fail_at(
                        format!("Empty string title at {index}. Title strings must have a length greater than zero."),
                        at,
                    ))
                }
                Value::String(s) => out.push(s.to_string()),
                other => {
                    return Err(fail_at(
                        format!(
                            "Illegal title type at index {index}. Expected String, got {}",
                            puppet_types::infer::infer_generalized(other)
                        ),
                        at,
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The values of `name => value` operations and `* => hash` splats, in order, with
    /// where each was set; undef values leave the attribute unset.
    fn attribute_values(&mut self, operations: &[AttributeOp], at: Span) -> Eval<Attributes> {
        let mut params = Attributes::default();
        for op in operations {
            match op {
                AttributeOp::Set { name, value, span, .. } => {
                    let v = self.eval(value)?;
                    if let Some(big) = puppet_types::int::find_big(&v) {
                        let message = big.out_of_range_message();
                        return Err(fail_at(format!("Error while evaluating a '=>' expression, {message}"), *span));
                    }
                    if params.contains_key(name.as_str()) {
                        return Err(fail_at(format!("The attribute '{name}' has already been set"), at));
                    }
                    params.insert(name.as_str().into(), v, self.origin(span.line));
                }
                AttributeOp::Splat { value, span } => {
                    for (name, v) in self.splat(value)? {
                        if params.contains_key(&name) {
                            return Err(fail_at(format!("The attribute '{name}' has already been set"), at));
                        }
                        params.insert(name, v, self.origin(span.line));
                    }
                }
            }
        }
        Ok(params)
    }

    /// The attributes of `* => hash` (`eval_AttributesOperation`).
    fn splat(&mut self, value: &Expr) -> Eval<Vec<(Rc<str>, Value)>> {
        match &self.eval(value)? {
            Value::Hash(h) => h
                .iter()
                .map(|(k, v)| match k.as_str() {
                    Some(name) => Ok((Rc::from(name), v.clone())),
                    None => Err(fail_at("Attribute name is not a String", value.at)),
                })
                .collect(),
            other => Err(fail_at(
                format!("Expected value of type Hash, got {}", puppet_types::infer::infer_generalized(other)),
                value.at,
            )),
        }
    }

    /// A parameter set on `line` of the code being evaluated.
    fn origin(&self, line: u32) -> Origin {
        Origin { file: self.loader.current_file.clone(), line: Some(line) }
    }

    /// Adds one resource of a core or defined type to the catalog.
    fn declare_resource(
        &mut self,
        lower: &str,
        title: &str,
        params: Attributes,
        form: ResourceForm,
        at: Span,
    ) -> Eval<Value> {
        if crate::resource_types::get(lower).is_none() {
            self.load_definition(lower)?;
        }
        let (kind, type_name) = if let Some(t) = crate::resource_types::get(lower) {
            (Kind::Builtin, capitalize_segments(&t.name))
        } else if self.ruby_type_exists(lower) {
            // A type a module implements in Ruby: declared as it is, its parameters unchecked.
            (Kind::Builtin, capitalize_segments(lower))
        } else if self.compiler.defines.contains_key(lower) {
            (Kind::Define, capitalize_segments(lower))
        } else {
            return Err(fail(format!("Unknown resource type: '{lower}'")));
        };
        if form == ResourceForm::Exported {
            self.warn_at("You cannot collect exported resources without storeconfigs being set; the export is ignored", at);
        }
        let resource = Resource {
            params: params.values,
            origins: params.origins,
            virtual_: form == ResourceForm::Virtual,
            exported: form == ResourceForm::Exported,
            evaluated: kind != Kind::Define,
            ..self.new_resource(&type_name, title, kind, at)
        };
        let here = if self.compiler.created_by_function { format!(" (file: unknown, line: {})", at.line) } else { self.origin(at.line).suffix() };
        let reference = resource.reference();
        if let Some(namevar) = self.namevar_clash(&resource) {
            return Err(fail(namevar));
        }
        let sets_stage = resource.params.get("stage").is_some_and(|v| !v.is_undef());
        if let Err(existing) = self.compiler.catalog.add(resource) {
            return Err(fail(format!(
                "Duplicate declaration: {reference} is already declared at {}; cannot redeclare{here}",
                existing.location()
            )));
        }
        if sets_stage {
            return Err(fail(format!(
                "Only classes can set 'stage'; normal resources like {reference} cannot change run stage"
            )));
        }
        Ok(reference_value(&type_name, title))
    }

    /// A resource declared here: in the current scope and container, with its tags and file.
    fn new_resource(&self, type_name: &str, title: &str, kind: Kind, at: Span) -> Resource {
        Resource {
            container: self.compiler.container.reference().into(),
            tags: self.compiler.tags.clone(),
            by_function: self.compiler.created_by_function,
            file: self.loader.current_file.clone(),
            ..Resource::new(type_name, title, kind, at, self.scope.clone())
        }
    }

    /// A core resource whose namevar (`path` of a file) another resource of its type already
    /// has: Puppet's alias error.
    fn namevar_clash(&mut self, r: &Resource) -> Option<String> {
        let lower = r.type_name.to_lowercase();
        let mut names: Vec<(String, String)> = Vec::new();
        if r.kind == Kind::Builtin {
            if let Some((key, shown)) = uniqueness_key(&lower, r) {
                names.push((key, shown));
            }
        }
        if let Some(aliases) = r.params.get("alias") {
            for a in flatten(aliases) {
                let a = value_to_s(&a);
                names.push((a.clone(), format!("\"{a}\"")));
            }
        }
        for (key, shown) in names {
            if key == *r.title {
                continue;
            }
            if let Some(other) = self.compiler.catalog.get(&r.type_name, &key) {
                let resource_key = if shown.starts_with('[') {
                    format!("[\"{}\", {}]", r.type_name, shown.trim_start_matches('[').trim_end_matches(']'))
                } else {
                    format!("[\"{}\", {shown}]", r.type_name)
                };
                return Some(format!(
                    "Cannot alias {} to {shown} at (line: {}); resource {resource_key} already declared (line: {})",
                    r.reference(),
                    r.at.line,
                    other.at.line
                ));
            }
            self.compiler.catalog.add_alias(&lower, &key, &r.title);
        }
        None
    }

    /// A core type's parameters must be its attributes or metaparameters (so must those of a
    /// type a module implements in Ruby, when its attributes can be read), relationship
    /// metaparameters must name resources of the catalog, and tags must be tags: checked
    /// when the catalog is finished, as Puppet does.
    fn check_parameters(&self) -> Eval<()> {
        // The attributes of types modules implement in Ruby, by type.
        let mut ruby: HashMap<String, Option<Rc<[String]>>> = HashMap::new();
        for r in self.compiler.catalog.resources().iter().filter(|r| r.kind == Kind::Builtin && !r.virtual_) {
            let lower = r.type_name.to_lowercase();
            let core = crate::resource_types::get(&lower);
            let module_names = match core {
                Some(_) => None,
                None => match ruby.entry(lower.clone()).or_insert_with(|| self.ruby_type_attributes(&lower).map(Rc::from)) {
                    Some(names) => Some(names.clone()),
                    None => continue,
                },
            };
            let has = |name: &str| match core {
                Some(t) => t.attribute(name).is_some(),
                None => module_names.as_deref().is_some_and(|names| names.iter().any(|n| n == name)),
            };
            for name in r.params.keys() {
                if !has(name) && crate::resource_types::metaparameter(name).is_none() {
                    return Err(bare(format!("no parameter named '{name}' {} on {} {}", r.location(), r.reference(), r.location())));
                }
            }
        }
        for r in self.compiler.catalog.resources().iter().filter(|r| !r.virtual_) {
            for param in ["before", "require", "notify", "subscribe"] {
                let Some(v) = r.params.get(param) else { continue };
                for target in flatten(v) {
                    let found = match reference_of(&target) {
                        Some((t, title)) => self.compiler.catalog.get(&t, &title).is_some(),
                        None => match &target {
                            Value::String(text) => parse_reference(text).is_some_and(|(t, title)| self.compiler.catalog.get(&t, &title).is_some()),
                            _ => true,
                        },
                    };
                    if !found {
                        return Err(bare(format!(
                            "Could not find resource '{}' in parameter '{param}'{}",
                            catalog::reference_text(&target),
                            r.param_location(param)
                        )));
                    }
                }
            }
        }
        for r in self.compiler.catalog.resources() {
            if let Some(tags) = r.params.get("tag") {
                for tag in flatten(tags) {
                    let text = value_to_s(&tag);
                    if !valid_tag(&text) {
                        return Err(bare(format!("Invalid tag '{text}' (line: {})", r.at.line)));
                    }
                }
            }
        }
        Ok(())
    }

    /// `File['/x']['mode']`: parameters of a declared resource (undef when not set).
    pub(crate) fn resource_parameters(&self, t: &Type, keys: &[Value], at: Span) -> Eval<Value> {
        let (type_name, title) = match t {
            Type::Resource { type_name: Some(n), title: Some(title) } => (n.to_string(), title.to_string()),
            Type::Class(Some(name)) => ("Class".to_owned(), name.to_string()),
            _ => return Ok(Value::Undef),
        };
        let Some(r) = self.compiler.catalog.get(&type_name, &title) else {
            let shown = if type_name == "Class" { format!("Class['{title}']") } else { format!("{type_name}['{title}']") };
            return Err(fail_at(format!("Resource not found: {shown}"), at));
        };
        let mut found = Vec::with_capacity(keys.len());
        for k in keys {
            let name = value_to_s(k);
            if !self.has_parameter(r, &name) {
                let shown = if type_name == "Class" { format!("Class['{title}']") } else { format!("{type_name}['{title}']") };
                return Err(fail_at(format!("The resource {shown} does not have a parameter called '{name}'"), at));
            }
            let value = r.params.get(name.as_str()).cloned().or_else(|| self.default_for(r, &name));
            found.push(value.unwrap_or(Value::Undef));
        }
        if found.len() == 1 {
            return Ok(found.pop().unwrap_or(Value::Undef));
        }
        Ok(Value::array(found))
    }

    /// Whether a resource's type has the parameter (or it is a metaparameter).
    fn has_parameter(&self, r: &Resource, name: &str) -> bool {
        if crate::resource_types::metaparameter(name).is_some() {
            return true;
        }
        match r.kind {
            Kind::Builtin => crate::resource_types::get(&r.type_name).is_some_and(|t| t.attribute(name).is_some()),
            Kind::Define => {
                name == "name"
                    || self.compiler.defines.get(&r.type_name.to_lowercase()).is_some_and(|d| d.parameters.iter().any(|p| p.name == name))
            }
            Kind::Class => self.compiler.classes_defs.get(&*r.title).is_some_and(|d| d.parameters.iter().any(|p| p.name == name)),
        }
    }

    /// The default (`File { mode => ... }`) a resource would take for a parameter.
    fn default_for(&self, r: &Resource, name: &str) -> Option<Value> {
        let lower = r.type_name.to_lowercase();
        let mut scope = Some(r.scope.clone());
        let mut hops = 0;
        while let Some(s) = scope {
            let d = self.compiler.catalog.defaults.get(&(Rc::as_ptr(&s) as usize)).and_then(|d| d.by_type.get(&lower));
            if let Some(v) = d.and_then(|d| d.values.get(name)) {
                return Some(v.clone());
            }
            hops += 1;
            if hops > 10_000 {
                return None;
            }
            scope = self.compiler.catalog.defaults_parent.get(&(Rc::as_ptr(&s) as usize)).cloned().or_else(|| s.parent());
        }
        None
    }

    /// `create_resources(type, {title => params}, defaults)`.
    pub fn create_resources(&mut self, args: &[Value], at: Span) -> Eval<Value> {
        let (Some(type_arg), Some(instances)) = (args.first(), args.get(1)) else {
            return Err(fail(format!("create_resources(): wrong number of arguments ({}; must be 2 or 3)", args.len())));
        };
        let Value::Hash(instances) = instances else {
            return Err(fail("create_resources(): second argument must be a hash"));
        };
        let defaults = match args.get(2) {
            None => None,
            Some(Value::Hash(h)) => Some(h.clone()),
            Some(_) => return Err(fail("create_resources(): third argument, if provided, must be a hash")),
        };
        let type_text = value_to_s(type_arg);
        let (form, name) = match type_text.strip_prefix("@@") {
            Some(rest) => (ResourceForm::Exported, rest),
            None => match type_text.strip_prefix('@') {
                Some(rest) => (ResourceForm::Virtual, rest),
                None => (ResourceForm::Regular, type_text.as_str()),
            },
        };
        let lower = name.trim_start_matches("::").to_lowercase();
        let mut refs = Vec::new();
        let site = Span { column: 0, ..at };
        for (title, params) in instances.iter() {
            let mut merged: IndexMap<Rc<str>, Value> = IndexMap::new();
            if let Some(d) = &defaults {
                for (k, v) in d.iter() {
                    merged.insert(value_to_s(k).as_str().into(), v.clone());
                }
            }
            if let Value::Hash(p) = params {
                for (k, v) in p.iter() {
                    merged.insert(value_to_s(k).as_str().into(), v.clone());
                }
            }
            for title in self.titles(title, at)? {
                let params = Attributes::unplaced(merged.clone());
                let reference = if lower == "class" {
                    self.declare_class_like(&title, params, site)?
                } else {
                    self.compiler.created_by_function = true;
                    let declared = self.declare_resource(&lower, &title, params, form, site);
                    self.compiler.created_by_function = false;
                    declared?
                };
                refs.push(reference);
            }
        }
        Ok(Value::array(refs))
    }

    // ---- classes

    /// `include name`: evaluates the class unless it has been.
    pub fn include_class(&mut self, name: &str, at: Span) -> Eval<Value> {
        let lower = name.trim_start_matches("::").to_lowercase();
        match self.compiler.catalog.position("Class", &lower) {
            None => self.evaluate_class(&lower, None, at)?,
            // a class declared again takes the tags of where it is declared again
            Some(index) => self.compiler.catalog.at_mut(index).take_tags(&self.compiler.tags),
        }
        Ok(reference_value("Class", &lower))
    }

    /// `contain`'s containment edge, from what is being evaluated to the class (once).
    pub fn contain_class(&mut self, name: &str) {
        let edge = (self.compiler.container.reference(), catalog::reference("Class", &name.trim_start_matches("::").to_lowercase()));
        if !self.compiler.catalog.contained.contains(&edge) {
            self.compiler.catalog.contained.push(edge);
        }
    }

    /// Checks class names before `include` evaluates any.
    pub fn check_class_names(&mut self, names: &[String]) -> Eval<()> {
        for name in names {
            let lower = name.trim_start_matches("::").to_lowercase();
            if name.is_empty() {
                return Err(fail("Cannot use empty string as a class name"));
            }
            self.load_definition(&lower)?;
            if !self.compiler.classes_defs.contains_key(&lower) {
                return Err(fail(format!("Could not find class ::{lower} for {}", self.compiler.node_name)));
            }
        }
        Ok(())
    }

    /// `tag(names)`: the container and what it declares from now on take the tags.
    pub fn add_tags(&mut self, names: &[String]) -> Eval<()> {
        for name in names {
            let tag = name.to_lowercase();
            if !valid_tag(&tag) {
                return Err(fail(format!("Invalid tag '{name}'")));
            }
            if !self.compiler.tags.contains(&tag) {
                self.compiler.tags.push(tag.clone());
            }
            // the container itself takes the tag too
            let (type_name, title) = (self.compiler.container.type_name.clone(), self.compiler.container.title.clone());
            if let Some(index) = self.compiler.catalog.position(&type_name, &title) {
                self.compiler.catalog.at_mut(index).take_tags([&tag]);
            }
            self.compiler.container_tags.push(tag);
        }
        Ok(())
    }

    /// `tagged(names)`: whether the container has all the tags (its name's, the classes
    /// around it, and those `tag` gave it).
    pub fn has_tags(&self, names: &[String]) -> bool {
        let mut tags: Vec<String> = self.compiler.tags.clone();
        tags.extend(self.compiler.container_tags.iter().cloned());
        names.iter().all(|n| tags.contains(&n.to_lowercase()))
    }

    /// `require`: the container requires the class (its `require` metaparameter).
    pub fn require_from_container(&mut self, class: &str) {
        let target = reference_value("Class", class);
        let Container { type_name, title } = self.compiler.container.clone();
        if let Some(r) = self.compiler.catalog.get_mut(&type_name, &title) {
            r.append_param("require", target);
        }
    }

    /// `class { 'name': p => v }`: declares the class with parameters, once.
    fn declare_class_like(&mut self, name: &str, params: Attributes, at: Span) -> Eval<Value> {
        let lower = name.trim_start_matches("::").to_lowercase();
        if let Some(existing) = self.compiler.catalog.get("Class", &lower) {
            let location = if existing.at.line == 0 { String::new() } else { format!(" at {}", existing.location()) };
            return Err(fail(format!(
                "Duplicate declaration: {} is already declared{location}; cannot redeclare{}",
                existing.reference(),
                self.origin(at.line).suffix()
            )));
        }
        self.load_definition(&lower)?;
        if !self.compiler.classes_defs.contains_key(&lower) {
            return Err(fail(format!("Could not find declared class {name}")));
        }
        if let Some(stage) = params.values.get("stage") {
            let stage = value_to_s(stage);
            if self.compiler.catalog.get("Stage", &stage).is_none() {
                return Err(fail(format!("Could not find stage {stage} specified by {}", catalog::reference("Class", &lower))));
            }
        }
        self.add_class(&lower, Some(params), at, true)?;
        self.evaluate_class_body(&lower)?;
        Ok(reference_value("Class", &lower))
    }

    /// Adds `Class[name]` to the catalog and evaluates the class's body in its own scope
    /// (its parent class first).
    fn evaluate_class(&mut self, lower: &str, params: Option<Attributes>, at: Span) -> Eval<()> {
        self.add_class(lower, params, at, false)?;
        self.evaluate_class_body(lower)
    }

    /// Adds `Class[name]` to the catalog (its parent first), not evaluated yet. `located`:
    /// declared by a resource expression (a duplicate then names where).
    fn add_class(&mut self, lower: &str, params: Option<Attributes>, at: Span, located: bool) -> Eval<()> {
        self.load_definition(lower)?;
        let Some(def) = self.compiler.classes_defs.get(lower).cloned() else {
            return Err(fail(format!("Could not find class ::{lower} for {}", self.compiler.node_name)));
        };
        if let Some(parent) = &def.parent {
            let parent = parent.trim_start_matches("::").to_lowercase();
            self.load_definition(&parent)?;
            if !self.compiler.classes_defs.contains_key(&parent) {
                return Err(bare(format!(
                    "Could not find parent resource type '::{parent}' of type hostclass in production (line: {})",
                    def.at.line
                )));
            }
            if self.compiler.catalog.get("Class", &parent).is_none() {
                self.add_class(&parent, None, at, false)?;
            }
        }
        let at = if located { at } else { Span { line: 0, ..at } };
        let mut params = params.unwrap_or_default();
        // A class is contained in its run stage (`add_edge_to_stage`): the one it names, else
        // the one of the class or resource declaring it, which it then names too.
        let stage = match params.values.get("stage").filter(|v| !v.is_undef()) {
            Some(v) => value_to_s(v),
            None => {
                let inherited = self
                    .compiler
                    .catalog
                    .get(&self.compiler.container.type_name, &self.compiler.container.title)
                    .and_then(|r| r.params.get("stage"))
                    .filter(|v| !v.is_undef())
                    .map(value_to_s);
                match inherited {
                    Some(stage) if stage != "main" => {
                        params.values.insert("stage".into(), Value::from(stage.as_str()));
                        stage
                    }
                    _ => "main".to_owned(),
                }
            }
        };
        let resource = Resource {
            params: params.values,
            origins: params.origins,
            evaluated: false,
            container: catalog::reference("Stage", &stage).into(),
            ..self.new_resource("Class", lower, Kind::Class, at)
        };
        let _ = self.compiler.catalog.add(resource);
        Ok(())
    }

    /// Evaluates an added class's body (its parent's first) in the class's own scope.
    fn evaluate_class_body(&mut self, lower: &str) -> Eval<()> {
        let Some(index) = self.compiler.catalog.position("Class", lower) else { return Ok(()) };
        if self.compiler.catalog.at(index).evaluated {
            return Ok(());
        }
        self.compiler.catalog.at_mut(index).evaluated = true;
        let Some(def) = self.compiler.classes_defs.get(lower).cloned() else { return Ok(()) };
        let parent_scope = match &def.parent {
            Some(parent) => {
                let parent = parent.trim_start_matches("::").to_lowercase();
                self.evaluate_class_body(&parent)?;
                self.compiler.class_scopes.get(&parent).cloned().unwrap_or_else(|| self.top.clone())
            }
            None => self.compiler.node_scope.clone().unwrap_or_else(|| self.top.clone()),
        };
        let given = std::mem::take(&mut self.compiler.catalog.at_mut(index).params);
        let scope = Scope::local(&parent_scope);
        self.compiler.catalog.defaults_parent.insert(Rc::as_ptr(&scope) as usize, self.scope.clone());
        self.compiler.class_scopes.insert(lower.to_owned(), scope.clone());
        let reference = catalog::reference("Class", lower);
        let tags = self.compiler.catalog.at(index).all_tags();
        self.in_container(Container::new("Class", lower), tags, def.file.clone(), scope, |ev| {
            ev.bind_module_name(lower);
            // Data is looked up before `$title` and `$name` are set, as Puppet does.
            // values found in data count as given
            let data = ev.class_parameter_data(lower, &def.parameters, &given)?;
            let mut given = given;
            given.extend(data);
            ev.scope.bind("title".into(), Value::from(lower));
            ev.scope.bind("name".into(), Value::from(lower));
            let metaparams: IndexMap<Rc<str>, Value> = given
                .iter()
                .filter(|(k, _)| crate::resource_types::metaparameter(k).is_some())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let mut bound = ev.bind_definition_parameters(&def.parameters, given, &reference)?;
            bound.extend(metaparams);
            ev.compiler.catalog.at_mut(index).params = bound;
            match &def.body {
                Some(body) => ev.eval(body).map(drop),
                None => Ok(()),
            }
        })
    }

    /// Evaluates a class's, defined resource's or node's code: `f` runs in `scope` with its
    /// own match frames, as the container `reference` (what its resources are contained
    /// in), with `tags` for what it declares and `file` for its errors' positions.
    fn in_container<T>(
        &mut self,
        container: Container,
        tags: Vec<String>,
        file: Option<Rc<str>>,
        scope: Rc<Scope>,
        f: impl FnOnce(&mut Self) -> Eval<T>,
    ) -> Eval<T> {
        let saved = std::mem::replace(&mut self.compiler.container, container);
        let saved_tags = std::mem::replace(&mut self.compiler.tags, tags);
        let saved_file = std::mem::replace(&mut self.loader.current_file, file.clone());
        let result = self.in_definition_scope(scope, f);
        self.compiler.container = saved;
        self.compiler.tags = saved_tags;
        self.loader.current_file = saved_file;
        result.map_err(|flow| in_file(flow, file.as_ref()))
    }

    /// `$module_name` in the scope of a class or defined type loaded from a module.
    fn bind_module_name(&mut self, name: &str) {
        let module = self.module_of(name);
        if !module.is_empty() {
            self.scope.bind("module_name".into(), Value::from(module.as_str()));
        }
    }

    /// Runs `f` with `scope` as the current scope and its own match frames.
    fn in_definition_scope<T>(&mut self, scope: Rc<Scope>, f: impl FnOnce(&mut Self) -> Eval<T>) -> Eval<T> {
        let saved = std::mem::replace(&mut self.scope, scope);
        let result = self.with_function_match_frames(f);
        self.scope = saved;
        result
    }

    /// Automatic parameter lookup: the values Hiera data has for the class's parameters that
    /// were not given (`CLASS::PARAM`). A value of `undef` is kept only for a parameter
    /// without a default, as Puppet does not let it override a default.
    fn class_parameter_data(
        &mut self,
        class: &str,
        parameters: &[Parameter],
        given: &IndexMap<Rc<str>, Value>,
    ) -> Eval<IndexMap<Rc<str>, Value>> {
        let mut data = IndexMap::new();
        if self.loader.modulepath.is_empty() {
            return Ok(data);
        }
        for p in parameters {
            if given.get(p.name.as_str()).is_some_and(|v| !v.is_undef()) {
                continue;
            }
            if let Some(v) = self.parameter_data(&format!("{class}::{}", p.name))? {
                if !(v.is_undef() && p.value.is_some()) {
                    data.insert(Rc::from(p.name.as_str()), v);
                }
            }
        }
        Ok(data)
    }

    /// Binds a class's or defined type's parameters in the current scope, as Puppet's
    /// `set_resource_parameters`: the given values first, then the defaults of the others in
    /// order (a default reading a parameter that has no value yet is an error), then every
    /// value checked against its parameter's type. The problems are reported together, as
    /// Puppet's `validate_parameters` lists them: unknown names, then missing values and
    /// mismatches in parameter order.
    pub(crate) fn bind_definition_parameters(
        &mut self,
        parameters: &[Parameter],
        mut given: IndexMap<Rc<str>, Value>,
        reference: &str,
    ) -> Eval<IndexMap<Rc<str>, Value>> {
        let mut problems: Vec<String> = given
            .keys()
            .filter(|k| {
                !parameters.iter().any(|p| p.name == ***k) && crate::resource_types::metaparameter(k).is_none()
            })
            .map(|name| format!("has no parameter named '{name}'"))
            .collect();
        let names: Vec<Rc<str>> = parameters.iter().map(|p| Rc::from(p.name.as_str())).collect();
        for name in &names {
            if let Some(v) = given.get(name) {
                self.scope.bind(name.clone(), v.clone());
            }
        }
        let mut pending: Vec<Rc<str>> = names.iter().filter(|n| !given.contains_key(*n)).cloned().collect();
        let mut values = Vec::with_capacity(parameters.len());
        for (p, name) in parameters.iter().zip(&names) {
            let value = match (given.shift_remove(name), &p.value) {
                (Some(v), None) => Some(v),
                (Some(v), Some(_)) if !v.is_undef() => Some(v),
                (_, Some(default)) => {
                    let guard = crate::eval::ParamGuard {
                        callee: reference.into(),
                        from: name.clone(),
                        names: names.clone(),
                        pending: pending.clone(),
                    };
                    let saved = self.param_guard.replace(guard);
                    let v = self.eval(default);
                    self.param_guard = saved;
                    let v = v?;
                    pending.retain(|n| n != name);
                    self.scope.replace(name, v.clone());
                    Some(v)
                }
                (None, None) => None,
            };
            values.push((p, name, value));
        }
        let mut bound = IndexMap::new();
        for (p, name, value) in values {
            let Some(value) = value else {
                problems.push(format!("expects a value for parameter '{name}'"));
                continue;
            };
            if let Some(type_expr) = &p.type_expr {
                let t = match &self.eval(type_expr)? {
                    Value::Type(t) => (**t).clone(),
                    _ => Type::Any,
                };
                if !puppet_types::instance::is_instance(&t, &value) {
                    let subject = format!("parameter '{name}'");
                    problems.push(puppet_types::mismatch::describe_value(&subject, &t, &value));
                    continue;
                }
            }
            bound.insert(name.clone(), value);
        }
        match problems.as_slice() {
            [] => Ok(bound),
            [one] => Err(fail(format!("{reference}: {one}"))),
            many => Err(fail(format!("{reference}:\n  {}", many.join("\n  ")))),
        }
    }

    /// Loads a class or defined type from the module path unless it is known.
    pub(crate) fn load_definition(&mut self, lower: &str) -> Eval<()> {
        if !self.compiler.classes_defs.contains_key(lower) && !self.compiler.defines.contains_key(lower) {
            self.autoload(crate::eval::modules::Entity::Definition, lower)?;
        }
        Ok(())
    }

    /// Whether a class or defined type of that (lower-case) name is known.
    pub fn is_class_or_define(&self, lower: &str) -> bool {
        self.compiler.classes_defs.contains_key(lower) || self.compiler.defines.contains_key(lower)
    }

    /// The value of `$class::variable`: the evaluated class's scope.
    pub(crate) fn qualified_variable(&self, name: &str) -> Option<Value> {
        let name = name.trim_start_matches("::");
        let (class, var) = name.rsplit_once("::")?;
        self.compiler.class_scopes.get(&class.to_lowercase())?.get(var)
    }

    // ---- defined types

    /// Evaluates one defined resource's body.
    fn evaluate_define(&mut self, index: usize) -> Eval<()> {
        let r = self.compiler.catalog.at(index).clone();
        self.compiler.catalog.at_mut(index).evaluated = true;
        let lower = r.type_name.to_lowercase();
        let Some(def) = self.compiler.defines.get(&lower).cloned() else { return Ok(()) };
        let scope = Scope::local(&self.top);
        self.compiler.catalog.defaults_parent.insert(Rc::as_ptr(&scope) as usize, r.scope.clone());
        let reference = r.reference();
        let tags = r.all_tags();
        let container = Container::new(&r.type_name, &r.title);
        let result = self.in_container(container, tags, def.file.clone(), scope, |ev| {
            ev.scope.bind("title".into(), Value::String(r.title.clone()));
            ev.bind_module_name(&lower);
            ev.scope.bind("name".into(), r.params.get("name").cloned().unwrap_or(Value::String(r.title.clone())));
            let mut given = r.params.clone();
            given.shift_remove("name");
            for p in &def.parameters {
                if !given.contains_key(p.name.as_str()) {
                    if let Some(v) = ev.default_for(&r, &p.name) {
                        given.insert(p.name.as_str().into(), v);
                    }
                }
            }
            ev.bind_definition_parameters(&def.parameters, given, &reference)?;
            match &def.body {
                Some(body) => ev.eval(body).map(drop),
                None => Ok(()),
            }
        });
        result.map(drop).map_err(|flow| define_error(flow, &r))
    }

    // ---- defaults, overrides, relationships, collectors

    /// `File { mode => '0644' }`: defaults for the resources of the current scope.
    pub(crate) fn resource_defaults(&mut self, type_ref: &Expr, operations: &[AttributeOp]) -> Eval<Value> {
        let t = self.eval(type_ref)?;
        let lower = match &t {
            Value::Type(t) => match &**t {
                Type::Resource { type_name: Some(n), title: None } => n.to_lowercase(),
                Type::Class(None) => "class".into(),
                _ => return Ok(Value::Undef),
            },
            _ => return Ok(Value::Undef),
        };
        let params = self.attribute_values(operations, type_ref.at)?;
        let key = Rc::as_ptr(&self.scope) as usize;
        let entry = self.compiler.catalog.defaults.entry(key).or_default().by_type.entry(lower.clone()).or_default();
        for (k, v) in params.values {
            if entry.contains_key(&k) {
                return Err(bare(format!(
                    "Default already defined for {} {{ {k} }}; cannot redefine (line: {})",
                    capitalize_segments(&lower),
                    type_ref.at.line
                )));
            }
            let origin = params.origins.get(&k).cloned().unwrap_or_default();
            entry.insert(k, v, origin);
        }
        Ok(Value::Undef)
    }

    /// `File['x'] { mode => '0600' }`: parameters set on the resources when the catalog is
    /// finished.
    pub(crate) fn resource_override(&mut self, resources: &Expr, operations: &[AttributeOp], at: Span) -> Eval<Value> {
        let target = self.eval(resources)?;
        let params = self.override_params(operations)?;
        for v in flatten(&target) {
            if let Some((type_name, title)) = reference_of(&v) {
                let o = Override { key: catalog::key(&type_name, &title), params: params.clone(), at };
                if !self.apply_override(&o) {
                    self.compiler.catalog.overrides.push(o);
                }
            }
        }
        Ok(target)
    }

    /// The parameters an override or a collector sets.
    fn override_params(&mut self, operations: &[AttributeOp]) -> Eval<Vec<OverrideParam>> {
        let mut params = Vec::new();
        for op in operations {
            match op {
                AttributeOp::Set { name, append, value, span } => {
                    let value = self.eval(value)?;
                    params.push(OverrideParam { name: name.as_str().into(), value, append: *append, origin: self.origin(span.line) });
                }
                AttributeOp::Splat { value, span } => {
                    for (name, value) in self.splat(value)? {
                        params.push(OverrideParam { name, value, append: false, origin: self.origin(span.line) });
                    }
                }
            }
        }
        Ok(params)
    }

    /// Sets an override's parameters on its resource; false when there is none yet.
    fn apply_override(&mut self, o: &Override) -> bool {
        let default_values: Vec<Option<Value>> = match self.compiler.catalog.get(&o.key.0, &o.key.1) {
            Some(r) => o.params.iter().map(|p| self.default_for(r, &p.name)).collect(),
            None => return false,
        };
        let Some(r) = self.compiler.catalog.get_mut(&o.key.0, &o.key.1) else { return false };
        for (p, default) in o.params.iter().zip(default_values) {
            if p.append {
                let old = r.params.get(&p.name).cloned().or(default);
                let mut items: Vec<Value> = old.map(|o| flatten(&o)).unwrap_or_default();
                items.extend(flatten(&p.value));
                r.set_param(p.name.clone(), Value::array(items), p.origin.clone());
            } else if p.value.is_undef() {
                r.params.shift_remove(&p.name);
            } else {
                r.set_param(p.name.clone(), p.value.clone(), p.origin.clone());
            }
        }
        true
    }

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
    fn check_operand(&self, operand: Operand, at: Span, left: bool, op: RelationshipOp) -> Eval<Operand> {
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

    fn operand(&mut self, e: &Expr) -> Eval<Operand> {
        Ok(self.operand_with_value(e)?.0)
    }

    /// An operand of a relationship: a collector stays a collector (its resources are known
    /// at the end); a chained relationship gives its right operand.
    fn operand_with_value(&mut self, e: &Expr) -> Eval<(Operand, Value)> {
        match &e.kind {
            ExprKind::Collect { .. } => {
                let value = self.eval(e)?;
                Ok((Operand::Collector(self.compiler.catalog.collectors.len() - 1), value))
            }
            ExprKind::Relationship { op, left, right } => {
                let value = self.relationship(*op, left, right, e.at)?;
                let operand = match self.compiler.pending_relationships.last() {
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
    pub(crate) fn collect(&mut self, type_expr: &Expr, exported: bool, query: Option<&Expr>, operations: &[AttributeOp], at: Span) -> Eval<Value> {
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
        if exported {
            self.warn_at("You cannot collect exported resources without storeconfigs being set; the collection will be ignored", at);
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

    /// Runs the collectors: realizes what they match; returns whether anything changed.
    fn run_collectors(&mut self) -> Eval<bool> {
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
                    Some(q) => self.query_matches(q, &r),
                    None => Ok(true),
                };
                self.scope = saved;
                if !matches? {
                    continue;
                }
                self.compiler.catalog.collectors[ci].matched.push(index);
                if self.compiler.catalog.at(index).virtual_ {
                    self.compiler.catalog.at_mut(index).virtual_ = false;
                    changed = true;
                }
                if !collector.operations.is_empty() {
                    let saved = std::mem::replace(&mut self.scope, collector.scope.clone());
                    let params = self.override_params(&collector.operations);
                    self.scope = saved;
                    let params = params?;
                    let (t, title) = (self.compiler.catalog.at(index).type_name.to_string(), self.compiler.catalog.at(index).title.to_string());
                    self.apply_override(&Override { key: catalog::key(&t, &title), params, at: collector.at });
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
                        r.all_tags().contains(&wanted)
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

    // ---- finishing

    /// What the compiler does after the program's statements: evaluates defined resources
    /// and collectors until nothing changes, realizes, applies overrides, defaults and
    /// relationships.
    pub fn finish_catalog(&mut self) -> Eval<()> {
        let mut rounds = 0;
        loop {
            let mut done = !self.run_collectors()?;
            for (key, at) in std::mem::take(&mut self.compiler.catalog.to_realize) {
                match self.compiler.catalog.get_mut(&key.0, &key.1) {
                    Some(r) if r.virtual_ => {
                        r.virtual_ = false;
                        done = false;
                    }
                    Some(_) => {}
                    None => self.compiler.catalog.unrealized.push((key, at)),
                }
            }
            let pending: Vec<usize> = (0..self.compiler.catalog.len())
                .filter(|&i| {
                    let r = self.compiler.catalog.at(i);
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
        for (key, _) in std::mem::take(&mut self.compiler.catalog.unrealized) {
            match self.compiler.catalog.get_mut(&key.0, &key.1) {
                Some(r) => r.virtual_ = false,
                None => missing.push(catalog::reference(&capitalize_segments(&key.0), &key.1)),
            }
        }
        if !missing.is_empty() {
            return Err(fail(format!("Failed to realize virtual resources {}", missing.join(", "))));
        }
        self.apply_relationships()?;
        for o in std::mem::take(&mut self.compiler.catalog.overrides) {
            if !self.apply_override(&o) {
                return Err(bare(format!(
                    "Could not find resource(s) {} for overriding",
                    catalog::reference(&capitalize_segments(&o.key.0), &o.key.1)
                )));
            }
        }
        self.apply_defaults();
        self.check_parameters()
    }

    /// Each resource takes the defaults of its scope and the scopes around it.
    fn apply_defaults(&mut self) {
        if self.compiler.catalog.defaults.is_empty() {
            return;
        }
        for index in 0..self.compiler.catalog.len() {
            let r = self.compiler.catalog.at(index);
            let lower = r.type_name.to_lowercase();
            let mut chain = vec![r.scope.clone()];
            while let Some(last) = chain.last() {
                let next = self.compiler.catalog.defaults_parent.get(&(Rc::as_ptr(last) as usize)).cloned().or_else(|| last.parent());
                match next {
                    Some(n) if chain.len() < 10_000 => chain.push(n),
                    _ => break,
                }
            }
            let mut add = Attributes::default();
            for scope in &chain {
                if let Some(d) = self.compiler.catalog.defaults.get(&(Rc::as_ptr(scope) as usize)).and_then(|d| d.by_type.get(&lower)) {
                    for (k, v) in &d.values {
                        if !add.contains_key(k) {
                            add.insert(k.clone(), v.clone(), d.origins.get(k).cloned().unwrap_or_default());
                        }
                    }
                }
            }
            let r = self.compiler.catalog.at_mut(index);
            for (k, v) in add.values {
                if !r.params.contains_key(&k) {
                    let origin = add.origins.get(&k).cloned().unwrap_or_default();
                    r.set_param(k, v, origin);
                }
            }
        }
    }

    /// Sets `before`/`notify` on each source of each relationship.
    fn apply_relationships(&mut self) -> Eval<()> {
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
                        return Err(bare(format!("Could not find resource '{}' for relationship on '{}'", catalog::reference(&st, &stitle), catalog::reference(&tt, &ttitle))));
                    }
                    if self.compiler.catalog.get(&tt, &ttitle).is_none() {
                        return Err(bare(format!("Could not find resource '{}' for relationship from '{}'", catalog::reference(&tt, &ttitle), catalog::reference(&st, &stitle))));
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
    fn resolve_source(&self, operand: Operand, depth: usize) -> Vec<Value> {
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

    fn resolve_operand(&self, operand: Operand) -> Vec<Value> {
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

    // ---- definitions

    /// Keeps a program's classes, defined types and node definitions.
    pub(crate) fn define_catalog_entities(&mut self, statements: &[Expr]) {
        let mut seen = HashMap::new();
        self.define_entities_in(statements, &mut seen);
    }

    /// Records a definition of this program; a second one of the name is Puppet's error.
    fn note_definition(&mut self, seen: &mut HashMap<String, (bool, u32)>, name: &str, class: bool, line: u32) {
        let key = name.trim_start_matches("::").to_lowercase();
        if let Some(&(was_class, first)) = seen.get(&key) {
            if self.compiler.definition_error.is_none() {
                self.compiler.definition_error = Some(match (was_class, class) {
                    (true, true) => format!("Class '{key}' is already defined (line: {first}); cannot redefine (line: {line})"),
                    (false, false) => format!("Definition '{key}' is already defined (line: {first}); cannot redefine (line: {line})"),
                    (true, false) => format!("'{key}' is already defined (line: {first}) as a class; cannot redefine as a definition (line: {line})"),
                    (false, true) => format!("'{key}' is already defined (line: {first}) as a definition; cannot redefine as a class (line: {line})"),
                });
            }
            return;
        }
        seen.insert(key, (class, line));
    }

    fn define_entities_in(&mut self, statements: &[Expr], seen: &mut HashMap<String, (bool, u32)>) {
        for statement in statements {
            match &statement.kind {
                ExprKind::Class { name, parameters, parent, body } => {
                    self.note_definition(seen, name, true, statement.at.line);
                    let def = Definition {
                        name: name.clone(),
                        parameters: parameters.clone(),
                        parent: parent.clone(),
                        body: body.as_deref().cloned(),
                        at: statement.at,
                        file: self.loader.loading_file.clone(),
                    };
                    self.compiler.classes_defs.insert(name.trim_start_matches("::").to_lowercase(), Rc::new(def));
                    if let Some(body) = body {
                        let inner = match &body.kind {
                            ExprKind::Block(s) => s.as_slice(),
                            _ => std::slice::from_ref(&**body),
                        };
                        self.define_entities_in(inner, seen);
                    }
                }
                ExprKind::Define { name, parameters, body } => {
                    self.note_definition(seen, name, false, statement.at.line);
                    let def = Definition {
                        name: name.clone(),
                        parameters: parameters.clone(),
                        parent: None,
                        body: body.as_deref().cloned(),
                        at: statement.at,
                        file: self.loader.loading_file.clone(),
                    };
                    self.compiler.defines.insert(name.trim_start_matches("::").to_lowercase(), Rc::new(def));
                }
                ExprKind::Node { matches, body, .. } => {
                    for m in matches {
                        let name = match &m.kind {
                            ExprKind::String(n) => n.to_lowercase(),
                            ExprKind::QualifiedName(n) => n.to_lowercase(),
                            _ => continue,
                        };
                        let earlier = self.compiler.nodes.iter().find(|(ms, _)| {
                            ms.iter().any(|x| matches!(&x.kind, ExprKind::String(n) if n.to_lowercase() == name) || matches!(&x.kind, ExprKind::QualifiedName(n) if n.to_lowercase() == name))
                        });
                        if let Some((_, first)) = earlier {
                            self.compiler.definition_error = Some(format!(
                                "Node '{name}' is already defined (line: {}); cannot redefine (line: {})",
                                first.at.line, statement.at.line
                            ));
                        }
                    }
                    let def = Definition {
                        name: String::new(),
                        parameters: Vec::new(),
                        parent: None,
                        body: body.as_deref().cloned(),
                        at: statement.at,
                        file: self.loader.loading_file.clone(),
                    };
                    self.compiler.nodes.push((matches.clone(), Rc::new(def)));
                }
                _ => {}
            }
        }
    }

    /// Evaluates the node definition that matches the node's name, if there are any: an
    /// exact name first, then the first matching regular expression, then `default`. Its
    /// `Node[name]` joins the catalog, and classes it declares see its scope.
    pub fn evaluate_node(&mut self) -> Eval<()> {
        if self.compiler.nodes.is_empty() || self.compiler.node_scope.is_some() {
            return Ok(());
        }
        let node = self.compiler.node_name.clone();
        let mut exact = None;
        let mut regex: Option<(Rc<Definition>, String, Rc<[Value]>)> = None;
        let mut default = None;
        for (matches, def) in &self.compiler.nodes {
            for m in matches {
                match &m.kind {
                    ExprKind::Default => default = default.or(Some(def.clone())),
                    ExprKind::String(name) if name.eq_ignore_ascii_case("default") => default = default.or(Some(def.clone())),
                    ExprKind::Regex(source) => {
                        let re = puppet_types::regexp::Regexp::new(source.as_str());
                        if regex.is_none() {
                            if let Some(groups) = crate::eval::match_groups(&re, &node) {
                                regex = Some((def.clone(), regex_node_name(source), groups));
                            }
                        }
                    }
                    ExprKind::String(name) if name.eq_ignore_ascii_case(&node) => exact = exact.or(Some(def.clone())),
                    ExprKind::QualifiedName(name) if name.eq_ignore_ascii_case(&node) => exact = exact.or(Some(def.clone())),
                    _ => {}
                }
            }
        }
        let (def, name, groups) = match (exact, regex, default) {
            (Some(def), _, _) => (def, node.to_lowercase(), None),
            (None, Some((def, name, groups)), _) => (def, name, Some(groups)),
            (None, None, Some(def)) => (def, "default".to_owned(), None),
            (None, None, None) => {
                return Err(bare(format!("Could not find node statement with name 'default' or '{node}'")));
            }
        };
        let node_resource = Resource { tags: self.compiler.tags.clone(), ..Resource::new("Node", &name, Kind::Class, def.at, self.top.clone()) };
        let tags = node_resource.all_tags();
        let _ = self.compiler.catalog.add(node_resource);
        let scope = Scope::local(&self.top);
        self.compiler.node_scope = Some(scope.clone());
        self.in_container(Container::new("Node", &name), tags, def.file.clone(), scope, |ev| {
            ev.scope.bind("title".into(), Value::from(name.as_str()));
            ev.scope.bind("name".into(), Value::from(name.as_str()));
            if let Some(groups) = groups {
                ev.set_match(groups);
            }
            match &def.body {
                Some(body) => ev.eval(body).map(drop),
                None => Ok(()),
            }
        })
    }
}

/// A resource statement's error without a position: Puppet's prefix and the statement's
/// position.
fn statement_error(flow: Flow, at: Span) -> Flow {
    match flow {
        Flow::Error(mut e) if e.at.is_none() && !e.bare => {
            e.message = format!("Error while evaluating a Resource Statement, {}", e.message);
            e.at = Some(at);
            Flow::Error(e)
        }
        other => other,
    }
}

/// An error while evaluating a defined resource, as Puppet reports it: wrapped in the
/// resource statement's prefix with the declaration's line (and the inner error's text).
fn define_error(flow: Flow, r: &Resource) -> Flow {
    let line = r.at.line;
    match flow {
        Flow::Error(e) if e.bare => Flow::Error(e),
        Flow::Error(mut e) => {
            let file = e.file.take().map(|f| format!("file: {f}, ")).unwrap_or_default();
            let inner = match e.at {
                None => e.message.clone(),
                Some(at) => format!("Evaluation Error: {} ({file}line: {}, column: {})", e.message, at.line, at.column),
            };
            if r.by_function {
                e.message = format!("Error while evaluating a Resource Statement, {inner} {}", r.location());
                e.at = None;
                e.bare = true;
                e.message = format!("Evaluation Error: {}", e.message);
                return Flow::Error(e);
            }
            e.message = format!("Error while evaluating a Resource Statement, {inner}");
            e.at = Some(Span { start: 0, end: 0, line, column: 0 });
            e.file = r.file.clone();
            Flow::Error(e)
        }
        other => other,
    }
}

/// An error with a position in a module's manifest names that file.
pub(crate) fn in_file(flow: Flow, file: Option<&Rc<str>>) -> Flow {
    match (flow, file) {
        (Flow::Error(mut e), Some(file)) if e.at.is_some() && e.file.is_none() => {
            e.file = Some(file.clone());
            Flow::Error(e)
        }
        (flow, _) => flow,
    }
}

/// `Node[__node_regexp__...]`: a regex node's name, the source without characters other
/// than `-`, word characters, `:` and `.`, and without leading dots.
fn regex_node_name(source: &str) -> String {
    let kept: String = source.to_lowercase().chars().filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')).collect();
    format!("__node_regexp__{}", kept.trim_start_matches('.'))
}

/// The name that makes a core resource unique when it differs from its title (Puppet's
/// `uniqueness_key` of isomorphic types): a file's path without trailing slashes, a package's
/// `[provider, name, command]`, another type's namevar. Exec is not unique by its command.
/// With how Puppet prints it in its alias error.
fn uniqueness_key(lower: &str, r: &Resource) -> Option<(String, String)> {
    let get = |name: &str| r.params.get(name).filter(|v| !v.is_undef()).map(value_to_s);
    match lower {
        "exec" => None,
        "file" | "tidy" => {
            let path = get("path").unwrap_or_else(|| r.title.to_string());
            let trimmed = if path.len() > 1 { path.trim_end_matches('/').to_owned() } else { path };
            let trimmed = if trimmed.is_empty() { "/".to_owned() } else { trimmed };
            Some((trimmed.clone(), format!("[\"{trimmed}\"]")))
        }
        "package" => {
            let name = get("name").unwrap_or_else(|| r.title.to_string());
            let shown = |v: Option<String>| v.map_or_else(|| "nil".to_owned(), |v| format!("\"{v}\""));
            Some((name.clone(), format!("[{}, \"{name}\", {}]", shown(get("provider")), shown(get("command")))))
        }
        _ => {
            let t = crate::resource_types::get(lower)?;
            let [namevar] = t.namevars.as_slice() else { return None };
            let value = get(namevar).unwrap_or_else(|| r.title.to_string());
            Some((value.clone(), format!("[\"{value}\"]")))
        }
    }
}

/// `Notify[x]` as a reference's type and title.
fn parse_reference(text: &str) -> Option<(String, String)> {
    let (t, rest) = text.split_once('[')?;
    let title = rest.strip_suffix(']')?;
    let title = title.trim_matches(|c| c == '\'' || c == '"');
    if t.is_empty() || !t.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    Some((t.to_owned(), title.to_owned()))
}


