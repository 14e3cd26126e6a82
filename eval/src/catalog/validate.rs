//! The core resource types' own checks, which Puppet makes when `puppet apply` converts the
//! compiled catalog for applying (`Puppet::Type.new` for each resource: `catalog.to_ral`), not
//! while compiling: a value outside an attribute's documented values (`service { 'x': ensure
//! => bogus }`), a relative file path, an invalid file mode, a read-only attribute set, two of
//! a file's `content`, `source` and `target`, an unqualified command of an `exec` without
//! `path`.
//!
//! Each resource is checked as Puppet sets its attributes: in the type's attribute order
//! (`allattrs`: the namevar, which the title gives when it is not set, then `provider`, the
//! properties, the other parameters, the metaparameters), a property's array value element by
//! element; then the type's own check of the whole resource. The first problem is the error,
//! in Puppet's words: `Parameter ensure failed on Service[x]: Invalid value "bogus". Valid
//! values are stopped, running. (line: 1)`, `Validation of File[/x] failed: You cannot
//! specify more than one of content, source, target (line: 1)`. (A service's check that
//! `logonaccount` comes with `logonpassword` never fails on a Linux node: the account has a
//! default there.)
//!
//! An attribute with a `validate` block of its own (`custom_validation` in
//! `resource_types.json`) is checked only where that block is ported here. An attribute that
//! needs provider features the type's default provider lacks is ignored, as Puppet ignores it
//! (the provider is the one Puppet picks on a Debian node); checks of a value's own provider
//! features (`enable => mask`) and of the user Puppet runs as are not made.

use puppet_types::Value;

use super::{Catalog, Resource};
use crate::error::{bare, Eval};
use crate::resource_types::{self, Attribute, AttributeKind, ResourceType};
use crate::ruby;

/// Checks every resource of the catalog of a core type; the first problem is the error.
pub fn check(catalog: &Catalog) -> Eval<()> {
    for resource in catalog.resources().iter().filter(|r| r.in_catalog() && !r.exported) {
        if let Some(problem) = problem(resource) {
            return Err(bare(format!("{problem} {}", resource.location())));
        }
    }
    Ok(())
}

/// What Puppet refuses in a resource, without its location; `None` when it takes it (or the
/// resource's type is not a core type).
pub fn problem(resource: &Resource) -> Option<String> {
    let t = resource_types::get(&resource.type_name.to_lowercase())?;
    let reference = resource.reference();
    let title = Value::from(&*resource.title);
    let metaparameters = resource_types::metaparameters().iter().filter_map(|m| resource_types::metaparameter(m));
    for attr in t.attributes.iter().chain(metaparameters) {
        if !attr.required_features.iter().all(|f| t.default_features.contains(f)) {
            // Puppet does not manage what the provider cannot: the value is ignored.
            continue;
        }
        let value = match resource.params.get(attr.name.as_str()) {
            Some(v) if !v.is_undef() => v,
            _ if t.namevars.first() == Some(&attr.name) => &title,
            _ => continue,
        };
        if let Err(detail) = check_attribute(t, attr, value, resource) {
            return Some(format!("Parameter {} failed on {reference}: {detail}", attr.name));
        }
    }
    if t.validates {
        if let Err(detail) = check_resource(t, resource) {
            return Some(format!("Validation of {reference} failed: {detail}"));
        }
    }
    None
}

