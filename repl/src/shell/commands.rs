//! The shell's meta-commands: `:`-prefixed (never a Puppet name), one table. A prefix names
//! the first command in the table's order that it begins (`:h` is `:help`, `:t` is `:type`).

use std::path::PathBuf;
use std::time::Instant;

use puppet_types::Value;

use super::{context, human_duration, reference, result_number, terminal_width, Names, Next, Shell};
use puppet_eval::functions::ported::Api;
use puppet_eval::{Level, Strict};

/// One meta-command.
pub struct Command {
    pub name: &'static str,
    /// What follows the name, for `:help`.
    pub usage: &'static str,
    pub summary: &'static str,
    run: fn(&mut Shell, &str) -> Next,
}

/// Every meta-command, in the order `:help` lists them.
pub const COMMANDS: &[Command] = &[
    Command { name: "help", usage: "[COMMAND]", summary: "list the commands, or explain one", run: help },
    Command { name: "quit", usage: "", summary: "leave the shell (also Ctrl-D)", run: |_, _| Next::Quit },
    Command {
        name: "vars",
        usage: "[GLOB]",
        summary: "variables: name, type, value (`:vars *` includes Puppet's)",
        run: vars,
    },
    Command { name: "type", usage: "[-g] EXPR", summary: "the type of a value (`-g`: generalized)", run: type_of },
    Command { name: "doc", usage: "NAME", summary: "a function's signatures, a data type, a keyword", run: doc },
    Command {
        name: "functions",
        usage: "[FILTER]",
        summary: "the functions, built-in and defined here",
        run: functions,
    },
    Command { name: "types", usage: "[FILTER]", summary: "the data types and type aliases", run: types },
    Command {
        name: "catalog",
        usage: "[FILTER]",
        summary: "the resources declared so far, and their relationships",
        run: catalog,
    },
    Command {
        name: "facts",
        usage: "[PATH]",
        summary: "the node's facts, or one (`:facts os.family`)",
        run: context::facts,
    },
    Command { name: "classes", usage: "[FILTER]", summary: "the classes in the catalog", run: context::classes },
    Command {
        name: "resources",
        usage: "[FILTER]",
        summary: "the resources in the catalog (`:catalog` shows their attributes)",
        run: context::resources,
    },
    Command {
        name: "krt",
        usage: "[TYPE]",
        summary: "known resource types: core, defined, classes; or one's attributes",
        run: context::krt,
    },
    Command {
        name: "environment",
        usage: "",
        summary: "the environment, module path and node",
        run: context::environment,
    },
    Command {
        name: "whereami",
        usage: "[N]",
        summary: "the code around the last error (N lines each side), or the last input",
        run: context::whereami,
    },
    Command { name: "stacktrace", usage: "", summary: "the last error's call trace", run: context::stacktrace },
    Command { name: "load", usage: "FILE", summary: "run a manifest in this session", run: load },
    Command {
        name: "play",
        usage: "FILE",
        summary: "run a manifest's statements one by one, as if typed",
        run: context::play,
    },
    Command {
        name: "reload",
        usage: "",
        summary: "run the session again with the loaded manifests read afresh",
        run: reload,
    },
    Command { name: "undo", usage: "", summary: "take back the last input that succeeded", run: undo },
    Command { name: "reset", usage: "", summary: "forget every variable and definition", run: reset },
    Command {
        name: "set",
        usage: "[NAME VALUE]",
        summary: "show or change a setting (format, color, strict, timing, loglevel, types, trace)",
        run: set,
    },
    Command { name: "time", usage: "EXPR", summary: "run code and show how long it took", run: time },
    Command { name: "history", usage: "[N]", summary: "the last N inputs (Ctrl-R searches them)", run: history },
    Command {
        name: "out",
        usage: "[N]",
        summary: "the last N results, each kept as $_K (K: its input's number)",
        run: results,
    },
    Command { name: "edit", usage: "", summary: "edit the last input in $EDITOR, then run it", run: edit },
];

