//! The catalog a program compiles to, as Puppet 7.23's compiler builds it
//! (`Puppet::Parser::Compiler`, `Puppet::Resource::Catalog`): resources in the order they
//! were added, each with its parameters, plus what compilation still has to do when the
//! program's statements are done (defined resources to evaluate, collectors, relationships,
//! overrides). Nothing is ever applied to the host.
//!
//! The catalog compiler's one home:
//! - this module: the catalog's data (resources, containers, definitions, collectors);
//! - `compiler.rs`: the compiler's state ([`Compiler`]), definitions made known, the node,
//!   finishing the catalog;
//! - `resources.rs`, `classes.rs`, `relationships.rs`: evaluating each kind of catalog
//!   expression;
//! - `functions.rs`: the built-in functions about the catalog (`include`, `contain`,
//!   `require`, `realize`, `create_resources`, `tag`, `tagged`, `defined`).
//!
//! Puppet's rules as reproduced here:
//! - **The catalog's order**: `Stage[main]`, `Class[Settings]`, `Class[main]` first, as
//!   Puppet's; lists leave those three out. Then resources in the order they were added.
//! - **Declarations**: titles (arrays flattened, each checked), bodies, a `default:` body,
//!   `* =>` splats, `@` virtual (in the catalog only once realized) and `@@` exported (kept,
//!   with Puppet's storeconfigs warning). A core type's parameters are checked against
//!   [`resource_types`](crate::resource_types) when the catalog is finished, as Puppet does;
//!   duplicates and uniqueness keys (a file's path without trailing slashes, a package's
//!   `[provider, name, command]`, `alias`) give Puppet's messages.
//! - **Timing is Puppet's**: resource defaults are read when an attribute is read and applied
//!   at the end, dynamically scoped (a class takes the defaults of where it was included, a
//!   defined resource those of where it was declared); an override of a declared resource
//!   merges at once, one of a resource not declared yet waits for the end; defined resources
//!   and collectors run after the program in the generator loop (collectors, then defined
//!   bodies, until nothing changes), then relationships, overrides, defaults and checks.
//! - **Classes**: `include`/`require`/`contain` and `class { 'x': }` add `Class[X]` (a parent
//!   first), then evaluate the body in the class's own scope (the parent class's, the node's,
//!   or the top scope), binding parameters as Puppet's ParameterScope does (given values, then
//!   Hiera data, then defaults in order; a default reading a parameter with no value yet is
//!   Puppet's error). `$x::y` reads an evaluated class's scope.
//! - **Nodes**: the node name (`--node`, default `testnode`) matches an exact name, then the
//!   first regular expression, then `default`; classes declared in the node see its scope.
//! - **Relationships** (`->` `~>` `<-` `<~`, collectors on either side) become `before` /
//!   `notify` metaparameters at the end.
//! - **Errors Puppet raises after evaluation** (parameter checks, missing relationship targets,
//!   failed realizations) have no prefix or position: `error::bare` marks them, callers that
//!   place positionless errors leave them alone, and the session reports them as they are.
//! - **Run stages and containment**: every class is contained in its run stage (the `stage` it
//!   is declared with, else its declarer's, else `Stage[main]`); other resources in the class
//!   or defined resource evaluating them; `contain` adds an edge. Only classes may set `stage`.
//!   The order stages impose is only what their relationships say (nothing is applied).
//! - **Where a parameter was set**: each resource keeps its parameters' origins (the file and
//!   line of the attribute, default, override or collector; none for what a function gave, as
//!   `create_resources`), which the missing-relationship-target error names, as Puppet's
//!   `Param#file`/`#line`.
//! - **Resource defaults** (`File { mode => ... }`) apply when a resource is declared, from its
//!   scope and the scopes around it (a defined resource's scope looks on where it was
//!   declared): a default declared later does not apply, though `File['x']['mode']` reads it.
//! - **Tags** ([`Resource::all_tags`], Puppet's `Tagging`): a resource's given `tag` values,
//!   its type, its title when that is a tag, then the tags it takes in the order it takes
//!   them, each `a::b` bringing `a` and `b`: a default's or an override's `tag` when set, and
//!   its declarer's tags (Puppet's `scope.resource`, the class, defined resource or node whose
//!   code declared it; a class's too) once ([`Catalog::take_scope_tags`]): a class or defined
//!   resource when its code is evaluated, any other when the catalog is finished. `tag()`
//!   tags the container, so what it declared before takes the tag too; a class included again
//!   keeps the tags of where it was first declared. Collectors and `tagged` ask through the
//!   declarers ([`Catalog::raw_tagged`]); `tagged` also knows the catalog's tags (every
//!   declared class's own).
//! - **Classes** are listed in the order their code ran (a parent's first, then what it
//!   includes, then the class: Puppet's `add_class` in `evaluate_code`).
//! - **Finishing** (Puppet's `Compiler#finish`): defined resources never evaluated (virtual or
//!   exported) have their given parameters checked; each resource not evaluated takes its
//!   declarer's tags as they are at the end, in the order they were declared; the containment
//!   walk from `Class[main]` gives contained resources their containers' metaparameters
//!   (`noop`, `tag`, ...) and tags.
//! - **Output**: `poppet --catalog json` prints the catalog as Puppet's JSON catalog
//!   ([`Catalog::to_json`], `to_data_hash` without rich data: Sensitive parameters unwrapped
//!   and named in `sensitive_parameters`, other values as text); the shell's `:catalog` lists
//!   resources in Puppet syntax and the edges. Whole catalogs are compared with Puppet's in
//!   the golden suite `eval/tests/golden_catalog/` (`cargo xtask record catalog`); the
//!   golden suite's `catalog_*.txt` programs check resources and edges, and
//!   `repl/tests/catalog_edges.txt` (`cargo xtask gen catalog-edges`) containment, classes
//!   and tags.