/// One attribute's value, as its `validate` (or its value collection) checks it.
fn check_attribute(t: &ResourceType, attr: &Attribute, value: &Value, resource: &Resource) -> Result<(), String> {
    match (t.name.as_str(), attr.name.as_str()) {
        ("file", "path") => {
            if !absolute(value) {
                return Err(format!("File paths must be fully qualified, not '{}'", ruby::to_s(value)));
            }
        }
        ("file", "mode") => each_should(attr, value, file_mode)?,
        ("file", "ctime" | "mtime" | "type") => return Err(format!("{} is read-only", attr.name)),
        ("exec", "command") => {
            if !matches!(value, Value::String(_) | Value::Array(_)) {
                return Err(format!(
                    "Command must be a String or Array<String>, got value of class {}",
                    ruby::class_name(value)
                ));
            }
        }
        ("exec", "unless" | "onlyif") => {
            for command in elements(value) {
                qualified_command(command, resource)?;
            }
        }
        ("exec", "refresh") => qualified_command(value, resource)?,
        // `Puppet::Parameter::Path`: `creates` takes several paths, `cwd` one.
        ("exec", name @ ("creates" | "cwd")) => {
            if name == "cwd" && matches!(value, Value::Array(_)) {
                return Err(format!("{name} only accepts a single path, not an array of paths"));
            }
            if !elements(value).all(absolute) {
                return Err(format!("{name} must be a fully qualified path"));
            }
        }
        ("service", "logonpassword") => {
            if matches!(value, Value::String(s) if s.contains(':')) {
                return Err("Passwords cannot include ':'".to_owned());
            }
        }
        ("exec", "environment") => {
            let setting = regex_matches(r"\w+=");
            if let Some(bad) = elements(value).find(|v| !setting(&ruby::to_s(v))) {
                return Err(format!("Invalid environment setting '{}'", ruby::to_s(bad)));
            }
        }
        _ if attr.custom_validation => {}
        _ => each_should(attr, value, |v| in_collection(attr, v))?,
    }
    munge(t, attr, value)
}

