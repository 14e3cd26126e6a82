//! The explanation of a lookup (`pops/lookup/explainer.rb`): a tree that the search grows as
//! it goes (each provider, hierarchy entry, location, merge, interpolation and sub key a node
//! pushed when entered and popped when left; what was found or not an event on the current
//! node), printed as `puppet lookup --explain` prints it ([`Explainer::explain`]) or as the
//! hash `--render-as json|yaml` renders ([`Explainer::to_value`]).
//!
//! Puppet's printing rules are kept: a merge with one branch prints only that branch, one
//! with none nothing; values print as Ruby's `inspect` of scalars inside indented
//! `{ "k" => v }` and `[ v ]` blocks.

use puppet_types::value::Hash;
use puppet_types::Value;

/// What a node is (`ExplainNode` subclasses).
#[derive(Clone, Debug)]
pub enum Kind {
    /// The explainer itself.
    Root,
    /// `Searching for "key"` (`:data` and `:meta`).
    Top { key: String },
    /// `Invalid key "lookup_options"`.
    InvalidKey { key: String },
    /// `Using merge options from "lookup_options" hash`.
    MergeSource { source: String },
    /// A module that is not there, or has no data provider.
    Module { name: String },
    /// `Interpolation on "…"`.
    Interpolate { expression: String },
    /// `Merge strategy NAME` (its options without `strategy`).
    Merge { strategy: String, options: Option<Value> },
    /// A data provider: `Global Data Provider (hiera configuration version 5)`, a hierarchy
    /// entry (`Hierarchy entry "name"`).
    DataProvider { name: String, config_path: Option<String>, module: Option<String> },
    /// A path or URI of a hierarchy entry.
    Location { location: String, original: String, uri: bool },
    /// `Sub key: "a.b"`.
    SubLookup { segments: String },
    /// One segment of a sub key.
    Segment,
    /// `Global Scope`, `Searching default_hierarchy of module "m"`, ...
    Scope { name: String },
}

/// What happened at a node.
#[derive(Clone, Debug)]
pub enum Event {
    Found { key: String, value: Value },
    FoundInOverrides { key: String, value: Value },
    FoundInDefaults { key: String, value: Value },
    Result { value: Value },
    NotFound { key: String },
    LocationNotFound,
    ModuleNotFound,
    ModuleProviderNotFound,
}

#[derive(Clone, Debug)]
struct Node {
    kind: Kind,
    parent: usize,
    branches: Vec<usize>,
    event: Option<Event>,
    texts: Vec<String>,
}

/// The explanation being grown: the nodes, and the one the search is in.
#[derive(Clone, Debug)]
pub struct Explainer {
    nodes: Vec<Node>,
    current: usize,
    /// `--explain-options` without `--explain`: only `lookup_options` are searched.
    pub only_explain_options: bool,
}

impl Explainer {
    pub fn new(only_explain_options: bool) -> Explainer {
        let root = Node { kind: Kind::Root, parent: 0, branches: Vec::new(), event: None, texts: Vec::new() };
        Explainer { nodes: vec![root], current: 0, only_explain_options }
    }

    /// Enters a node (`Explainer#push`).
    pub fn push(&mut self, kind: Kind) {
        let id = self.nodes.len();
        self.nodes.push(Node { kind, parent: self.current, branches: Vec::new(), event: None, texts: Vec::new() });
        self.nodes[self.current].branches.push(id);
        self.current = id;
    }

    /// Leaves the current node.
    pub fn pop(&mut self) {
        self.current = self.nodes[self.current].parent;
    }

    /// The current node's event (`accept_found`, `accept_not_found`, ...).
    pub fn event(&mut self, event: Event) {
        self.nodes[self.current].event = Some(event);
    }

    /// `accept_merge_source`: a leaf under the current node.
    pub fn merge_source(&mut self, source: &str) {
        self.push(Kind::MergeSource { source: source.to_string() });
        self.pop();
    }

