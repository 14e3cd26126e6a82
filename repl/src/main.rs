//! `poppet`: runs Puppet code (`-e CODE`, a file, or standard input) as `puppet apply` would
//! compile it, printing log messages as Puppet does; without arguments on a terminal, the
//! interactive shell.
//!
//! Log lines go to standard output as they are made, the error to standard error (on a
//! terminal with its source line and a caret: `poppet::excerpt`, shared with the shell);
//! `--output json` prints one record instead. The node is a real one by default: Puppet's
//! settings, the facts of a Debian 12 node (`puppet_eval::facts`). `--facts` reads JSON with `pfmt::data` and YAML
//! as Puppet reads a facts file (Psych's YAML 1.1, with Hiera's reader). Ctrl-C sets the
//! evaluator's interrupt flag, which stops the run at the next call; a second Ctrl-C exits.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::{Parser, ValueEnum};
use puppet_eval::{Failure, FailureKind, Level, Log, Options, Outcome, Session, Strict};
use puppet_types::Value;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// tree-sitter's C library allocates through mimalloc too: its trees and parse stacks are
/// many small blocks, and glibc's malloc serving them was a tenth of `poppet parser
/// validate`'s time.
fn tree_sitter_on_mimalloc() {
    use libmimalloc_sys::{mi_calloc, mi_free, mi_malloc, mi_realloc};
    let allocator = tree_sitter::Allocator { malloc: mi_malloc, calloc: mi_calloc, realloc: mi_realloc, free: mi_free };
    // SAFETY: called first in `main`, before any other thread runs and any tree-sitter object
    // exists, and never again.
    unsafe { tree_sitter::set_allocator(Some(allocator)) };
}

#[derive(Parser)]
#[command(
    name = "poppet",
    version,
    about = "Evaluate Puppet code: a runner and an interactive shell",
    after_help = "Code is compiled as `puppet apply` compiles it, with Puppet 7.23's defaults \
(strict_variables off, strict=warning) for node `testnode` with the facts Facter reports on a \
Debian 12 node (--platform, --facts and --fact change them).