/// The conversions (`munge`) that refuse values, after the check: an exec's `timeout`,
/// `tries` and `try_sleep` numbers, a group's `gid`.
fn munge(t: &ResourceType, attr: &Attribute, value: &Value) -> Result<(), String> {
    let failed = |detail: &str| {
        Err(format!("Munging failed for value {} in class {}: {detail}", ruby::inspect(value), attr.name))
    };
    match (t.name.as_str(), attr.name.as_str(), value) {
        ("exec", "timeout", _) => {
            let first = match value {
                Value::Array(items) => items.first(),
                other => Some(other),
            };
            if let Some(Value::String(s)) = first {
                if poppet_ruby::kernel::float(s).is_none() {
                    return failed("The timeout must be a number.");
                }
            }
        }
        ("exec", "tries", _) => {
            let tries = match value {
                Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse::<i64>().ok(),
                Value::String(_) => return failed("Tries must be an integer"),
                Value::Integer(n) => Some(*n),
                _ => None,
            };
            if tries.is_some_and(|n| n < 1) {
                return failed("Tries must be an integer >= 1");
            }
        }
        ("exec", "try_sleep", _) => {
            let seconds = match value {
                Value::String(s)
                    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'.') =>
                {
                    poppet_ruby::kernel::float(s)
                }
                Value::String(_) => return failed("try_sleep must be a number"),
                Value::Integer(n) => Some(*n as f64),
                Value::Float(f) => Some(*f),
                _ => None,
            };
            if seconds.is_some_and(|f| f < 0.0) {
                return failed("try_sleep cannot be a negative number");
            }
        }
        ("group", "gid", _) => {
            for gid in elements(value) {
                if let Value::String(s) = gid {
                    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                        return Err(format!("Invalid GID {s}"));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Runs `check` on the value as Puppet validates it: a property's each element (its `should`
/// values), a parameter's value whole.
fn each_should(attr: &Attribute, value: &Value, check: impl Fn(&Value) -> Result<(), String>) -> Result<(), String> {
    match (attr.kind, value) {
        (AttributeKind::Property, Value::Array(items)) => items.iter().try_for_each(check),
        _ => check(value),
    }
}

/// `ValueCollection#validate`: the value is one of the literal values or their aliases, or
/// matches one of the patterns; an attribute that declares none takes anything.
fn in_collection(attr: &Attribute, value: &Value) -> Result<(), String> {
    if attr.values.is_empty() && attr.patterns.is_empty() {
        return Ok(());
    }
    let text = ruby::to_s(value);
    let literal = !matches!(value, Value::String(s) if s.is_empty())
        && (attr.values.contains(&text) || attr.aliases.iter().any(|(a, _)| *a == text));
    if literal || attr.patterns.iter().any(|p| regex_matches(p)(&text)) {
        return Ok(());
    }
    let mut message = format!("Invalid value {}.", ruby::inspect(value));
    if !attr.values.is_empty() {
        message.push_str(&format!(" Valid values are {}.", attr.values.join(", ")));
    }
    if !attr.patterns.is_empty() {
        let patterns: Vec<String> = attr.patterns.iter().map(|p| format!("/{p}/")).collect();
        message.push_str(&format!(" Valid values match {}.", patterns.join(", ")));
    }
    Err(message)
}

/// A file's `mode`: a string of octal digits or a symbolic mode (`u+x,g-w`).
fn file_mode(value: &Value) -> Result<(), String> {
    let Value::String(mode) = value else {
        return Err(format!("The file mode specification must be a string, not '{}'", ruby::class_name(value)));
    };
    let octal = regex_matches("^0?[0-7]{1,4}$");
    let symbolic = regex_matches("^([ugoa]*[-=+][-=+rstwxXugo]*)(,[ugoa]*[-=+][-=+rstwxXugo]*)*$");
    if octal(mode) || symbolic(mode) {
        Ok(())
    } else {
        Err(format!("The file mode specification is invalid: {}", ruby::inspect(value)))
    }
}

/// The exec provider's `validatecmd`: a command's executable is an absolute path, unless the
/// resource has a `path` to search.
fn qualified_command(command: &Value, resource: &Resource) -> Result<(), String> {
    let exe = match command {
        Value::Array(items) => items.first().map(ruby::to_s).unwrap_or_default(),
        other => {
            let text = ruby::to_s(other);
            let quoted = ['"', '\''].iter().find_map(|&q| {
                let rest = text.strip_prefix(q)?;
                let end = rest.find(q).filter(|&end| end > 0)?;
                Some(rest[..end].to_owned())
            });
            quoted.unwrap_or_else(|| text.split(' ').next().unwrap_or_default().to_owned())
        }
    };
    let has_path = resource.params.get("path").is_some_and(|p| !p.is_undef());
    if exe.starts_with('/') || has_path {
        Ok(())
    } else {
        Err(format!(
            "'{exe}' is not qualified and no path was specified. Please qualify the command or specify a path."
        ))
    }
}

/// The type's own check of the whole resource (its `validate` block).
fn check_resource(t: &ResourceType, resource: &Resource) -> Result<(), String> {
    let param = |name: &str| resource.params.get(name).filter(|v| !v.is_undef());
    let is = |name: &str, word: &str| param(name).is_some_and(|v| ruby::to_s(v) == word);
    match t.name.as_str() {
        "file" => {
            let creators = ["content", "source", "target"].iter().filter(|p| param(p).is_some()).count();
            if creators > 1 {
                return Err("You cannot specify more than one of content, source, target".to_owned());
            }
            if param("source").is_none() && is("recurse", "remote") {
                return Err("You cannot specify a remote recursion without a source".to_owned());
            }
            if is("checksum", "none") && param("source").is_some() {
                return Err("You cannot specify source when using checksum 'none'".to_owned());
            }
            for checksum in ["mtime", "ctime"] {
                if is("checksum", checksum) && param("content").is_some() {
                    return Err(format!("You cannot specify content when using checksum '{checksum}'"));
                }
            }
        }
        "exec" => {
            let command = param("command").cloned().unwrap_or_else(|| Value::from(&*resource.title));
            qualified_command(&command, resource)?;
        }
        "package" if param("mark").is_some() && (is("ensure", "absent") || is("ensure", "purged")) => {
            return Err(r#"You cannot use "mark" property while "ensure" is one of ["absent", "purged"]"#.to_owned());
        }
        _ => {}
    }
    Ok(())
}

/// `Puppet::Util.absolute_path?` on a POSIX node: a string starting with `/`.
fn absolute(value: &Value) -> bool {
    matches!(value, Value::String(s) if s.starts_with('/'))
}

/// The values of an attribute that takes one or several.
fn elements(value: &Value) -> Box<dyn Iterator<Item = &Value> + '_> {
    match value {
        Value::Array(items) => Box::new(items.iter()),
        other => Box::new(std::iter::once(other)),
    }
}

/// A matcher for a Ruby regexp source (one that does not compile matches nothing).
fn regex_matches(source: &str) -> impl Fn(&str) -> bool {
    let regexp = puppet_types::regexp::Regexp::new(source);
    move |text| regexp.is_match(text)
}
