//! A layer's `hiera.yaml` (`pops/lookup/hiera_config.rb`): the global one, an environment's
//! or a module's: read, checked with Puppet's
//! messages, and turned into hierarchy entries whose locations are resolved at each lookup.
//!
//! Version 5 is Hiera 5's format; version 4 (deprecated) is read into the same entries;
//! version 3, or a file that holds no hash, is ignored in a module with Puppet's warnings. A
//! module without `hiera.yaml` has no data. The checks are Puppet's: its type for the file,
//! one data function and one location kind per level, unique level names.

use std::path::{Path, PathBuf};

use puppet_types::value::Hash;
use puppet_types::{Type, Value};

use super::yaml::{self, YamlError};
use super::HieraError;
use crate::eval::Strict;

pub const CONFIG_FILE_NAME: &str = "hiera.yaml";

/// The kinds of data provider functions, in Puppet's order of precedence (`ALL_FUNCTION_KEYS`).
const FUNCTION_KEYS: [&str; 5] = ["data_hash", "lookup_key", "data_dig", "hiera3_backend", "v4_data_hash"];
/// The location keys of a hierarchy entry (`LOCATION_KEYS`).
const LOCATION_KEYS: [&str; 7] = ["path", "paths", "glob", "globs", "uri", "uris", "mapped_paths"];

/// A hierarchy entry's data provider function: its kind (`data_hash`, ...) and name.
#[derive(Clone, Debug)]
pub struct Function {
    pub kind: &'static str,
    pub name: String,
}

/// Where a hierarchy entry's data is, before interpolation.
#[derive(Clone, Debug)]
pub enum Locations {
    /// No location key: the function is called without a path.
    None,
    Paths(Vec<String>),
    Globs(Vec<String>),
    Uris(Vec<String>),
    /// `[variable, key, template]`: one path per value of the scope variable.
    Mapped([String; 3]),
}

/// One level of a hierarchy.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub function: Function,
    /// The data directory, relative to the module (interpolated in version 5).
    pub datadir: String,
    pub locations: Locations,
    /// Version 4 appends the backend's extension to paths that lack it.
    pub extension: Option<String>,
}

/// Which layer a configuration belongs to: its rules differ (version 3 only in the global
/// layer, version 4 not there, `default_hierarchy` only in modules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Global,
    Environment,
    Module,
}

impl Place {
    /// The provider's name: `Global Data Provider`, ...
    pub fn name(self) -> &'static str {
        match self {
            Place::Global => "Global",
            Place::Environment => "Environment",
            Place::Module => "Module",
        }
    }
}

/// A layer's Hiera configuration.
#[derive(Debug)]
pub struct Config {
    pub path: PathBuf,
    /// Puppet's default configuration, used where the file does not exist (the global
    /// layer): paths that do not exist are dropped, and levels left without any.
    pub is_default: bool,
    /// The directory of `hiera.yaml`, which relative data directories start from.
    pub root: PathBuf,
    pub version: i64,
    pub hierarchy: Vec<Entry>,
    /// `default_hierarchy`: searched when nothing else has the key (modules only).
    pub default_hierarchy: Option<Vec<Entry>>,
    /// The file's text, for the line numbers of some messages.
    text: String,
}

/// A warning reading a configuration gives: its message, and the key Puppet's `warn_once`
/// gives it (none: logged each time).
pub struct Warning {
    pub once: Option<String>,
    pub message: String,
}

/// Puppet's default version 5 configuration (`DEFAULT_CONFIG_HASH`) rooted at `root`: `common.yaml`
/// in `data`, read with `yaml_data`.
pub fn default_v5(root: &Path) -> Config {
    Config {
        path: root.join(CONFIG_FILE_NAME),
        is_default: true,
        root: root.to_path_buf(),
        version: 5,
        hierarchy: vec![Entry {
            name: "Common".into(),
            function: Function { kind: "data_hash", name: "yaml_data".into() },
            datadir: "data".into(),
            locations: Locations::Paths(vec!["common.yaml".into()]),
            extension: None,
        }],
        default_hierarchy: None,
        text: String::new(),
    }
}

