//! `poppet epp validate|render|dump`: Puppet 7.23's `puppet epp` face (`puppet/face/epp.rb`),
//! with its options, its output and its exit codes.
//!
//! A template is named as Puppet names it: `module/name.epp` (the module's `templates` on the
//! module path), else a file. `validate` checks each template (parsed, then validated as
//! Puppet's `EvaluatingEppParser` does) up to the first that fails, unless
//! `--continue_on_error`; `render` renders each with the values of `--values_file` and
//! `--values` for a node of the given facts; `dump` prints each template's parse tree (Puppet's
//! `old` format, PN, or PN as JSON). What Puppet logs goes to standard error as it comes; what
//! the action returns is printed when all is done, and only if it succeeded (Puppet's faces
//! are "all or nothing").
//!
//! One difference is deliberate: Puppet's `render` runs Facter first, which on some machines
//! leaves Ruby in another working directory, so that a relative template or values file is
//! not found there ("Could not find template 'x.epp'"); here a relative path is read from the
//! working directory, as Puppet's own help says it is.

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use clap::{Args, Parser, Subcommand, ValueEnum};
use puppet_eval::{Failure, Log, Options, Session};
use puppet_syntax::{epp, Diagnostic};
use puppet_types::Value;

use super::{Console, Level};

/// The module path Puppet's default environment has (Debian's `puppet` package).
const DEFAULT_MODULEPATH: &str =
    "/etc/puppet/code/environments/production/modules:/etc/puppet/code/modules:/usr/share/puppet/modules";

#[derive(Parser)]
#[command(
    name = "poppet epp",
    bin_name = "poppet epp",
    about = "Interact directly with the EPP template parser/renderer, as Puppet's `puppet epp` does"
)]
struct EppArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    // each option may be given again, the last one counting, as in Puppet
    /// Validate the syntax of one or more EPP templates (`module/name.epp` on the module
    /// path, or files; standard input when none is given); nothing is printed for a valid
    /// template, and the exit status is 1 on any error.
    #[command(args_override_self = true)]
    Validate {
        /// Go on after a template with errors (by default validation stops at the first).
        #[arg(long = "continue_on_error", visible_alias = "continue-on-error", overrides_with = "no_continue")]
        continue_on_error: bool,
        #[arg(long = "no-continue_on_error", alias = "no-continue-on-error", hide = true)]
        no_continue: bool,
        #[command(flatten)]
        common: Common,
        /// The templates.
        templates: Vec<String>,
    },
    /// Render templates (`module/name.epp`, files, `-e SOURCE` or standard input) and print
    /// the result; with several, each after a `--- NAME` header.
    #[command(args_override_self = true)]
    Render {
        /// The name of the node (Puppet's `--node`; the facts are those of `--facts` over
        /// the built-in Debian 12 node's).
        #[arg(long, value_name = "NAME")]
        node: Option<String>,
        /// Render this template source.
        #[arg(short = 'e', long = "e", value_name = "SOURCE")]
        source: Option<String>,
        /// The template's arguments: Puppet code evaluated in the top scope that gives a
        /// Hash (or undef).
        #[arg(long, value_name = "VALUES_HASH")]
        values: Option<String>,
        /// A `.yaml` file of the arguments, or a `.pp` file evaluated in the top scope that
        /// gives them (`--values` is merged over them).
        #[arg(long = "values_file", visible_alias = "values-file", value_name = "PP_OR_YAML_FILE")]
        values_file: Option<String>,
        /// Facts (a `.json` file, or YAML) set over the node's.
        #[arg(long, value_name = "FACTS_FILE")]
        facts: Option<String>,
        #[command(flatten)]
        header: Header,
        #[command(flatten)]
        common: Common,
        /// The templates.
        templates: Vec<String>,
    },
    /// Print the parse tree of templates, of `-e SOURCE` or of standard input.
    #[command(args_override_self = true)]
    Dump {
        /// Dump this template source.
        #[arg(short = 'e', long = "e", value_name = "SOURCE")]
        source: Option<String>,
        /// `old` (Puppet's deprecated format, the default), `pn` (Puppet's Extended
        /// S-Expression Notation) or `json` (the PN graph as JSON).
        #[arg(long, value_enum, default_value_t = Format::Old)]
        format: Format,
        /// Indent the output of `pn` and `json`.
        #[arg(long)]
        pretty: bool,
        /// Report syntax errors only (by default what was parsed is validated too).
        #[arg(long = "no-validate")]
        no_validate: bool,
        #[arg(long, hide = true, overrides_with = "no_validate")]
        validate: bool,
        #[command(flatten)]
        header: Header,
        #[command(flatten)]
        common: Common,
        /// The templates.
        templates: Vec<String>,
    },
}