use std::collections::HashMap;
use std::rc::Rc;

use indexmap::IndexMap;
use puppet_syntax::ast::{AttributeOp, Expr, Parameter};
use puppet_syntax::Span;
use puppet_types::display::capitalize_segments;
use puppet_types::Value;

use crate::scope::Scope;

mod classes;
pub mod compiler;
pub(crate) mod functions;
mod relationships;
mod resources;
pub mod validate;

pub use compiler::Compiler;
pub use relationships::reference_value;

/// What kind of resource type a resource has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A core type (`file`, `notify`): its parameters are checked against its schema.
    Builtin,
    /// A defined type: its body is evaluated once per resource, after the main program.
    Define,
    /// A class: evaluated when declared.
    Class,
}

/// What code is being evaluated as: a class, a defined resource or a node (`Class[main]` at
/// the top). Its resources are contained in it; `require` and `tagged` are about it.
#[derive(Clone, Debug)]
pub struct Container {
    pub type_name: Rc<str>,
    /// The title as the catalog keys it (a class's lower-case name).
    pub title: Rc<str>,
}

impl Container {
    pub fn main() -> Container {
        Container { type_name: "Class".into(), title: "main".into() }
    }

    pub fn new(type_name: &str, title: &str) -> Container {
        Container { type_name: type_name.into(), title: title.into() }
    }

    pub fn is_main(&self) -> bool {
        &*self.type_name == "Class" && &*self.title == "main"
    }

    /// `Class[Apache]`, `Site[blog]`.
    pub fn reference(&self) -> String {
        reference(&self.type_name, &self.title)
    }
}

/// One resource of the catalog.
#[derive(Clone)]
pub struct Resource {
    /// The type's name as references print it: `File`, `Class`, `Apache::Vhost`.
    pub type_name: Rc<str>,
    /// The title; for classes the class name (`apache::mod`), printed capitalized.
    pub title: Rc<str>,
    pub params: IndexMap<Rc<str>, Value>,
    /// Where each parameter was set, when known (see [`Resource::param_location`]).
    pub origins: HashMap<Rc<str>, Origin>,
    pub kind: Kind,
    /// Declared with `@` (not in the catalog until realized) or `@@` (in the catalog, but
    /// evaluated only once realized), and not realized.
    pub virtual_: bool,
    pub exported: bool,
    /// A defined resource's body has been evaluated (always true for the others).
    pub evaluated: bool,
    /// Where it was declared.
    pub at: Span,
    /// The scope it was declared in (resource defaults are looked up from there).
    pub scope: Rc<Scope>,
    /// What contains it: the class or defined resource it was declared in (`Class[main]` at
    /// the top); a class's run stage.
    pub container: Rc<str>,
    /// The resource of the scope it was declared in (Puppet's `scope.resource`), by its index
    /// in the catalog: the class, defined resource or node whose code declared it
    /// (`Class[main]` at the top), for a class too. It takes that resource's tags (see
    /// [`Catalog::take_scope_tags`]). `None` for the resources every catalog starts with.
    pub declarer: Option<usize>,
    /// Tags besides its own (see [`Resource::all_tags`]): those `tag()` gave it, its
    /// declarer's once taken.
    pub tags: Vec<String>,
    /// It has taken its declarer's tags (Puppet's `finish_evaluation`).
    pub scope_tagged: bool,
    /// The values its `tag` parameter had when it was added to the catalog (tags a default,
    /// an override or a collector gives come later: see [`Resource::all_tags`]).
    pub declared_tags: Vec<Value>,
    /// Its tags once the catalog is finished (see [`Catalog::finish_tags_and_metaparameters`]).
    pub final_tags: Option<Vec<String>>,
    /// Declared by a function (`create_resources`): Puppet knows no file for it.
    pub by_function: bool,
    /// Its title was a number (`create_resources`), which Puppet does not tag it with.
    pub numeric_title: bool,
    /// The module manifest it was declared in (`None`: the program).
    pub file: Option<Rc<str>>,
}

impl Resource {
    /// A resource declared at `at` in `scope`: no parameters, not virtual, evaluated, in
    /// `Class[main]`, untagged, from the program.
    pub fn new(type_name: &str, title: &str, kind: Kind, at: Span, scope: Rc<Scope>) -> Resource {
        Resource {
            type_name: type_name.into(),
            title: title.into(),
            params: IndexMap::new(),
            origins: HashMap::new(),
            kind,
            virtual_: false,
            exported: false,
            evaluated: true,
            at,
            scope,
            container: "Class[main]".into(),
            declarer: None,
            tags: Vec::new(),
            scope_tagged: false,
            declared_tags: Vec::new(),
            final_tags: None,
            by_function: false,
            numeric_title: false,
            file: None,
        }
    }