/// Reads the configuration at `path` of a layer: `None` when the layer ignores it
/// (version 3 outside the global layer).
pub fn load(
    path: &Path,
    strict: Strict,
    warnings: &mut Vec<Warning>,
    place: Place,
) -> Result<Option<Config>, HieraError> {
    let text = std::fs::read_to_string(path).map_err(|e| HieraError::Puppet(format!("({}): {e}", path.display())))?;
    let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let shown = path.display().to_string();
    let loaded = match yaml::read(&text) {
        Ok(document) => document.value,
        Err(YamlError::Syntax(m)) => return Err(HieraError::Puppet(format!("({shown}): {m}"))),
        Err(YamlError::DisallowedClass(c)) => {
            return Err(HieraError::Puppet(format!("({shown}): Tried to load unspecified class: {c}")))
        }
    };
    let config = match &loaded {
        Some(Value::Hash(h)) => (**h).clone(),
        _ => {
            warnings.push(Warning {
                once: None,
                message: format!("{shown}: File exists but does not contain a valid YAML hash. Falling back to Hiera version 3 default config"),
            });
            return version_3(&shown, Hash::default(), strict, warnings, place);
        }
    };
    let version = match config.get(&Value::from("version")) {
        None | Some(Value::Undef) => 3,
        Some(Value::Integer(n)) => *n,
        Some(Value::Float(f)) => *f as i64,
        Some(Value::String(s)) => ruby_to_i(s),
        Some(Value::Boolean(_)) => 3,
        Some(other) => ruby_to_i(&puppet_types::display::value_to_s(other)),
    };
    let mut c = Config {
        path: path.to_path_buf(),
        is_default: false,
        root,
        version,
        hierarchy: Vec::new(),
        default_hierarchy: None,
        text,
    };
    match version {
        5 => c.version_5(config, place)?,
        4 if place == Place::Global => {
            return Err(c.fail("hiera.yaml version 4 cannot be used in the global layer".into(), None))
        }
        4 => c.version_4(config, strict, warnings)?,
        3 => return version_3(&shown, config, strict, warnings, place),
        n => {
            return Err(HieraError::Lookup(format!(
                "This runtime does not support hiera.yaml version {n} (file: {shown})"
            )))
        }
    }
    Ok(Some(c))
}

/// Ruby's `String#to_i`: the leading integer, 0 when there is none.
fn ruby_to_i(s: &str) -> i64 {
    let t = s.trim_start();
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    digits[..end].parse::<i64>().map_or(0, |n| sign * n)
}