#[derive(Args)]
struct Common {
    /// Where modules are found (`DIR:DIR`).
    #[arg(long, value_name = "DIRS")]
    modulepath: Option<String>,
    /// Colour the messages as Puppet's `color` setting does (`ansi`, `true`, `yes`; or
    /// `false`).
    #[arg(long, value_name = "WHEN", default_value = "ansi")]
    color: String,
}

#[derive(Args)]
struct Header {
    /// No `--- NAME` header between the results of several templates.
    #[arg(long = "no-header", overrides_with = "with_header")]
    no_header: bool,
    #[arg(long = "header", hide = true)]
    with_header: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Old,
    Pn,
    Json,
}

/// `poppet epp ACTION ARGS` (`args` starts with `epp`); returns the exit code.
pub fn command(args: impl Iterator<Item = OsString>) -> ExitCode {
    let args = EppArgs::parse_from(args);
    super::on_deep_stack("the epp command", move || ExitCode::from(run(args.action)))
}

fn run(action: Action) -> u8 {
    match action {
        Action::Validate { continue_on_error, common, templates, .. } => {
            let console = Console { color: super::color_setting(&common.color) };
            let session = session(common.modulepath.as_deref(), None);
            let status = validate(&console, &session, continue_on_error, &templates);
            finish(&console, "validate", status)
        }
        Action::Render { node, source, values, values_file, facts, header, common, templates } => {
            let console = Console { color: super::color_setting(&common.color) };
            let _ = node; // the node's name: its facts are the built-in node's and --facts
            let facts = match facts.as_deref().map(read_facts).transpose() {
                Ok(facts) => facts,
                Err(message) => return finish(&console, "render", Err(message)),
            };
            let mut session = session(common.modulepath.as_deref(), facts);
            let sink_console = Console { color: console.color };
            session.evaluator.set_sink(Box::new(move |log: &Log| print_log(&sink_console, log)));
            let given = Given { values, values_file };
            let status = render(&console, &mut session, &given, source, !header.no_header, &templates);
            finish(&console, "render", status)
        }
        Action::Dump { source, format, pretty, no_validate, header, common, templates, .. } => {
            let console = Console { color: super::color_setting(&common.color) };
            let session = session(common.modulepath.as_deref(), None);
            let options = DumpOptions { format, pretty, validate: !no_validate, header: !header.no_header };
            let status = dump(&console, &session, &options, source, &templates);
            finish(&console, "dump", status)
        }
    }
}

/// What an action returns: the text to print, or the error that stops it.
type Status = Result<Option<String>, String>;

/// Prints an action's result (with Ruby's `puts`: a line break added unless there is one),
/// or its error followed by Puppet's hint; the exit code.
fn finish(console: &Console, action: &str, status: Status) -> u8 {
    match status {
        Ok(text) => {
            if let Some(text) = text {
                let mut out = std::io::stdout().lock();
                let newline = if text.ends_with('\n') { "" } else { "\n" };
                let _ = write!(out, "{text}{newline}");
                let _ = out.flush();
            }
            0
        }
        Err(message) => {
            let mut err = std::io::stderr().lock();
            console.line(&mut err, Level::Err, &message);
            console.line(&mut err, Level::Err, &format!("Try 'puppet help epp {action}' for usage"));
            1
        }
    }
}

/// A session for the templates: Puppet's defaults, the module path (made absolute, as
/// Puppet's settings are), a node of the built-in facts with `facts` set over them.
fn session(modulepath: Option<&str>, facts: Option<puppet_types::value::Hash>) -> Session {
    let certname = certname();
    let mut node_facts = puppet_eval::facts::builtin(&certname);
    for (name, value) in facts.iter().flat_map(|f| f.iter()) {
        node_facts.insert(name.clone(), value.clone());
    }
    let mut session = Session::new(Options::default(), &node_facts, &certname);
    let path: Vec<PathBuf> = std::env::split_paths(modulepath.unwrap_or(DEFAULT_MODULEPATH))
        .filter(|p| !p.as_os_str().is_empty())
        .map(|p| std::path::absolute(&p).unwrap_or(p))
        .collect();
    if let Ok(path) = std::env::join_paths(path) {
        session.evaluator.set_modulepath(&path.to_string_lossy());
    }
    session
}