/// What `:set` knows, with the values each takes.
const SETTINGS: &[(&str, &str)] = &[
    ("format", "a format string ('%p', '%#x') or a format map ({Integer => '%x'}), as String.new takes; `default`"),
    ("color", "on | off"),
    ("strict", "off | warning | error"),
    ("strict_variables", "on | off: an unknown variable is an error (on) or undef (off, Puppet's default)"),
    ("fact", "NAME VALUE: set a fact (a dotted path sets inside one: os.family RedHat)"),
    ("timing", "on | off"),
    ("loglevel", "debug | info | notice | warning | err"),
    ("types", "on | off: show each result's type"),
    ("trace", "on | off: show the calls an error unwound through (:stacktrace shows the last one's)"),
];

/// Runs the meta-command line `text` (without its `:`).
pub fn run(shell: &mut Shell, text: &str) -> Next {
    let (word, rest) = split_word(text);
    match find(word) {
        Ok(command) => (command.run)(shell, rest),
        Err(message) => {
            println!("{message}");
            Next::Continue
        }
    }
}

/// The command a name or a prefix stands for: the first in the table's order that starts
/// with it (`:h` is `:help`, `:t` is `:type`, `:ty` too, `:types` in full).
pub fn find(word: &str) -> Result<&'static Command, String> {
    if let Some(exact) = COMMANDS.iter().find(|c| c.name == word) {
        return Ok(exact);
    }
    COMMANDS
        .iter()
        .find(|c| !word.is_empty() && c.name.starts_with(word))
        .ok_or_else(|| format!("Unknown command ':{word}'. :help lists the commands."))
}

/// The words the next argument of a command takes, for completion: `words` is the command
/// as typed and the arguments before (`set`, `set color`).
pub fn arguments(words: &str, names: &Names) -> Vec<String> {
    let mut words = words.split_whitespace();
    let Ok(command) = find(words.next().unwrap_or_default()) else { return Vec::new() };
    if let Some(previous) = words.next() {
        // The second argument: a setting's values.
        return match (command.name, SETTINGS.iter().find(|(n, _)| *n == previous)) {
            ("set", Some(("format", _))) => vec!["default".to_owned()],
            ("set", Some((_, values))) => values
                .split('|')
                .map(|v| v.split(':').next().unwrap_or_default().trim().to_owned())
                .filter(|v| !v.is_empty())
                .collect(),
            _ => Vec::new(),
        };
    }
    match command.name {
        "help" => COMMANDS.iter().map(|c| c.name.to_owned()).collect(),
        "set" => SETTINGS.iter().map(|(n, _)| (*n).to_owned()).collect(),
        "doc" => {
            let mut all: Vec<String> = names.functions.clone();
            all.extend(names.types.iter().cloned());
            all.extend(KEYWORDS.iter().map(|(k, _)| (*k).to_owned()));
            all
        }
        "vars" => names.variables.clone(),
        "type" => vec!["-g".to_owned()],
        _ => Vec::new(),
    }
}

fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

fn help(_: &mut Shell, rest: &str) -> Next {
    if !rest.is_empty() {
        match find(rest.trim_start_matches(':')) {
            Ok(c) => {
                println!(":{} {}\n  {}", c.name, c.usage, c.summary);
                if c.name == "set" {
                    for (name, values) in SETTINGS {
                        println!("  {name:<9} {values}");
                    }
                }
            }
            Err(message) => println!("{message}"),
        }
        return Next::Continue;
    }
    println!("Puppet code runs against one scope that lasts the session; `$_` is the last result,");
    println!("`$_N` the result of input N (:out lists them).");
    println!("Enter runs complete input and continues unfinished input; Alt-Enter adds a line.");
    println!("Tab completes; Ctrl-R searches history; Ctrl-C stops running code or clears the input.");
    println!("debug::break() in code stops there with a debug> prompt in its scope (:continue goes on).\n");
    for c in COMMANDS {
        let head = format!(":{} {}", c.name, c.usage);
        println!("  {head:<22} {}", c.summary);
    }
    println!("\nA prefix of a command works: the first one in this list that it starts (:h, :q, :t).");
    Next::Continue
}