    /// Adds a relationship to a relationship metaparameter (`before`, `require`), as a
    /// relationship statement or `require()` does: the parameter becomes an array (of its
    /// value, when it has one) and takes the new one at its end.
    pub fn append_param(&mut self, name: &str, value: Value) {
        let mut items = match self.params.get(name) {
            None | Some(Value::Undef) => Vec::new(),
            Some(Value::Array(items)) => items.as_ref().clone(),
            Some(old) => vec![old.clone()],
        };
        items.push(value);
        self.params.insert(name.into(), Value::array(items));
    }

    /// Where it was declared, as Puppet's messages say: `(line: 3)`, `(file: F, line: 3)` in
    /// a module's manifest, `(file: unknown, line: 3)` for a resource a function declared in
    /// the program's code.
    pub fn location(&self) -> String {
        // what a function declared is where the function was called (Puppet's top of stack):
        // a module manifest, or `unknown` for the program's code
        match (&self.file, self.by_function) {
            (Some(file), _) => format!("(file: {file}, line: {})", self.at.line),
            (None, true) => format!("(file: unknown, line: {})", self.at.line),
            (None, false) => format!("(line: {})", self.at.line),
        }
    }

    /// Where parameter `name` was set, as messages about its value say: its attribute's
    /// line (` (file: F, line: 3)`), nothing for a value a function gave, and the
    /// resource's own place when it is not known.
    pub fn param_location(&self, name: &str) -> String {
        match self.origins.get(name) {
            Some(origin) => origin.suffix(),
            None => format!(" {}", self.location()),
        }
    }

    /// Sets a parameter and where it was set.
    pub fn set_param(&mut self, name: Rc<str>, value: Value, origin: Origin) {
        self.origins.insert(name.clone(), origin);
        self.insert_param(name, value);
    }

    /// Sets a parameter; a `tag` value tags it from now on (Puppet's `set_parameter`), so its
    /// tags are in the order they were given.
    pub fn insert_param(&mut self, name: Rc<str>, value: Value) {
        if &*name == "tag" {
            for t in flatten(&value) {
                add_tag(&mut self.tags, &puppet_types::display::value_to_s(&t));
            }
        }
        self.params.insert(name, value);
    }

    /// Whether lists of the catalog show it: in the catalog, not one of the resources every
    /// catalog starts with.
    pub fn listed(&self) -> bool {
        self.in_catalog() && !is_main(self) && !self.hidden()
    }

    /// Whether the compiled catalog has it: not virtual, or exported (an exported resource is
    /// virtual too: it is evaluated only once realized, but it is in the catalog).
    pub fn in_catalog(&self) -> bool {
        !self.virtual_ || self.exported
    }

    /// `Stage[main]` and `Class[Settings]`: in every catalog, not listed.
    pub fn hidden(&self) -> bool {
        (&*self.type_name == "Stage" && &*self.title == "main")
            || (self.kind == Kind::Class && &*self.title == "settings")
    }

    /// Puppet's tags of the resource, in Puppet's order (`Puppet::Util::Tagging`, a set in the
    /// order tags were added): its `tag` parameter's as declared, its type's (`class` for a
    /// class), its title's when that is a tag, the other values its `tag` parameter has now
    /// (from a default, an override or a collector), then those it took from where it was
    /// declared (Puppet adds them when it finishes the resource). A tag `a::b` brings `a` and
    /// `b` too.
    pub fn all_tags(&self) -> Vec<String> {
        match &self.final_tags {
            Some(tags) => tags.clone(),
            None => self.base_tags(),
        }
    }

    /// [`all_tags`](Self::all_tags) as the resource has them before the catalog is finished.
    fn base_tags(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |tag: &str| add_tag(&mut out, tag);
        for t in &self.declared_tags {
            add(&puppet_types::display::value_to_s(t));
        }
        if &*self.type_name == "Class" {
            add("class");
            if &*self.title != "main" {
                add(&self.title);
            }
        } else {
            add(&self.type_name);
            if valid_tag(&self.title) && !self.numeric_title {
                add(&self.title);
            }
        }
        for t in &self.tags {
            add(t);
        }
        // every `tag` value set after its creation is in `tags` already
        if let Some(v) = self.params.get("tag") {
            for t in flatten(v) {
                add(&puppet_types::display::value_to_s(&t));
            }
        }
        out
    }

    /// Takes more tags from where it is declared (those it lacks).
    pub fn take_tags<'t>(&mut self, tags: impl IntoIterator<Item = &'t String>) {
        for t in tags {
            add_tag(&mut self.tags, t);
        }
    }

    /// The reference: `File[/tmp/x]`, `Class[Apache::Mod]`.
    pub fn reference(&self) -> String {
        reference(&self.type_name, &self.title)
    }
}

/// Where a parameter was set (Puppet's `Param#file` and `#line`): the line of its attribute
/// (`require => ...`), of a resource default or an override, in a module's manifest
/// (`file`) or the program. `line` is `None` for a value a function gave
/// (`create_resources`): Puppet's messages then name no place.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Origin {
    pub file: Option<Rc<str>>,
    pub line: Option<u32>,
}