/// Puppet's `certname`: this machine's name, in lower case.
fn certname() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .unwrap_or_default();
    match name.trim() {
        "" => "localhost".to_owned(),
        name => name.to_lowercase(),
    }
}

/// `--facts FILE`: JSON when the name ends in `json`, else YAML; a hash.
fn read_facts(file: &str) -> Result<puppet_types::value::Hash, String> {
    let incorrect = || format!("Incorrect formatted data in {file} given via the --facts flag");
    let text = std::fs::read_to_string(file).map_err(|e| ruby_io_error(&e, file))?;
    let value = if file.ends_with("json") {
        pfmt::data::json::documents(&text).next().transpose().map_err(|e| e.to_string())?
    } else {
        read_yaml(&text, file)?
    };
    match &value {
        Some(Value::Hash(h)) => Ok((**h).clone()),
        _ => Err(incorrect()),
    }
}

/// A YAML document as Puppet's `safe_load_file` reads it; Psych's message names the file.
fn read_yaml(text: &str, file: &str) -> Result<Option<Value>, String> {
    use puppet_eval::hiera::yaml::{read, YamlError};
    match read(text) {
        Ok(doc) => Ok(doc.value),
        Err(YamlError::Syntax(m)) => Err(format!("({file}): {m}")),
        Err(YamlError::DisallowedClass(c)) => Err(format!("Tried to load unspecified class: {c}")),
    }
}

/// Ruby's message for a file it could not open.
fn ruby_io_error(e: &std::io::Error, file: &str) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => format!("No such file or directory @ rb_sysopen - {file}"),
        std::io::ErrorKind::PermissionDenied => format!("Permission denied @ rb_sysopen - {file}"),
        _ if Path::new(file).is_dir() => format!("Is a directory @ io_fread - {file}"),
        _ => format!("{e} @ rb_sysopen - {file}"),
    }
}

/// A log line of the evaluation: errors and warnings on standard error, the rest on
/// standard output.
fn print_log(console: &Console, log: &Log) {
    use puppet_eval::Level as L;
    let level = match log.level {
        L::Debug | L::Info => return,
        L::Notice => Level::Notice,
        L::Warning => Level::Warning,
        L::Err | L::Alert | L::Emerg | L::Crit => Level::Err,
    };
    let message = match &log.source {
        Some(source) => format!("{source}: {}", log.message),
        None => log.message.clone(),
    };
    if level == Level::Notice {
        console.line(&mut std::io::stdout().lock(), level, &message);
    } else {
        console.line(&mut std::io::stderr().lock(), level, &message);
    }
}

/// The template file a name stands for (Puppet's `effective_template`): a module's
/// template, else the file as given.
fn effective_template(session: &Session, name: &str) -> Option<String> {
    match puppet_eval::functions::templates::template_file(&session.evaluator, name) {
        Some(path) => Some(path.display().to_string()),
        None => Path::new(name).exists().then(|| name.to_owned()),
    }
}

/// Standard input, when it is not a terminal.
fn stdin_text() -> Option<Result<Vec<u8>, String>> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return None;
    }
    let mut bytes = Vec::new();
    Some(stdin.lock().read_to_end(&mut bytes).map(|_| bytes).map_err(|e| format!("Could not read standard input: {e}")))
}

/// A template's text as Puppet reads it (UTF-8), or its error.
fn template_text(bytes: &[u8]) -> Result<&str, String> {
    puppet_syntax::lexer::check_encoding(bytes).map_err(|d| d.message)
}

// --- validate