fn vars(shell: &mut Shell, rest: &str) -> Next {
    let pattern = if rest.is_empty() { None } else { Some(rest.trim_start_matches('$')) };
    let glob = match pattern.map(glob::Pattern::new) {
        Some(Err(e)) => {
            println!("Not a glob pattern: {e}");
            return Next::Continue;
        }
        Some(Ok(g)) => Some(g),
        None => None,
    };
    let mut rows = Vec::new();
    for (name, value) in shell.session.evaluator.top.variables() {
        let shown = match &glob {
            Some(g) => g.matches(&name),
            None => !shell.preset.contains(&*name) && &*name != "_" && result_number(&name).is_none(),
        };
        if shown {
            let t = puppet_types::infer::generalize(&puppet_types::infer::infer(&value));
            rows.push((format!("${name}"), t.to_string(), short(&shell.show_plain(&value), 60)));
        }
    }
    if rows.is_empty() {
        println!("No variables{}.", if glob.is_some() { " match" } else { " yet" });
    }
    let width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let type_width = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0).min(30);
    for (name, t, value) in rows {
        println!("  {name:<width$}  {t:<type_width$}  {value}");
    }
    Next::Continue
}

/// At most `max` characters, with `…` when cut.
fn short(text: &str, max: usize) -> String {
    let one_line = text.replace('\n', " ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

fn type_of(shell: &mut Shell, rest: &str) -> Next {
    let (generalized, expr) = match rest.strip_prefix("-g") {
        Some(expr) if expr.is_empty() || expr.starts_with(char::is_whitespace) => (true, expr.trim()),
        _ => (false, rest),
    };
    if expr.is_empty() {
        println!("Usage: :type [-g] EXPR");
        return Next::Continue;
    }
    if let Some(value) = shell.value_of(expr) {
        // As the `type` function infers: `detailed`, or `generalized`.
        let t = if generalized {
            puppet_types::infer::infer_generalized(&value)
        } else {
            puppet_types::infer::infer_set(&value)
        };
        println!("{}", shell.paint(&t.to_string()));
    }
    Next::Continue
}

fn doc(shell: &mut Shell, rest: &str) -> Next {
    let name = rest.trim();
    if name.is_empty() {
        println!("Usage: :doc NAME (a function, a data type, a resource type or a keyword)");
        return Next::Continue;
    }
    let mut found = false;
    let port = shell.session.evaluator.load_module_function(name);
    let ev = &shell.session.evaluator;
    if let Some(f) = ev.functions.get(&name.to_lowercase()) {
        let source = shell.text_of(f.file.as_deref());
        let params = context::parameters_text(&f.parameters, source.as_deref());
        let params = if params.is_empty() { "()".to_owned() } else { params };
        let returns = f
            .return_type
            .as_ref()
            .and_then(|r| source.as_deref()?.get(r.span.start..r.span.end))
            .map(|r| format!(" >> {r}"))
            .unwrap_or_default();
        println!("{}", shell.paint(&format!("function {}{params}{returns}", f.name)));
        let place = f.file.as_deref().unwrap_or("this session");
        shell.note(&format!("  defined in {place}"));
        found = true;
    } else if let Some(port) = port {
        match port.api {
            Api::V4 => {
                println!("{} - function of module {} (ported from its Ruby)", port.builtin.name, port.module);
                print_signatures(shell, port.builtin.name, port.builtin.dispatches);
            }
            Api::V3 { arity, .. } => {
                let takes = match arity {
                    n if n >= 0 => format!("{n} arguments"),
                    -1 => "any number of arguments".to_owned(),
                    n => format!("at least {} arguments", -n - 1),
                };
                println!(
                    "{} - function of module {} (ported from its Ruby, 3.x API): takes {takes}",
                    port.builtin.name, port.module
                );
            }
        }
        found = true;
    } else if let Some((builtin, _)) = ev.registry.get(name) {
        println!("{} - built-in function", builtin.name);
        if let Some(entry) = reference::function_text(builtin.name) {
            println!("{}\n", entry.paragraphs);
        }
        print_signatures(shell, builtin.name, builtin.dispatches);
        found = true;
    }
    let ev = &shell.session.evaluator;
    let lower = name.to_lowercase();
    if let Some((t, text)) = TYPE_DOCS.iter().find(|(t, _)| t.to_lowercase() == lower) {
        println!("{t} - data type: {text}");
        found = true;
    } else if let Some(alias) = ev.aliases.get(&lower) {
        let expanded = puppet_types::display::alias_expanded_string(alias);
        println!("{expanded} - type alias defined in this session");
        found = true;
    }
    if let Some(t) = puppet_eval::resource_types::get(&lower) {
        let text = reference::type_text(&t.name).map_or("", |e| e.summary());
        println!("{} - resource type (`:krt {}` lists its attributes)\n{text}", t.name, t.name);
        found = true;
    } else if lower == "metaparameters" {
        if let Some(entry) = reference::metaparameters() {
            println!("The metaparameters every resource takes:\n{}", entry.paragraphs);
            found = true;
        }
    }
    if let Some((k, text)) = KEYWORDS.iter().find(|(k, _)| *k == name) {
        println!("{k} - keyword: {text}");
        found = true;
    }
    if !found {
        println!("No function, data type, resource type or keyword named '{name}'.");
    }
    Next::Continue
}

/// A function's signatures, one a line; the local type aliases its signatures use after
/// them (`where Name = Type`).
fn print_signatures(shell: &Shell, name: &str, dispatches: &[&str]) {
    println!("signatures:");
    for dispatch in dispatches.iter().filter(|d| !d.starts_with("type ")) {
        println!("  {}", shell.paint(&format!("{name}({dispatch})")));
    }
    for local in dispatches.iter().filter_map(|d| d.strip_prefix("type ")) {
        println!("  where {}", shell.paint(local));
    }
}

fn functions(shell: &mut Shell, rest: &str) -> Next {
    let names = shell.names.borrow().functions.clone();
    print_columns(names.iter().filter(|n| n.contains(rest)).cloned().collect());
    Next::Continue
}

fn types(shell: &mut Shell, rest: &str) -> Next {
    let filter = rest.to_lowercase();
    let names: Vec<String> =
        BUILTIN_TYPES.iter().filter(|t| t.to_lowercase().contains(&filter)).map(|t| (*t).to_owned()).collect();
    let mut aliases: Vec<String> = shell
        .session
        .evaluator
        .aliases
        .values()
        .map(puppet_types::display::alias_expanded_string)
        .filter(|t| t.to_lowercase().contains(&filter))
        .collect();
    aliases.sort();
    if names.is_empty() && aliases.is_empty() {
        println!("Nothing matches.");
    }
    if !names.is_empty() {
        print_columns(names);
    }
    for alias in aliases {
        println!("  type {alias}");
    }
    Next::Continue
}

/// Names in columns that fit 80 characters.
pub(super) fn print_columns(names: Vec<String>) {
    if names.is_empty() {
        println!("Nothing matches.");
        return;
    }
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) + 2;
    let per_line = (78 / width).max(1);
    for row in names.chunks(per_line) {
        let line: String = row.iter().map(|n| format!("{n:<width$}")).collect();
        println!("  {}", line.trim_end());
    }
}

/// `:catalog [FILTER]`: the resources in Puppet syntax with the attributes that were set,
/// each followed by what the core types' checks refuse in it (`catalog::validate`), then the
/// relationship edges; FILTER keeps those whose reference contains it (any case).
fn catalog(shell: &mut Shell, rest: &str) -> Next {
    let filter = rest.to_lowercase();
    let catalog = &shell.session.evaluator.compiler.catalog;
    let mut shown = 0;
    for r in catalog.resources().iter().filter(|r| r.listed()) {
        if !r.reference().to_lowercase().contains(&filter) {
            continue;
        }
        shown += 1;
        let params: Vec<(&str, String)> =
            r.params.iter().filter(|(_, v)| !v.is_undef()).map(|(k, v)| (&**k, shell.show_plain(v))).collect();
        let width = params.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        let type_name = r.type_name.to_lowercase();
        let title = puppet_types::display::puppet_quote(&r.title);
        let mut text = if params.is_empty() {
            format!("{type_name} {{ {title}: }}")
        } else {
            let mut t = format!("{type_name} {{ {title}:\n");
            for (k, v) in &params {
                t.push_str(&format!("  {k:<width$} => {v},\n"));
            }
            t.push('}');
            t
        };
        if r.exported {
            text.insert_str(0, "@@");
        }
        println!("{}", shell.paint(&text));
        if let Some(problem) = puppet_eval::catalog::validate::problem(r) {
            // What `puppet apply` would refuse when it converts the catalog.
            println!("{}", shell.warn(&format!("  ^ puppet apply refuses it: {problem}")));
        }
    }
    let edges: Vec<String> = catalog.edges().into_iter().filter(|e| e.to_lowercase().contains(&filter)).collect();
    for e in &edges {
        println!("{e}");
    }
    if shown == 0 && edges.is_empty() {
        println!("{}", if filter.is_empty() { "The catalog is empty." } else { "Nothing matches." });
    }
    Next::Continue
}

fn load(shell: &mut Shell, rest: &str) -> Next {
    if rest.is_empty() {
        println!("Usage: :load FILE");
        return Next::Continue;
    }
    if let Err(message) = shell.load(expand_home(rest)) {
        println!("Error: {message}");
    }
    Next::Continue
}

/// `~/x` as a path in the home directory.
pub(super) fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(path),
    }
}

