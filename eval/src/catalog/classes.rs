//! Classes and defined types (`Puppet::Resource::Type`, `Puppet::Parser::Compiler`): declaring
//! (`include`, `contain`, `require`, `class { ... }`), evaluating a class body once in its own
//! scope with its parameters bound (given, from Hiera, or defaults), tags, and evaluating
//! defined resources after the main program.

use std::rc::Rc;

use indexmap::IndexMap;
use puppet_syntax::ast::Parameter;
use puppet_syntax::Span;
use puppet_types::display::value_to_s;
use puppet_types::{Type, Value};

use super::compiler::{in_file, SettingsCode};
use super::relationships::reference_value;
use crate::catalog::{self, valid_tag, Attributes, Container, Kind, Resource};
use crate::error::{bare, fail, Eval, Flow};
use crate::eval::Evaluator;
use crate::scope::Scope;

impl Evaluator {
    /// `include name`: evaluates the class unless it has been.
    pub fn include_class(&mut self, name: &str, at: Span) -> Eval<Value> {
        let lower = name.trim_start_matches("::").to_lowercase();
        if self.compiler.catalog.position("Class", &lower).is_none() {
            self.evaluate_class(&lower, None, at)?;
        }
        Ok(reference_value("Class", &lower))
    }

    /// Adds the classes not in the catalog yet (not evaluated: Puppet's
    /// `ensure_classes_without_parameters`); their lower-case names.
    pub fn add_classes(&mut self, names: &[String], at: Span) -> Eval<Vec<String>> {
        let mut added = Vec::new();
        for name in names {
            let lower = name.trim_start_matches("::").to_lowercase();
            if self.compiler.catalog.position("Class", &lower).is_none() {
                self.add_class(&lower, None, at, false)?;
                added.push(lower);
            }
        }
        Ok(added)
    }

    /// `contain`'s containment edge, from what is being evaluated to the class (once).
    pub fn contain_class(&mut self, name: &str) {
        let edge = (
            self.compiler.container.reference(),
            catalog::reference("Class", &name.trim_start_matches("::").to_lowercase()),
        );
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

    /// `tag(names)`: the container takes the tags (and so what it declares, before or after,
    /// when that takes its declarer's tags).
    pub fn add_tags(&mut self, names: &[String]) -> Eval<()> {
        for name in names {
            let tag = name.to_lowercase();
            if !valid_tag(&tag) {
                return Err(fail(format!("Invalid tag '{name}'")));
            }
            if let Some(index) = self.container_index() {
                self.compiler.catalog.at_mut(index).take_tags([&tag]);
            }
        }
        Ok(())
    }

    /// The catalog index of the class, defined resource or node being evaluated.
    pub(super) fn container_index(&self) -> Option<usize> {
        let container = &self.compiler.container;
        self.compiler.catalog.position(&container.type_name, &container.title)
    }

    /// `tagged(names)`: whether each tag is the catalog's (a declared class's) or the
    /// container's (its own, those `tag` gave it, those of its declarers).
    pub fn has_tags(&self, names: &[String]) -> bool {
        let catalog = &self.compiler.catalog;
        let container = self.container_index();
        names.iter().map(|n| n.to_lowercase()).all(|tag| {
            catalog.tags.contains(&tag) || container.is_some_and(|c| catalog.raw_tagged(c, std::slice::from_ref(&tag)))
        })
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
    pub(super) fn declare_class_like(&mut self, name: &str, params: Attributes, at: Span) -> Eval<Value> {
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
                return Err(fail(format!(
                    "Could not find stage {stage} specified by {}",
                    catalog::reference("Class", &lower)
                )));
            }
        }
        self.add_class(&lower, Some(params), at, true)?;
        self.evaluate_class_body(&lower)?;
        Ok(reference_value("Class", &lower))
    }

    /// Adds `Class[name]` to the catalog and evaluates the class's body in its own scope
    /// (its parent class first).
    pub(super) fn evaluate_class(&mut self, lower: &str, params: Option<Attributes>, at: Span) -> Eval<()> {
        self.add_class(lower, params, at, false)?;
        self.evaluate_class_body(lower)
    }