impl Origin {
    /// ` (file: F, line: 3)`, ` (line: 3)`, or nothing when the line is not known.
    pub fn suffix(&self) -> String {
        match (&self.file, self.line) {
            (_, None) => String::new(),
            (Some(file), Some(line)) => format!(" (file: {file}, line: {line})"),
            (None, Some(line)) => format!(" (line: {line})"),
        }
    }
}

/// Parameters as an expression gives them (attributes, a default's, a function's), with
/// where each was set.
#[derive(Clone, Debug, Default)]
pub struct Attributes {
    pub values: IndexMap<Rc<str>, Value>,
    pub origins: HashMap<Rc<str>, Origin>,
}

impl Attributes {
    /// Values a function gave: set nowhere Puppet names.
    pub fn unplaced(values: IndexMap<Rc<str>, Value>) -> Attributes {
        let origins = values.keys().map(|k| (k.clone(), Origin::default())).collect();
        Attributes { values, origins }
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    pub fn insert(&mut self, name: Rc<str>, value: Value, origin: Origin) {
        self.origins.insert(name.clone(), origin);
        self.values.insert(name, value);
    }
}

/// `Type[title]` as Puppet prints a reference (class titles capitalized, but `Class[main]`).
pub fn reference(type_name: &str, title: &str) -> String {
    if type_name.eq_ignore_ascii_case("class") && title == "main" {
        "Class[main]".to_owned()
    } else if type_name.eq_ignore_ascii_case("class") {
        format!("Class[{}]", capitalize_segments(title))
    } else {
        format!("{type_name}[{title}]")
    }
}

/// The key of a resource: lower-case type and title (class titles lower-case too).
pub fn key(type_name: &str, title: &str) -> (String, String) {
    let type_lower = type_name.to_lowercase();
    let title = if type_lower == "class" { title.trim_start_matches("::").to_lowercase() } else { title.to_owned() };
    (type_lower, title)
}

/// A class, a defined type or a node definition, kept from the program that defined it.
#[derive(Debug)]
pub struct Definition {
    pub name: String,
    pub parameters: Vec<Parameter>,
    /// A class's parent (`inherits`).
    pub parent: Option<String>,
    pub body: Option<Expr>,
    pub at: Span,
    /// The module manifest it was loaded from (`None`: the program).
    pub file: Option<Rc<str>>,
}

/// A relationship statement (`a -> b`), applied when the catalog is finished.
#[derive(Clone, Debug)]
pub struct Relationship {
    pub sources: Vec<Value>,
    pub targets: Vec<Value>,
    /// `before` or `notify`, set on each source.
    pub notify: bool,
    pub at: Span,
}

/// A collector (`File <| tag == 'x' |> { mode => '0600' }`), run until compilation ends.
#[derive(Clone)]
pub struct Collector {
    pub type_name: String,
    pub query: Option<Expr>,
    pub exported: bool,
    pub operations: Vec<AttributeOp>,
    pub scope: Rc<Scope>,
    pub at: Span,
    /// The resources it matched (keys), for relationships.
    pub matched: Vec<usize>,
}

/// Resource defaults (`File { mode => '0644' }`) of one scope.
#[derive(Clone, Debug, Default)]
pub struct Defaults {
    /// By lower-case type name: parameters, values and where they were set.
    pub by_type: HashMap<String, Attributes>,
}

/// The compiled catalog.
///
/// A copy (the shell's checkpoint before each input) shares what it copies: the resources
/// are shared until one is changed (`Rc::make_mut` in [`Catalog::at_mut`]), and the indexes
/// are persistent maps; so a copy costs in proportion to the number of resources, not their
/// contents, and what an input changes is all it adds.
#[derive(Clone, Default)]
pub struct Catalog {
    resources: Vec<Rc<Resource>>,
    index: imbl::HashMap<(String, String), usize>,
    /// Other names of resources (`alias`, a namevar that differs from the title).
    aliases: imbl::HashMap<(String, String), (String, String)>,
    pub relationships: Vec<Relationship>,
    pub collectors: Vec<Collector>,
    /// Resources to realize when the catalog is finished (`realize`), with where it was asked.
    pub to_realize: Vec<((String, String), Span)>,
    /// Realized references with no resource yet: an error if none comes.
    pub unrealized: Vec<((String, String), Span)>,
    /// Overrides (`File['x'] { mode => ... }`) waiting for their resource.
    pub overrides: Vec<Override>,
    /// Resource defaults by scope (`Rc::as_ptr` of the scope).
    pub defaults: HashMap<usize, Defaults>,
    /// Where a defined resource's scope takes defaults from besides its own: the scope the
    /// resource was declared in.
    pub defaults_parent: HashMap<usize, Rc<Scope>>,
    /// Containment edges `contain` adds besides each resource's container (container
    /// reference, class reference).
    pub contained: Vec<(String, String)>,
    /// The classes (and node) in the order their code was evaluated: the catalog's `classes`.
    pub classes: Vec<String>,
    /// The catalog's tags (what `tagged` also asks): each class's and node's own tags when
    /// it was declared.
    pub tags: Vec<String>,
    /// The namevars of the resource types modules implement in Ruby that were declared (by
    /// the type's lower-case name).
    pub ruby_namevars: HashMap<String, Rc<str>>,
}

/// `File['x'] { ... }`: parameters to set on a resource at the end.
#[derive(Clone, Debug)]
pub struct Override {
    pub key: (String, String),
    pub params: Vec<OverrideParam>,
    pub at: Span,
    /// Where a resource override was made: the reference of the class or defined resource
    /// whose code it is in, and its place (` (line: 3)`) for Puppet's error when that code
    /// may not override the resource. `None` for a collector's, which may override any.
    pub source: Option<(Rc<str>, Origin)>,
}

/// One parameter an override or a collector sets.
#[derive(Clone, Debug)]
pub struct OverrideParam {
    pub name: Rc<str>,
    pub value: Value,
    /// `+>`: added to the values the resource has.
    pub append: bool,
    pub origin: Origin,
}

impl Catalog {
    /// A catalog with what Puppet's compiler starts every catalog with: `Stage[main]`,
    /// `Class[Settings]` and `Class[main]` (the top scope's class).
    pub fn with_main(top: &Rc<Scope>) -> Catalog {
        let mut catalog = Catalog::default();
        for (type_name, title, kind) in
            [("Stage", "main", Kind::Builtin), ("Class", "settings", Kind::Class), ("Class", "main", Kind::Class)]
        {
            let resource = Resource {
                container: "Stage[main]".into(),
                ..Resource::new(type_name, title, kind, Span::default(), top.clone())
            };
            let _ = catalog.add(resource);
        }
        // The settings class is evaluated when compilation starts (`create_settings_scope`),
        // its tags the catalog's.
        if let Some(index) = catalog.position("Class", "settings") {
            catalog.at_mut(index).evaluated = true;
            catalog.take_class_tags(index);
        }
        catalog
    }

