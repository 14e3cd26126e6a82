//! The commands that show the session's context, with puppet-debugger's names: `:facts`,
//! `:classes`, `:resources`, `:krt` (known resource types), `:environment`, `:whereami`,
//! `:stacktrace`, and `:play` (a file run as if typed, one statement at a time).

use std::path::PathBuf;

use puppet_eval::resource_types::{self, AttributeKind};
use puppet_syntax::ast::{ExprKind, Parameter};
use puppet_types::Value;

use super::commands::{expand_home, print_columns};
use super::reference;
use super::{Next, Shell};

/// `:facts [PATH]`: the node's facts, or the one a dotted path names (`os.family`,
/// `networking.interfaces.eth0`; a number indexes an array).
pub(super) fn facts(shell: &mut Shell, rest: &str) -> Next {
    let Some(mut value) = shell.session.evaluator.top.get("facts") else {
        println!("This session has no facts.");
        return Next::Continue;
    };
    let path = rest.trim().trim_start_matches("$facts").trim_start_matches('.');
    for key in path.split('.').filter(|k| !k.is_empty()) {
        let next = match &value {
            Value::Hash(h) => h.get(&Value::from(key)).cloned(),
            Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i).cloned()),
            _ => None,
        };
        match next {
            Some(v) => value = v,
            None => {
                println!("No fact '{path}' (at '{key}').");
                return Next::Continue;
            }
        }
    }
    println!("{}", shell.show_pretty(&value));
    Next::Continue
}

/// `:classes [FILTER]`: the classes in the catalog, in the order they were evaluated.
pub(super) fn classes(shell: &mut Shell, rest: &str) -> Next {
    let filter = rest.trim().to_lowercase();
    let classes: Vec<String> =
        shell.session.evaluator.compiler.catalog.classes.iter().filter(|c| c.contains(&filter)).cloned().collect();
    if classes.is_empty() && filter.is_empty() {
        println!("No classes yet (`include NAME` or `class {{ 'NAME': }}` declares one).");
    } else {
        print_columns(classes);
    }
    Next::Continue
}

/// `:resources [FILTER]`: the references of the resources in the catalog, those containing
/// FILTER (any case) when given; `:catalog` shows them with their attributes.
pub(super) fn resources(shell: &mut Shell, rest: &str) -> Next {
    let filter = rest.trim().to_lowercase();
    let catalog = &shell.session.evaluator.compiler.catalog;
    let listed: Vec<String> = catalog
        .resources()
        .iter()
        .filter(|r| r.listed())
        .map(|r| r.reference())
        .filter(|r| r.to_lowercase().contains(&filter))
        .collect();
    if listed.is_empty() {
        println!("{}", if filter.is_empty() { "The catalog is empty." } else { "Nothing matches." });
    }
    for reference in listed {
        println!("  {}", shell.paint(&reference));
    }
    Next::Continue
}

/// `:krt [TYPE]`: the known resource types (core types, defined types, classes), or one of
/// them: what it is and its attributes or parameters.
pub(super) fn krt(shell: &mut Shell, rest: &str) -> Next {
    let name = rest.trim().trim_start_matches("::").to_lowercase();
    if name.is_empty() {
        let core: Vec<String> = resource_types::all().iter().map(|t| t.name.clone()).collect();
        let ev = &shell.session.evaluator;
        let mut known = ev.definitions();
        known.extend(ev.module_definitions().iter().cloned());
        known.sort();
        known.dedup();
        println!("Core resource types:");
        print_columns(core);
        for (title, classes) in [("Defined types:", false), ("Classes:", true)] {
            let names: Vec<String> = known.iter().filter(|(_, c)| *c == classes).map(|(n, _)| n.clone()).collect();
            if !names.is_empty() {
                println!("{title}");
                print_columns(names);
            }
        }
        return Next::Continue;
    }
    if let Some(t) = resource_types::get(&name) {
        println!("{} - core resource type (namevar {})", t.name, t.namevars.join(", "));
        match reference::type_text(&t.name) {
            Some(entry) => println!("{}", entry.paragraphs),
            None => {
                let width = t.attributes.iter().map(|a| a.name.len()).max().unwrap_or(0);
                for a in &t.attributes {
                    let kind = match a.kind {
                        AttributeKind::Property => "property",
                        AttributeKind::Parameter => "parameter",
                        AttributeKind::Metaparameter => "metaparameter",
                    };
                    println!("  {:<width$}  {kind}", a.name);
                }
            }
        }
        println!("(and the metaparameters: :doc metaparameters)");
        return Next::Continue;
    }
    match shell.session.evaluator.find_definition(&name) {
        Some((def, is_class)) => {
            let file = def.file.clone();
            let source = shell.text_of(file.as_deref());
            let keyword = if is_class { "class" } else { "define" };
            let params = parameters_text(&def.parameters, source.as_deref());
            let inherits = def.parent.as_ref().map(|p| format!(" inherits {p}")).unwrap_or_default();
            println!("{}", shell.paint(&format!("{keyword} {}{params}{inherits}", def.name)));
            let place = file.as_deref().unwrap_or("this session");
            shell.note(&format!("  defined at {place}:{}", def.at.line));
        }
        None => println!("No resource type, defined type or class named '{name}'."),
    }
    Next::Continue
}

