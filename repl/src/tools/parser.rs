//! `poppet parser validate` and `poppet parser dump`: Puppet 7.23's `puppet parser` face
//! (`puppet/face/parser.rb`), with its output, its order and its exit codes.
//!
//! `validate` checks each manifest as Puppet's environment loads it (parsed, then validated):
//! the problems Puppet logs while it validates (warnings, and each error when there are
//! several) come as the files are read, in the order given; the error that stopped each file
//! comes after all of them, as the face renders its result. A directory is a manifest
//! directory: its `.pp` files (all the way down) in name order, up to the first that fails.
//! Files are checked on all cores; what is printed is in Puppet's order.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use puppet_syntax::{Diagnostic, Severity};

use super::{Console, Level};

/// The environment's manifest `puppet parser validate` checks when given nothing.
const DEFAULT_MANIFEST: &str = "/etc/puppet/code/environments/production/manifests";

/// What checking one manifest gives: the lines Puppet logs while it checks, then the error
/// that stops it (`None`: the manifest is valid).
struct Checked {
    logged: Vec<(Level, String)>,
    error: Option<Stop>,
    /// The defined types it defines, for the loaders the run shares: their names, and
    /// where (`file://FILE?line=L&pos=C`).
    defines: Vec<(String, String)>,
}

/// Why a manifest failed.
enum Stop {
    /// A parse error, rendered when all files are checked.
    Parse(Failure),
    /// An error that is no parse error (bytes that are not UTF-8, a Ruby exception in
    /// Puppet's lexer): Puppet's face gives up on the spot, without checking the files after
    /// it.
    Abort(String),
    /// Ruby's stack overflowed: Puppet prints nothing more and exits 1.
    Silent,
    /// An error rendered as it is, without the parse error's prefix.
    Bare(String),
}

/// The Ruby exceptions Puppet's lexer raises on some inputs (see `puppet_syntax::lexer`),
/// with the lines Ruby's error highlight adds to their message (recorded from Puppet for the
/// first two; no input was found that raises the `length` one to record its highlight).
const RUBY_EXCEPTIONS: &[(&str, &str)] = &[
    ("undefined method `>=' for nil:NilClass", "\n\n          if la2 >= 'A' && la2 <= 'Z'\n                 ^^"),
    ("undefined method `+' for nil:NilClass", "\n\n      offset_on_line(offset) +1\n                             ^"),
    ("undefined method `length' for nil:NilClass", ""),
    ("index out of range", ""),
];

/// The message Ruby gives for one of [`RUBY_EXCEPTIONS`] (with its highlight).
pub(crate) fn ruby_exception(message: &str) -> Option<String> {
    RUBY_EXCEPTIONS.iter().find(|(m, _)| *m == message).map(|(m, highlight)| format!("{m}{highlight}"))
}

/// How `validate` renders its result: Puppet's `--render-as` formats that mean something
/// for this action.
///
/// | format | what Puppet prints | exit status |
/// | --- | --- | --- |
/// | `console` (the default) | each error, logged | 1 on an error |
/// | `json` | the action's own JSON: for each manifest that failed, the error's issue code, message, full message, file, line and column, pretty-printed; nothing when all are valid | 1 on an error |
/// | `pson`, `rich_data_json` | a JSON object of each manifest's full message, on one line | 0 |
/// | `flat` | `MANIFEST=MESSAGE` lines | 0 |
/// | `s` | Ruby's `inspect` of the hash of exceptions | 0 |
///
/// The others Puppet knows are refused: `yaml` dumps Ruby's exception objects (backtraces,
/// the model's objects), `rich_data_msgpack` fails on a Ruby error, `msgpack`, `dot` and
/// `binary` exit 1 silently (Ruby's `NotImplementedError` escapes the face).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Render {
    Console,
    Json,
    Pson,
    Flat,
    S,
}