/// A version 3 configuration: deprecated, checked, then ignored at a module's or an
/// environment's root (in the global layer its backends are not modelled: an error).
fn version_3(
    shown: &str,
    mut config: Hash,
    strict: Strict,
    warnings: &mut Vec<Warning>,
    place: Place,
) -> Result<Option<Config>, HieraError> {
    if strict != Strict::Off {
        warnings.push(Warning {
            once: Some("hiera.yaml".into()),
            message: format!(
                "{shown}: Use of 'hiera.yaml' version 3 is deprecated. It should be converted to version 5"
            ),
        });
    }
    let s = |v: &str| Value::from(v);
    let set_default = |config: &mut Hash, k: &str, v: Value| {
        if config.get(&s(k)).is_none_or(Value::is_undef) {
            config.insert(s(k), v);
        }
    };
    set_default(&mut config, "version", Value::Integer(3));
    set_default(&mut config, "backends", Value::array(vec![s("yaml")]));
    set_default(&mut config, "hierarchy", Value::array(vec![s("nodes/%{::trusted.certname}"), s("common")]));
    set_default(&mut config, "merge_behavior", s("native"));
    set_default(&mut config, "deep_merge_options", Value::hash(Hash::default()));
    let backends: Vec<String> = match config.get(&s("backends")) {
        Some(Value::String(b)) => vec![b.to_string()],
        Some(Value::Array(items)) => items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect(),
        _ => Vec::new(),
    };
    let mut fields = String::from(
        "version => Integer[3, 3], Optional[backends] => Variant[String[1], Array[String[1]]], \
         Optional[logger] => String[1], Optional[merge_behavior] => Enum[deep, deeper, native], \
         Optional[deep_merge_options] => Hash[String[1], Variant[String, Boolean]], \
         Optional[hierarchy] => Variant[String[1], Array[String[1]]]",
    );
    for b in &backends {
        fields.push_str(&format!(", Optional[{}] => Hash[String[1], Any]", puppet_types::display::puppet_quote(b)));
    }
    assert_config(shown, &format!("Struct[{{{fields}}}]"), &Value::hash(config))?;
    let (a_place, root) = match place {
        Place::Global => {
            return Err(HieraError::Other(format!(
                "{shown}: Hiera 3 backends in the global layer are not available: Poppet reads version 5 configurations there"
            )))
        }
        Place::Environment => ("an environment", "the environment root"),
        Place::Module => ("a module", "module root"),
    };
    if strict == Strict::Error {
        return Err(HieraError::Lookup(format!("hiera.yaml version 3 cannot be used in {a_place} (file: {shown})")));
    }
    warnings.push(Warning {
        once: Some(shown.to_string()),
        message: format!("hiera.yaml version 3 found at {root} was ignored"),
    });
    Ok(None)
}

/// `TypeAsserter.assert_instance_of("The Lookup Configuration at '%s'", type, config)`.
fn assert_config(shown: &str, type_text: &str, config: &Value) -> Result<(), HieraError> {
    let t = match &puppet_types::literal::read(type_text) {
        Ok(Value::Type(t)) => (**t).clone(),
        _ => Type::Any,
    };
    if puppet_types::instance::is_instance(&t, config) {
        return Ok(());
    }
    let subject = format!("The Lookup Configuration at '{shown}' has wrong type,");
    Err(HieraError::Puppet(puppet_types::mismatch::describe_value(&subject, &t, config)))
}

/// The type of a version 5 hierarchy (`HieraConfigV5.config_type`).
const HIERARCHY_V5: &str = "Array[Struct[{name => String[1], \
    Optional[options] => Hash[Pattern[/\\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\\z/], Data], \
    Optional[data_hash] => String[1], Optional[lookup_key] => String[1], Optional[hiera3_backend] => String[1], \
    Optional[v4_data_hash] => String[1], Optional[data_dig] => String[1], Optional[path] => String[1], \
    Optional[paths] => Array[String[1], 1], Optional[glob] => String[1], Optional[globs] => Array[String[1], 1], \
    Optional[uri] => String[1], Optional[uris] => Array[String[1], 1], Optional[mapped_paths] => Array[String[1], 3, 3], \
    Optional[datadir] => String[1]}]]";

/// `label.combine_strings`: `a, b, or c`.
fn combine(strings: &[&str]) -> String {
    match strings {
        [] => String::new(),
        [one] => (*one).to_string(),
        [a, b] => format!("{a} or {b}"),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_owned)
}

fn texts(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(items)) => items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect(),
        Some(Value::String(s)) => vec![s.to_string()],
        _ => Vec::new(),
    }
}

impl Config {
    /// Fails with a configuration issue: Puppet's message and where (`(file: …, line: N)`).
    fn fail(&self, message: String, line: Option<usize>) -> HieraError {
        let location = match line {
            Some(l) => format!("(file: {}, line: {l})", self.path.display()),
            None => format!("(file: {})", self.path.display()),
        };
        HieraError::Lookup(format!("{message} {location}"))
    }

