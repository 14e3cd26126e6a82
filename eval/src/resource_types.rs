//! Puppet 7.23's core resource types: their key attributes, providers, parameters and
//! properties in Puppet's order, and the values each attribute documents, plus the
//! metaparameters every type takes.
//!
//! The table is `resource_types.json`, written by Puppet itself:
//! `cargo xtask gen resource-types > eval/src/resource_types.json` (`xtask/ruby/resource_types.rb` reads
//! `Puppet::Type.eachtype`, `allattrs`, `key_attributes` and each attribute's value
//! collection). It is read once, on first use.
//!
//! ```
//! let file = puppet_eval::resource_types::get("File").unwrap();
//! assert_eq!(file.namevars, ["path"]);
//! let ensure = file.attribute("ensure").unwrap();
//! assert_eq!(ensure.values, ["absent", "file", "present", "directory", "link"]);
//! assert!(puppet_eval::resource_types::metaparameters().iter().any(|m| m == "subscribe"));
//! ```

use std::sync::OnceLock;

use serde_json::Value;

/// A resource type Puppet ships (`file`, `package`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceType {
    /// The lowercase name (`file`).
    pub name: String,
    /// The key attributes (`key_attributes`) that identify a resource of this type: `path` for
    /// `file`; `name`, `provider` and `command` for `package`. The title sets the first one
    /// when the resource does not.
    pub namevars: Vec<String>,
    /// The providers Puppet has for the type, sorted (empty for types without providers).
    pub providers: Vec<String>,
    /// Parameters and properties in Puppet's order (`allattrs`: key attributes, `provider`,
    /// properties, other parameters), without the metaparameters.
    pub attributes: Vec<Attribute>,
    /// The type checks the resource as a whole too (a `validate` block of the type's own).
    pub validates: bool,
    /// The features of the provider Puppet picks by default (on the machine the table was
    /// generated on: a Debian node).
    pub default_features: Vec<String>,
}

impl ResourceType {
    /// The attribute `name` of this type (not a metaparameter).
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

/// What an attribute is to Puppet (`Puppet::Type.attrtype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttributeKind {
    /// A parameter: how Puppet manages the resource (`path`, `recurse`).
    Parameter,
    /// A property: state Puppet reads and changes on the system (`ensure`, `mode`).
    Property,
    /// A metaparameter, which every type takes (`require`, `tag`).
    Metaparameter,
}

/// A parameter, property or metaparameter, with the values it documents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// The name (`ensure`).
    pub name: String,
    pub kind: AttributeKind,
    /// The literal values its `newvalues` declares, in declaration order (`present`,
    /// `absent`, …). When neither these nor `patterns` are declared, the value collection
    /// accepts anything (the attribute's own `validate` may still refuse it).
    pub values: Vec<String>,
    /// Other names of those values (`aliasvalue`): `(alias, value)`, e.g. `("installed",
    /// "present")` for package's `ensure`.
    pub aliases: Vec<(String, String)>,
    /// Ruby regexps (their source) that valid values may match instead of a literal value:
    /// `.` for file's `ensure` (a link target), `^[0-9]+$` for `recurselimit`.
    pub patterns: Vec<String>,
    /// Puppet documents it as read-only (file's `ctime`, package's `status`): it reports
    /// state, and manifests do not set it.
    pub read_only: bool,
    /// Its own `validate` block replaces the check against `values` and `patterns`.
    pub custom_validation: bool,
    /// The provider features it needs: Puppet ignores it when the provider lacks one.
    pub required_features: Vec<String>,
}

impl Attribute {
    /// The values and aliases, in the table's order: what may follow `=>` literally.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.values.iter().map(String::as_str).chain(self.aliases.iter().map(|(alias, _)| alias.as_str()))
    }
}

struct Table {
    types: Vec<ResourceType>,
    metaparameters: Vec<Attribute>,
    metaparameter_names: Vec<String>,
}

const JSON: &str = include_str!("resource_types.json");

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The file is generated and compiled in; the tests read every entry of it.
        let root: Value = serde_json::from_str(JSON).expect("resource_types.json is valid JSON");
        let types: Vec<ResourceType> = items(&root, "types").iter().map(resource_type).collect();
        let metaparameters: Vec<Attribute> = items(&root, "metaparameters").iter().map(attribute).collect();
        let metaparameter_names = metaparameters.iter().map(|m| m.name.clone()).collect();
        Table { types, metaparameters, metaparameter_names }
    })
}