impl Render {
    /// The format `--render-as NAME` names (Puppet's names, in any case), or the message
    /// that refuses it.
    pub fn named(name: &str) -> Result<Render, String> {
        Ok(match name.to_lowercase().as_str() {
            "console" => Render::Console,
            "json" => Render::Json,
            "pson" | "rich_data_json" => Render::Pson,
            "flat" => Render::Flat,
            "s" => Render::S,
            known @ ("yaml" | "msgpack" | "rich_data_msgpack" | "dot" | "binary") => {
                return Err(format!(
                    "Could not parse application options: poppet does not render '{known}' (Puppet's is of its Ruby objects, or fails); use console, json, pson, rich_data_json, flat or s"
                ))
            }
            _ => return Err(format!("Could not parse application options: I don't know how to render '{name}'")),
        })
    }
}

/// `poppet parser validate`'s options besides the manifests.
#[derive(Clone, Copy, Debug)]
pub struct ValidateOptions {
    pub render: Render,
    /// Puppet's `strict` and `tasks` settings, as validation sees them.
    pub settings: puppet_syntax::Settings,
}

/// A parse error, as Puppet's `Puppet::ParseErrorWithIssue` holds it.
struct Failure {
    /// The issue's code (`None` for the count of several errors).
    code: Option<&'static str>,
    /// The basic message, without the place.
    message: String,
    file: Option<PathBuf>,
    /// Line and column, 0 when Puppet has none.
    line: u32,
    column: u32,
    /// The count of several errors (`Language validation logged N errors`), logged as the
    /// basic message alone.
    counted: bool,
}

impl Failure {
    /// The exception's message: `Could not parse for environment production: MESSAGE
    /// (file: FILE, line: L, column: C)`.
    fn full(&self) -> String {
        let place = match (&self.file, self.line) {
            (Some(f), 0) => format!(" (file: {})", f.display()),
            (Some(f), line) => format!(" (file: {}, line: {line}, column: {})", f.display(), self.column),
            (None, 0) => String::new(),
            (None, line) => format!(" (line: {line}, column: {})", self.column),
        };
        format!("Could not parse for environment production: {}{place}", self.message)
    }

    /// What `Puppet.log_exception` logs of it.
    fn logged(&self) -> String {
        if self.counted {
            self.message.clone()
        } else {
            self.full()
        }
    }
}

/// `poppet parser validate [--color C] [--render-as F] [--strict S] [--tasks] [PATH...]`;
/// returns the exit code.
pub fn validate(console: &Console, paths: &[PathBuf], options: ValidateOptions) -> u8 {
    let mut out = std::io::stderr().lock();
    if paths.is_empty() {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            let mut bytes = Vec::new();
            if let Err(e) = stdin.lock().read_to_end(&mut bytes) {
                console.line(&mut out, Level::Err, &format!("Could not read standard input: {e}"));
                return 1;
            }
            let checked = check(&bytes, None, options.settings);
            return report(console, &mut out, vec![("STDIN".to_owned(), checked)], options.render);
        }
        console.notice(&format!("No manifest specified. Validating the default manifest {DEFAULT_MANIFEST}"));
        return validate(console, &[PathBuf::from(DEFAULT_MANIFEST)], options);
    }
    let checked = parallel_map(paths, |path| check_path(path, options.settings));
    let missing: Vec<&PathBuf> = paths.iter().zip(&checked).filter(|(_, c)| c.is_none()).map(|(p, _)| p).collect();
    let (present, results): (Vec<&PathBuf>, Vec<Checked>) =
        paths.iter().zip(checked).filter_map(|(p, c)| Some((p, c?))).unzip();
    if !missing.is_empty() {
        // What was logged was printed as it came; the result is not rendered.
        let mut aborted = false;
        let mut seen = Seen::default();
        for checked in &results {
            if let Some(message) = print_logged(console, &mut out, checked, &mut seen) {
                abort(console, &mut out, &message);
                return 1;
            }
            match &checked.error {
                Some(Stop::Abort(message)) => abort(console, &mut out, message),
                Some(Stop::Silent) => {}
                _ => continue,
            }
            aborted = true;
            break;
        }
        if !aborted {
            let list: Vec<String> =
                missing.iter().map(|p| poppet_ruby::string::inspect(&format!("   {}\n", p.display()))).collect();
            let message = format!("One or more file(s) specified did not exist:\n[{}]", list.join(", "));
            abort(console, &mut out, &message);
        }
        return 1;
    }
    let keyed = present.iter().map(|p| p.display().to_string()).zip(results).collect();
    report(console, &mut out, keyed, options.render)
}