/// `:reload`: the session again from the start, with the loaded files read afresh.
fn reload(shell: &mut Shell, _: &str) -> Next {
    // an environment's main manifest is read afresh too
    let files: Vec<String> =
        shell.main_manifest().into_iter().chain(shell.loaded()).map(|f| f.display().to_string()).collect();
    if files.is_empty() {
        println!("Nothing loaded yet (:load FILE).");
        return Next::Continue;
    }
    shell.note(&format!("reloading {}", files.join(", ")));
    let count = shell.reload();
    shell.note(&format!("{count} input{} ran again", if count == 1 { "" } else { "s" }));
    Next::Continue
}

fn reset(shell: &mut Shell, _: &str) -> Next {
    shell.reset();
    shell.note("The session starts over: no variables, functions or type aliases of yours.");
    Next::Continue
}

fn undo(shell: &mut Shell, _: &str) -> Next {
    match shell.undo() {
        Ok(name) => shell.note(&format!("{name} is taken back")),
        Err(message) => println!("{message}"),
    }
    Next::Continue
}

fn set(shell: &mut Shell, rest: &str) -> Next {
    let (name, value) = split_word(rest);
    if name.is_empty() {
        let s = &shell.settings;
        let format = match &s.format {
            None => "'%p'".to_owned(),
            Some(f) => puppet_types::display::value_to_string(f),
        };
        let on = |b: bool| if b { "on" } else { "off" };
        let ev = &shell.session.evaluator;
        let facts = match &ev.top.get("facts") {
            Some(Value::Hash(h)) => format!("{} facts of node {}", h.len(), shell.node()),
            _ => String::new(),
        };
        let rows = [
            ("format", format),
            ("color", on(s.colour).to_owned()),
            ("strict", strict_name(ev.options.strict).to_owned()),
            ("strict_variables", on(ev.options.strict_variables).to_owned()),
            ("timing", on(s.timing).to_owned()),
            ("loglevel", shell.log_level().label().to_lowercase()),
            ("types", on(s.show_types).to_owned()),
            ("trace", on(s.trace).to_owned()),
            ("fact", facts),
        ];
        for (name, value) in rows {
            println!("  {name:<17} {value}");
        }
        return Next::Continue;
    }
    let Some((setting, values)) = SETTINGS.iter().find(|(n, _)| *n == name) else {
        let known: Vec<&str> = SETTINGS.iter().map(|(n, _)| *n).collect();
        println!("Unknown setting '{name}': one of {}", known.join(", "));
        return Next::Continue;
    };
    let flag = match value {
        "on" | "true" | "yes" => Some(true),
        "off" | "false" | "no" => Some(false),
        _ => None,
    };
    let applied = match (*setting, flag) {
        ("color", Some(on)) => {
            shell.set_colour(on);
            true
        }
        ("timing", Some(on)) => {
            shell.settings.timing = on;
            true
        }
        ("types", Some(on)) => {
            shell.settings.show_types = on;
            true
        }
        ("trace", Some(on)) => {
            shell.settings.trace = on;
            true
        }
        ("strict_variables", Some(on)) => {
            shell.session.evaluator.options.strict_variables = on;
            shell.refresh_node();
            true
        }
        ("fact", _) => {
            let (path, text) = split_word(value);
            if path.is_empty() || text.is_empty() {
                false
            } else {
                if let Err(message) = shell.set_fact(path, text) {
                    println!("{message}");
                }
                true
            }
        }
        ("strict", _) => match value {
            "off" | "warning" | "error" => {
                shell.session.evaluator.options.strict = match value {
                    "off" => Strict::Off,
                    "warning" => Strict::Warning,
                    _ => Strict::Error,
                };
                true
            }
            _ => false,
        },
        ("loglevel", _) => match value {
            "debug" => Some(Level::Debug),
            "info" => Some(Level::Info),
            "notice" => Some(Level::Notice),
            "warning" => Some(Level::Warning),
            "err" => Some(Level::Err),
            _ => None,
        }
        .map(|l| shell.set_log_level(l))
        .is_some(),
        ("format", _) => return set_format(shell, value),
        _ => false,
    };
    if !applied {
        println!("{setting}: {values}");
    }
    Next::Continue
}

