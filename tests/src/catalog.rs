//! Whole compiled catalogs as expectation lines, for tests that compare a catalog with the
//! one Puppet 7.23 compiles: the golden suite of whole catalogs (`eval/tests/golden_catalog/`,
//! recorded by `cargo xtask record catalog`) and, later, the module classes of the corpus.
//!
//! [`lines`] reads a catalog in the form of Puppet's JSON catalog
//! (`Puppet::Resource::Catalog#to_data_hash`, which the oracle gives with `--catalog-json`, and
//! which `Catalog::to_json` of puppet-eval writes) and writes it one fact a line:
//!
//! ```text
//! resource: File[/a]                  each resource, in catalog order
//!   content => "secret"               its parameters, sorted by name, values as JSON
//!   mode => "0644"
//!   sensitive: content                its sensitive_parameters, when it has some
//!   exported: true                    when it is exported
//!   at: <modules>/m/manifests/init.pp:3   where it was declared, in a module's manifest
//!   tags: file, class, c              its tags, in Puppet's order
//! contains: Class[C] -> File[/a]      the containment edges, sorted
//! classes: c                          the classes, in Puppet's order
//! ```
//!
//! Left out as saying nothing about the program:
//! - what every catalog starts with: `Stage[main]`, `Class[Settings]` and `Class[main]` when
//!   they are as Puppet makes them (tagged and named as always; a `tag()` at the top scope
//!   shows `Class[main]`), the edges `Stage[main] -> Class[Settings]` and
//!   `Stage[main] -> Class[main]`, the class `settings`;
//! - the catalog's `name`, `environment`, `version` and own `tags` (the node's, the
//!   environment's, the classes' again), each resource's `kind` (Puppet's implementation:
//!   `compilable_type`, `defined_type`, `unknown`);
//! - the `file` and `line` of a resource declared in the program itself (`puppet apply -e`
//!   code: Puppet writes the file `""`). Those declared in a module's manifest keep them.
//!
//! A parameter's value is written as compact JSON (hash keys in their order), so `"1"` and
//! `1` differ and a value reads as in the catalog file.

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::oracle;

/// The resources every catalog starts with, as Puppet writes them when the program does not
/// touch them: their lines are left out.
const IMPLICIT: [(&str, &[&str]); 3] = [
    ("Stage[main]", &["  name => \"main\"", "  tags: stage"]),
    ("Class[Settings]", &["  tags: class, settings"]),
    ("Class[main]", &["  name => \"main\"", "  tags: class"]),
];

/// The containment edges every catalog has.
const IMPLICIT_EDGES: [&str; 2] = ["Stage[main] -> Class[Settings]", "Stage[main] -> Class[main]"];

/// The expectation lines of a catalog (see the module's documentation). A value that is no
/// catalog (not an object with `resources`) gives one line saying so.
pub fn lines(catalog: &Json) -> Vec<String> {
    let Some(resources) = catalog.get("resources").and_then(Json::as_array) else {
        return vec![format!("catalog: not a catalog: {}", short(catalog))];
    };
    let mut out = Vec::new();
    for resource in resources {
        let reference = reference(resource);
        let body = resource_lines(resource);
        if IMPLICIT.iter().any(|(r, lines)| *r == reference && body == *lines) {
            continue;
        }
        out.push(format!("resource: {reference}"));
        out.extend(body);
    }
    let mut edges: Vec<String> = catalog
        .get("edges")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|e| format!("{} -> {}", text(&e["source"]), text(&e["target"])))
        .filter(|e| !IMPLICIT_EDGES.contains(&e.as_str()))
        .collect();
    edges.sort();
    out.extend(edges.into_iter().map(|e| format!("contains: {e}")));
    let classes: Vec<String> = catalog
        .get("classes")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(text)
        .filter(|c| c != "settings")
        .collect();
    if !classes.is_empty() {
        out.push(format!("classes: {}", classes.join(", ")));
    }
    out
}

/// An oracle outcome (`--catalog-json`) as the whole-catalog suite's expectation: its
/// `notice:`, `warning:`, `err:` and `error:` lines ([`Expectation`](oracle::Expectation)), then the catalog's
/// [`lines`] when it compiled.
pub fn outcome_lines(outcome: &Json) -> Vec<String> {
    let mut out = oracle::expectation(&messages_only(outcome));
    if let Some(catalog) = outcome.get("catalog").filter(|c| !c.is_null()) {
        out.extend(lines(catalog));
    }
    out
}

/// The outcome without its `--catalog` lists (`resources`, `relationships`): the catalog's
/// lines say more.
fn messages_only(outcome: &Json) -> Json {
    let mut outcome = outcome.clone();
    if let Some(map) = outcome.as_object_mut() {
        map.remove("resources");
        map.remove("relationships");
    }
    outcome
}