/// Prints what the checks logged, then renders their errors (the face's `when_rendering`),
/// each under the manifest as given (`STDIN` for standard input). The errors are a Ruby hash
/// keyed by manifest: one given twice is there once, where it first came.
fn report(console: &Console, out: &mut impl Write, results: Vec<(String, Checked)>, render: Render) -> u8 {
    let mut errors: Vec<(String, Stop)> = Vec::new();
    let mut seen = Seen::default();
    for (key, checked) in results {
        if let Some(message) = print_logged(console, out, &checked, &mut seen) {
            abort(console, out, &message);
            return 1;
        }
        match checked.error {
            Some(Stop::Abort(message)) => {
                abort(console, out, &message);
                return 1;
            }
            Some(Stop::Silent) => return 1,
            Some(stop) => match errors.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = stop,
                None => errors.push((key, stop)),
            },
            None => {}
        }
    }
    let text = |stop: &Stop| match stop {
        Stop::Parse(failure) => failure.full(),
        Stop::Bare(message) | Stop::Abort(message) => message.clone(),
        Stop::Silent => String::new(),
    };
    let mut stdout = std::io::stdout().lock();
    match render {
        Render::Console => {
            for (_, stop) in &errors {
                let message = match stop {
                    Stop::Parse(failure) => failure.logged(),
                    other => text(other),
                };
                console.line(out, Level::Err, &message);
            }
            u8::from(!errors.is_empty())
        }
        Render::Json if errors.is_empty() => 0,
        Render::Json => {
            // the face asks each error for `to_h`, which a `Puppet::ParseError` has not
            if let Some((_, Stop::Bare(message))) = errors.iter().find(|(_, s)| matches!(s, Stop::Bare(_))) {
                let crash = format!(
                    "undefined method `to_h' for #<Puppet::ParseError: {message}>\n\n          file_errors = error.to_h.reject {{ |k, _| ignore_error_keys.include?(k) }}\n                             ^^^^^\nDid you mean?  to_s"
                );
                abort(console, out, &crash);
                return 1;
            }
            let _ = writeln!(stdout, "{}", json(&errors));
            1
        }
        Render::Pson => {
            let mut line = String::from("{");
            for (i, (key, stop)) in errors.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                poppet_ruby::json::generate_string(key, &mut line);
                line.push(':');
                poppet_ruby::json::generate_string(&text(stop), &mut line);
            }
            line.push('}');
            let _ = writeln!(stdout, "{line}");
            0
        }
        Render::Flat => {
            let lines: String = errors.iter().map(|(key, stop)| format!("{key}={}\n", text(stop))).collect();
            // Ruby's `puts`: a line break unless the text ends with one
            let newline = if lines.ends_with('\n') { "" } else { "\n" };
            let _ = write!(stdout, "{lines}{newline}");
            0
        }
        Render::S => {
            let entries: Vec<String> = errors
                .iter()
                .map(|(key, stop)| {
                    let class = if matches!(stop, Stop::Parse(_)) { "ParseErrorWithIssue" } else { "ParseError" };
                    format!("{}=>#<Puppet::{class}: {}>", poppet_ruby::string::inspect(key), text(stop))
                })
                .collect();
            let _ = writeln!(stdout, "{{{}}}", entries.join(", "));
            0
        }
    }
}