fn strict_name(strict: Strict) -> &'static str {
    match strict {
        Strict::Off => "off",
        Strict::Warning => "warning",
        Strict::Error => "error",
    }
}

/// `:set format F`: F is Puppet code for a format string or a format map, checked by
/// formatting a value with it.
fn set_format(shell: &mut Shell, text: &str) -> Next {
    if text.is_empty() || text == "default" {
        shell.settings.format = None;
        return Next::Continue;
    }
    let Some(format) = shell.value_of(text) else { return Next::Continue };
    match pfmt::string_new(&Value::Integer(0), Some(&format)) {
        Ok(_) => shell.settings.format = Some(format),
        Err(e) => println!("Not a format: {e}"),
    }
    Next::Continue
}

fn time(shell: &mut Shell, rest: &str) -> Next {
    if rest.is_empty() {
        println!("Usage: :time EXPR");
        return Next::Continue;
    }
    let started = Instant::now();
    shell.evaluate(rest, true);
    shell.note(&format!("took {}", human_duration(started.elapsed())));
    Next::Continue
}

fn history(_: &mut Shell, rest: &str) -> Next {
    match rest.trim() {
        "" => Next::History(None),
        n => match n.parse() {
            Ok(count) => Next::History(Some(count)),
            Err(_) => {
                println!("Usage: :history [N] (N, a number of entries: not '{n}')");
                Next::Continue
            }
        },
    }
}