fn validate(console: &Console, session: &Session, continue_on_error: bool, templates: &[String]) -> Status {
    let mut err = std::io::stderr().lock();
    let mut status = true;
    if templates.is_empty() {
        match stdin_text() {
            Some(Ok(bytes)) => status = check(console, &mut err, &bytes, "<stdin>"),
            Some(Err(message)) => return Err(message),
            None => console.notice("No template specified. No action taken"),
        }
    }
    let mut missing = Vec::new();
    for name in templates {
        if !status && !continue_on_error {
            break;
        }
        match effective_template(session, name) {
            Some(file) => {
                let ok = match std::fs::read(&file) {
                    Ok(bytes) => check(console, &mut err, &bytes, &file),
                    Err(e) => {
                        console.line(&mut err, Level::Err, &ruby_io_error(&e, &file));
                        false
                    }
                };
                status &= ok;
            }
            None => missing.push(name.as_str()),
        }
    }
    if !missing.is_empty() {
        return Err(missing_files(&missing));
    }
    if status {
        Ok(None)
    } else {
        Err("Errors while validating epp".into())
    }
}

/// Puppet's error for files that do not exist.
fn missing_files(missing: &[&str]) -> String {
    let list: Vec<String> = missing.iter().map(|f| format!("   {f}")).collect();
    format!("One or more file(s) specified did not exist:\n{}", list.join("\n"))
}

/// Parses and validates a template, logging what Puppet logs; whether it is valid.
/// The count of errors that ends a validation names no file when the face logs the
/// exception (`log_exception`), as `dump` does when it logs the message.
fn check(console: &Console, err: &mut impl Write, bytes: &[u8], file: &str) -> bool {
    match parse(console, err, bytes, file, true) {
        Ok(_) => true,
        Err(Failed::Crash(message)) => {
            console.line(err, Level::Err, &message);
            false
        }
        Err(Failed::Parse(message)) => {
            let unplaced = format!(" (file: {file})");
            let message = match message.starts_with("Language validation logged") {
                true => message.strip_suffix(&unplaced).unwrap_or(&message),
                false => &message,
            };
            console.line(err, Level::Err, message);
            false
        }
    }
}

/// Why a template could not be read.
enum Failed {
    /// Puppet's parse error (`Puppet::ParseError`), placed.
    Parse(String),
    /// A Ruby exception Puppet's lexer raises on some inputs (see `puppet_syntax::lexer`): no
    /// parse error, so the face does not rescue it.
    Crash(String),
}

/// A template parsed (and, with `validate`, validated), its warnings and the errors logged
/// before giving up written to `err`; or the error that stopped it.
fn parse(
    console: &Console,
    err: &mut impl Write,
    bytes: &[u8],
    file: &str,
    validate: bool,
) -> Result<epp::Template, Failed> {
    let text = template_text(bytes).map_err(Failed::Parse)?;
    let checked = if validate { epp::check(text) } else { epp::check_syntax(text) };
    for w in &checked.warnings {
        console.line(err, Level::Warning, &format!("{}{}", w.message, place(w, file)));
    }
    for e in &checked.logged {
        console.line(err, Level::Err, &format!("{}{}", e.message, place(e, file)));
    }
    checked.result.map_err(|d| match super::parser::ruby_exception(&d.message) {
        Some(crash) => Failed::Crash(crash),
        None => Failed::Parse(format!("{}{}", d.message, place(&d, file))),
    })
}

/// Where a problem is, as Puppet appends it (without a file name when the parser was given
/// none).
fn place(d: &Diagnostic, file: &str) -> String {
    match (file, d.span.line) {
        ("", 0) => String::new(),
        ("", line) => format!(" (line: {line}, column: {})", d.span.column),
        _ => puppet_eval::functions::templates::placed(d, file),
    }
}

// --- render

/// Where the template's arguments come from.
struct Given {
    values: Option<String>,
    values_file: Option<String>,
}

/// The template's arguments as the face makes them (`get_values`): a value, or the log
/// entry `Puppet.err` returned in its place when `--values` gave no hash.
enum Arguments {
    Value(Value),
    Log,
}