/// The face's JSON: each error's `to_h` without its arguments, environment and node,
/// pretty-printed by Ruby's JSON generator.
fn json(errors: &[(String, Stop)]) -> String {
    let string = |s: &str| {
        let mut out = String::new();
        poppet_ruby::json::generate_string(s, &mut out);
        out
    };
    let number = |n: u32| if n == 0 { "null".to_owned() } else { n.to_string() };
    let mut out = String::from("{\n");
    let mut first = true;
    for (key, stop) in errors {
        let Stop::Parse(failure) = stop else { continue };
        if !first {
            out.push_str(",\n");
        }
        first = false;
        let fields = [
            ("issue_code", failure.code.map_or_else(|| "null".to_owned(), string)),
            ("message", string(&failure.message)),
            ("full_message", string(&failure.full())),
            ("file", failure.file.as_ref().map_or_else(|| "null".to_owned(), |f| string(&f.display().to_string()))),
            ("line", number(failure.line)),
            ("pos", number(if failure.line == 0 { 0 } else { failure.column })),
        ];
        let body: Vec<String> = fields.iter().map(|(name, value)| format!("    \"{name}\": {value}")).collect();
        out.push_str(&format!("  {}: {{\n{}\n  }}", string(key), body.join(",\n")));
    }
    out.push_str("\n}");
    out
}

/// What the run has seen: the warnings given once, the defined types and where.
#[derive(Default)]
struct Seen {
    once: Vec<String>,
    defines: std::collections::HashMap<String, String>,
}

/// Prints what a check logged; a defined type an earlier file defined too is the loaders'
/// error, which stops the run.
fn print_logged(console: &Console, out: &mut impl Write, checked: &Checked, seen: &mut Seen) -> Option<String> {
    let once = &mut seen.once;
    for (level, message) in &checked.logged {
        match level {
            // `warnonce`: the first time in the run
            Level::WarningOnce if once.contains(message) => {}
            Level::WarningOnce => {
                once.push(message.clone());
                console.line(out, Level::Warning, message);
            }
            _ => console.line(out, *level, message),
        }
    }
    for (name, place) in &checked.defines {
        if let Some(first) = seen.defines.get(name) {
            return Some(format!(
                "Attempt to redefine entity 'http://puppet.com/2016.1/runtime/type/{name}'. Originally set at {first}."
            ));
        }
        seen.defines.insert(name.clone(), place.clone());
    }
    None
}

/// An error the face does not catch: Puppet prints it and its usage hint.
fn abort(console: &Console, out: &mut impl Write, message: &str) {
    console.line(out, Level::Err, message);
    console.line(out, Level::Err, "Try 'puppet help parser validate' for usage");
}

/// A file, or a manifest directory (its `.pp` files in name order, up to the first that
/// fails); none when there is nothing at `path`. The file is opened once and asked what it
/// is: one path lookup per manifest.
fn check_path(path: &Path, settings: puppet_syntax::Settings) -> Option<Checked> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| Checked {
        logged: Vec::new(),
        defines: Vec::new(),
        error: Some(Stop::Abort(format!("{e}: {}", absolute(path).display()).replace(" (os error", " (errno"))),
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        // Ruby's `File.exist?`: false for whatever cannot be looked up
        Err(_) if !path.exists() => return None,
        Err(e) => return Some(unreadable(e)),
    };
    let metadata = file.metadata().ok();
    if !metadata.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        let size = metadata.map_or(0, |m| usize::try_from(m.len()).unwrap_or(0));
        let mut bytes = Vec::with_capacity(size.saturating_add(1));
        // through `Take`, whose reading does not ask the file its size again
        return Some(match file.take(u64::MAX).read_to_end(&mut bytes) {
            Ok(_) => check(&bytes, Some(&absolute(path)), settings),
            Err(e) => unreadable(e),
        });
    }
    let mut files = Vec::new();
    manifests_in(path, &mut files, 0);
    files.sort();
    let mut logged = Vec::new();
    let mut defines = Vec::new();
    for file in files {
        let Some(checked) = check_path(&file, settings) else { continue };
        logged.extend(checked.logged);
        defines.extend(checked.defines);
        if checked.error.is_some() {
            return Some(Checked { logged, defines, error: checked.error });
        }
    }
    Some(Checked { logged, defines, error: None })
}