    /// `accept_module_not_found` and `accept_module_provider_not_found`.
    pub fn module(&mut self, name: &str, event: Event) {
        self.push(Kind::Module { name: name.to_string() });
        self.event(event);
        self.pop();
    }

    /// `accept_text`.
    pub fn text(&mut self, text: String) {
        self.nodes[self.current].texts.push(text);
    }

    /// Names the current data provider anew (its configuration's version is known once the
    /// configuration is read).
    pub fn rename_provider(&mut self, name: String, path: Option<String>) {
        if let Kind::DataProvider { name: n, config_path, .. } = &mut self.nodes[self.current].kind {
            *n = name;
            *config_path = path;
        }
    }

    /// The explanation as `--explain` prints it.
    pub fn explain(&self) -> String {
        let mut io = String::new();
        self.dump_on(0, &mut io, "", "");
        io
    }

    fn dump_texts(&self, id: usize, io: &mut String, indent: &str) {
        for t in &self.nodes[id].texts {
            io.push_str(indent);
            io.push_str(t);
            io.push('\n');
        }
    }

    fn dump_branches(&self, id: usize, io: &mut String, indent: &str) {
        for &b in &self.nodes[id].branches {
            self.dump_on(b, io, indent, indent);
        }
    }

    fn dump_outcome(&self, id: usize, io: &mut String, indent: &str) {
        match &self.nodes[id].event {
            Some(Event::NotFound { key }) => {
                io.push_str(&format!("{indent}No such key: \"{key}\"\n"));
            }
            Some(
                e @ (Event::Found { key, value }
                | Event::FoundInOverrides { key, value }
                | Event::FoundInDefaults { key, value }),
            ) => {
                io.push_str(&format!("{indent}Found key: \"{key}\" value: "));
                dump_value(io, indent, value);
                match e {
                    Event::FoundInOverrides { .. } => io.push_str(" in overrides"),
                    Event::FoundInDefaults { .. } => io.push_str(" in defaults"),
                    _ => {}
                }
                io.push('\n');
            }
            _ => {}
        }
        self.dump_texts(id, io, indent);
    }

    fn dump_on(&self, id: usize, io: &mut String, indent: &str, first_indent: &str) {
        let node = &self.nodes[id];
        let inner = format!("{indent}  ");
        match &node.kind {
            Kind::Root => {
                for &b in &node.branches {
                    self.dump_on(b, io, indent, first_indent);
                }
                self.dump_texts(id, io, indent);
            }
            Kind::Top { key } => {
                io.push_str(&format!("{first_indent}Searching for \"{key}\"\n"));
                self.dump_branches(id, io, &inner);
            }
            Kind::InvalidKey { key } => io.push_str(&format!("{first_indent}Invalid key \"{key}\"\n")),
            Kind::MergeSource { source } => {
                io.push_str(&format!("{first_indent}Using merge options from \"{source}\" hash\n"))
            }
            Kind::Module { name } => match node.event {
                Some(Event::ModuleNotFound) => io.push_str(&format!("{indent}Module \"{name}\" not found\n")),
                Some(Event::ModuleProviderNotFound) => {
                    io.push_str(&format!("{indent}Module data provider for module \"{name}\" not found\n"))
                }
                _ => {}
            },
            Kind::Interpolate { expression } => {
                io.push_str(&format!("{first_indent}Interpolation on \"{expression}\"\n"));
                self.dump_branches(id, io, &inner);
            }
            Kind::Merge { strategy, options } => {
                match node.branches.as_slice() {
                    [] => return,
                    [one] => return self.dump_on(*one, io, indent, first_indent),
                    _ => {}
                }
                io.push_str(&format!("{first_indent}Merge strategy {strategy}\n"));
                if let Some(o) = options {
                    io.push_str(&format!("{inner}Options: "));
                    dump_value(io, &inner, o);
                    io.push('\n');
                }
                self.dump_branches(id, io, &inner);
                if let Some(Event::Result { value }) = &node.event {
                    io.push_str(&format!("{inner}Merged result: "));
                    dump_value(io, &inner, value);
                    io.push('\n');
                }
            }
            Kind::DataProvider { name, config_path, .. } => {
                io.push_str(&format!("{first_indent}{name}\n"));
                if let Some(p) = config_path {
                    io.push_str(&format!("{inner}Using configuration \"{p}\"\n"));
                }
                self.dump_branches(id, io, &inner);
                self.dump_outcome(id, io, &inner);
            }
            Kind::Location { location, original, uri } => {
                let type_name = if *uri { "URI" } else { "Path" };
                io.push_str(&format!("{indent}{type_name} \"{location}\"\n"));
                io.push_str(&format!("{inner}Original {}: \"{original}\"\n", type_name.to_lowercase()));
                self.dump_branches(id, io, &inner);
                if let Some(Event::LocationNotFound) = node.event {
                    io.push_str(&format!("{inner}{type_name} not found\n"));
                }
                self.dump_outcome(id, io, &inner);
            }
            Kind::SubLookup { segments } => {
                io.push_str(&format!("{indent}Sub key: \"{segments}\"\n"));
                self.dump_branches(id, io, &inner);
                self.dump_outcome(id, io, &inner);
            }
            Kind::Segment => self.dump_outcome(id, io, indent),
            Kind::Scope { name } => {
                io.push_str(&format!("{indent}{name}\n"));
                self.dump_branches(id, io, &inner);
                self.dump_outcome(id, io, &inner);
            }
        }
    }

