//! Facts: a small built-in set (the one Puppet's oracle uses: node `testnode`), or a JSON or
//! YAML file given with `--facts`, and the top-scope variables Puppet derives from them.

use std::rc::Rc;

use puppet_types::value::Hash;
use puppet_types::Value;

use crate::scope::Scope;

/// The built-in facts of node `node`.
pub fn builtin(node: &str) -> Hash {
    let s = |v: &str| Value::from(v);
    let mut release = Hash::default();
    release.insert(s("major"), s("12"));
    release.insert(s("full"), s("12.0"));
    let mut os = Hash::default();
    os.insert(s("family"), s("Debian"));
    os.insert(s("name"), s("Debian"));
    os.insert(s("release"), Value::hash(release));
    let mut facts = Hash::default();
    facts.insert(s("hostname"), s(node));
    facts.insert(s("fqdn"), Value::from(format!("{node}.example.com").as_str()));
    facts.insert(s("domain"), s("example.com"));
    facts.insert(s("kernel"), s("Linux"));
    facts.insert(s("osfamily"), s("Debian"));
    facts.insert(s("os"), Value::hash(os));
    facts
}

/// Facts read from a file: a JSON or YAML document holding a hash (JSON when the file
/// starts with `{`). YAML is read as Puppet reads a facts file, with Ruby's Psych (YAML
/// 1.1: `yes` and `off` are Booleans, `0755` is octal), the reader Hiera data uses.
pub fn read(path: &std::path::Path) -> Result<Hash, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let first = if text.trim_start().starts_with('{') {
        pfmt::data::json::documents(&text).next().transpose().map_err(|e| e.to_string())
    } else {
        match crate::hiera::yaml::read(&text) {
            Ok(doc) => match doc.unusable.iter().next() {
                Some((key, what)) => Err(format!("the value of '{key}' is a {what}, not data")),
                None => Ok(doc.value),
            },
            Err(crate::hiera::yaml::YamlError::Syntax(m)) => Err(m),
            Err(crate::hiera::yaml::YamlError::DisallowedClass(c)) => {
                Err(format!("Tried to load unspecified class: {c}"))
            }
        }
    };
    match &first {
        Ok(Some(Value::Hash(h))) => Ok((**h).clone()),
        Ok(_) => Err(format!("{}: the facts must be a hash", path.display())),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Sets the top-scope variables of a node with `facts`: each fact by name, `$facts`,
/// `$trusted`, `$server_facts`, `$environment`, and the main class's `$name` and `$title`.
pub fn install(top: &Rc<Scope>, facts: &Hash, node: &str) {
    for (k, v) in facts.iter() {
        if let Value::String(name) = k {
            top.replace(name, v.clone());
        }
    }
    top.replace("facts", Value::hash(facts.clone()));
    let s = |v: &str| Value::from(v);
    let mut trusted = Hash::default();
    trusted.insert(s("authenticated"), s("local"));
    trusted.insert(s("certname"), Value::Undef);
    trusted.insert(s("extensions"), Value::hash(Hash::default()));
    trusted.insert(s("hostname"), Value::Undef);
    trusted.insert(s("domain"), Value::Undef);
    trusted.insert(s("external"), Value::hash(Hash::default()));
    top.replace("trusted", Value::hash(trusted));
    let mut server = Hash::default();
    server.insert(s("environment"), s("production"));
    top.replace("server_facts", Value::hash(server));
    top.replace("environment", s("production"));
    top.replace("name", s("main"));
    top.replace("title", s("main"));
    top.replace("module_name", s(""));
    top.replace("caller_module_name", s(""));
    // The `$settings::` namespace: the settings a manifest may ask about.
    top.replace("settings::environment", s("production"));
    top.replace("settings::strict", s("warning"));
    top.replace("settings::strict_variables", Value::Boolean(true));
    top.replace("settings::node_name_value", s(node));
}