    pub fn resources(&self) -> &[Rc<Resource>] {
        &self.resources
    }

    pub fn get(&self, type_name: &str, title: &str) -> Option<&Resource> {
        self.position(type_name, title).map(|i| &*self.resources[i])
    }

    /// Records another name of the resource `type_name[title]`.
    pub fn add_alias(&mut self, type_lower: &str, alias: &str, title: &str) {
        self.aliases.insert(key(type_lower, alias), key(type_lower, title));
    }

    pub fn get_mut(&mut self, type_name: &str, title: &str) -> Option<&mut Resource> {
        self.position(type_name, title).map(|i| Rc::make_mut(&mut self.resources[i]))
    }

    /// The index of a resource by its title or one of its other names, or, as Puppet's
    /// `Catalog#resource` finds it, by the name its title gives (a file's path without its
    /// trailing slashes: `File['/tmp/']` is `File['/tmp']`).
    pub fn position(&self, type_name: &str, title: &str) -> Option<usize> {
        self.position_by_name(type_name, title).or_else(|| {
            let is_path = ["file", "tidy"].iter().any(|t| type_name.eq_ignore_ascii_case(t));
            let path = title.trim_end_matches('/');
            (is_path && path.len() < title.len())
                .then(|| self.position_by_name(type_name, if path.is_empty() { "/" } else { path }))?
        })
    }

    /// The index of a resource by its title or one of its other names.
    fn position_by_name(&self, type_name: &str, title: &str) -> Option<usize> {
        let k = key(type_name, title);
        self.index.get(&k).or_else(|| self.aliases.get(&k).and_then(|real| self.index.get(real))).copied()
    }

    pub fn at(&self, index: usize) -> &Resource {
        &self.resources[index]
    }

    /// The resource at `index`, to change: copied first when a copy of the catalog shares it.
    pub fn at_mut(&mut self, index: usize) -> &mut Resource {
        Rc::make_mut(&mut self.resources[index])
    }

    pub fn len(&self) -> usize {
        self.resources.len()
    }

    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }

    /// Adds a resource; `Err` with the one already declared under the same key.
    pub fn add(&mut self, resource: Resource) -> Result<usize, &Resource> {
        let k = key(&resource.type_name, &resource.title);
        if let Some(existing) = self.position_by_name(&resource.type_name, &resource.title) {
            return Err(&self.resources[existing]);
        }
        self.index.insert(k, self.resources.len());
        self.resources.push(Rc::new(resource));
        Ok(self.resources.len() - 1)
    }

    /// The references of the catalog's resources in order (virtual ones left out).
    pub fn references(&self) -> Vec<String> {
        self.resources.iter().filter(|r| r.listed()).map(|r| r.reference()).collect()
    }

    /// The relationship edges the resources' `before`, `require`, `notify` and `subscribe`
    /// say, as `A -> B` / `A ~> B`, sorted.
    pub fn edges(&self) -> Vec<String> {
        let mut edges = Vec::new();
        for r in self.resources.iter().filter(|r| r.in_catalog()) {
            let me = r.reference();
            for (param, arrow, forward) in
                [("before", "->", true), ("notify", "~>", true), ("require", "->", false), ("subscribe", "~>", false)]
            {
                let Some(value) = r.params.get(param) else { continue };
                for t in flatten(value) {
                    if t.is_undef() {
                        continue;
                    }
                    let other = reference_text(&t);
                    edges.push(if forward { format!("{me} {arrow} {other}") } else { format!("{other} {arrow} {me}") });
                }
            }
        }
        edges.sort();
        edges
    }