    /// `find_line_matching`: the first line from `start` (1-based) that matches `pattern`,
    /// comments removed.
    fn find_line(&self, pattern: &str, start: usize) -> Option<usize> {
        let re = puppet_types::regexp::Regexp::compile(pattern).ok()?;
        for (i, line) in self.text.lines().enumerate() {
            let number = i + 1;
            if number < start {
                continue;
            }
            let mut quote: Option<char> = None;
            let mut stripped = String::new();
            for c in line.chars() {
                match c {
                    '"' | '\'' if quote == Some(c) => quote = None,
                    '"' | '\'' if quote.is_none() => quote = Some(c),
                    '#' if quote.is_none() => break,
                    _ => {}
                }
                stripped.push(c);
            }
            if re.is_match(&stripped) {
                return Some(number);
            }
        }
        None
    }

    fn version_5(&mut self, mut config: Hash, place: Place) -> Result<(), HieraError> {
        let s = |v: &str| Value::from(v);
        let shown = self.path.display().to_string();
        if config.get(&s("defaults")).is_none_or(Value::is_undef) {
            let mut d = Hash::default();
            d.insert(s("datadir"), s("data"));
            d.insert(s("data_hash"), s("yaml_data"));
            config.insert(s("defaults"), Value::hash(d));
        }
        if config.get(&s("hierarchy")).is_none_or(Value::is_undef) {
            let mut h = Hash::default();
            h.insert(s("name"), s("Common"));
            h.insert(s("path"), s("common.yaml"));
            config.insert(s("hierarchy"), Value::array(vec![Value::hash(h)]));
        }
        let options = "Optional[options] => Hash[Pattern[/\\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\\z/], Data]";
        let t = format!(
            "Struct[{{version => Integer[5, 5], Optional[defaults] => Struct[{{Optional[data_hash] => String[1], \
             Optional[lookup_key] => String[1], Optional[data_dig] => String[1], Optional[datadir] => String[1], {options}}}], \
             Optional[hierarchy] => {HIERARCHY_V5}, Optional[plan_hierarchy] => {HIERARCHY_V5}, \
             Optional[default_hierarchy] => {HIERARCHY_V5}}}]"
        );
        let whole = Value::hash(config.clone());
        assert_config(&shown, &t, &whole)?;
        let empty = Hash::default();
        let defaults = match config.get(&s("defaults")) {
            Some(Value::Hash(h)) => (**h).clone(),
            _ => empty.clone(),
        };
        let default_functions: Vec<&str> =
            FUNCTION_KEYS[..4].iter().copied().filter(|k| defaults.contains_key(&s(k))).collect();
        if default_functions.len() > 1 {
            return Err(
                self.fail(format!("Only one of {} can be defined in defaults", combine(&FUNCTION_KEYS[..4])), None)
            );
        }
        if let Some(Value::Hash(o)) = defaults.get(&s("options")) {
            for key in ["path", "uri"] {
                if o.contains_key(&s(key)) {
                    return Err(self.fail(format!("Option key '{key}' used in defaults is reserved by Puppet"), None));
                }
            }
        }
        let datadir = text(defaults.get(&s("datadir"))).unwrap_or_else(|| "data".into());
        let default_function = default_functions
            .first()
            .map(|k| Function { kind: k, name: text(defaults.get(&s(k))).unwrap_or_default() });
        let entries = |c: &Config, key: &str| -> Result<Vec<Entry>, HieraError> {
            let Some(Value::Array(items)) = config.get(&s(key)) else { return Ok(Vec::new()) };
            let mut out: Vec<Entry> = Vec::new();
            for item in items.iter() {
                let Value::Hash(he) = item else { continue };
                out.push(c.entry_v5(he, default_function.as_ref(), &datadir, place)?);
            }
            Ok(out)
        };
        self.hierarchy = entries(self, "hierarchy")?;
        if config.contains_key(&s("plan_hierarchy")) {
            entries(self, "plan_hierarchy")?;
        }
        if config.contains_key(&s("default_hierarchy")) && place != Place::Module {
            return Err(self.fail(
                "'default_hierarchy' is only allowed in the module layer".into(),
                self.find_line(r"\s+default_hierarchy:", 1),
            ));
        }
        if config.contains_key(&s("default_hierarchy")) {
            self.default_hierarchy = Some(entries(self, "default_hierarchy")?);
        }
        for list in std::iter::once(&self.hierarchy).chain(self.default_hierarchy.as_ref()) {
            self.check_unique_names(list)?;
        }
        Ok(())
    }