fn render(
    console: &Console,
    session: &mut Session,
    given: &Given,
    source: Option<String>,
    header: bool,
    templates: &[String],
) -> Status {
    let mut err = std::io::stderr().lock();
    let inline = match source {
        Some(source) => Some(source.into_bytes()),
        None if templates.is_empty() => match stdin_text() {
            Some(bytes) => Some(bytes?),
            None => return Err("No input to process given on command line or stdin".into()),
        },
        None => None,
    };
    if let Some(bytes) = inline {
        let arguments = values(console, &mut err, session, given)?;
        let arguments = template_arguments("inline_epp", arguments)?;
        let text = String::from_utf8_lossy(&bytes);
        let rendered = puppet_eval::functions::templates::render_inline(&mut session.evaluator, &text, arguments);
        return rendered.map(|v| Some(rendered_text(&v))).map_err(|flow| failure_text(&Failure::from(flow)));
    }
    let show = templates.len() > 1;
    let mut buffer = String::new();
    let mut status = true;
    for (i, name) in templates.iter().enumerate() {
        let arguments = values(console, &mut err, session, given)?;
        let mut output = String::new();
        if show && header {
            if i > 0 {
                output.push('\n');
            }
            output.push_str(&format!("--- {name}\n"));
        }
        let arguments = template_arguments("epp", arguments)?;
        // a file that is no module's template is read as an absolute path
        let file = match puppet_eval::functions::templates::template_file(&session.evaluator, name) {
            None if Path::new(name).exists() => {
                std::path::absolute(name).map_or(name.clone(), |p| p.display().to_string())
            }
            _ => name.clone(),
        };
        match puppet_eval::functions::templates::render_file(&mut session.evaluator, &file, arguments) {
            Ok(v) => {
                output.push_str(&rendered_text(&v));
                buffer.push_str(&output);
            }
            Err(flow) => {
                let message = failure_text(&Failure::from(flow));
                // what is no Puppet::ParseError (an invalid template) ends the action
                if message.contains("(): Invalid EPP: ") {
                    return Err(message);
                }
                if show {
                    console.line(&mut err, Level::Err, &format!("--- {file}"));
                }
                console.line(&mut err, Level::Err, &message);
                status = false;
            }
        }
        session.evaluator.reset_after_error();
    }
    if status {
        Ok(Some(buffer))
    } else {
        Err("error while rendering epp".into())
    }
}

/// A rendered template: a string (a Sensitive one unwrapped).
fn rendered_text(v: &Value) -> String {
    match v {
        Value::Sensitive(inner) => puppet_types::display::value_to_s(inner),
        other => puppet_types::display::value_to_s(other),
    }
}

/// The arguments a template is called with: a hash, or none; anything else is the
/// evaluator's `ArgumentError`, which ends the action.
fn template_arguments(function: &str, arguments: Arguments) -> Result<Option<Rc<puppet_types::value::Hash>>, String> {
    match &arguments {
        Arguments::Value(Value::Undef) => Ok(None),
        Arguments::Value(Value::Hash(h)) => Ok(Some(h.clone())),
        Arguments::Value(other) => Err(format!(
            "{function}(): the template_args must be a Hash, got a {}",
            puppet_eval::ruby::class_name(other)
        )),
        Arguments::Log => Err(format!("{function}(): the template_args must be a Hash, got a Puppet::Util::Log")),
    }
}

/// An error as Puppet's console shows it.
fn failure_text(failure: &Failure) -> String {
    failure.puppet_text()
}

/// The face's `get_values`: `--values_file`, then `--values` merged over it. Problems with
/// the file are logged and leave it out; an error evaluating `--values` ends the action.
fn values(console: &Console, err: &mut impl Write, session: &mut Session, given: &Given) -> Result<Arguments, String> {
    let mut from_file = Value::Undef;
    if let Some(file) = &given.values_file {
        let loaded = if file.ends_with(".yaml") {
            std::fs::read_to_string(file)
                .map_err(|e| ruby_io_error(&e, file))
                .and_then(|text| read_yaml(&text, file))
                .map(|v| v.unwrap_or(Value::Undef))
        } else if file.ends_with(".pp") {
            evaluate_file(session, file)
        } else {
            console.line(err, Level::Err, "Only .yaml or .pp can be used as a --values_file");
            Ok(Value::Undef)
        };
        match loaded {
            Ok(v) => from_file = v,
            Err(message) => console.line(err, Level::Err, &format!("Could not load --values_file {message}")),
        }
        if !matches!(from_file, Value::Undef | Value::Hash(_)) {
            let class = puppet_eval::ruby::class_name(&from_file);
            let message = format!("--values_file option must evaluate to a Hash or undef/nil, got: '{class}'");
            console.line(err, Level::Err, &message);
        }
    }
    let Some(values) = &given.values else {
        return Ok(Arguments::Value(from_file));
    };
    let outcome = session.run(values);
    if let Some(failure) = &outcome.error {
        return Err(located(failure, "values-hash"));
    }
    match outcome.value.as_ref().unwrap_or(&Value::Undef) {
        Value::Undef => Ok(Arguments::Value(from_file)),
        Value::Hash(h) => match &from_file {
            Value::Hash(base) => {
                let mut merged = (**base).clone();
                for (k, v) in h.iter() {
                    merged.insert(k.clone(), v.clone());
                }
                Ok(Arguments::Value(Value::Hash(Rc::new(merged))))
            }
            _ => Ok(Arguments::Value(Value::Hash(h.clone()))),
        },
        other => {
            let class = puppet_eval::ruby::class_name(other);
            let message = format!("--values option must evaluate to a Hash or undef, got: '{class}'");
            console.line(err, Level::Err, &message);
            Ok(Arguments::Log)
        }
    }
}