    /// The catalog in the shape of Puppet's JSON catalog (`Catalog#to_data_hash`, what
    /// `puppet catalog compile` prints) without what differs from compile to compile
    /// (`version`, `code_id`, `catalog_uuid`, `catalog_format`): its tags, the resources with
    /// their parameters (`Stage[main]`, `Class[Settings]` and `Class[main]` first, as Puppet
    /// has them), the containment edges, the classes; keys in Puppet's order.
    pub fn to_json(&self, node: &str, environment: &str) -> serde_json::Value {
        use serde_json::json;
        let main_tags = self.get("Class", "main").map_or_else(|| vec!["class".to_owned()], Resource::all_tags);
        let mut resources = vec![
            json!({"type": "Stage", "title": "main", "tags": ["stage"], "exported": false, "kind": "compilable_type", "parameters": {"name": "main"}}),
            json!({"type": "Class", "title": "Settings", "tags": ["class", "settings"], "exported": false, "kind": "unknown"}),
            json!({"type": "Class", "title": "main", "tags": main_tags, "exported": false, "kind": "unknown", "parameters": {"name": "main"}}),
        ];
        let mut edges = vec![
            json!({"source": "Stage[main]", "target": "Class[Settings]"}),
            json!({"source": "Stage[main]", "target": "Class[main]"}),
        ];
        let classes: Vec<&str> = std::iter::once("settings").chain(self.classes.iter().map(String::as_str)).collect();
        // The catalog's own tags: each class's (`add_class`), then the tags the classes and
        // nodes had when they were put in the catalog (`instantiate_resource` merges them):
        // their types', the titles being the classes' again.
        let mut tags = Vec::new();
        for class in &classes {
            add_tag(&mut tags, class);
        }
        for r in self.resources.iter().filter(|r| r.listed() && r.kind == Kind::Class) {
            add_tag(&mut tags, if &*r.type_name == "Node" { "node" } else { "class" });
        }
        for r in self.resources.iter().filter(|r| r.listed()) {
            let mut params = serde_json::Map::new();
            let mut sensitive = Vec::new();
            let namevar = self.namevar(r);
            // `to_hash` is the title's namevar merged with the parameters: a namevar given
            // comes first.
            let namevar_first =
                r.params.get_key_value(namevar).into_iter().chain(r.params.iter().filter(|(k, _)| ***k != *namevar));
            for (k, v) in namevar_first.filter(|(_, v)| !v.is_undef()) {
                // the namevar is not written when it is the title
                if **k == *namevar && matches!(v, Value::Integer(_) | Value::Float(_)) {
                    // a number made the title (`create_resources`): written as its text
                    params.insert(k.to_string(), serde_json::Value::String(puppet_types::display::value_to_s(v)));
                    continue;
                }
                if **k == *namevar && matches!(v, Value::String(s) if *s == r.title) {
                    continue;
                }
                // a Sensitive value is written unwrapped, its parameter named (Puppet's
                // `replace_sensitive_data`)
                let v = match v {
                    // the undefs of a relationship metaparameter's array are dropped
                    Value::Array(items) if RELATIONSHIP_PARAMETERS.contains(&&**k) => {
                        params.insert(
                            k.to_string(),
                            items.iter().filter(|i| !i.is_undef()).map(value_json).collect::<Vec<_>>().into(),
                        );
                        continue;
                    }
                    Value::Sensitive(inner) => {
                        sensitive.push(k.to_string());
                        &**inner
                    }
                    v => v,
                };
                params.insert(k.to_string(), value_json(v));
            }
            let title = if &*r.type_name == "Class" { capitalize_segments(&r.title) } else { r.title.to_string() };
            let mut entry = serde_json::Map::new();
            entry.insert("type".into(), json!(&*r.type_name));
            entry.insert("title".into(), json!(title));
            entry.insert("tags".into(), json!(r.all_tags()));
            // An included class has no place (line 0), nor a node; a class declared like a
            // resource has. What a function (create_resources) declared has the file of the
            // manifest that called it, and `unknown` for the program's code.
            if (r.kind != Kind::Class || r.at.line > 0) && &*r.type_name != "Node" {
                if let Some(file) = &r.file {
                    entry.insert("file".into(), json!(&**file));
                } else if r.by_function {
                    entry.insert("file".into(), json!("unknown"));
                }
                entry.insert("line".into(), json!(r.at.line));
            }
            // `kind` is the resource type's: a class declared like a resource names it
            // `Class`, one included finds its definition, which is no kind Puppet names.
            let kind = match r.kind {
                Kind::Builtin => "compilable_type",
                Kind::Define => "defined_type",
                Kind::Class if &*r.type_name == "Class" && r.at.line > 0 => "class",
                Kind::Class => "unknown",
            };
            // what a function declared has no `exported` until the data hash defaults it,
            // after `kind`
            if r.by_function {
                entry.insert("kind".into(), json!(kind));
                entry.insert("exported".into(), json!(r.exported));
            } else {
                entry.insert("exported".into(), json!(r.exported));
                entry.insert("kind".into(), json!(kind));
            }
            if !params.is_empty() {
                entry.insert("parameters".into(), params.into());
            }
            if !sensitive.is_empty() {
                entry.insert("sensitive_parameters".into(), sensitive.into());
            }
            let entry = serde_json::Value::Object(entry);
            resources.push(entry);
            // a stage is contained in nothing: it is a top-level container
            if &*r.type_name != "Stage" {
                edges.push(json!({"source": &*r.container, "target": r.reference()}));
            }
        }
        for (container, class) in &self.contained {
            edges.push(json!({"source": container, "target": class}));
        }
        // The graph lists its edges by target, the targets in the order they were added.
        let position: HashMap<String, usize> = resources
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (format!("{}[{}]", r["type"].as_str().unwrap_or_default(), r["title"].as_str().unwrap_or_default()), i)
            })
            .collect();
        edges.sort_by_key(|e| e["target"].as_str().and_then(|t| position.get(t)).copied().unwrap_or(usize::MAX));
        json!({"tags": tags, "name": node, "environment": environment, "resources": resources, "edges": edges, "classes": classes})
    }

    /// What Puppet's compiler does last (`Compiler#finish`): each resource not evaluated
    /// takes the tags its declarer has now, in the order they were declared
    /// ([`Catalog::take_scope_tags`], so a `tag()` after the declaration counts); then, walking the containment edges from `Class[main]` breadth
    /// first, each resource gives what it contains the metaparameters it has, its own and
    /// those it was given, but the relationships (`noop`, `tag`, `loglevel`, ...), where they
    /// have none, and its tags (`add_resource_metaparams`). Classes are contained in their
    /// stage, not in `Class[main]`: only a class a defined resource contains is reached.
    pub fn finish_tags_and_metaparameters(&mut self) {
        for i in 0..self.resources.len() {
            self.take_tags_of_declarer(i, Resource::base_tags);
        }
        let by_reference: HashMap<String, usize> =
            self.resources.iter().enumerate().map(|(i, r)| (r.reference(), i)).collect();

        let mut children: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, r) in self.resources.iter().enumerate() {
            if &*r.type_name == "Stage" {
                continue;
            }
            if let Some(&c) = by_reference.get(&*r.container) {
                children.entry(c).or_default().push(i);
            }
        }
        for (container, class) in &self.contained {
            if let (Some(&c), Some(&t)) = (by_reference.get(container), by_reference.get(class)) {
                children.entry(c).or_default().push(t);
            }
        }
        // A session finishes its catalog after each program: the final tags are found
        // afresh, and a resource is changed (copied from what a checkpoint shares) only when
        // what it gets differs from what it has.
        let mut finals: HashMap<usize, Vec<String>> = HashMap::new();
        if let Some(main) = self.position("Class", "main") {
            let own = |r: &Resource| -> Option<IndexMap<Rc<str>, Value>> {
                let data: IndexMap<Rc<str>, Value> = r
                    .params
                    .iter()
                    .filter(|(k, v)| {
                        !v.is_undef()
                            && !RELATIONSHIP_PARAMETERS.contains(&&***k)
                            && crate::resource_types::metaparameter(k).is_some()
                    })
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                (!data.is_empty()).then_some(data)
            };
            let tags_of = |resources: &[Rc<Resource>], finals: &HashMap<usize, Vec<String>>, i: usize| {
                finals.get(&i).cloned().unwrap_or_else(|| resources[i].base_tags())
            };
            let mut data: HashMap<usize, IndexMap<Rc<str>, Value>> = HashMap::new();
            let mut seen = std::collections::HashSet::new();
            let mut queue = std::collections::VecDeque::from([main]);
            while let Some(source) = queue.pop_front() {
                if !seen.insert(source) {
                    continue;
                }
                let targets = children.get(&source).cloned().unwrap_or_default();
                for &target in &targets {
                    let source_data = data.get(&source).cloned().or_else(|| own(&self.resources[source]));
                    // the tags it has now, then those it is given in this order
                    let mut tags = tags_of(&self.resources, &finals, target);
                    if let Some(source_data) = source_data {
                        data.entry(source).or_insert_with(|| source_data.clone());
                        let missing = |t: &Resource, k: &Rc<str>| t.params.get(k).is_none_or(Value::is_undef);
                        if source_data.keys().any(|k| missing(&self.resources[target], k)) {
                            let t = Rc::make_mut(&mut self.resources[target]);
                            for (k, v) in &source_data {
                                if missing(t, k) {
                                    t.params.insert(k.clone(), v.clone());
                                    if &**k == "tag" {
                                        for tag in flatten(v) {
                                            add_tag(&mut tags, &puppet_types::display::value_to_s(&tag));
                                        }
                                    }
                                }
                            }
                        }
                        let mut merged = source_data;
                        merged.extend(own(&self.resources[target]).unwrap_or_default());
                        data.insert(target, merged);
                    }
                    for tag in tags_of(&self.resources, &finals, source) {
                        add_tag(&mut tags, &tag);
                    }
                    finals.insert(target, tags);
                }
                queue.extend(targets);
            }
        }
        for (i, resource) in self.resources.iter_mut().enumerate() {
            let tags = finals.remove(&i);
            if resource.final_tags != tags {
                Rc::make_mut(resource).final_tags = tags;
            }
        }
    }

    /// The resource at `index` takes the tags its declarer has now, once (Puppet's
    /// `add_scope_tags`): a class or defined resource when its code is evaluated, every other
    /// resource when the catalog is finished, in the order they were declared.
    pub fn take_scope_tags(&mut self, index: usize) {
        self.take_tags_of_declarer(index, Resource::all_tags);
    }

    /// [`take_scope_tags`](Self::take_scope_tags) with the declarer's tags as `tags_of` gives
    /// them (when the catalog is finished: as they were before the last finish).
    fn take_tags_of_declarer(&mut self, index: usize, tags_of: fn(&Resource) -> Vec<String>) {
        let r = &self.resources[index];
        if r.scope_tagged {
            return;
        }
        let declarer = r.declarer.filter(|&d| d != index);
        let tags = declarer.map(|d| tags_of(&self.resources[d])).unwrap_or_default();
        let r = Rc::make_mut(&mut self.resources[index]);
        r.scope_tagged = true;
        r.take_tags(&tags);
    }

    /// Whether the resource at `index` has one of `tags` (lower-case), counting those it
    /// will take from its declarers (Puppet's `Parser::Resource#raw_tagged?`): what collectors
    /// and `tagged` ask while the catalog is being compiled.
    pub fn raw_tagged(&self, index: usize, tags: &[String]) -> bool {
        let mut at = Some(index);
        // a chain of declarers is as long as the catalog at most
        for _ in 0..=self.resources.len() {
            let Some(i) = at else { return false };
            let r = &self.resources[i];
            if r.all_tags().iter().any(|t| tags.contains(t)) {
                return true;
            }
            at = r.declarer.filter(|&d| d != i);
        }
        false
    }

    /// Adds a class's or node's tags to the catalog's (`merge_tags_from` when Puppet
    /// instantiates it).
    pub fn take_class_tags(&mut self, index: usize) {
        for tag in self.resources[index].all_tags() {
            if !self.tags.contains(&tag) {
                self.tags.push(tag);
            }
        }
    }

    /// Starts over (`:reset`).
    pub fn clear(&mut self) {
        *self = Catalog::default();
    }
}

