//! The catalog compiler (`Puppet::Parser::Compiler`): its state beside the evaluator's, making a
//! program's classes, defined types and nodes known before it runs, evaluating the node
//! definition, and finishing the catalog when the program's statements are done (defined
//! resources, collectors, defaults, relationships). The work of each kind of catalog
//! expression is in its own module beside this one: `resources.rs`, `classes.rs`,
//! `relationships.rs`.

use std::collections::HashMap;
use std::rc::Rc;

use puppet_syntax::ast::{Expr, ExprKind};
use puppet_syntax::Span;
use puppet_types::display::capitalize_segments;
use puppet_types::Value;

use super::relationships::Operand;
use crate::catalog::{self, Catalog, Container, Definition, Kind, Resource};
use crate::error::{bare, fail, Eval, Flow};
use crate::eval::Evaluator;
use crate::scope::Scope;

/// The catalog compiler's state, beside the evaluator's: the catalog being compiled, what
/// programs have defined (classes, defined types, nodes), the container code is evaluated in,
/// and the work left for the end of compilation (relationships to resolve).
#[derive(Clone)]
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
    pub(super) pending_relationships: Vec<(Operand, Operand, bool, Span)>,
    /// What a collector on the right of a relationship stands for when it collects nothing.
    pub(super) collector_alternatives: HashMap<usize, Operand>,
    /// The node's name (`--node`).
    pub node_name: String,
    /// The class or defined resource being evaluated (`Class[main]` at the top).
    pub(crate) container: Container,
    /// The scope of the evaluated node definition (the parent of the classes it declares).
    pub(crate) node_scope: Option<Rc<Scope>>,
    /// A definition error found while making a program's definitions known.
    pub(crate) definition_error: Option<String>,
    /// Declaring through `create_resources` (its errors name no file).
    pub(crate) created_by_function: bool,
    /// Puppet's settings, as the settings class's scope holds them.
    pub(crate) settings: Rc<puppet_types::value::Hash>,
    /// Where a program's own `class settings` is: defined and not run yet, or run.
    pub(crate) settings_code: SettingsCode,
}

/// A program's own `class settings`, whose code Puppet runs when the compile starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SettingsCode {
    None,
    Defined,
    Run,
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
            node_scope: None,
            definition_error: None,
            created_by_function: false,
            settings: Rc::default(),
            settings_code: SettingsCode::None,
        }
    }
}

impl Evaluator {
    // ---- declarations

    // ---- classes

    // ---- defined types

    // ---- defaults, overrides, relationships, collectors

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
            // Defined resources, and classes a declaration added but left (a return() in
            // a parameter's default ended `include a, b` before `b`).
            let pending: Vec<usize> = (0..self.compiler.catalog.len())
                .filter(|&i| {
                    let r = self.compiler.catalog.at(i);
                    (r.kind == Kind::Define || r.type_name.as_ref() == "Class") && !r.evaluated && !r.virtual_
                })
                .collect();
            for index in pending {
                done = false;
                if self.compiler.catalog.at(index).kind == Kind::Define {
                    self.evaluate_define(index)?;
                } else {
                    let title = self.compiler.catalog.at(index).title.clone();
                    self.evaluate_class_body(&title)?;
                }
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
            if !self.apply_override(&o)? {
                return Err(bare(format!(
                    "Could not find resource(s) {} for overriding",
                    catalog::reference(&capitalize_segments(&o.key.0), &o.key.1)
                )));
            }
        }
        self.check_unevaluated_defines()?;
        self.check_parameters()?;
        self.compiler.catalog.finish_tags_and_metaparameters();
        Ok(())
    }

    // ---- definitions

    /// Keeps a program's classes, defined types and node definitions.
    pub(crate) fn define_catalog_entities(&mut self, statements: &[Expr]) {
        let mut seen = HashMap::new();
        self.define_entities_in(statements, &mut seen);
    }

    /// Records a definition of this program; a second one of the name is Puppet's error.
    pub(super) fn note_definition(
        &mut self,
        seen: &mut HashMap<String, (bool, u32)>,
        name: &str,
        class: bool,
        line: u32,
    ) {
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

    pub(super) fn define_entities_in(&mut self, statements: &[Expr], seen: &mut HashMap<String, (bool, u32)>) {
        for statement in statements {
            match &statement.kind {
                ExprKind::Class { name, parameters, parent, body } => {
                    self.note_definition(seen, name, true, statement.at.line);
                    if name.trim_start_matches("::").eq_ignore_ascii_case("settings")
                        && self.compiler.settings_code == SettingsCode::None
                    {
                        self.compiler.settings_code = SettingsCode::Defined;
                    }
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
                            ms.iter().any(|x| {
                                matches!(&x.kind, ExprKind::String(n) if n.to_lowercase() == name)
                                    || matches!(&x.kind, ExprKind::QualifiedName(n) if n.to_lowercase() == name)
                            })
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
                    ExprKind::String(name) if name.eq_ignore_ascii_case("default") => {
                        default = default.or(Some(def.clone()))
                    }
                    ExprKind::Regex(source) => {
                        let re = puppet_types::regexp::Regexp::new(source.as_str());
                        if regex.is_none() {
                            if let Some(groups) = crate::eval::match_groups(&re, &node) {
                                regex = Some((def.clone(), regex_node_name(source), groups));
                            }
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
        let (def, name, groups) = match (exact, regex, default) {
            (Some(def), _, _) => (def, node.to_lowercase(), None),
            (None, Some((def, name, groups)), _) => (def, name, Some(groups)),
            (None, None, Some(def)) => (def, "default".to_owned(), None),
            (None, None, None) => {
                return Err(bare(format!("Could not find node statement with name 'default' or '{node}'")));
            }
        };
        let node_resource = Resource {
            declarer: self.container_index(),
            ..Resource::new("Node", &name, Kind::Class, def.at, self.top.clone())
        };
        if let Ok(index) = self.compiler.catalog.add(node_resource) {
            self.compiler.catalog.take_class_tags(index);
            self.compiler.catalog.take_scope_tags(index);
            self.compiler.catalog.classes.push(name.clone());
        }
        let scope = Scope::local(&self.top);
        self.compiler.node_scope = Some(scope.clone());
        self.in_container(Container::new("Node", &name), def.file.clone(), scope, |ev| {
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
        .map_err(|flow| match flow {
            // Nothing catches a break() out of a node's body: Puppet reports the exception
            // by its class. next() and return() are the program's illegal contexts.
            Flow::Break(_) => bare("Puppet::Pops::Evaluator::PuppetStopIteration"),
            other => other,
        })
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
pub(super) fn regex_node_name(source: &str) -> String {
    let kept: String =
        source.to_lowercase().chars().filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')).collect();
    format!("__node_regexp__{}", kept.trim_start_matches('.'))
}