    /// `validate_hierarchy` and the entry's provider as `create_configured_data_providers`
    /// makes it.
    fn entry_v5(
        &self,
        he: &Hash,
        default_function: Option<&Function>,
        datadir: &str,
        place: Place,
    ) -> Result<Entry, HieraError> {
        let s = |v: &str| Value::from(v);
        let name = text(he.get(&s("name"))).unwrap_or_default();
        let functions: Vec<&'static str> = FUNCTION_KEYS.iter().copied().filter(|k| he.contains_key(&s(k))).collect();
        let function = match functions.as_slice() {
            [] => match default_function {
                Some(f) => f.clone(),
                None => {
                    return Err(self.fail(
                        format!("One of {} must be defined in hierarchy '{name}'", combine(&FUNCTION_KEYS[..4])),
                        None,
                    ))
                }
            },
            [kind] => Function { kind, name: text(he.get(&s(kind))).unwrap_or_default() },
            _ => {
                return Err(self.fail(
                    format!("Only one of {} can be defined in hierarchy '{name}'", combine(&FUNCTION_KEYS[..4])),
                    None,
                ))
            }
        };
        if function.kind == "hiera3_backend" && place != Place::Global {
            return Err(self.fail(
                "'hiera3_backend' is only allowed in the global layer".into(),
                self.find_line(r"\s+hiera3_backend:", 1),
            ));
        }
        let location_keys: Vec<&str> = LOCATION_KEYS.iter().copied().filter(|k| he.contains_key(&s(k))).collect();
        if location_keys.len() > 1 {
            return Err(self
                .fail(format!("Only one of {} can be defined in hierarchy '{name}'", combine(&LOCATION_KEYS)), None));
        }
        if let Some(Value::Hash(o)) = he.get(&s("options")) {
            for key in ["path", "uri"] {
                if o.contains_key(&s(key)) {
                    return Err(
                        self.fail(format!("Option key '{key}' used in hierarchy '{name}' is reserved by Puppet"), None)
                    );
                }
            }
        }
        // `LOCATION_KEYS.find`: the first in Puppet's order of the keys the entry has.
        let location = ["paths", "path", "globs", "glob", "uris", "uri", "mapped_paths"]
            .into_iter()
            .find(|k| he.contains_key(&s(k)));
        let locations = match location {
            Some("path") | Some("paths") => Locations::Paths(texts(he.get(&s(location.unwrap_or_default())))),
            Some("glob") | Some("globs") => Locations::Globs(texts(he.get(&s(location.unwrap_or_default())))),
            Some("uri") | Some("uris") => Locations::Uris(texts(he.get(&s(location.unwrap_or_default())))),
            Some(_) => {
                let t = texts(he.get(&s("mapped_paths")));
                let at = |i: usize| t.get(i).cloned().unwrap_or_default();
                Locations::Mapped([at(0), at(1), at(2)])
            }
            None => Locations::None,
        };
        Ok(Entry {
            name,
            function,
            datadir: text(he.get(&s("datadir"))).unwrap_or_else(|| datadir.to_owned()),
            locations,
            extension: None,
        })
    }