/// Adds a tag to a set of tags in order (`Puppet::Util::Tagging#tag`): lower-case, and
/// `a::b` brings `a` and `b` too.
fn add_tag(tags: &mut Vec<String>, tag: &str) {
    let tag = tag.to_lowercase();
    let parts = if tag.contains("::") { tag.split("::").map(str::to_owned).collect() } else { Vec::new() };
    for t in std::iter::once(tag).chain(parts) {
        if !tags.contains(&t) {
            tags.push(t);
        }
    }
}

/// `Puppet::Util::Tagging::ValidTagRegex`: `\A[[:alnum:]_][[:alnum:]_:.-]*\z`.
pub(crate) fn valid_tag(tag: &str) -> bool {
    let mut chars = tag.chars();
    chars.next().is_some_and(|c| c.is_alphanumeric() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

/// Arrays flattened; anything else as one item.
pub(crate) fn flatten(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items.iter().flat_map(flatten).collect(),
        other => vec![other.clone()],
    }
}

/// The main class (`Class[main]`), which holds the top scope's relationships.
fn is_main(r: &Resource) -> bool {
    r.kind == Kind::Class && &*r.title == "main"
}

/// The metaparameters that make relationships.
const RELATIONSHIP_PARAMETERS: [&str; 4] = ["before", "require", "notify", "subscribe"];

impl Catalog {
    /// The parameter naming a resource (`Puppet::Resource#namevar`): a core type's one
    /// namevar, the one a type implemented in Ruby declares, else `name`.
    fn namevar(&self, r: &Resource) -> &str {
        if r.kind == Kind::Builtin {
            let lower = r.type_name.to_lowercase();
            if let Some(t) = crate::resource_types::get(&lower) {
                if let [one] = t.namevars.as_slice() {
                    return one;
                }
            } else if let Some(namevar) = self.ruby_namevars.get(&lower) {
                return namevar;
            }
        }
        "name"
    }
}

/// A value as JSON, as Puppet's catalog writes parameter values (`to_data_hash` without rich
/// data: Puppet's `ToDataConverter`): data as itself, `default` as `"default"`, a Sensitive
/// value as `{"__ptype": "Sensitive", "__pvalue": VALUE}`, a hash key that is no string and
/// every other value as its text (a reference's `ref`).
pub fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Sensitive(inner) => serde_json::json!({"__ptype": "Sensitive", "__pvalue": value_json(inner)}),
        Value::Default => "default".into(),
        Value::Array(items) => items.iter().map(value_json).collect::<Vec<_>>().into(),
        Value::Hash(h) => {
            let mut map = serde_json::Map::new();
            for (k, v) in h.iter() {
                map.insert(puppet_types::display::value_to_s(k), value_json(v));
            }
            map.into()
        }
        v => crate::json::value_to_json(v, &puppet_types::display::value_to_s, &reference_text),
    }
}

/// A relationship target as Puppet prints it: a reference's `ref`, anything else `to_s`.
pub fn reference_text(v: &Value) -> String {
    match v {
        Value::Type(t) => match &**t {
            puppet_types::Type::Resource { type_name: Some(type_name), title: Some(title) } => {
                reference(type_name, title)
            }
            puppet_types::Type::Class(Some(name)) => reference("Class", name),
            other => other.to_string(),
        },
        other => puppet_types::display::value_to_s(other),
    }
}