/// `:out [N]`: the numbered results (`$_3`), the last N or all, oldest first.
fn results(shell: &mut Shell, rest: &str) -> Next {
    let count = match rest.trim() {
        "" => usize::MAX,
        n => match n.parse() {
            Ok(count) => count,
            Err(_) => {
                println!("Usage: :out [N] (N, a number of results: not '{n}')");
                return Next::Continue;
            }
        },
    };
    let mut results: Vec<(usize, Value)> = shell
        .session
        .evaluator
        .top
        .variables()
        .into_iter()
        .filter_map(|(name, value)| result_number(&name).map(|n| (n, value)))
        .collect();
    if results.is_empty() {
        println!("No results yet: each input's value that is not undef is kept as $_N.");
        return Next::Continue;
    }
    results.sort_by_key(|&(n, _)| n);
    let width = terminal_width();
    for (n, value) in results.iter().skip(results.len().saturating_sub(count)) {
        let head = format!("$_{n} => ");
        let room = width.saturating_sub(head.chars().count()).max(20);
        println!("{head}{}", short(&shell.show_plain(value), room));
    }
    Next::Continue
}

/// `:edit`: the last input in `$VISUAL` or `$EDITOR` (else `vi`); what is saved runs.
fn edit(shell: &mut Shell, _: &str) -> Next {
    let path = std::env::temp_dir().join(format!("poppet-edit-{}.pp", std::process::id()));
    if let Err(e) = std::fs::write(&path, shell.last_input()) {
        println!("Error: cannot write {}: {e}", path.display());
        return Next::Continue;
    }
    let editor = std::env::var("VISUAL").or_else(|_| std::env::var("EDITOR")).unwrap_or_else(|_| "vi".to_owned());
    // The editor command may carry arguments (`code --wait`).
    let mut words = editor.split_whitespace();
    let program = words.next().unwrap_or("vi");
    let status = std::process::Command::new(program).args(words).arg(&path).status();
    let text = std::fs::read_to_string(&path);
    let _ = std::fs::remove_file(&path);
    match (status, text) {
        (Ok(s), Ok(text)) if s.success() => {
            if text.trim().is_empty() {
                Next::Continue
            } else {
                Next::Run(text)
            }
        }
        (Ok(s), _) => {
            println!("The editor ended with {s}; nothing runs.");
            Next::Continue
        }
        (Err(e), _) => {
            println!("Error: cannot start '{program}': {e}");
            Next::Continue
        }
    }
}