/// A `--values_file` manifest, evaluated in the top scope: its value.
fn evaluate_file(session: &mut Session, file: &str) -> Result<Value, String> {
    let bytes = std::fs::read(file).map_err(|e| ruby_io_error(&e, file))?;
    let text = template_text(&bytes)?;
    let outcome = session.run(text);
    match &outcome.error {
        Some(failure) => Err(located(failure, file)),
        None => Ok(outcome.value.unwrap_or(Value::Undef)),
    }
}

/// A failure of code read from `file`, its location naming the file (a syntax or
/// validation error without the prefix `puppet apply` gives it).
fn located(failure: &Failure, file: &str) -> String {
    let mut failure = failure.clone();
    if failure.file.is_none() && failure.line != 0 {
        failure.file = Some(file.to_owned());
    }
    match failure.kind {
        puppet_eval::FailureKind::Parse => format!("{}{}", failure.message, failure.location()),
        _ => failure.puppet_text(),
    }
}

// --- dump

struct DumpOptions {
    format: Format,
    pretty: bool,
    validate: bool,
    header: bool,
}

fn dump(
    console: &Console,
    session: &Session,
    options: &DumpOptions,
    source: Option<String>,
    templates: &[String],
) -> Status {
    let mut err = std::io::stderr().lock();
    if let Some(source) = source {
        return dump_one(console, &mut err, options, source.as_bytes(), "command-line-string", false).map(Some);
    }
    if templates.is_empty() {
        return match stdin_text() {
            Some(bytes) => dump_one(console, &mut err, options, &bytes?, "stdin", false).map(Some),
            None => Err("No input to parse given on command line or stdin".into()),
        };
    }
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for name in templates {
        match effective_template(session, name) {
            Some(file) => found.push(file),
            None => missing.push(name.as_str()),
        }
    }
    let show = found.len() > 1;
    let mut buffer = String::new();
    for file in &found {
        let bytes = std::fs::read(file).map_err(|e| ruby_io_error(&e, file))?;
        buffer.push_str(&dump_one(console, &mut err, options, &bytes, file, show)?);
    }
    if !missing.is_empty() {
        return Err(missing_files(&missing));
    }
    Ok(Some(buffer))
}

/// The face's `dump_parse` of one template: its dump (after a `--- FILE` header when
/// `show`), or nothing when it does not parse (its error logged).
fn dump_one(
    console: &Console,
    err: &mut impl Write,
    options: &DumpOptions,
    bytes: &[u8],
    file: &str,
    show: bool,
) -> Result<String, String> {
    // without validation, the parser is not given the file's name
    let named = if options.validate { file } else { "" };
    let template = match parse(console, err, bytes, named, options.validate) {
        Ok(t) => t,
        // what is no parse error ends the action
        Err(Failed::Crash(message)) => return Err(message),
        Err(Failed::Parse(message)) => {
            if show {
                console.line(err, Level::Err, &format!("--- {file}"));
            }
            console.line(err, Level::Err, &message);
            return Ok(String::new());
        }
    };
    let mut output = String::new();
    if show && options.header {
        output.push_str(&format!("--- {file}\n"));
    }
    match options.format {
        Format::Old => {
            output.push_str(&puppet_syntax::dump::template(&template));
            output.push('\n');
        }
        Format::Pn => {
            let pn = puppet_syntax::pn::template(&template);
            output.push_str(&if options.pretty { pn.to_pretty() } else { pn.to_text() });
        }
        // the JSON alone, without a header
        Format::Json => return Ok(puppet_syntax::pn::template(&template).to_json(options.pretty)),
    }
    Ok(output)
}