/// Parameters as they were written (`(String $name, Integer $port = 80)`), from their
/// source text; without the text, their names.
pub(super) fn parameters_text(parameters: &[Parameter], source: Option<&str>) -> String {
    if parameters.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = parameters
        .iter()
        .map(|p| {
            source
                .and_then(|s| s.get(p.span.start..p.span.end))
                .map(|text| text.split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_else(|| format!("${}", p.name))
        })
        .collect();
    let one_line = format!("({})", shown.join(", "));
    if one_line.len() <= 80 {
        one_line
    } else {
        format!("(\n  {},\n)", shown.join(",\n  "))
    }
}

/// `:environment`: the environment, the module path and the node.
pub(super) fn environment(shell: &mut Shell, _: &str) -> Next {
    let ev = &shell.session.evaluator;
    let environment = match &ev.top.get("environment") {
        Some(Value::String(s)) => s.to_string(),
        _ => "production".to_owned(),
    };
    println!("Environment: {environment}");
    let modulepath: Vec<String> = ev.loader.modulepath.iter().map(|p| p.display().to_string()).collect();
    println!(
        "Module path: {}",
        if modulepath.is_empty() { "(none: --modulepath)".to_owned() } else { modulepath.join(":") }
    );
    let facts = match &ev.top.get("facts") {
        Some(Value::Hash(h)) => h.len(),
        _ => 0,
    };
    println!("Node: {} ({facts} facts)", shell.node());
    Next::Continue
}

/// `:whereami [N]`: the code around where the last error happened (N lines each side, 5
/// by default), or the last input.
pub(super) fn whereami(shell: &mut Shell, rest: &str) -> Next {
    let context: usize = rest.trim().parse().unwrap_or(5);
    let (name, line) = match shell.last_failure() {
        Some((failure, input)) if failure.line > 0 => {
            (failure.file.clone().map_or_else(|| input.to_string(), |f| f.to_string()), failure.line as usize)
        }
        _ => match shell.last_input_name() {
            Some(name) => (name.to_string(), 0),
            None => {
                println!("Nothing has run yet.");
                return Next::Continue;
            }
        },
    };
    let Some(text) = shell.text_of(Some(&name)) else {
        println!("The text of {name} is not at hand.");
        return Next::Continue;
    };
    shell.note(&format!("{name}:"));
    print!("{}", crate::excerpt::numbered_lines(&text, line, context, &|code| shell.paint_source(code)));
    Next::Continue
}

/// `:stacktrace`: the last error's call trace.
pub(super) fn stacktrace(shell: &mut Shell, _: &str) -> Next {
    match shell.last_failure() {
        Some((failure, name)) => {
            println!("Error: {}{}", failure.message, failure.location());
            shell.show_trace(failure, name);
        }
        None => println!("No error yet."),
    }
    Next::Continue
}

/// `:play FILE`: the file's statements run one by one as if typed (each shown, then its
/// result), stopping at the first that fails. FILE may be a `file://` URL, or
/// `puppet:///modules/NAME/PATH` for a module's `files/PATH`.
pub(super) fn play(shell: &mut Shell, rest: &str) -> Next {
    let target = rest.trim();
    if target.is_empty() {
        println!("Usage: :play FILE");
        return Next::Continue;
    }
    let path = match play_path(shell, target) {
        Ok(path) => path,
        Err(message) => {
            println!("{message}");
            return Next::Continue;
        }
    };
    let text = match super::read_manifest(&path) {
        Ok(text) => text,
        Err(message) => {
            println!("Error: {message}");
            return Next::Continue;
        }
    };
    let parsed = puppet_syntax::analyze(&text);
    let statements: Vec<(usize, usize)> = match &parsed.result {
        Ok(program) => match program.body.as_ref().map(|b| (&b.kind, b.span)) {
            Some((ExprKind::Block(statements), _)) => statements.iter().map(|s| (s.span.start, s.span.end)).collect(),
            Some((_, span)) => vec![(span.start, span.end)],
            None => Vec::new(),
        },
        // The whole text, to show Puppet's syntax error.
        Err(_) => vec![(0, text.len())],
    };
    for (start, end) in statements {
        let code = text.get(start..end).unwrap_or_default();
        println!("{}{}", super::PROMPT, shell.paint_source(code));
        if !shell.evaluate(code, true) {
            shell.note(&format!("{} stopped at its line {}", path.display(), line_of(&text, start)));
            break;
        }
    }
    Next::Continue
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).map_or(1, |before| before.matches('\n').count() + 1)
}

/// Where `:play` reads from.
fn play_path(shell: &mut Shell, target: &str) -> Result<PathBuf, String> {
    if let Some(path) = target.strip_prefix("file://") {
        return Ok(PathBuf::from(path));
    }
    if let Some(rest) = target.strip_prefix("puppet:///modules/") {
        let (module, file) = rest.split_once('/').ok_or_else(|| format!("Not a module file: {target}"))?;
        let dir = shell
            .session
            .evaluator
            .module_path(module)
            .ok_or_else(|| format!("No module '{module}' on the module path."))?;
        return Ok(dir.join("files").join(file));
    }
    if target.contains("://") {
        return Err(format!("Cannot play {target}: only files (a path, file://, puppet:///modules/) can be played."));
    }
    Ok(expand_home(target))
}