Puppet's developer commands, with Puppet's options and output: `poppet parser validate|dump`, \
`poppet epp validate|render|dump`, `poppet lookup KEY...` and `poppet catalog compile NODE` \
(`poppet compile --node NODE`) (`poppet parser --help`, `poppet epp --help`, `poppet lookup \
--help`, `poppet catalog compile --help`)."
)]
struct Args {
    /// Puppet code to run.
    #[arg(short = 'e', long = "execute", value_name = "CODE", conflicts_with = "file")]
    code: Option<String>,
    /// A manifest to run (`-` for standard input).
    file: Option<PathBuf>,
    /// Render an ERB template and print it, as `template()` renders it: a file, or a
    /// module's template (`apache/vhost.conf.erb`) on the module path.
    #[arg(long, value_name = "TEMPLATE", conflicts_with_all = ["code", "file"])]
    erb: Option<String>,
    /// The variables of the template `--erb` renders: a Puppet hash (`{ 'port' => 80 }`),
    /// each key a variable of the top scope.
    #[arg(long, value_name = "HASH", requires = "erb")]
    values: Option<String>,
    /// How to report: log lines and errors (text), or one JSON record.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    output: Output,
    /// The node's facts, from a JSON or YAML file (`facter --json`, `puppet facts`), instead of
    /// the built-in platform's.
    #[arg(long, value_name = "FILE", conflicts_with = "platform")]
    facts: Option<PathBuf>,
    /// The built-in fact set: a complete Facter 4 fact set of this platform, legacy facts
    /// included.
    #[arg(long, value_name = "NAME", default_value = puppet_eval::facts::DEFAULT_PLATFORM, value_parser = platform_names())]
    platform: String,
    /// Sets one fact (a dotted path sets inside a structured fact: `os.family=RedHat`);
    /// repeatable.
    #[arg(long = "fact", value_name = "NAME=VALUE")]
    facts_set: Vec<String>,
    /// The node's name (with a dot, its fully qualified name: `web01.example.com`).
    #[arg(long, value_name = "NAME", default_value = "testnode")]
    node: String,
    /// Puppet's `strict` setting: what a questionable construct such as an unknown variable
    /// gives (a warning by default, as in Puppet).
    #[arg(long, value_enum, default_value_t = StrictArg::Warning)]
    strict: StrictArg,
    /// An unknown variable is an error (Puppet's `strict_variables`; off by default, as in
    /// Puppet: an unknown variable is undef).
    #[arg(long, overrides_with = "no_strict_variables")]
    strict_variables: bool,
    /// An unknown variable is undef (the default).
    #[arg(long, hide = true, overrides_with = "strict_variables")]
    no_strict_variables: bool,
    /// The lowest level of log messages shown.
    #[arg(long, value_enum, default_value_t = LogLevel::Notice)]
    log_level: LogLevel,
    /// Let `generate()` run commands.
    #[arg(long)]
    allow_generate: bool,
    /// Check the core resources as `puppet apply` does when it converts the catalog for
    /// applying: values outside an attribute's documented values, relative file paths, file
    /// modes, read-only attributes, unqualified exec commands.
    #[arg(long)]
    validate_resources: bool,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Where modules are loaded from (classes, defined types, functions, type aliases).
    #[arg(long, value_name = "DIR[:DIR]")]
    modulepath: Option<String>,
    /// Evaluate in a directory environment (a control repository's `environments/NAME`): its
    /// `environment.conf`'s module path, its Hiera data; the shell first compiles its main
    /// manifest (`manifests/`, node definitions) for the node.
    #[arg(long = "environment-dir", value_name = "DIR")]
    environment_dir: Option<PathBuf>,
    /// Print the compiled catalog (resources, parameters, containment edges) as JSON on
    /// stdout; log messages then go to stderr.
    #[arg(long, value_enum, value_name = "FORMAT")]
    catalog: Option<CatalogFormat>,
    /// The shell starts without its banner.
    #[arg(short, long)]
    quiet: bool,
    /// The shell does not run ~/.config/poppet/init.pp.
    #[arg(long)]
    no_init: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Output {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum CatalogFormat {
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum StrictArg {
    Off,
    Warning,
    Error,
}

#[derive(Clone, Copy, ValueEnum)]
enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Err,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

impl LogLevel {
    fn level(self) -> Level {
        match self {
            LogLevel::Debug => Level::Debug,
            LogLevel::Info => Level::Info,
            LogLevel::Notice => Level::Notice,
            LogLevel::Warning => Level::Warning,
            LogLevel::Err => Level::Err,
        }
    }
}

/// Where the code comes from.
struct Source {
    text: String,
    file: Option<String>,
}

fn main() -> ExitCode {
    tree_sitter_on_mimalloc();
    // Puppet's developer commands (`poppet parser validate ...`); anything else is the runner
    match std::env::args_os().nth(1).as_deref().and_then(|a| a.to_str()) {
        Some("parser") => return parser_command(),
        Some("epp") => return poppet::tools::epp::command(std::env::args_os().skip(1)),
        Some("lookup") => return poppet::tools::lookup::command(std::env::args_os().skip(1)),
        Some("catalog") => return poppet::tools::catalog::command(std::env::args_os().skip(1)),
        Some("compile") => return poppet::tools::catalog::compile_shortcut(std::env::args_os().skip(1)),
        _ => {}
    }
    let args = Args::parse();
    if let Some(template) = args.erb.clone() {
        return render_erb(&args, template);
    }
    let source = match read_source(&args) {
        Ok(Some(s)) => s,
        Ok(None) => return interactive(&args),
        Err(SourceError::Unreadable(message)) => {
            eprintln!("Error: {message}");
            return ExitCode::from(1);
        }
        // Bytes Puppet's lexer refuses: a parse error without position (printed, as every
        // error, without Puppet's `Could not parse for environment production:` prefix).
        Err(SourceError::Encoding(message)) => {
            match args.output {
                Output::Json => println!(
                    "{}",
                    serde_json::json!({"value": null, "notices": [], "warnings": [],
                        "error": {"message": message, "line": null, "column": null}})
                ),
                Output::Text => eprintln!("Error: {message}"),
            }
            return ExitCode::from(1);
        }
    };
    let node_args = NodeArgs::of(&args);
    let options = options(&args);
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = interrupt.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let output = args.output;
    let min_level = args.log_level.level();
    let colour = use_colour(args.color, std::io::stderr().is_terminal());
    let node = args.node.clone();
    let catalog = args.catalog;
    let environment = match environment(&args) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let modulepath = args.modulepath.clone().or_else(|| environment.as_ref().map(|e| e.modulepath.clone()));
    poppet::tools::on_deep_stack("the evaluation thread", move || {
        let mut session = match new_session(&node_args, options, &node, modulepath.as_deref()) {
            Ok(s) => s,
            Err(code) => return code,
        };
        let env_name = environment.as_ref().map_or("production", |e| e.name.as_str());
        if let Some(env) = &environment {
            env.install(&mut session);
        }
        session.evaluator.interrupt = interrupt;
        if let Output::Text = output {
            let to_stderr = catalog.is_some();
            session.evaluator.set_sink(Box::new(move |log: &Log| print_log(log, min_level, to_stderr)));
        }
        let outcome = session.run(&source.text);
        if catalog.is_some() && outcome.error.is_none() {
            let json = session.evaluator.compiler.catalog.to_json(&node, env_name);
            println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
        }
        report(&outcome, &source, output, colour)
    })
}

/// `--environment-dir DIR`: the environment, read as Puppet reads an environment of an
/// environment path (`DIR`'s parent) by its name; Puppet's error for one it cannot read.
fn environment(args: &Args) -> Result<Option<poppet::shell::Environment>, ExitCode> {
    let Some(dir) = &args.environment_dir else { return Ok(None) };
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        eprintln!("Error: {} is no environment directory", dir.display());
        return Err(ExitCode::from(1));
    };
    let given = puppet_eval::environment::Given {
        environmentpath: Some(parent.to_string_lossy().into_owned()),
        ..Default::default()
    };
    let settings = puppet_eval::environment::Settings::new(&given);
    let name = name.to_string_lossy().into_owned();
    match puppet_eval::environment::load(&settings, &name) {
        Ok(env) => {
            for w in &env.warnings {
                eprintln!("Warning: {w}");
            }
            let modulepath = env.modulepath.iter().map(|p| p.to_string_lossy().into_owned()).collect::<Vec<_>>();
            Ok(Some(poppet::shell::Environment {
                name,
                modulepath: modulepath.join(":"),
                hiera: puppet_eval::hiera::Layers {
                    global: Some(settings.hiera_config.clone()),
                    environment: Some(env.dir.clone()),
                },
                manifest: env.manifest.clone(),
            }))
        }
        Err(e) => {
            eprintln!("Error: {e}");
            Err(ExitCode::from(1))
        }
    }
}

/// A session for the node of the command line, with its module path.
fn new_session(
    node_args: &NodeArgs,
    options: Options,
    node: &str,
    modulepath: Option<&str>,
) -> Result<Session, ExitCode> {
    let facts = node_facts(node_args)?;
    let mut session = Session::new(options, &facts, node);
    if let Some(path) = modulepath {
        session.evaluator.set_modulepath(path);
    }
    Ok(session)
}

/// `--erb TEMPLATE [--values HASH]`: the template rendered with the variables, on stdout.
fn render_erb(args: &Args, template: String) -> ExitCode {
    let node_args = NodeArgs::of(args);
    let options = options(args);
    let node = args.node.clone();
    let modulepath = args.modulepath.clone();
    let values = args.values.clone();
    let min_level = args.log_level.level();
    poppet::tools::on_deep_stack("the evaluation thread", move || {
        let mut session = match new_session(&node_args, options, &node, modulepath.as_deref()) {
            Ok(s) => s,
            Err(code) => return code,
        };
        session.evaluator.set_sink(Box::new(move |log: &Log| print_log(log, min_level, true)));
        if let Some(values) = &values {
            let outcome = session.run(values);
            if let Some(e) = &outcome.error {
                eprintln!("Error: --values: {}", e.message);
                return ExitCode::from(1);
            }
            let Some(Value::Hash(vars)) = &outcome.value else {
                eprintln!("Error: --values must be a Hash of variables (`{{ 'name' => value }}`)");
                return ExitCode::from(1);
            };
            for (name, value) in vars.iter() {
                let Value::String(name) = name else {
                    eprintln!("Error: --values: a variable name must be a String");
                    return ExitCode::from(1);
                };
                session.evaluator.top.replace(name, value.clone());
            }
        }
        match puppet_eval::functions::erb::render_template(&mut session.evaluator, &template) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(flow) => {
                let message = match flow {
                    puppet_eval::error::Flow::Error(e) => e.message,
                    _ => "the template stopped early".to_string(),
                };
                eprintln!("Error: {message}");
                ExitCode::from(1)
            }
        }
    })
}

/// The node's facts: read from `--facts FILE`, else the built-in platform's, then each
/// `--fact NAME=VALUE`; an unreadable file or a malformed `--fact` is reported and exits 1.
fn node_facts(args: &NodeArgs) -> Result<puppet_types::value::Hash, ExitCode> {
    let fail = |message: String| {
        eprintln!("Error: {message}");
        ExitCode::from(1)
    };
    let mut facts = match &args.file {
        Some(path) => puppet_eval::facts::read(path).map_err(fail)?,
        None => puppet_eval::facts::platform(&args.platform, &args.node)
            .ok_or_else(|| fail(format!("unknown platform '{}'", args.platform)))?,
    };
    for set in &args.set {
        let Some((name, value)) = set.split_once('=') else {
            return Err(fail(format!("--fact {set}: expected NAME=VALUE")));
        };
        puppet_eval::facts::set(&mut facts, name, value).map_err(|m| fail(format!("--fact {set}: {m}")))?;
    }
    Ok(facts)
}

/// What makes the node's facts, from the command line (moved to the evaluation thread).
struct NodeArgs {
    file: Option<PathBuf>,
    platform: String,
    set: Vec<String>,
    node: String,
}

impl NodeArgs {
    fn of(args: &Args) -> NodeArgs {
        NodeArgs {
            file: args.facts.clone(),
            platform: args.platform.clone(),
            set: args.facts_set.clone(),
            node: args.node.clone(),
        }
    }
}

/// The names `--platform` takes.
/// `poppet parser ACTION`: Puppet's `puppet parser` face.
#[derive(Parser)]
#[command(
    name = "poppet parser",
    bin_name = "poppet parser",
    about = "Interact directly with the parser, as Puppet's `puppet parser` does"
)]
struct ParserArgs {
    #[command(subcommand)]
    action: ParserAction,
}