    /// Adds `Class[name]` to the catalog (its parent first), not evaluated yet. `located`:
    /// declared by a resource expression (a duplicate then names where).
    pub(super) fn add_class(&mut self, lower: &str, params: Option<Attributes>, at: Span, located: bool) -> Eval<()> {
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
            declared_tags: params.values.get("tag").map(catalog::flatten).unwrap_or_default(),
            params: params.values,
            origins: params.origins,
            evaluated: false,
            container: catalog::reference("Stage", &stage).into(),
            ..self.new_resource("Class", lower, Kind::Class, at)
        };
        if let Ok(index) = self.compiler.catalog.add(resource) {
            self.compiler.catalog.take_class_tags(index);
        }
        Ok(())
    }

    /// Evaluates an added class's body (its parent's first) in the class's own scope.
    pub(super) fn evaluate_class_body(&mut self, lower: &str) -> Eval<()> {
        let Some(index) = self.compiler.catalog.position("Class", lower) else { return Ok(()) };
        if self.compiler.catalog.at(index).evaluated {
            return Ok(());
        }
        self.compiler.catalog.at_mut(index).evaluated = true;
        self.compiler.catalog.take_scope_tags(index);
        let Some(def) = self.compiler.classes_defs.get(lower).cloned() else { return Ok(()) };
        let parent_scope = match &def.parent {
            Some(parent) => {
                let parent = parent.trim_start_matches("::").to_lowercase();
                self.evaluate_class_body(&parent)?;
                self.compiler.class_scopes.get(&parent).cloned().unwrap_or_else(|| self.top.clone())
            }
            None => self.compiler.node_scope.clone().unwrap_or_else(|| self.top.clone()),
        };
        self.compiler.catalog.classes.push(lower.to_owned());
        let given = std::mem::take(&mut self.compiler.catalog.at_mut(index).params);
        // Puppet's `parent_module_name`: the module of the parent class, or of the code that
        // declared the class.
        let caller =
            if def.parent.is_some() { parent_scope.clone() } else { self.compiler.catalog.at(index).scope.clone() };
        let scope = Scope::local(&parent_scope);
        self.compiler.catalog.defaults_parent.insert(Rc::as_ptr(&scope) as usize, self.scope.clone());
        self.compiler.class_scopes.insert(lower.to_owned(), scope.clone());
        let reference = catalog::reference("Class", lower);
        self.in_container(Container::new("Class", lower), def.file.clone(), scope, |ev| {
            ev.bind_module_name(lower);
            ev.bind_caller_module_name(&caller);
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
            let mut bound = ev
                .bind_definition_parameters(&def.parameters, given, &reference, true)
                .map_err(|flow| break_in_defaults(flow, &def))?;
            bound.extend(metaparams);
            ev.compiler.catalog.at_mut(index).params = bound;
            body_supporting_return(ev, def.body.as_ref())
        })
    }

    /// Evaluates a class's, defined resource's or node's code: `f` runs in `scope` with its
    /// own match frames, as the container `reference` (what its resources are contained
    /// in and declared by), with `file` for its errors' positions.
    pub(super) fn in_container<T>(
        &mut self,
        container: Container,
        file: Option<Rc<str>>,
        scope: Rc<Scope>,
        f: impl FnOnce(&mut Self) -> Eval<T>,
    ) -> Eval<T> {
        let saved = std::mem::replace(&mut self.compiler.container, container);
        let saved_file = std::mem::replace(&mut self.loader.current_file, file.clone());
        let result = self.in_definition_scope(scope, f);
        self.compiler.container = saved;
        self.loader.current_file = saved_file;
        result.map_err(|flow| in_file(flow, file.as_ref()))
    }

    /// Makes `Class[main]` the container (a Puppet function's body is evaluated in the top
    /// scope, whose resource that is); `None` when it is already. Give what it returns back
    /// to [`Evaluator::leave_main_container`].
    pub(crate) fn enter_main_container(&mut self) -> Option<Container> {
        if self.compiler.container.is_main() {
            return None;
        }
        Some(std::mem::replace(&mut self.compiler.container, Container::main()))
    }

    /// Back to the container [`Evaluator::enter_main_container`] left.
    pub(crate) fn leave_main_container(&mut self, container: Container) {
        self.compiler.container = container;
    }

    /// `$module_name` in the scope of a class or defined type loaded from a module.
    pub(super) fn bind_module_name(&mut self, name: &str) {
        let module = self.module_of(name);
        if !module.is_empty() {
            self.scope.bind("module_name".into(), Value::from(module.as_str()));
        }
    }

    /// `$caller_module_name` in the scope of a class or defined type: the module of the code
    /// whose scope is `caller` (the declaring code, or the parent class), when it has one.
    pub(super) fn bind_caller_module_name(&mut self, caller: &Rc<Scope>) {
        if let Some(Value::String(module)) = &caller.get("module_name") {
            if !module.is_empty() {
                self.scope.bind("caller_module_name".into(), Value::String(module.clone()));
            }
        }
    }

    /// Runs `f` with `scope` as the current scope and its own match frames.
    pub(super) fn in_definition_scope<T>(&mut self, scope: Rc<Scope>, f: impl FnOnce(&mut Self) -> Eval<T>) -> Eval<T> {
        let saved = std::mem::replace(&mut self.scope, scope);
        let result = self.with_function_match_frames(f);
        self.scope = saved;
        result
    }

    /// Automatic parameter lookup: the values Hiera data has for the class's parameters that
    /// were not given (`CLASS::PARAM`). A value of `undef` is kept only for a parameter
    /// without a default, as Puppet does not let it override a default.
    pub(super) fn class_parameter_data(
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
    /// mismatches in parameter order (a value with several mismatches, as a hash with several
    /// wrong entries, gives one problem for each). With `metaparameters`, a resource's
    /// metaparameters (`tag`, `require`) are not unknown names (a template's parameters have
    /// none).
    pub(crate) fn bind_definition_parameters(
        &mut self,
        parameters: &[Parameter],
        mut given: IndexMap<Rc<str>, Value>,
        reference: &str,
        metaparameters: bool,
    ) -> Eval<IndexMap<Rc<str>, Value>> {
        let mut problems: Vec<String> = given
            .keys()
            .filter(|k| {
                let metaparameter = metaparameters && crate::resource_types::metaparameter(k).is_some();
                !metaparameter && !parameters.iter().any(|p| p.name == ***k)
            })
            .map(|name| format!("has no parameter named '{name}'"))
            .collect();
        let names: Vec<Rc<str>> = parameters.iter().map(|p| Rc::from(p.name.as_str())).collect();
        for name in &names {
            if let Some(v) = given.get(name) {
                self.scope.bind(name.clone(), v.clone());
            }
        }
        let given_order: Vec<Rc<str>> = given.keys().cloned().collect();
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
                    problems.extend(puppet_types::mismatch::describe_value_each(&subject, &t, &value));
                    continue;
                }
            }
            bound.insert(name.clone(), value);
        }
        // The resource has the given values in the order given, then the defaults.
        let mut ordered: IndexMap<Rc<str>, Value> =
            given_order.iter().filter_map(|k| bound.shift_remove_entry(k)).collect();
        ordered.extend(bound);
        match problems.as_slice() {
            [] => Ok(ordered),
            [one] => Err(fail(format!("{reference}: {one}"))),
            many => Err(fail(format!("{reference}:\n  {}", many.join("\n  ")))),
        }
    }

    /// Checks the defined resources never evaluated (virtual, or exported, and not realized)
    /// as Puppet's `validate_resource` does when it finishes the catalog: the parameters they
    /// were given against their type's, with no default evaluated (a parameter with a default
    /// may be left out). The first problem is an error without position.
    pub(super) fn check_unevaluated_defines(&mut self) -> Eval<()> {
        for index in 0..self.compiler.catalog.len() {
            let r = self.compiler.catalog.at(index);
            if r.kind != Kind::Define || r.evaluated {
                continue;
            }
            let (reference, params) = (r.reference(), r.params.clone());
            let Some(def) = self.compiler.defines.get(&r.type_name.to_lowercase()).cloned() else { continue };
            let mut problems: Vec<String> = params
                .keys()
                .filter(|k| {
                    &***k != "name"
                        && !def.parameters.iter().any(|p| p.name == ***k)
                        && crate::resource_types::metaparameter(k).is_none()
                })
                .map(|name| format!("has no parameter named '{name}'"))
                .collect();
            for p in &def.parameters {
                let value = match params.get(p.name.as_str()) {
                    Some(v) if !v.is_undef() => v,
                    _ if p.value.is_some() => continue,
                    _ => {
                        problems.push(format!("expects a value for parameter '{}'", p.name));
                        continue;
                    }
                };
                let Some(type_expr) = &p.type_expr else { continue };
                let t = match &self.eval(type_expr)? {
                    Value::Type(t) => (**t).clone(),
                    _ => Type::Any,
                };
                if !puppet_types::instance::is_instance(&t, value) {
                    let subject = format!("parameter '{}'", p.name);
                    problems.push(puppet_types::mismatch::describe_value(&subject, &t, value));
                }
            }
            match problems.as_slice() {
                [] => {}
                [one] => return Err(bare(format!("{reference}: {one}"))),
                many => return Err(bare(format!("{reference}:\n  {}", many.join("\n  ")))),
            }
        }
        Ok(())
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

    /// The value of `$class::variable` (`Scope#lookup_qualified_variable`): a variable of the
    /// evaluated class's own scope, else of the class it inherits from (not the top scope's).
    pub(crate) fn qualified_variable(&self, name: &str) -> Option<Value> {
        let name = name.trim_start_matches("::");
        let (class, var) = name.rsplit_once("::")?;
        let mut class = class.to_lowercase();
        // A class cannot inherit from itself, through any chain: the loop is bounded anyway.
        for _ in 0..1000 {
            if let Some(v) = self.compiler.class_scopes.get(&class)?.get_own(var) {
                return Some(v);
            }
            class = self.compiler.classes_defs.get(&class)?.parent.as_deref()?.trim_start_matches("::").to_lowercase();
        }
        None
    }

    /// Whether `$class::variable` exists (`Scope#exist?`): `::x` at the top; otherwise the
    /// class is evaluated and its scope sees the variable, its own or an enclosing scope's
    /// (`defined('$settings::facts')` is true), or it is `module_name`/`caller_module_name`.
    pub(crate) fn qualified_variable_exists(&self, name: &str) -> bool {
        let Some((class, var)) = name.rsplit_once("::") else { return false };
        if class.is_empty() {
            return matches!(var, "module_name" | "caller_module_name") || self.top.get(var).is_some();
        }
        let class = class.trim_start_matches("::").to_lowercase();
        match self.compiler.class_scopes.get(&class) {
            Some(scope) => scope.get(var).is_some() || matches!(var, "module_name" | "caller_module_name"),
            None => false,
        }
    }

    /// Makes the settings class known (`Compiler#create_settings_scope`): a class named
    /// `settings`, evaluated before anything else, whose scope holds every setting and its
    /// `$name` and `$title` (and not `$settings::all_local`, which only the qualified
    /// name reaches).
    pub fn install_settings_class(&mut self, settings: &puppet_types::value::Hash) {
        let def = catalog::Definition {
            name: "settings".into(),
            parameters: Vec::new(),
            parent: None,
            body: None,
            at: Span::default(),
            file: None,
        };
        self.compiler.classes_defs.insert("settings".into(), Rc::new(def));
        self.compiler.settings = Rc::new(settings.clone());
        let scope = Scope::many(&self.top);
        self.merge_settings(&scope);
        self.compiler.class_scopes.insert("settings".into(), scope);
    }

    /// The settings, `$name` and `$title` in the settings class's scope (`merge_settings`),
    /// replacing what its code set.
    fn merge_settings(&self, scope: &Scope) {
        for (k, v) in self.compiler.settings.iter() {
            if let Value::String(name) = k {
                scope.replace(name, v.clone());
            }
        }
        scope.replace("name", Value::from("settings"));
        scope.replace("title", Value::from("settings"));
    }

    /// A program's own `class settings`: Puppet runs its code when the compile starts
    /// (`create_settings_scope`), before the main class, in a scope of the top scope, with
    /// its parameters' defaults and without its parent class; the settings are merged into
    /// that scope afterwards.
    pub(crate) fn run_settings_code(&mut self) -> Eval<()> {
        if self.compiler.settings_code != SettingsCode::Defined {
            return Ok(());
        }
        self.compiler.settings_code = SettingsCode::Run;
        let Some(def) = self.compiler.classes_defs.get("settings").cloned() else { return Ok(()) };
        let scope = Scope::many(&self.top);
        self.compiler.class_scopes.insert("settings".into(), scope.clone());
        // `$settings::x` names only the class's own variables until the merge
        let qualified: Vec<(String, Value)> = ["all_local", "name", "title"]
            .into_iter()
            .map(str::to_owned)
            .chain(self.compiler.settings.keys().filter_map(|k| k.as_str().map(str::to_owned)))
            .filter_map(|name| {
                let key = format!("settings::{name}");
                self.top.remove(&key).map(|v| (key, v))
            })
            .collect();
        let reference = catalog::reference("Class", "settings");
        let index = self.compiler.catalog.position("Class", "settings");
        let result = self.in_container(Container::new("Class", "settings"), def.file.clone(), scope.clone(), |ev| {
            ev.bind_module_name("settings");
            ev.scope.bind("title".into(), Value::from("settings"));
            ev.scope.bind("name".into(), Value::from("settings"));
            let bound = ev
                .bind_definition_parameters(&def.parameters, IndexMap::new(), &reference, true)
                .map_err(|flow| break_in_defaults(flow, &def))?;
            if let Some(index) = index {
                ev.compiler.catalog.at_mut(index).params = bound;
            }
            body_supporting_return(ev, def.body.as_ref())
        });
        self.merge_settings(&scope);
        for (key, value) in qualified {
            self.top.replace(&key, value);
        }
        result
    }

    /// Evaluates one defined resource's body.
    pub(super) fn evaluate_define(&mut self, index: usize) -> Eval<()> {
        let r = self.compiler.catalog.at(index).clone();
        self.compiler.catalog.at_mut(index).evaluated = true;
        let lower = r.type_name.to_lowercase();
        let Some(def) = self.compiler.defines.get(&lower).cloned() else { return Ok(()) };
        let scope = Scope::local(&self.top);
        self.compiler.catalog.defaults_parent.insert(Rc::as_ptr(&scope) as usize, r.scope.clone());
        self.compiler.catalog.take_scope_tags(index);
        let reference = r.reference();
        let container = Container::new(&r.type_name, &r.title);
        let result = self.in_container(container, def.file.clone(), scope, |ev| {
            ev.scope.bind("title".into(), Value::String(r.title.clone()));
            ev.bind_module_name(&lower);
            ev.bind_caller_module_name(&r.scope);
            ev.scope.bind("name".into(), r.params.get("name").cloned().unwrap_or(Value::String(r.title.clone())));
            let mut given = r.params.clone();
            given.shift_remove("name");
            let bound = ev
                .bind_definition_parameters(&def.parameters, given, &reference, true)
                .map_err(|flow| break_in_defaults(flow, &def))?;
            // The defaults are the resource's parameters too (`assign_defaults`), but undef
            // ones, which set nothing.
            let resource = ev.compiler.catalog.at_mut(index);
            for (name, value) in bound.into_iter().filter(|(_, v)| !v.is_undef()) {
                if resource.params.get(&name).is_none_or(Value::is_undef) {
                    resource.insert_param(name, value);
                }
            }
            body_supporting_return(ev, def.body.as_ref())
        });
        result.map(drop).map_err(|flow| match flow {
            // Puppet's `evaluate_definitions` reports a break() apart, where it was called.
            Flow::Break(at) => Flow::error(crate::error::EvalError::new(
                "Evaluation Error: Error while evaluating an Object, break() from context where this is illegal",
                *at,
            )),
            // A next() or return() outside the body (in a parameter's default value) has
            // nothing to end: the resource statement's error.
            Flow::Next(exit) => define_error(illegal_outside("next", exit.at), &r),
            Flow::Return(exit) => define_error(illegal_outside("return", exit.at), &r),
            other => define_error(other, &r),
        })
    }
}