    /// `Hierarchy name 'x' defined more than once.`
    fn check_unique_names(&self, entries: &[Entry]) -> Result<(), HieraError> {
        for (i, e) in entries.iter().enumerate() {
            if entries[..i].iter().any(|o| o.name == e.name) {
                let pattern =
                    format!(r#"\s+name:\s+['"]?{}(?:[^\w]|$)"#, puppet_types::regexp::Regexp::escape(&e.name));
                let first = self.find_line(&pattern, 1);
                let second = first.and_then(|f| self.find_line(&pattern, f + 1));
                let (first, line) = match second {
                    Some(l) => (first, Some(l)),
                    None => (None, first),
                };
                let mut message = format!("Hierarchy name '{}' defined more than once.", e.name);
                if let Some(f) = first {
                    message.push_str(&format!(" First defined at (line: {f})"));
                }
                return Err(self.fail(message, line));
            }
        }
        Ok(())
    }

    fn version_4(&mut self, mut config: Hash, strict: Strict, warnings: &mut Vec<Warning>) -> Result<(), HieraError> {
        let s = |v: &str| Value::from(v);
        let shown = self.path.display().to_string();
        if strict != Strict::Off {
            warnings.push(Warning {
                once: Some("hiera.yaml".into()),
                message: format!(
                    "{shown}: Use of 'hiera.yaml' version 4 is deprecated. It should be converted to version 5"
                ),
            });
        }
        if config.get(&s("datadir")).is_none_or(Value::is_undef) {
            config.insert(s("datadir"), s("data"));
        }
        if config.get(&s("hierarchy")).is_none_or(Value::is_undef) {
            let mut h = Hash::default();
            h.insert(s("name"), s("common"));
            h.insert(s("backend"), s("yaml"));
            config.insert(s("hierarchy"), Value::array(vec![Value::hash(h)]));
        }
        let t = "Struct[{version => Integer[4, 4], Optional[datadir] => String[1], Optional[hierarchy] => \
                 Array[Struct[{backend => String[1], name => String[1], Optional[datadir] => String[1], \
                 Optional[path] => String[1], Optional[paths] => Array[String[1]]}]]}]";
        assert_config(&shown, t, &Value::hash(config.clone()))?;
        let datadir = text(config.get(&s("datadir"))).unwrap_or_else(|| "data".into());
        let Some(Value::Array(items)) = config.get(&s("hierarchy")) else { return Ok(()) };
        let mut entries: Vec<Entry> = Vec::new();
        for item in items.iter() {
            let Value::Hash(he) = item else { continue };
            let name = text(he.get(&s("name"))).unwrap_or_default();
            let backend = text(he.get(&s("backend"))).unwrap_or_default();
            if backend != "yaml" && backend != "json" {
                let pattern = format!(r"[^\w]{}(?:[^\w]|$)", puppet_types::regexp::Regexp::escape(&backend));
                return Err(self.fail(
                    format!("No data provider is registered for backend '{backend}'"),
                    self.find_line(&pattern, 1),
                ));
            }
            let paths = match he.get(&s("paths")) {
                Some(v @ Value::Array(_)) => texts(Some(v)),
                _ => vec![text(he.get(&s("path"))).unwrap_or_else(|| name.clone())],
            };
            entries.push(Entry {
                name,
                function: Function { kind: "data_hash", name: format!("{backend}_data") },
                datadir: text(he.get(&s("datadir"))).unwrap_or_else(|| datadir.clone()),
                locations: Locations::Paths(paths),
                extension: Some(format!(".{backend}")),
            });
        }
        self.check_unique_names(&entries)?;
        self.hierarchy = entries;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puppet_words() {
        assert_eq!(combine(&FUNCTION_KEYS[..4]), "data_hash, lookup_key, data_dig, or hiera3_backend");
        assert_eq!(combine(&["a", "b"]), "a or b");
        assert_eq!(ruby_to_i(" 5x"), 5);
        assert_eq!(ruby_to_i("x"), 0);
    }
}