/// The `.pp` files under `dir` (Ruby's `Dir.glob('**/*.pp')`: symbolic links to directories
/// are not followed, so a loop of them ends).
fn manifests_in(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && depth < 256 {
            manifests_in(&path, out, depth + 1);
        } else if path.extension().is_some_and(|e| e == "pp") && path.is_file() {
            out.push(path);
        }
    }
}

/// The path as Ruby's `File.expand_path` gives it (from the working directory).
fn absolute(path: &Path) -> PathBuf {
    // asked once: the command does not change directory
    static WORKING_DIRECTORY: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        match WORKING_DIRECTORY.get_or_init(|| std::env::current_dir().ok()) {
            Some(dir) => dir.join(path),
            None => path.to_path_buf(),
        }
    };
    let mut clean = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

/// One manifest's bytes checked as Puppet's environment loads it; `file` is where it is
/// (none for standard input).
///
/// An error that is none of Puppet's issues ends the run, as the face does not catch it: the
/// `Puppet::ParseError` Puppet's parser raises on its own (`illegal comma separated argument
/// list`, `Virtual (@) can only be applied to a Resource Expression`, a regexp Ruby refuses)
/// and a heredoc syntax checker's `ArgumentError`.
fn check(bytes: &[u8], file: Option<&Path>, settings: puppet_syntax::Settings) -> Checked {
    let place = |d: &Diagnostic| -> String {
        match (file, d.span.line) {
            (Some(f), 0) => format!(" (file: {})", f.display()),
            (Some(f), line) => format!(" (file: {}, line: {line}, column: {})", f.display(), d.span.column),
            (None, 0) => String::new(),
            (None, line) => format!(" (line: {line}, column: {})", d.span.column),
        }
    };
    let failure = |d: &Diagnostic, file: Option<&Path>| Failure {
        code: puppet_syntax::issues::code(&d.message),
        message: d.message.clone(),
        file: file.map(Path::to_path_buf),
        line: d.span.line,
        column: d.span.column,
        counted: false,
    };
    let stopped = |error: Stop| Checked { logged: Vec::new(), defines: Vec::new(), error: Some(error) };
    let source = match puppet_syntax::lexer::check_encoding(bytes) {
        Ok(source) => source,
        // a byte order mark is a parse error without a file or place; other bytes are
        // Ruby's error
        Err(d) if d.message.starts_with("Illegal") => return stopped(Stop::Parse(failure(&d, None))),
        Err(d) => return stopped(Stop::Abort(format!("Could not parse for environment production: {}", d.message))),
    };
    let parsed = puppet_syntax::analyze_with(source, settings.tasks);
    let mut logged: Vec<(Level, String)> =
        parsed.warnings.iter().map(|w| (Level::Warning, format!("{}{}", w.message, place(w)))).collect();
    let program = match parsed.result {
        Ok(program) => program,
        Err(errors) => {
            let error = errors.first().map(|d| match ruby_exception(&d.message) {
                Some(crash) => Stop::Abort(format!("Could not parse for environment production: {crash}")),
                None if d.message == "stack level too deep" => Stop::Silent,
                None => match puppet_syntax::issues::code(&d.message) {
                    Some(_) => Stop::Parse(failure(d, file)),
                    // the parser's own `Puppet::ParseError` (a regexp's error names no file)
                    None if d.span.line == 0 => {
                        Stop::Abort(format!("Could not parse for environment production: {}", d.message))
                    }
                    None => Stop::Abort(failure(d, file).full()),
                },
            });
            return Checked { logged, defines: Vec::new(), error };
        }
    };
    let diagnostics = puppet_syntax::validate_with(&program, settings);
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    let warnings = diagnostics.len() - errors.len();
    for d in &diagnostics {
        match d.severity {
            Severity::Warning => logged.push((Level::Warning, format!("{}{}", d.message, place(d)))),
            // the errors a heredoc's text logged (they name no place)
            Severity::Error => logged.extend(d.logged.iter().map(|m| (Level::Err, m.clone()))),
        }
    }
    let mut defines = Vec::new();
    let error = match errors.as_slice() {
        // the environment then knows its definitions (`Puppet::Resource::Type#set_arguments`)
        [] => metaparameters(&program, &mut logged, &mut defines, file),
        // a syntax checker's `ArgumentError` (`EPP syntax checker: the syntax identifier
        // must be a String, e.g. pp`) is none of Puppet's issues, and ends the run
        [one] if puppet_syntax::issues::code(&one.message).is_none() => {
            Some(Stop::Abort(format!("Could not parse for environment production: {}", one.message)))
        }
        [one] => Some(Stop::Parse(failure(one, file))),
        several => {
            for d in several {
                logged.push((Level::Err, format!("{}{}", d.message, place(d))));
            }
            let message = match warnings {
                0 => format!("Language validation logged {} errors. Giving up", several.len()),
                w => format!("Language validation logged {} errors, and {w} warnings. Giving up", several.len()),
            };
            Some(Stop::Parse(Failure {
                code: None,
                message,
                file: file.map(Path::to_path_buf),
                line: 0,
                column: 0,
                counted: true,
            }))
        }
    };
    Checked { logged, defines, error }
}