fn items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

fn texts(v: &Value, key: &str) -> Vec<String> {
    items(v, key).iter().filter_map(Value::as_str).map(str::to_owned).collect()
}

fn resource_type(v: &Value) -> ResourceType {
    ResourceType {
        name: text(v, "name"),
        namevars: texts(v, "namevars"),
        providers: texts(v, "providers"),
        attributes: items(v, "attributes").iter().map(attribute).collect(),
        validates: v.get("validates").and_then(Value::as_bool).unwrap_or(false),
        default_features: texts(v, "default_features"),
    }
}

fn attribute(v: &Value) -> Attribute {
    let kind = match v.get("kind").and_then(Value::as_str) {
        Some("property") => AttributeKind::Property,
        Some("metaparameter") => AttributeKind::Metaparameter,
        _ => AttributeKind::Parameter,
    };
    let aliases = v
        .get("aliases")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(alias, value)| Some((alias.clone(), value.as_str()?.to_owned()))).collect())
        .unwrap_or_default();
    Attribute {
        name: text(v, "name"),
        kind,
        values: texts(v, "values"),
        aliases,
        patterns: texts(v, "patterns"),
        read_only: v.get("read_only").and_then(Value::as_bool).unwrap_or(false),
        custom_validation: v.get("custom_validation").and_then(Value::as_bool).unwrap_or(false),
        required_features: texts(v, "required_features"),
    }
}

/// Every core resource type, sorted by name. (`component` and `whit`, which Puppet makes
/// for itself and a manifest cannot declare, are not among them.)
pub fn all() -> &'static [ResourceType] {
    &table().types
}

/// The core type called `name`, in any case (`file`, `File`), as Puppet's type names are.
pub fn get(name: &str) -> Option<&'static ResourceType> {
    all().iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// The metaparameters' names in Puppet's order (`Puppet::Type.metaparams`: `noop`,
/// `schedule`, `audit`, `loglevel`, `alias`, `tag`, `require`, `subscribe`, `before`,
/// `notify`, `stage`).
pub fn metaparameters() -> &'static [String] {
    &table().metaparameter_names
}