/// A class's or defined type's body, as Puppet's `ExpressionSupportingReturn`: `next()` and
/// `return()` end it (anywhere in it, also in a lambda), their value dropped; `break()`
/// goes on to an iteration around the declaration, or is an error.
fn body_supporting_return(ev: &mut Evaluator, body: Option<&puppet_syntax::ast::Expr>) -> Eval<()> {
    match body.map(|b| ev.eval(b)) {
        None | Some(Ok(_)) | Some(Err(Flow::Next(_) | Flow::Return(_))) => Ok(()),
        Some(Err(other)) => Err(other),
    }
}

/// A `break()` in a parameter's default value: Puppet's resource type wraps the exception,
/// naming it by its class, at the definition's line.
fn break_in_defaults(flow: Flow, def: &catalog::Definition) -> Flow {
    match flow {
        Flow::Break(_) => fail(format!(
            "Puppet::Resource::Type failed with error {STOP}: {STOP} (line: {})",
            def.at.line,
            STOP = "Puppet::Pops::Evaluator::PuppetStopIteration"
        )),
        other => other,
    }
}

/// `next()` or `return()` where nothing catches it, as the error Puppet raises then:
/// `return() from context where this is illegal (file: unknown, line: N)`, the line its call's.
fn illegal_outside(what: &str, at: Span) -> Flow {
    fail(format!("{what}() from context where this is illegal (file: unknown, line: {})", at.line))
}

/// An error while evaluating a defined resource, as Puppet reports it: wrapped in the
/// resource statement's prefix with the declaration's line (and the inner error's text).
pub(super) fn define_error(flow: Flow, r: &Resource) -> Flow {
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