#[derive(clap::Subcommand)]
enum ParserAction {
    /// Validate the syntax of one or more Puppet manifests: each file, or each directory's
    /// `.pp` files in order up to the first that fails, or standard input when no file is
    /// given; Puppet's messages, exit status 1 on any error.
    Validate {
        /// Colour the messages as Puppet's `color` setting does (`ansi`, `true`, `yes`; or
        /// `false`).
        #[arg(long, value_name = "WHEN", default_value = "ansi")]
        color: String,
        /// How to render the result, as Puppet's `--render-as` does: `console` (the errors
        /// logged), `json` (for each manifest that failed, its error's `issue_code`,
        /// `message`, `full_message`, `file`, `line` and `pos`, on standard output; nothing
        /// when all are valid), `pson` or `rich_data_json` (each manifest's message as a
        /// JSON object on one line), `flat` (`MANIFEST=MESSAGE` lines) or `s` (Ruby's
        /// inspect of the errors). Only `console` and `json` exit 1 on an error, as in
        /// Puppet. Puppet's `yaml`, `msgpack`, `rich_data_msgpack`, `dot` and `binary` are
        /// refused (Puppet's dump its Ruby objects, or fail).
        #[arg(long = "render-as", value_name = "FORMAT", default_value = "console")]
        render_as: String,
        /// Puppet's `strict` setting: what a key given twice in a hash is (`off`: nothing,
        /// `warning`, the default: a warning, `error`: an error).
        #[arg(long, value_name = "off|warning|error", default_value = "warning")]
        strict: String,
        /// Puppet's `tasks` setting (Bolt's mode): what only a catalog has (resources,
        /// classes, defined types, nodes, relationships, collectors) is an error (`... is
        /// only available when compiling a catalog`). `plan` definitions and `apply` blocks
        /// are not read yet (an error says so).
        #[arg(long)]
        tasks: bool,
        /// The manifests (files or directories).
        paths: Vec<PathBuf>,
    },
    /// Print the parse tree of manifests, of `-e CODE`, or of standard input, as Puppet's
    /// `puppet parser dump` does (its deprecated old format, PN, or PN as JSON); the exit
    /// status is 0, as Puppet's.
    Dump {
        /// The source text to dump.
        #[arg(short = 'e', long = "e", value_name = "SOURCE")]
        code: Option<String>,
        /// `old` (Puppet's default, deprecated format), `pn` (Puppet's Extended S-Expression
        /// Notation) or `json` (the same graph as PN, in JSON).
        #[arg(long, value_name = "FORMAT", default_value = "old")]
        format: String,
        /// Indent the output (PN and JSON only).
        #[arg(long)]
        pretty: bool,
        /// Validate what was parsed (only syntax errors are reported otherwise).
        #[arg(long)]
        validate: bool,
        /// Colour the messages as Puppet's `color` setting does.
        #[arg(long, value_name = "WHEN", default_value = "ansi")]
        color: String,
        /// The manifests.
        files: Vec<PathBuf>,
    },
}