/// The metaparameter `name`, with its values (`loglevel`'s levels, `noop`'s booleans).
pub fn metaparameter(name: &str) -> Option<&'static Attribute> {
    table().metaparameters.iter().find(|m| m.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (type, key attributes, some attributes with their kinds).
    type TypeCase = (&'static str, &'static [&'static str], &'static [(&'static str, AttributeKind)]);

    const TYPES: &[TypeCase] = {
        use AttributeKind::{Parameter as P, Property as R};
        &[
            ("exec", &["command"], &[("command", P), ("returns", R), ("unless", P), ("onlyif", P), ("refreshonly", P)]),
            (
                "file",
                &["path"],
                &[("path", P), ("ensure", R), ("mode", R), ("content", R), ("source", P), ("recurse", P)],
            ),
            ("filebucket", &["name"], &[("server", P), ("port", P), ("path", P)]),
            ("group", &["name"], &[("gid", R), ("members", R), ("system", P)]),
            ("notify", &["name"], &[("message", R), ("withpath", P)]),
            ("package", &["name", "provider", "command"], &[("ensure", R), ("install_options", P), ("mark", R)]),
            ("resources", &["name"], &[("purge", P), ("unless_system_user", P)]),
            ("schedule", &["name"], &[("range", P), ("period", P), ("repeat", P)]),
            ("service", &["name"], &[("ensure", R), ("enable", R), ("hasstatus", P)]),
            ("stage", &["name"], &[("name", P)]),
            ("tidy", &["path"], &[("age", P), ("rmdirs", P)]),
            ("user", &["name"], &[("uid", R), ("groups", R), ("managehome", P), ("purge_ssh_keys", P)]),
        ]
    };

    #[test]
    fn types_are_puppets() {
        let names: Vec<&str> = all().iter().map(|t| t.name.as_str()).collect();
        let expected: Vec<&str> = TYPES.iter().map(|(name, _, _)| *name).collect();
        assert_eq!(names, expected);
        for (name, namevars, attributes) in TYPES {
            let t = get(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(t.namevars, *namevars, "{name}");
            for (attribute, kind) in *attributes {
                let a = t.attribute(attribute).unwrap_or_else(|| panic!("{name}.{attribute}"));
                assert_eq!(a.kind, *kind, "{name}.{attribute}");
            }
            // Every key attribute is an attribute; metaparameters are kept apart.
            for namevar in &t.namevars {
                assert!(t.attribute(namevar).is_some(), "{name}.{namevar}");
            }
            for attribute in &t.attributes {
                assert_ne!(attribute.kind, AttributeKind::Metaparameter, "{name}.{}", attribute.name);
            }
        }
    }

    #[test]
    fn lookup_ignores_case() {
        assert_eq!(get("File").map(|t| t.name.as_str()), Some("file"));
        assert_eq!(get("PACKAGE").map(|t| t.name.as_str()), Some("package"));
        assert!(get("component").is_none());
        assert!(get("whit").is_none());
        assert!(get("nosuchtype").is_none());
    }

    #[test]
    fn order_is_puppets() {
        let file = get("file").map(|t| t.attributes.iter().map(|a| a.name.as_str()).take(5).collect::<Vec<_>>());
        assert_eq!(file, Some(vec!["path", "provider", "ensure", "content", "checksum_value"]));
        let exec = get("exec").map(|t| t.attributes.iter().map(|a| a.name.as_str()).take(3).collect::<Vec<_>>());
        assert_eq!(exec, Some(vec!["command", "provider", "returns"]));
    }

    /// (type, attribute, values, aliases, patterns).
    type ValueCase = (
        &'static str,
        &'static str,
        &'static [&'static str],
        &'static [(&'static str, &'static str)],
        &'static [&'static str],
    );

    const VALUES: &[ValueCase] = &[
        ("file", "ensure", &["absent", "file", "present", "directory", "link"], &[("false", "absent")], &["."]),
        ("file", "replace", &["true", "false", "yes", "no"], &[], &[]),
        ("file", "recurselimit", &[], &[], &["^[0-9]+$"]),
        ("file", "mode", &[], &[], &[]),
        (
            "package",
            "ensure",
            &["present", "absent", "purged", "disabled", "latest"],
            &[("installed", "present")],
            &["."],
        ),
        ("service", "ensure", &["stopped", "running"], &[("false", "stopped"), ("true", "running")], &[]),
        ("service", "enable", &["true", "false", "manual", "mask", "delayed"], &[], &[]),
        ("exec", "logoutput", &["true", "false", "on_failure"], &[], &[]),
        ("tidy", "recurse", &["true", "false", "inf"], &[], &["^[0-9]+$"]),
        ("user", "expiry", &["absent"], &[], &[r"^\d{4}-\d{2}-\d{2}$"]),
    ];

    #[test]
    fn documented_values() {
        for (type_name, name, values, aliases, patterns) in VALUES {
            let a = get(type_name).and_then(|t| t.attribute(name)).unwrap_or_else(|| panic!("{type_name}.{name}"));
            assert_eq!(a.values, *values, "{type_name}.{name}");
            let got: Vec<(&str, &str)> = a.aliases.iter().map(|(x, y)| (x.as_str(), y.as_str())).collect();
            assert_eq!(got, *aliases, "{type_name}.{name}");
            assert_eq!(a.patterns, *patterns, "{type_name}.{name}");
        }
        let installed = get("package").and_then(|t| t.attribute("ensure")).map(|a| a.words().any(|w| w == "installed"));
        assert_eq!(installed, Some(true));
    }

    #[test]
    fn providers() {
        let service = get("service").map(|t| t.providers.clone()).unwrap_or_default();
        assert!(service.iter().any(|p| p == "systemd"), "{service:?}");
        assert!(service.windows(2).all(|w| w[0] < w[1]), "sorted: {service:?}");
        assert_eq!(get("notify").map(|t| t.providers.len()), Some(0));
    }

    #[test]
    fn metaparameters_are_puppets() {
        let expected = [
            "noop",
            "schedule",
            "audit",
            "loglevel",
            "alias",
            "tag",
            "require",
            "subscribe",
            "before",
            "notify",
            "stage",
        ];
        assert_eq!(metaparameters(), expected);
        assert_eq!(metaparameter("noop").map(|m| m.values.clone()), Some(vec!["true".to_owned(), "false".to_owned()]));
        let levels = metaparameter("loglevel").map(|m| m.values.len());
        assert_eq!(levels, Some(9));
        assert!(metaparameter("ensure").is_none());
        assert!(metaparameter("require").is_some_and(|m| m.kind == AttributeKind::Metaparameter));
    }
}