/// Puppet's metaparameters, which a class or defined type should not take as parameters.
const METAPARAMETERS: &[&str] =
    &["alias", "audit", "before", "loglevel", "noop", "notify", "require", "schedule", "stage", "subscribe", "tag"];

/// What Puppet says of definitions with parameters named as metaparameters: a warning for
/// one with a default (logged once per run: see [`report`]), an error for one without.
/// Also lists the defined types (for [`Checked::defines`]).
fn metaparameters(
    program: &puppet_syntax::Program,
    logged: &mut Vec<(Level, String)>,
    defines: &mut Vec<(String, String)>,
    file: Option<&Path>,
) -> Option<Stop> {
    use puppet_syntax::ast::ExprKind;
    let file = file.map_or_else(String::new, |f| f.display().to_string());
    fn walk(
        statements: &[puppet_syntax::ast::Expr],
        logged: &mut Vec<(Level, String)>,
        defines: &mut Vec<(String, String)>,
        file: &str,
    ) -> Option<Stop> {
        for statement in statements {
            if let ExprKind::Define { name, .. } = &statement.kind {
                let place = format!("file://{file}?line={}&pos={}", statement.at.line, statement.at.column);
                defines.push((name.trim_start_matches("::").to_lowercase(), place));
            }
            let (name, parameters, body) = match &statement.kind {
                ExprKind::Class { name, parameters, body, .. } | ExprKind::Define { name, parameters, body } => {
                    (name, parameters, body)
                }
                _ => continue,
            };
            let name = name.trim_start_matches("::").to_lowercase();
            for p in parameters.iter().filter(|p| METAPARAMETERS.contains(&p.name.as_str())) {
                if p.value.is_none() {
                    return Some(Stop::Bare(format!(
                        "{} is a metaparameter; please choose another parameter name in the {name} definition",
                        p.name
                    )));
                }
                logged.push((
                    Level::WarningOnce,
                    format!("{} is a metaparam; this value will inherit to all contained resources in the {name} definition", p.name),
                ));
            }
            if let Some(body) = body {
                let inner = match &body.kind {
                    ExprKind::Block(statements) => statements.as_slice(),
                    _ => std::slice::from_ref(&**body),
                };
                if let Some(stop) = walk(inner, logged, defines, file) {
                    return Some(stop);
                }
            }
        }
        None
    }
    let body = program.body.as_ref()?;
    match &body.kind {
        ExprKind::Block(statements) => walk(statements, logged, defines, &file),
        _ => walk(std::slice::from_ref(body), logged, defines, &file),
    }
}