    /// `Explainer#to_hash`: the tree as a hash (the root's one branch when it has one).
    pub fn to_value(&self) -> Value {
        match self.nodes[0].branches.as_slice() {
            [one] => self.node_value(*one),
            _ => self.node_value(0),
        }
    }

    fn node_value(&self, id: usize) -> Value {
        let node = &self.nodes[id];
        let s = |v: &str| Value::from(v);
        if let Kind::Merge { .. } = node.kind {
            if let [one] = node.branches.as_slice() {
                return self.node_value(*one);
            }
        }
        if let Kind::MergeSource { source } = &node.kind {
            let mut h = Hash::default();
            h.insert(s("type"), s("merge_source"));
            h.insert(s("merge_source"), s(source));
            return Value::hash(h);
        }
        let mut h = Hash::default();
        if !node.branches.is_empty() {
            h.insert(s("branches"), Value::array(node.branches.iter().map(|b| self.node_value(*b)).collect()));
        }
        if let Kind::Root = node.kind {
            return Value::hash(h);
        }
        let key = match (&node.kind, &node.event) {
            (Kind::Top { key } | Kind::InvalidKey { key }, _) => Some(key.clone()),
            (
                _,
                Some(
                    Event::Found { key, .. }
                    | Event::FoundInOverrides { key, .. }
                    | Event::FoundInDefaults { key, .. }
                    | Event::NotFound { key },
                ),
            ) => Some(key.clone()),
            _ => None,
        };
        if let Some(k) = key {
            h.insert(s("key"), s(&k));
        }
        let (value, event) = match &node.event {
            None => (None, None),
            Some(Event::Found { value, .. }) => (Some(value), Some("found")),
            Some(Event::FoundInOverrides { value, .. }) => (Some(value), Some("found_in_overrides")),
            Some(Event::FoundInDefaults { value, .. }) => (Some(value), Some("found_in_defaults")),
            Some(Event::Result { value }) => (Some(value), Some("result")),
            Some(Event::NotFound { .. }) => (None, Some("not_found")),
            Some(Event::LocationNotFound) => (None, Some("location_not_found")),
            Some(Event::ModuleNotFound) => (None, Some("module_not_found")),
            Some(Event::ModuleProviderNotFound) => (None, Some("module_provider_not_found")),
        };
        if let Some(v) = value {
            h.insert(s("value"), v.clone());
        }
        if let Some(e) = event {
            h.insert(s("event"), s(e));
        }
        if !node.texts.is_empty() {
            h.insert(s("texts"), Value::array(node.texts.iter().map(|t| s(t)).collect()));
        }
        let kind = match &node.kind {
            Kind::Top { .. } => "root",
            Kind::InvalidKey { .. } => "invalid_key",
            Kind::Module { .. } => "module",
            Kind::Interpolate { .. } => "interpolate",
            Kind::Merge { .. } => "merge",
            Kind::DataProvider { .. } => "data_provider",
            Kind::Location { uri, .. } => {
                if *uri {
                    "uri"
                } else {
                    "path"
                }
            }
            Kind::SubLookup { .. } => "sub_key",
            Kind::Segment => "segment",
            Kind::Scope { .. } => "scope",
            Kind::Root | Kind::MergeSource { .. } => "root",
        };
        h.insert(s("type"), s(kind));
        match &node.kind {
            Kind::Interpolate { expression } => {
                h.insert(s("expression"), s(expression));
            }
            Kind::Merge { strategy, options } => {
                h.insert(s("merge"), s(strategy));
                if let Some(o) = options {
                    h.insert(s("options"), o.clone());
                }
            }
            Kind::DataProvider { name, config_path, module } => {
                h.insert(s("name"), s(name));
                if let Some(p) = config_path {
                    h.insert(s("configuration_path"), s(p));
                }
                if let Some(m) = module {
                    h.insert(s("module"), s(m));
                }
            }
            Kind::Location { location, original, uri } => {
                let (o, l) = if *uri { ("original_uri", "uri") } else { ("original_path", "path") };
                h.insert(s(o), s(original));
                h.insert(s(l), s(location));
            }
            Kind::Scope { name } => {
                h.insert(s("name"), s(name));
            }
            _ => {}
        }
        Value::hash(h)
    }
}