/// Puppet's built-in data types with a line about each.
pub const TYPE_DOCS: &[(&str, &str)] = &[
    ("Any", "every value"),
    ("Array", "Array[T, min, max]: arrays of T"),
    ("Binary", "a sequence of bytes (Binary('aGk=') from base64)"),
    ("Boolean", "true or false"),
    ("Callable", "Callable[params..., min, max, block]: functions and lambdas"),
    ("CatalogEntry", "a resource or a class"),
    ("Class", "Class[name]: a class"),
    ("Collection", "Collection[min, max]: arrays and hashes"),
    ("Data", "Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]: what JSON can hold"),
    ("Default", "the value default"),
    ("Deferred", "a function call resolved on the agent (Deferred('name', [args]))"),
    ("Enum", "Enum['a', 'b']: one of the strings"),
    ("Error", "an error object: message, kind, details, issue_code"),
    ("Float", "Float[min, max]: floating-point numbers"),
    ("Hash", "Hash[K, V, min, max]: hashes with keys K and values V"),
    ("Init", "Init[T, args...]: what T.new accepts"),
    ("Integer", "Integer[min, max]: 64-bit integers"),
    ("Iterable", "Iterable[T]: what iteration functions accept"),
    ("Iterator", "Iterator[T]: a lazy sequence (reverse_each, step)"),
    ("NotUndef", "NotUndef[T]: T without undef"),
    ("Numeric", "Integer or Float"),
    ("Object", "Pcore objects"),
    ("Optional", "Optional[T]: T or undef"),
    ("Pattern", "Pattern[/re/...]: strings matching one of the regexps"),
    ("Regexp", "Regexp[/re/]: regular expressions"),
    ("Resource", "Resource[type, title]: resource references (File['/x'])"),
    ("RichData", "Data plus Default, Object, Type, SemVer, Timespan, Timestamp, Binary, Sensitive, URI"),
    ("Runtime", "Runtime[language, class]: an implementation-language object"),
    ("Scalar", "String, Numeric, Boolean, Regexp, SemVer, Timespan, Timestamp"),
    ("ScalarData", "String, Numeric, Boolean"),
    ("SemVer", "SemVer[ranges...]: semantic versions"),
    ("SemVerRange", "ranges of semantic versions ('>=1.0.0 <2.0.0')"),
    ("Sensitive", "Sensitive[T]: a value shown redacted"),
    ("String", "String[min, max]: strings (also String['exact'])"),
    ("Struct", "Struct[{key => T, Optional[key] => T}]: hashes of known keys"),
    ("Timespan", "Timespan[min, max]: durations"),
    ("Timestamp", "Timestamp[min, max]: points in time"),
    ("Tuple", "Tuple[T1, T2, ..., min, max]: arrays of typed positions"),
    ("Type", "Type[T]: types themselves"),
    ("TypeSet", "a set of Pcore types"),
    ("URI", "URI[parts]: URIs"),
    ("Undef", "the value undef"),
    ("Variant", "Variant[T1, T2]: any of the types"),
];