/// `f` of each item, on every core, in the items' order. The calling thread (on a deep stack,
/// see [`super::on_deep_stack`]) is one of the workers.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            done.push((i, f(item)));
        }
        done
    };
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                // parsing deep nesting recurses: as deep a stack as the runner's
                std::thread::Builder::new().stack_size(1 << 30).spawn_scoped(scope, work).ok()
            })
            .collect();
        let mut results = work();
        for helper in helpers {
            results.extend(helper.join().unwrap_or_default());
        }
        results
    });
    results.sort_unstable_by_key(|(i, _)| *i);
    // a helper that failed leaves its items to this thread
    let mut results = results.into_iter().peekable();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match results.next_if(|(j, _)| *j == i) {
            Some((_, r)) => out.push(r),
            None => out.push(f(item)),
        }
    }
    out
}

/// The formats of `poppet parser dump`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpFormat {
    /// Puppet's deprecated default (`ModelTreeDumper`, [`puppet_syntax::dump`]).
    Old,
    Pn,
    Json,
}

/// `poppet parser dump [--format old|pn|json] [--pretty] [--validate] (-e CODE | FILE...)`:
/// Puppet's `dump` action, quirks included: each file's dump after `--- FILE` with nothing
/// between them (the old format ends each with a line break, PN does not), JSON without the
/// headers, `-e` and standard input without them; a file that does not parse logs `--- FILE`
/// and its error and dumps nothing; the exit status is 0 whatever happened. Returns the exit
/// code.
pub fn dump(
    console: &Console,
    format: DumpFormat,
    pretty: bool,
    validate: bool,
    code: Option<&str>,
    files: &[PathBuf],
) -> u8 {
    let mut err = std::io::stderr().lock();
    let output = dump_all(console, &mut err, format, pretty, validate, code, files);
    match output {
        Ok(Some(output)) => {
            // the face's console rendering of a string, with Ruby's `puts`: a line break
            // unless it ends with one
            let newline = if output.ends_with('\n') { "" } else { "\n" };
            let _ = write!(std::io::stdout().lock(), "{output}{newline}");
            0
        }
        Ok(None) => 1,
        Err(message) => {
            console.line(&mut err, Level::Err, &message);
            console.line(&mut err, Level::Err, "Try 'puppet help parser dump' for usage");
            1
        }
    }
}

/// What `dump` prints (`None`: nothing, an error was printed), or the error that ends it.
fn dump_all(
    console: &Console,
    mut err: &mut impl Write,
    format: DumpFormat,
    pretty: bool,
    validate: bool,
    code: Option<&str>,
    files: &[PathBuf],
) -> Result<Option<String>, String> {
    let mut output = String::new();
    if let Some(code) = code {
        output = dump_one(
            console,
            &mut err,
            code.as_bytes(),
            Source::Code("command-line-string"),
            format,
            pretty,
            validate,
        )?;
    } else if files.is_empty() {
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            return Err("No input to parse given on command line or stdin".into());
        }
        let mut bytes = Vec::new();
        if let Err(e) = stdin.lock().read_to_end(&mut bytes) {
            console.line(&mut err, Level::Err, &format!("Could not read standard input: {e}"));
            return Ok(None);
        }
        output = dump_one(console, &mut err, &bytes, Source::Code("stdin"), format, pretty, validate)?;
    } else {
        let (present, missing): (Vec<&PathBuf>, Vec<&PathBuf>) = files.iter().partition(|p| p.exists());
        for file in present {
            match std::fs::read(file) {
                Ok(bytes) => {
                    output.push_str(&dump_one(
                        console,
                        &mut err,
                        &bytes,
                        Source::File(file),
                        format,
                        pretty,
                        validate,
                    )?);
                }
                Err(e) => return Err(format!("{e}: {}", file.display())),
            }
        }
        if !missing.is_empty() {
            output.push_str("One or more file(s) specified did not exist:\n");
            let list: Vec<String> = missing.iter().map(|f| format!("   {}", f.display())).collect();
            output.push_str(&list.join("\n"));
        }
    }
    Ok(Some(output))
}