/// How the golden suite of whole catalogs is compiled, by its recorder (`cargo xtask record
/// catalog`) and its runner alike; each file's header says so too.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The suite's directory, from the workspace's root.
    pub dir: &'static str,
    /// Puppet's `strict_variables` (the oracle's `--no-strict-variables` when false).
    pub strict_variables: bool,
    /// The module path, from the workspace's root.
    pub modulepath: &'static str,
    /// The node's facts (a JSON file, from the workspace's root); `None`: the oracle's small
    /// built-in set, which puppet-eval's `facts::builtin` is.
    pub facts: Option<&'static str>,
    /// The node's name.
    pub node: &'static str,
}

/// The settings of `eval/tests/golden_catalog/`.
pub const GOLDEN: Settings = Settings {
    dir: "eval/tests/golden_catalog",
    strict_variables: false,
    modulepath: "eval/tests/modules",
    facts: None,
    node: "testnode",
};

impl Settings {
    /// The oracle's options for these settings (besides the module path, which its
    /// `modules_oracle.rb` wrapper takes from the environment).
    pub fn oracle_args(&self) -> Vec<String> {
        let mut args = vec!["--catalog-json".to_owned(), format!("--node={}", self.node)];
        if !self.strict_variables {
            args.push("--no-strict-variables".to_owned());
        }
        if let Some(facts) = self.facts {
            args.push(format!("--facts={}", workspace_path(facts).display()));
        }
        args
    }
}

/// A path from the workspace's root, made absolute.
pub fn workspace_path(path: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new(".."));
    root.join(path)
}

/// `Type[title]`.
fn reference(resource: &Json) -> String {
    format!("{}[{}]", text(&resource["type"]), text(&resource["title"]))
}

/// A resource's lines after its `resource:` line.
fn resource_lines(resource: &Json) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(params) = resource.get("parameters").and_then(Json::as_object) {
        let mut names: Vec<&String> = params.keys().collect();
        names.sort();
        for name in names {
            out.push(format!("  {name} => {}", params[name]));
        }
    }
    let list = |key: &str| -> Vec<String> {
        resource.get(key).and_then(Json::as_array).into_iter().flatten().map(text).collect()
    };
    let sensitive = list("sensitive_parameters");
    if !sensitive.is_empty() {
        out.push(format!("  sensitive: {}", sensitive.join(", ")));
    }
    if resource.get("exported").and_then(Json::as_bool) == Some(true) {
        out.push("  exported: true".to_owned());
    }
    if let Some(file) = resource.get("file").map(text).filter(|f| !f.is_empty()) {
        match resource.get("line").and_then(Json::as_u64) {
            Some(line) => out.push(format!("  at: {file}:{line}")),
            None => out.push(format!("  at: {file}")),
        }
    }
    out.push(format!("  tags: {}", list("tags").join(", ")));
    out
}

/// A string as itself, anything else as JSON.
fn text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The start of a value's JSON, for a message.
fn short(v: &Json) -> String {
    let s = v.to_string();
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_resources_and_edges_are_left_out() {
        let catalog = serde_json::json!({
            "resources": [
                {"type": "Stage", "title": "main", "tags": ["stage"], "exported": false, "parameters": {"name": "main"}},
                {"type": "Class", "title": "Settings", "tags": ["class", "settings"], "exported": false},
                {"type": "Class", "title": "main", "tags": ["class", "x"], "exported": false, "parameters": {"name": "main"}},
                {"type": "File", "title": "/a", "tags": ["file", "class"], "file": "", "line": 1, "exported": true,
                 "parameters": {"mode": "0644", "content": "s", "before": ["File[/b]"]}, "sensitive_parameters": ["content"]},
                {"type": "Notify", "title": "n", "tags": ["notify"], "file": "/m/init.pp", "line": 3, "exported": false},
            ],
            "edges": [
                {"source": "Stage[main]", "target": "Class[main]"},
                {"source": "Class[main]", "target": "Notify[n]"},
                {"source": "Class[main]", "target": "File[/a]"},
                {"source": "Stage[main]", "target": "Class[Settings]"},
            ],
            "classes": ["settings", "c"],
        });
        assert_eq!(
            lines(&catalog),
            [
                "resource: Class[main]",
                "  name => \"main\"",
                "  tags: class, x",
                "resource: File[/a]",
                "  before => [\"File[/b]\"]",
                "  content => \"s\"",
                "  mode => \"0644\"",
                "  sensitive: content",
                "  exported: true",
                "  tags: file, class",
                "resource: Notify[n]",
                "  at: /m/init.pp:3",
                "  tags: notify",
                "contains: Class[main] -> File[/a]",
                "contains: Class[main] -> Notify[n]",
                "classes: c",
            ]
        );
    }

    #[test]
    fn not_a_catalog() {
        assert_eq!(lines(&serde_json::json!(null)), ["catalog: not a catalog: null"]);
    }
}