/// The built-in data type names, for completion and `:types`.
pub const BUILTIN_TYPES: &[&str] = &[
    "Any",
    "Array",
    "Binary",
    "Boolean",
    "Callable",
    "CatalogEntry",
    "Class",
    "Collection",
    "Data",
    "Default",
    "Deferred",
    "Enum",
    "Error",
    "Float",
    "Hash",
    "Init",
    "Integer",
    "Iterable",
    "Iterator",
    "NotUndef",
    "Numeric",
    "Object",
    "Optional",
    "Pattern",
    "Regexp",
    "Resource",
    "RichData",
    "Runtime",
    "Scalar",
    "ScalarData",
    "SemVer",
    "SemVerRange",
    "Sensitive",
    "String",
    "Struct",
    "Timespan",
    "Timestamp",
    "Tuple",
    "Type",
    "TypeSet",
    "URI",
    "Undef",
    "Variant",
];

/// Puppet's keywords with a line about each.
pub const KEYWORDS: &[(&str, &str)] = &[
    ("and", "logical and: `a and b` (b only when a is true)"),
    ("case", "case $x { 'a', /re/: { ... } default: { ... } }"),
    ("class", "class name($param = default) inherits parent { ... }: a class"),
    ("default", "the default value; the fallback of case and selectors"),
    ("define", "define name($param) { ... }: a defined resource type"),
    ("else", "the branch of if/unless when the condition fails"),
    ("elsif", "another condition of an if"),
    ("false", "the Boolean false"),
    ("function", "function name(Type $param) >> ReturnType { ... }: a function in Puppet"),
    ("if", "if $cond { ... } elsif $other { ... } else { ... }"),
    ("in", "membership: 'a' in ['a'], 'b' in 'abc', key in hash"),
    ("inherits", "class child inherits parent"),
    ("node", "node 'name', /re/, default { ... }: code for matching nodes"),
    ("or", "logical or: `a or b` (b only when a is false)"),
    ("true", "the Boolean true"),
    ("type", "type Name = Type: a type alias"),
    ("undef", "the absent value"),
    ("unless", "unless $cond { ... } else { ... }"),
];

impl Shell {
    /// The value of Puppet code, or `None` after showing its error.
    pub fn value_of(&mut self, code: &str) -> Option<Value> {
        let checkpoint = self.session.evaluator.checkpoint();
        let outcome = self.session.run(code);
        // What the code did is not kept: `:type $x = 1` sets nothing.
        self.session.evaluator.rollback(checkpoint);
        if let Some(error) = &outcome.error {
            self.show_error(error, code, "");
            return None;
        }
        Some(outcome.value.unwrap_or(Value::Undef))
    }

    /// A value as a Puppet literal, uncoloured.
    fn show_plain(&self, value: &Value) -> String {
        pfmt::convert_with(value, &Value::from("%p")).unwrap_or_else(|e| format!("(cannot be shown: {e})"))
    }

    /// Puppet text coloured as source on a colour terminal.
    pub(super) fn paint(&self, text: &str) -> String {
        if self.settings.colour {
            self.highlighter().highlight_value(text, &super::highlight::Theme::dark())
        } else {
            text.to_owned()
        }
    }
}