/// What `dump` reads: a file (its name printed), or text with the name Puppet gives it.
#[derive(Clone, Copy)]
enum Source<'a> {
    File(&'a Path),
    Code(&'a str),
}

/// One source's dump (`dump_parse`): its text, or nothing when it does not parse (then
/// `--- FILE` and the error are logged). Validating, messages name the source.
fn dump_one(
    console: &Console,
    err: &mut impl Write,
    bytes: &[u8],
    source: Source<'_>,
    format: DumpFormat,
    pretty: bool,
    validate: bool,
) -> Result<String, String> {
    let (file, name) = match source {
        Source::File(f) => (Some(f), f.display().to_string()),
        Source::Code(name) => (None, name.to_owned()),
    };
    let text = |d: &Diagnostic| match (validate, d.span.line) {
        (false, _) => puppet_syntax::lexer::puppet_text(d),
        (true, 0) => format!("{} (file: {name})", d.message),
        (true, line) => format!("{} (file: {name}, line: {line}, column: {})", d.message, d.span.column),
    };
    let failed = |err: &mut dyn Write, message: &str| {
        let mut err = err;
        if let Some(f) = file {
            console.line(&mut err, Level::Err, &format!("--- {}", f.display()));
        }
        console.line(&mut err, Level::Err, message);
        String::new()
    };
    let source = match puppet_syntax::lexer::check_encoding(bytes) {
        Ok(source) => source,
        // a byte order mark is a parse error (naming no place); other bytes are Ruby's error,
        // which ends the command
        Err(d) if d.message.starts_with("Illegal") => return Ok(failed(err, &d.message)),
        Err(d) => return Err(d.message),
    };
    let program = match puppet_syntax::parse(source) {
        Ok(program) => program,
        Err(errors) => {
            // a Ruby exception in Puppet's lexer ends the command
            if let Some(crash) = errors.first().and_then(|d| ruby_exception(&d.message)) {
                return Err(crash);
            }
            let message = errors.first().map_or_else(|| "Syntax error".to_owned(), text);
            return Ok(failed(err, &message));
        }
    };
    if validate {
        let diagnostics = puppet_syntax::validate(&program);
        let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
        for d in diagnostics.iter().filter(|d| d.severity == Severity::Warning) {
            console.line(err, Level::Warning, &text(d));
        }
        match errors.as_slice() {
            [] => {}
            [one] => return Ok(failed(err, &text(one))),
            several => {
                for d in several {
                    console.line(err, Level::Err, &text(d));
                }
                let count = format!("Language validation logged {} errors. Giving up (file: {name})", several.len());
                return Ok(failed(err, &count));
            }
        }
    }
    let header = file.map_or_else(String::new, |f| format!("--- {}", f.display()));
    Ok(match format {
        // `--pretty` does not change it
        DumpFormat::Old => format!("{header}{}\n", puppet_syntax::dump::program(&program)),
        DumpFormat::Json => puppet_syntax::pn::program(&program).to_json(pretty),
        DumpFormat::Pn => {
            let pn = puppet_syntax::pn::program(&program);
            let text = if pretty { pn.to_pretty() } else { pn.to_text() };
            format!("{header}{text}")
        }
    })
}