fn parser_command() -> ExitCode {
    let args = ParserArgs::parse_from(std::env::args_os().skip(1));
    match args.action {
        ParserAction::Validate { color, render_as, strict, tasks, paths } => {
            let console = poppet::tools::Console { color: poppet::tools::color_setting(&color) };
            let strict = match strict.as_str() {
                "off" => puppet_syntax::Strict::Off,
                "warning" => puppet_syntax::Strict::Warning,
                "error" => puppet_syntax::Strict::Error,
                other => {
                    // Puppet's settings refuse it before anything runs (coloured as `--color`
                    // says when that comes first on Puppet's command line)
                    let message = poppet::tools::invalid_strict(other);
                    console.line(&mut std::io::stderr().lock(), poppet::tools::Level::Err, &message);
                    return ExitCode::from(1);
                }
            };
            let render = match poppet::tools::parser::Render::named(&render_as) {
                Ok(render) => render,
                Err(message) => {
                    console.line(&mut std::io::stderr().lock(), poppet::tools::Level::Err, &message);
                    return ExitCode::from(1);
                }
            };
            let options =
                poppet::tools::parser::ValidateOptions { render, settings: puppet_syntax::Settings { strict, tasks } };
            poppet::tools::on_deep_stack("validation", move || {
                ExitCode::from(poppet::tools::parser::validate(&console, &paths, options))
            })
        }
        ParserAction::Dump { code, format, pretty, validate, color, files } => {
            let console = poppet::tools::Console { color: poppet::tools::color_setting(&color) };
            let format = match format.as_str() {
                "old" => poppet::tools::parser::DumpFormat::Old,
                "pn" => poppet::tools::parser::DumpFormat::Pn,
                "json" => poppet::tools::parser::DumpFormat::Json,
                other => {
                    eprintln!("Error: poppet parser dump writes --format old, pn or json, not '{other}'");
                    return ExitCode::from(2);
                }
            };
            poppet::tools::on_deep_stack("the dump", move || {
                let code = code.as_deref();
                ExitCode::from(poppet::tools::parser::dump(&console, format, pretty, validate, code, &files))
            })
        }
    }
}

