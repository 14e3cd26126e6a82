//! Resources in the catalog (`runtime3_resource_support.rb`): resource expressions and their
//! titles and attributes, uniqueness (titles and namevars), parameter checks against the
//! resource types, `create_resources`, resource defaults (`File { ... }`) and overrides
//! (`File['x'] { ... }`).

use std::collections::HashMap;
use std::rc::Rc;

use indexmap::IndexMap;
use puppet_syntax::ast::{AttributeOp, Expr, ExprKind, ResourceBody, ResourceForm};
use puppet_syntax::Span;
use puppet_types::display::{capitalize_segments, value_to_s};
use puppet_types::{Type, Value};

use super::relationships::{reference_of, reference_value};
use crate::catalog::{self, flatten, valid_tag, Attributes, Kind, Origin, Override, OverrideParam, Resource};
use crate::error::{bare, fail, fail_at, Eval, Flow};
use crate::eval::{Evaluator, Level, Strict};
use crate::scope::Scope;

impl Evaluator {
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
            _ => self.resource_type_name(type_expr)?,
        };
        let lower = type_name.trim_start_matches("::").to_lowercase();
        // A `default:` body gives the other bodies of the expression their defaults.
        let mut defaults = Attributes::default();
        let mut declared = Vec::new();
        // Each body's titles are evaluated and checked before its attributes, as Puppet does.
        let mut plans = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for body in bodies {
            let title = self.eval(&body.title)?;
            if matches!(title, Value::Default) {
                let params = self.attribute_values(&body.operations, e.at)?;
                defaults.values.extend(params.values);
                defaults.origins.extend(params.origins);
                continue;
            }
            let titles = self.titles(&title, body.title.at)?;
            for title in &titles {
                if seen.contains(title) {
                    return Err(fail_at(
                        format!("The title '{title}' has already been used in this resource expression"),
                        e.at,
                    ));
                }
                seen.push(title.clone());
            }
            let params = self.attribute_values(&body.operations, e.at)?;
            plans.push((titles, params));
        }
        let mut titled = Vec::new();
        for (titles, mut params) in plans {
            for (k, v) in &defaults.values {
                if !params.contains_key(k) {
                    let origin = defaults.origins.get(k).cloned().unwrap_or_default();
                    params.insert(k.clone(), v.clone(), origin);
                }
            }
            for title in titles {
                titled.push((title, params.clone()));
            }
        }
        for (title, params) in titled {
            let reference = if lower == "class" {
                self.declare_class_like(&title, params, e.at)
            } else {
                self.declare_resource(&type_name, &title, params, form, e.at)
            }
            .map_err(|flow| statement_error(flow, e.at))?;
            declared.push(reference);
        }
        Ok(Value::array(declared))
    }

    /// The type of a resource expression written as a type (`File`, `Resource['file']`,
    /// `Class`), as Puppet's `eval_ResourceExpression` reads it: an untitled resource type or
    /// `Class`; anything else, or a type not written as a type name, is an illegal resource
    /// type.
    fn resource_type_name(&mut self, type_expr: &Expr) -> Eval<String> {
        let acceptable = match &type_expr.kind {
            ExprKind::QualifiedReference(_) => true,
            ExprKind::Access { left, .. } => matches!(left.kind, ExprKind::QualifiedReference(_)),
            _ => false,
        };
        let evaluated = self.eval(type_expr)?;
        let illegal = |actual: String| {
            Err(fail_at(
                format!("Illegal Resource Type expression, expected result to be a type name, or untitled Resource, got {actual}"),
                type_expr.at,
            ))
        };
        let inferred = || puppet_types::infer::infer_generalized(&evaluated).to_string();
        let Value::Type(t) = &evaluated else { return illegal(inferred()) };
        if !acceptable {
            return illegal(inferred());
        }
        match &**t {
            Type::Class(None) => Ok("class".into()),
            Type::Resource { type_name: Some(name), title: None } => Ok(name.to_string()),
            // Puppet's `Resource` has no type name, and its resource expression crashes on it
            // (Ruby's message, with its error highlight)
            Type::Resource { type_name: None, title: None } => Err(statement_error(
                fail("undefined method `include?' for nil:NilClass\n\n    if type_name.include?(':')\n                ^^^^^^^^^"),
                type_expr.at,
            )),
            Type::Class(Some(_)) | Type::Resource { .. } => illegal(t.to_string()),
            _ => illegal(inferred()),
        }
    }

    /// The titles a title expression gives: a string, or an array of them (flattened).
    pub(super) fn titles(&self, title: &Value, at: Span) -> Eval<Vec<String>> {
        if title.is_undef() {
            return Err(fail_at("Missing title. The title expression resulted in undef", at));
        }
        let mut out = Vec::new();
        for (index, v) in flatten(title).iter().enumerate() {
            match v {
                Value::Undef => {
                    return Err(fail_at(
                        format!("Missing title at index {index}. The title expression resulted in an undef title"),
                        at,
                    ))
                }
                // `default` among titles declares nothing.
                Value::Default => {}
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
    pub(super) fn attribute_values(&mut self, operations: &[AttributeOp], at: Span) -> Eval<Attributes> {
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
    pub(super) fn splat(&mut self, value: &Expr) -> Eval<Vec<(Rc<str>, Value)>> {
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
    pub(super) fn origin(&self, line: u32) -> Origin {
        Origin { file: self.loader.current_file.clone(), line: Some(line) }
    }

    /// Adds one resource of a core or defined type to the catalog. `spelled`: the type's
    /// name as the declaration gives it (an unknown type's message quotes it).
    pub(super) fn declare_resource(
        &mut self,
        spelled: &str,
        title: &str,
        params: Attributes,
        form: ResourceForm,
        at: Span,
    ) -> Eval<Value> {
        let lower = &*spelled.trim_start_matches("::").to_lowercase();
        if crate::resource_types::get(lower).is_none() {
            self.load_definition(lower)?;
        }
        let (kind, type_name) = if let Some(t) = crate::resource_types::get(lower) {
            (Kind::Builtin, capitalize_segments(&t.name))
        } else if self.ruby_type_exists(lower) {
            // A type a module implements in Ruby: declared as it is, its parameters checked
            // when its attributes can be read (see `check_parameters`).
            if !self.compiler.catalog.ruby_namevars.contains_key(lower) {
                let namevar = self.ruby_type_namevar(lower);
                self.compiler.catalog.ruby_namevars.insert(lower.to_owned(), namevar.into());
            }
            (Kind::Builtin, capitalize_segments(lower))
        } else if self.compiler.defines.contains_key(lower) {
            (Kind::Define, capitalize_segments(lower))
        } else {
            return Err(fail(format!("Unknown resource type: '{spelled}'")));
        };
        if form == ResourceForm::Exported {
            self.warn_at(
                "You cannot collect exported resources without storeconfigs being set; the export is ignored",
                at,
            );
        }
        let declared_tags = params.values.get("tag").map(flatten).unwrap_or_default();
        let mut params = params;
        let defaults = self.defaults_here(lower);
        for (k, v) in defaults.values {
            if !params.contains_key(&k) {
                let origin = defaults.origins.get(&k).cloned().unwrap_or_default();
                params.insert(k, v, origin);
            }
        }
        let mut resource = Resource {
            params: IndexMap::new(),
            origins: params.origins,
            declared_tags,
            // exported is virtual too: not realized, not evaluated, but in the catalog
            virtual_: form != ResourceForm::Regular,
            exported: form == ResourceForm::Exported,
            evaluated: kind != Kind::Define,
            ..self.new_resource(&type_name, title, kind, at)
        };
        // a file's title with trailing slashes names the path without them (the file type's
        // `title_patterns`), which Puppet sets first
        if kind == Kind::Builtin && type_name.eq_ignore_ascii_case("file") && !params.values.contains_key("path") {
            let path = title.trim_end_matches('/');
            if !path.is_empty() && path.len() < title.len() {
                resource.insert_param("path".into(), Value::from(path));
            }
        }
        // the given parameters, then the defaults, tagging it in that order
        for (k, v) in params.values {
            resource.insert_param(k, v);
        }
        let here = if self.compiler.created_by_function {
            format!(" (file: unknown, line: {})", at.line)
        } else {
            self.origin(at.line).suffix()
        };
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
    pub(super) fn new_resource(&self, type_name: &str, title: &str, kind: Kind, at: Span) -> Resource {
        Resource {
            container: self.compiler.container.reference().into(),
            declarer: self.container_index(),
            by_function: self.compiler.created_by_function,
            file: self.loader.current_file.clone(),
            ..Resource::new(type_name, title, kind, at, self.scope.clone())
        }
    }

    /// A core resource whose namevar (`path` of a file) another resource of its type already
    /// has: Puppet's alias error.
    pub(super) fn namevar_clash(&mut self, r: &Resource) -> Option<String> {
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
    pub(super) fn check_parameters(&self) -> Eval<()> {
        // The attributes of types modules implement in Ruby, by type.
        let mut ruby: HashMap<String, Option<Rc<[String]>>> = HashMap::new();
        for r in self.compiler.catalog.resources().iter().filter(|r| r.kind == Kind::Builtin && r.in_catalog()) {
            let lower = r.type_name.to_lowercase();
            let core = crate::resource_types::get(&lower);
            let module_names = match core {
                Some(_) => None,
                None => {
                    match ruby.entry(lower.clone()).or_insert_with(|| self.ruby_type_attributes(&lower).map(Rc::from)) {
                        Some(names) => Some(names.clone()),
                        None => continue,
                    }
                }
            };
            let has = |name: &str| match core {
                Some(t) => t.attribute(name).is_some(),
                None => module_names.as_deref().is_some_and(|names| names.iter().any(|n| n == name)),
            };
            for name in r.params.keys() {
                // `name` is every type's (`Puppet::Type.validattr?`): the namevar's other name.
                if name.as_ref() != "name" && !has(name) && crate::resource_types::metaparameter(name).is_none() {
                    return Err(bare(format!(
                        "no parameter named '{name}' {} on {} {}",
                        r.location(),
                        r.reference(),
                        r.location()
                    )));
                }
            }
        }
        // Puppet's RelationshipValidator: resources in catalog order, each one's parameters in
        // the order they were set.
        for r in self.compiler.catalog.resources().iter().filter(|r| r.in_catalog()) {
            let relationships =
                r.params.iter().filter(|(p, _)| matches!(&***p, "before" | "require" | "notify" | "subscribe"));
            for (param, v) in relationships {
                for target in flatten(v) {
                    let found = match reference_of(&target) {
                        Some((t, title)) => self.compiler.catalog.get(&t, &title).is_some(),
                        None => match &target {
                            Value::String(text) => parse_reference(text)
                                .is_some_and(|(t, title)| self.compiler.catalog.get(&t, &title).is_some()),
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
                // an undef tag is none (Ruby's `compact`)
                for tag in flatten(tags).into_iter().filter(|t| !t.is_undef()) {
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
            let shown =
                if type_name == "Class" { format!("Class['{title}']") } else { format!("{type_name}['{title}']") };
            return Err(fail_at(format!("Resource not found: {shown}"), at));
        };
        let mut found = Vec::with_capacity(keys.len());
        for k in keys {
            let name = value_to_s(k);
            if !self.has_parameter(r, &name) {
                let shown =
                    if type_name == "Class" { format!("Class['{title}']") } else { format!("{type_name}['{title}']") };
                return Err(fail_at(format!("The resource {shown} does not have a parameter called '{name}'"), at));
            }
            // a default is looked up in the resource's scope as it is now
            // (`get_resource_parameter_value`)
            let value =
                r.params.get(name.as_str()).cloned().or_else(|| {
                    self.defaults_in(&r.scope, &r.type_name.to_lowercase()).values.get(name.as_str()).cloned()
                });
            found.push(value.unwrap_or(Value::Undef));
        }
        if found.len() == 1 {
            return Ok(found.pop().unwrap_or(Value::Undef));
        }
        Ok(Value::array(found))
    }

    /// Whether a resource's type has the parameter (or it is a metaparameter).
    pub(super) fn has_parameter(&self, r: &Resource, name: &str) -> bool {
        if crate::resource_types::metaparameter(name).is_some() {
            return true;
        }
        match r.kind {
            Kind::Builtin => crate::resource_types::get(&r.type_name).is_some_and(|t| t.attribute(name).is_some()),
            Kind::Define => {
                name == "name"
                    || self
                        .compiler
                        .defines
                        .get(&r.type_name.to_lowercase())
                        .is_some_and(|d| d.parameters.iter().any(|p| p.name == name))
            }
            Kind::Class => {
                self.compiler.classes_defs.get(&*r.title).is_some_and(|d| d.parameters.iter().any(|p| p.name == name))
            }
        }
    }

    /// `create_resources(type, {title => params}, defaults)`.
    pub fn create_resources(&mut self, args: &[Value], at: Span) -> Eval<Value> {
        let (Some(type_arg), Some(instances)) = (args.first(), args.get(1)) else {
            return Err(fail(format!(
                "create_resources(): wrong number of arguments ({}; must be 2 or 3)",
                args.len()
            )));
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
            // a number as title: the title is its text, and the number the resource's `name`
            // (Puppet::Resource's), which the catalog then writes
            let numeric = matches!(title, Value::Integer(_) | Value::Float(_));
            let title = match title {
                Value::Integer(_) | Value::Float(_) => {
                    merged.entry("name".into()).or_insert_with(|| title.clone());
                    Value::from(value_to_s(title).as_str())
                }
                other => other.clone(),
            };
            for title in self.titles(&title, at)? {
                let params = Attributes::unplaced(merged.clone());
                let reference = if lower == "class" {
                    self.declare_class_like(&title, params, site)?
                } else {
                    self.compiler.created_by_function = true;
                    let declared = self.declare_resource(&lower, &title, params, form, site);
                    self.compiler.created_by_function = false;
                    let declared = declared?;
                    if numeric {
                        if let Some(i) = self.compiler.catalog.position(&lower, &title) {
                            self.compiler.catalog.at_mut(i).numeric_title = true;
                        }
                    }
                    declared
                };
                refs.push(reference);
            }
        }
        Ok(Value::array(refs))
    }

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
            if let Value::Type(t) = &v {
                if let Type::Class(_) = &**t {
                    return Err(fail_at(
                        format!("Resource Override can only operate on resources, got: {}-Type", value_to_s(&v)),
                        at,
                    ));
                }
            }
            if let Some((type_name, title)) = reference_of(&v) {
                // a node is a class to Puppet's resources (`Node['x']` overrides `Class[x]`)
                let type_name = if type_name.eq_ignore_ascii_case("node") { "Class".to_owned() } else { type_name };
                let source = Some((self.compiler.container.reference().into(), self.origin(at.line)));
                let o = Override { key: catalog::key(&type_name, &title), params: params.clone(), at, source };
                if !self.apply_override(&o)? {
                    self.compiler.catalog.overrides.push(o);
                }
            }
        }
        Ok(target)
    }

    /// The parameters an override or a collector sets.
    pub(super) fn override_params(&mut self, operations: &[AttributeOp]) -> Eval<Vec<OverrideParam>> {
        let mut params = Vec::new();
        for op in operations {
            match op {
                AttributeOp::Set { name, append, value, span } => {
                    let value = self.eval(value)?;
                    params.push(OverrideParam {
                        name: name.as_str().into(),
                        value,
                        append: *append,
                        origin: self.origin(span.line),
                    });
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

    /// Sets an override's parameters on its resource; false when there is none yet. A
    /// resource override made in code that is not the resource's, nor a class inheriting from
    /// the class whose it is, fails as Puppet's `merge` (`Only subclasses can override
    /// parameters`).
    pub(super) fn apply_override(&mut self, o: &Override) -> Eval<bool> {
        let Some(r) = self.compiler.catalog.get(&o.key.0, &o.key.1) else { return Ok(false) };
        if let Some((source, origin)) = &o.source {
            // a class's resource is its own code's (`Node['x']` overrides `Class[x]`)
            let container = match r.kind {
                Kind::Class => catalog::reference("Class", &r.title),
                _ => r.container.to_string(),
            };
            if !self.may_override(source, &container) {
                return Err(bare(format!("Only subclasses can override parameters{}", origin.suffix())));
            }
            // an evaluated class's (or defined resource's) code has read its parameters
            if matches!(r.kind, Kind::Class | Kind::Define) && r.evaluated {
                let defined_at = Origin { file: r.file.clone(), line: Some(r.at.line).filter(|l| *l > 0) }.suffix();
                let message = match defined_at.trim_start() {
                    "" => "Attempt to override an already evaluated resource with new values".to_owned(),
                    at => {
                        format!("Attempt to override an already evaluated resource, defined at {at}, with new values")
                    }
                };
                match self.options.strict {
                    Strict::Off => {}
                    Strict::Warning => self.log(Level::Warning, format!("{message}{}", origin.suffix())),
                    Strict::Error => return Err(bare(format!("{message}{}", origin.suffix()))),
                }
            }
        }
        let Some(r) = self.compiler.catalog.get_mut(&o.key.0, &o.key.1) else { return Ok(false) };
        for p in &o.params {
            // `+>` adds to the value the resource has; without one it sets the value as it is
            // (`override_parameter`)
            if let (true, Some(old)) = (p.append, r.params.get(&p.name).cloned()) {
                let mut items: Vec<Value> = flatten(&old);
                items.extend(flatten(&p.value));
                r.set_param(p.name.clone(), Value::array(items), p.origin.clone());
            } else if p.append {
                r.set_param(p.name.clone(), p.value.clone(), p.origin.clone());
            } else if p.value.is_undef() {
                r.params.shift_remove(&p.name);
            } else {
                r.set_param(p.name.clone(), p.value.clone(), p.origin.clone());
            }
        }
        Ok(true)
    }

    /// Whether the code of container `source` may override what the code of `container`
    /// declared: the same class or defined type (Puppet's resource source), or a class
    /// inheriting from that class.
    fn may_override(&self, source: &str, container: &str) -> bool {
        let split = |reference: &str| -> Option<(String, String)> {
            let (type_name, rest) = reference.split_once('[')?;
            Some((type_name.to_lowercase(), rest.strip_suffix(']')?.to_lowercase()))
        };
        let (Some((source_type, source_title)), Some((type_name, title))) = (split(source), split(container)) else {
            return true;
        };
        if source_type != type_name {
            return false;
        }
        // the instances of a defined type share its code
        if type_name != "class" || source_title == title {
            return type_name != "node" || source_title == title;
        }
        let mut class = source_title;
        for _ in 0..1000 {
            let parent = self.compiler.classes_defs.get(&class).and_then(|d| d.parent.clone());
            match parent {
                Some(parent) => {
                    class = parent.trim_start_matches("::").to_lowercase();
                    if class == title {
                        return true;
                    }
                }
                None => return false,
            }
        }
        false
    }

    /// The resource defaults (`File { mode => ... }`) a resource of type `lower` declared now
    /// takes (`Scope#lookupdefaults` when Puppet creates it): those of the current scope
    /// and the scopes around it, the nearest first. A defined resource's scope looks on in
    /// the scope that declared it; defaults declared later do not count.
    fn defaults_here(&self, lower: &str) -> Attributes {
        self.defaults_in(&self.scope, lower)
    }

    /// The resource defaults for type `lower` in `scope` and the scopes around it.
    fn defaults_in(&self, scope: &Rc<Scope>, lower: &str) -> Attributes {
        let mut found = Attributes::default();
        if self.compiler.catalog.defaults.is_empty() {
            return found;
        }
        let mut scope = Some(scope.clone());
        // a chain of scopes is finite; the bound only guards against a cycle
        for _ in 0..10_000 {
            let Some(s) = scope else { break };
            let key = Rc::as_ptr(&s) as usize;
            if let Some(d) = self.compiler.catalog.defaults.get(&key).and_then(|d| d.by_type.get(lower)) {
                for (k, v) in &d.values {
                    if !found.contains_key(k) {
                        found.insert(k.clone(), v.clone(), d.origins.get(k).cloned().unwrap_or_default());
                    }
                }
            }
            scope = self.compiler.catalog.defaults_parent.get(&key).cloned().or_else(|| s.parent());
        }
        found
    }
}

/// A resource statement's error without a position: Puppet's prefix and the statement's
/// position.
pub(super) fn statement_error(flow: Flow, at: Span) -> Flow {
    match flow {
        Flow::Error(mut e) if e.at.is_none() && !e.bare => {
            e.message = format!("Error while evaluating a Resource Statement, {}", e.message);
            e.at = Some(at);
            Flow::Error(e)
        }
        other => other,
    }
}

/// The name that makes a core resource unique when it differs from its title (Puppet's
/// `uniqueness_key` of isomorphic types): a file's path without trailing slashes, a package's
/// `[provider, name, command]`, another type's namevar. Exec is not unique by its command.
/// With how Puppet prints it in its alias error.
pub(super) fn uniqueness_key(lower: &str, r: &Resource) -> Option<(String, String)> {
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
pub(super) fn parse_reference(text: &str) -> Option<(String, String)> {
    let (t, rest) = text.split_once('[')?;
    let title = rest.strip_suffix(']')?;
    let title = title.trim_matches(|c| c == '\'' || c == '"');
    if t.is_empty() || !t.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    Some((t.to_owned(), title.to_owned()))
}