/// `dump_value`: hashes and arrays as indented blocks, anything else as Ruby inspects it.
pub fn dump_value(io: &mut String, indent: &str, value: &Value) {
    match value {
        Value::Hash(h) => {
            io.push('{');
            if !h.is_empty() {
                let inner = format!("{indent}  ");
                let mut sep = "\n";
                for (k, v) in h.iter() {
                    io.push_str(sep);
                    io.push_str(&inner);
                    dump_value(io, &inner, k);
                    io.push_str(" => ");
                    dump_value(io, &inner, v);
                    sep = ",\n";
                }
                io.push('\n');
                io.push_str(indent);
            }
            io.push('}');
        }
        Value::Array(items) => {
            io.push('[');
            if !items.is_empty() {
                let inner = format!("{indent}  ");
                let mut sep = "\n";
                for v in items.iter() {
                    io.push_str(sep);
                    io.push_str(&inner);
                    dump_value(io, &inner, v);
                    sep = ",\n";
                }
                io.push('\n');
                io.push_str(indent);
            }
            io.push(']');
        }
        other => io.push_str(&puppet_types::params::ruby_inspect(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_of_one_branch_prints_the_branch() {
        let mut e = Explainer::new(false);
        e.push(Kind::Top { key: "k".into() });
        e.push(Kind::Merge { strategy: "deep".into(), options: None });
        e.push(Kind::DataProvider { name: "Hierarchy entry \"c\"".into(), config_path: None, module: None });
        e.event(Event::Found { key: "k".into(), value: Value::array(vec![Value::Integer(1), Value::from("a")]) });
        e.pop();
        e.pop();
        e.pop();
        assert_eq!(
            e.explain(),
            "Searching for \"k\"\n  Hierarchy entry \"c\"\n    Found key: \"k\" value: [\n      1,\n      \"a\"\n    ]\n"
        );
    }
}