fn platform_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(puppet_eval::facts::PLATFORMS.iter().map(|(name, _)| *name))
}

/// The evaluator's options from the command line.
fn options(args: &Args) -> Options {
    Options {
        strict: match args.strict {
            StrictArg::Off => Strict::Off,
            StrictArg::Warning => Strict::Warning,
            StrictArg::Error => Strict::Error,
        },
        strict_variables: args.strict_variables,
        allow_generate: args.allow_generate,
        validate_resources: args.validate_resources,
        ..Options::default()
    }
}

fn use_colour(choice: ColorArg, terminal: bool) -> bool {
    match choice {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var("TERM").map_or(true, |t| t != "dumb")
        }
    }
}

/// Why there is no program to run.
enum SourceError {
    /// The file or standard input could not be read.
    Unreadable(String),
    /// A byte order mark, or bytes that are not UTF-8: Puppet's message.
    Encoding(String),
}

fn read_source(args: &Args) -> Result<Option<Source>, SourceError> {
    if let Some(code) = &args.code {
        return Ok(Some(Source { text: code.clone(), file: None }));
    }
    match &args.file {
        Some(path) if path.as_os_str() != "-" => {
            let bytes = std::fs::read(path)
                .map_err(|e| SourceError::Unreadable(format!("Could not read {}: {e}", path.display())))?;
            let text = decode(&bytes)?;
            Ok(Some(Source { text, file: Some(path.display().to_string()) }))
        }
        _ if args.file.is_none() && std::io::stdin().is_terminal() => Ok(None),
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| SourceError::Unreadable(format!("Could not read standard input: {e}")))?;
            Ok(Some(Source { text: decode(&bytes)?, file: None }))
        }
    }
}

/// Source bytes as text: Puppet's errors for a byte order mark and for bytes that are not
/// UTF-8.
fn decode(bytes: &[u8]) -> Result<String, SourceError> {
    puppet_syntax::lexer::check_encoding(bytes).map(str::to_string).map_err(|d| SourceError::Encoding(d.message))
}

/// One log line (`Notice: hi`) on stdout, or on stderr when stdout carries the catalog.
fn print_log(log: &Log, min_level: Level, to_stderr: bool) {
    if log.level < min_level {
        return;
    }
    let line = format!("{}: {}", log.level.label(), log.message);
    if to_stderr {
        eprintln!("{line}");
    } else {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

fn report(outcome: &Outcome, source: &Source, output: Output, colour: bool) -> ExitCode {
    match output {
        Output::Json => {
            let record = json_record(outcome);
            println!("{record}");
        }
        Output::Text => {
            if let Some(error) = &outcome.error {
                print_error(error, source, colour);
            }
        }
    }
    if outcome.error.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_error(error: &Failure, source: &Source, colour: bool) {
    let location = match (&source.file, error.line, error.column) {
        // A position in a module's manifest names that manifest; a bare error's location
        // is as its text has it (its resources' locations name no file either).
        _ if error.file.is_some() || error.kind == FailureKind::Bare => error.location(),
        (_, 0, _) => String::new(),
        (Some(f), l, 0) => format!(" (file: {f}, line: {l})"),
        (Some(f), l, c) => format!(" (file: {f}, line: {l}, column: {c})"),
        (None, _, _) => error.location(),
    };
    let mut err = std::io::stderr().lock();
    let (red, reset) = if colour { ("\x1b[31m", "\x1b[0m") } else { ("", "") };
    let _ = writeln!(err, "{red}Error:{reset} {}{location}", error.message);
    if std::io::stderr().is_terminal() {
        if let Some(excerpt) = poppet::excerpt::of_failure(error, &source.text, poppet::excerpt::read_manifest, colour)
        {
            let _ = writeln!(err, "{excerpt}");
        }
    }
}

fn json_record(outcome: &Outcome) -> serde_json::Value {
    let messages =
        |level| serde_json::Value::from(outcome.messages(level).iter().map(|m| m.to_string()).collect::<Vec<_>>());
    let error = match &outcome.error {
        None => serde_json::Value::Null,
        Some(e) => serde_json::json!({
            "message": e.message,
            "line": if e.line == 0 { serde_json::Value::Null } else { e.line.into() },
            "column": if e.column == 0 { serde_json::Value::Null } else { e.column.into() },
        }),
    };
    serde_json::json!({
        "value": outcome.value.as_ref().map_or(serde_json::Value::Null, to_json),
        "notices": messages(Level::Notice),
        "warnings": messages(Level::Warning),
        "error": error,
    })
}

/// A value as JSON: data as itself, anything else in its string form (hash keys too, but
/// strings as they are).
fn to_json(v: &Value) -> serde_json::Value {
    let key = |k: &Value| match k {
        Value::String(s) => s.to_string(),
        other => puppet_types::display::value_to_string(other),
    };
    puppet_eval::json::value_to_json(v, &key, &puppet_types::display::value_to_string)
}

/// The interactive shell, on a thread with a deep stack as evaluation needs.
fn interactive(args: &Args) -> ExitCode {
    let node_args = NodeArgs::of(args);
    let node = args.node.clone();
    let options = options(args);
    let colour = use_colour(args.color, std::io::stdout().is_terminal());
    let quiet = args.quiet;
    let init = if args.no_init { None } else { poppet::shell::default_init_path() };
    let log_level = args.log_level.level();
    let environment = match environment(args) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let modulepath = args.modulepath.clone().or_else(|| environment.as_ref().map(|e| e.modulepath.clone()));
    poppet::tools::on_deep_stack("the shell's thread", move || {
        let facts = match node_facts(&node_args) {
            Ok(f) => f,
            Err(code) => return code,
        };
        let history = poppet::shell::default_history_path();
        poppet::shell::run(poppet::shell::Config {
            options,
            facts,
            node,
            colour,
            quiet,
            init,
            history,
            log_level,
            modulepath,
            environment,
        })
    })
}
