//! `poppet lookup KEY...`: Puppet 7.23's `puppet lookup` application
//! (`application/lookup.rb`): the keys' value in Hiera's three layers for a node, printed as
//! `--render-as` says (YAML by default), or the explanation of the search (`--explain`).
//!
//! The settings that matter are Puppet's (`--environmentpath`, `--environment`,
//! `--hiera_config`, `--modulepath`, `--basemodulepath`, `--codedir`, `--confdir`; the
//! environment is read by `puppet_eval::environment`). The node is `--node`'s with exactly
//! the facts of `--facts` (Puppet finds no cached facts for it here, so without `--facts`
//! it has none: Puppet's error), its `$trusted` local and without a certificate name; without
//! `--node` it is this host with Puppet's facts (here the built-in Debian 12 set, where
//! Puppet asks Facter) and `--facts` added. Without `--compile` the main manifest is not
//! evaluated (Puppet compiles `undef`).
//!
//! Puppet's outcomes: a value found is printed and exits 0; none found exits 1 and prints
//! nothing (a `LookupError`, which covers broken data and `hiera.yaml`, is silent); with
//! `--explain` the explanation is printed, the error's message after it, and the exit is 0.
//! Other errors are `Error: Could not run: MESSAGE`. An environment that cannot be found or
//! read ends Puppet with Ruby's report of the exception (message, class and backtrace), as
//! here.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use puppet_eval::environment::{self, Settings};
use puppet_eval::hiera::HieraError;
use puppet_eval::{Options, Session};
use puppet_types::value::Hash;
use puppet_types::Value;

use super::{node, Console, Level};

#[derive(Parser)]
#[command(
    name = "poppet lookup",
    bin_name = "poppet lookup",
    about = "Interactive Hiera lookup (Puppet 7.23's `puppet lookup`)"
)]
struct Args {
    /// The keys to look up: the first that has a value gives it.
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
    /// Explain the search instead of printing the value.
    #[arg(long)]
    explain: bool,
    /// Explain how `lookup_options` are found.
    #[arg(long = "explain-options")]
    explain_options: bool,
    /// The merge strategy: first, unique, hash or deep.
    #[arg(long, value_name = "TYPE")]
    merge: Option<String>,
    /// A deep merge's knockout prefix.
    #[arg(long = "knock-out-prefix", value_name = "PREFIX_STRING", allow_hyphen_values = true)]
    knock_out_prefix: Option<String>,
    /// A deep merge sorts the arrays it merges.
    #[arg(long = "sort-merged-arrays")]
    sort_merged_arrays: bool,
    /// A deep merge merges hashes in arrays.
    #[arg(long = "merge-hash-arrays")]
    merge_hash_arrays: bool,
    /// The node the lookup is for.
    #[arg(long, value_name = "NODE_NAME")]
    node: Option<String>,
    /// A JSON or YAML file of facts for the node.
    #[arg(long, value_name = "FACT_FILE")]
    facts: Option<String>,
    /// The type the value must have.
    #[arg(long = "type", value_name = "TYPE_STRING")]
    value_type: Option<String>,
    /// The value when none is found (a string).
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    default: Option<String>,
    /// How the value is printed: s, json, yaml, pson, console, flat (binary, msgpack and dot
    /// render nothing Hiera finds).
    #[arg(long = "render-as", value_name = "FORMAT")]
    render_as: Option<String>,
    /// Compile the environment's main manifest first.
    #[arg(long, short = 'c')]
    compile: bool,
    /// Accepted as Puppet accepts them.
    #[arg(long, short = 'd')]
    debug: bool,
    #[arg(long, short = 'v')]
    verbose: bool,
    #[arg(long)]
    trusted: bool,
    #[command(flatten)]
    settings: node::SettingsArgs,
    /// Puppet's `color` setting.
    #[arg(long, value_name = "WHEN", default_value = "ansi")]
    color: String,
}

const RUN_HELP: &str = "Run 'puppet lookup --help' for more details";

/// `poppet lookup ARGS` (`args` starts with `lookup`); returns the exit code.
pub fn command(args: impl Iterator<Item = OsString>) -> ExitCode {
    let args = match Args::try_parse_from(args) {
        Ok(a) => a,
        Err(e) if e.kind() == clap::error::ErrorKind::UnknownArgument => {
            let arg = e.get(clap::error::ContextKind::InvalidArg).map(|a| a.to_string()).unwrap_or_default();
            let arg = arg.split('=').next().unwrap_or_default().to_string();
            Console { color: true }.line(
                &mut std::io::stderr().lock(),
                Level::Err,
                &format!("Could not parse application options: invalid option: {arg}"),
            );
            return ExitCode::from(1);
        }
        Err(e) => e.exit(),
    };
    super::on_deep_stack("the lookup", move || run(args))
}

/// What a run ends with: an exit code, or Puppet's `Could not run` error.
enum Stop {
    Code(u8),
    Error(String),
}

fn run(args: Args) -> ExitCode {
    let console = Console { color: super::color_setting(&args.color) };
    match lookup(&args, &console) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Stop::Code(c)) => ExitCode::from(c),
        Err(Stop::Error(message)) => {
            console.line(&mut std::io::stderr().lock(), Level::Err, &format!("Could not run: {message}"));
            ExitCode::from(1)
        }
    }
}

fn lookup(args: &Args, console: &Console) -> Result<(), Stop> {
    let settings = Settings::new(&args.settings.given());
    let env_name = args.settings.environment_name();
    let env = environment::load(&settings, &env_name).map_err(|e| {
        eprint!("{}", node::crash_report(&e));
        Stop::Code(1)
    })?;
    let stderr = || std::io::stderr().lock();
    for w in &env.warnings {
        console.line(&mut stderr(), Level::Warning, w);
    }

    // `main`: the options' checks, in Puppet's order.
    if (args.sort_merged_arrays || args.merge_hash_arrays || args.knock_out_prefix.is_some())
        && args.merge.as_deref() != Some("deep")
    {
        return Err(Stop::Error(format!(
            "The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only available with '--merge deep'\n{RUN_HELP}"
        )));
    }
    let s = |v: &str| Value::from(v);
    let merge = match args.merge.as_deref() {
        None => Value::Undef,
        Some(m) if !["first", "unique", "hash", "deep"].contains(&m) => {
            return Err(Stop::Error(format!(
                "The --merge option only accepts 'first', 'hash', 'unique', or 'deep'\n{RUN_HELP}"
            )))
        }
        Some("deep") => {
            let mut o = Hash::default();
            o.insert(s("strategy"), s("deep"));
            o.insert(s("sort_merged_arrays"), Value::Boolean(args.sort_merged_arrays));
            o.insert(s("merge_hash_arrays"), Value::Boolean(args.merge_hash_arrays));
            if let Some(p) = &args.knock_out_prefix {
                o.insert(s("knockout_prefix"), s(p));
            }
            Value::hash(o)
        }
        Some(m) => {
            let mut o = Hash::default();
            o.insert(s("strategy"), s(m));
            Value::hash(o)
        }
    };
    let only_explain_options = args.explain_options && !args.explain;
    let mut keys = args.keys.clone();
    if keys.is_empty() {
        if only_explain_options {
            keys.push("__global__".into());
        } else {
            return Err(Stop::Error("No keys were given to lookup.".into()));
        }
    }
    let explain = args.explain || args.explain_options;
    let format = args.render_as.as_deref().map(str::to_lowercase).unwrap_or_else(|| {
        if explain {
            "s".into()
        } else {
            "yaml".into()
        }
    });
    const FORMATS: [&str; 11] = [
        "s",
        "json",
        "yaml",
        "pson",
        "binary",
        "msgpack",
        "dot",
        "console",
        "flat",
        "rich_data_json",
        "rich_data_msgpack",
    ];
    if !FORMATS.contains(&format.as_str()) {
        return Err(Stop::Error(format!("Unknown rendering format '{format}'")));
    }

    // `generate_scope`: the node, its facts, the compiler.
    let given_facts = match &args.facts {
        Some(f) => Some(node::read_facts(f).map_err(Stop::Error)?),
        None => None,
    };
    let (node, mut facts) = match &args.node {
        Some(n) => (n.clone(), Hash::default()),
        None => {
            let host = node::host_name();
            (host.clone(), puppet_eval::facts::builtin(&host))
        }
    };
    if let Some(g) = &given_facts {
        for (k, v) in g.iter() {
            facts.insert(k.clone(), v.clone());
        }
    }
    if facts.is_empty() {
        return Err(Stop::Error(format!("No facts available for target node: {node}")));
    }
    let mut session = Session::new(Options::default(), &facts, &node);
    let mut server = Hash::default();
    server.insert(Value::from("environment"), Value::from(env_name.as_str()));
    node::install_node(&session, &facts, &env_name, server);
    let modulepath = env.modulepath.iter().map(|p| p.to_string_lossy().into_owned()).collect::<Vec<_>>().join(":");
    session.evaluator.set_modulepath(&modulepath);
    if args.compile {
        let files = node::read_manifest(&env.manifest, &env_name).map_err(Stop::Error)?;
        let outcome = session.run_manifests(&node::programs(&files));
        for log in &outcome.logs {
            print_log(console, log, None);
        }
        if let Some(f) = &outcome.error {
            console.line(&mut stderr(), Level::Err, &f.puppet_text());
            return Err(Stop::Code(1));
        }
    }
    let ev = &mut session.evaluator;
    ev.set_hiera_layers(puppet_eval::hiera::Layers {
        global: Some(settings.hiera_config.clone()),
        environment: Some(env.dir.clone()),
    });
    if explain {
        ev.explain_lookups(only_explain_options);
    }
    let result = search(&mut session, args, &keys, &merge);
    for log in session.take_logs() {
        let file = session.evaluator.hiera_warning_file(&log.message).cloned();
        print_log(console, &log, file);
    }
    let ev = &mut session.evaluator;
    match result {
        Ok(value) if !explain => {
            let text = render(&format, &value).map_err(Stop::Error)?;
            print_puts(&text);
            Ok(())
        }
        Ok(_) => {
            print_explanation(ev, &format)?;
            Ok(())
        }
        Err(HieraError::Lookup(message)) => {
            if !explain {
                return Err(Stop::Code(1));
            }
            if let Some(e) = ev.lookup_explainer() {
                e.text(message);
            }
            print_explanation(ev, &format)?;
            Ok(())
        }
        Err(HieraError::Puppet(m) | HieraError::Other(m)) => Err(Stop::Error(m)),
    }
}

fn print_explanation(ev: &mut puppet_eval::Evaluator, format: &str) -> Result<(), Stop> {
    let Some(e) = ev.lookup_explainer() else { return Ok(()) };
    let text = if format == "s" { e.explain() } else { render(format, &e.to_value()).map_err(Stop::Error)? };
    print_puts(&text);
    Ok(())
}

/// Ruby's `puts`: the text and a line break unless it ends with one.
fn print_puts(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = out.write_all(b"\n");
    }
}

/// `Puppet::Pops::Lookup.lookup(keys, type, default, has_default, merge, invocation)`.
fn search(session: &mut Session, args: &Args, keys: &[String], merge: &Value) -> Result<Value, HieraError> {
    let ev = &mut session.evaluator;
    let value_type = match &args.value_type {
        Some(t) => Some(ev.parse_type(t).map_err(HieraError::Other)?),
        None => None,
    };
    let check = |subject: &str, v: &Value| -> Result<(), HieraError> {
        match &value_type {
            Some(t) if !puppet_types::instance::is_instance(t, v) => Err(HieraError::Other(
                puppet_types::mismatch::describe_value(&format!("{subject} has wrong type,"), t, v),
            )),
            _ => Ok(()),
        }
    };
    for key in keys {
        if let Some(v) = ev.hiera_search(key, merge)? {
            check("Found value", &v)?;
            return Ok(v);
        }
    }
    if let Some(d) = &args.default {
        let v = Value::from(d.as_str());
        check("Default value", &v)?;
        return Ok(v);
    }
    Err(HieraError::Lookup(match keys {
        [one] => format!("Function lookup() did not find a value for the name '{one}'"),
        many => format!(
            "Function lookup() did not find a value for any of the names [{}]",
            many.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
        ),
    }))
}

/// A log line as Puppet's console prints it (a warning without a place says so).
fn print_log(console: &Console, log: &puppet_eval::Log, file: Option<PathBuf>) {
    let level = match log.level {
        puppet_eval::Level::Warning => Level::Warning,
        puppet_eval::Level::Notice => Level::Notice,
        puppet_eval::Level::Err => Level::Err,
        _ => return,
    };
    let message = if let Some(f) = file {
        format!("{}\n   (file: {})", log.message, f.display())
    } else if log.message.contains("(file") || log.level == puppet_eval::Level::Notice {
        log.message.clone()
    } else {
        format!("{}\n   (file & line not available)", log.message)
    };
    if level == Level::Notice {
        console.notice(&message);
    } else {
        console.line(&mut std::io::stderr().lock(), level, &message);
    }
}

/// `renderer.render(value)` for the format.
fn render(format: &str, value: &Value) -> Result<String, String> {
    use puppet_eval::ruby;
    let not_rendered = |method: &str, mime: &str| {
        Err(format!("{} does not respond to {method}; can not render instances to {mime}", ruby::class_name(value)))
    };
    match format {
        "yaml" => ruby::to_yaml(value),
        "json" | "pson" => Ok(ruby::to_json(value)),
        "s" => Ok(ruby::to_s(value)),
        "binary" => not_rendered("to_binary", "application/octet-stream"),
        "msgpack" => not_rendered("to_msgpack", "application/x-msgpack"),
        "dot" => not_rendered("to_dot", "text/dot"),
        "console" => Ok(console_text(value)),
        "flat" => Ok(flat_text(value)),
        _ => Ok(ruby::to_json(value)),
    }
}

/// The `console` format: strings and numbers as they are, a hash as a table of its keys
/// (sorted) and JSON values, an array one item a line.
fn console_text(value: &Value) -> String {
    use puppet_eval::ruby;
    match value {
        Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::BigInt(_) => ruby::to_s(value),
        Value::Hash(h) => {
            let width = h.keys().map(|k| ruby::to_s(k).chars().count()).max().unwrap_or(0) + 2;
            let mut entries: Vec<(String, &Value)> = h.iter().map(|(k, v)| (ruby::to_s(k), v)).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut out = String::new();
            for (k, v) in entries {
                out.push_str(&format!("{k:<width$}"));
                out.push_str(&ruby::to_json(v));
                out.push('\n');
            }
            out
        }
        Value::Array(items) => items.iter().map(|i| format!("{}\n", ruby::to_s(i))).collect(),
        other => ruby::to_json(other),
    }
}

/// The `flat` format: `key.sub=value` lines.
fn flat_text(value: &Value) -> String {
    use puppet_eval::ruby;
    fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, Value)>) {
        let join = |k: &str| if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") };
        match value {
            Value::Hash(h) => {
                for (k, v) in h.iter() {
                    match v {
                        Value::Hash(_) => flatten(&join(&ruby::to_s(k)), v, out),
                        Value::Array(items) => {
                            for (i, el) in items.iter().enumerate() {
                                let key = format!("{}.{i}", join(&ruby::to_s(k)));
                                match el {
                                    Value::Hash(_) => flatten(&key, el, out),
                                    other => out.push((key, other.clone())),
                                }
                            }
                        }
                        other => out.push((join(&ruby::to_s(k)), other.clone())),
                    }
                }
            }
            other => out.push((prefix.to_string(), other.clone())),
        }
    }
    match value {
        Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::BigInt(_) => ruby::to_s(value),
        Value::Hash(_) => {
            let mut out = Vec::new();
            flatten("", value, &mut out);
            out.iter().map(|(k, v)| format!("{k}={}\n", ruby::to_s(v))).collect()
        }
        Value::Array(items) => {
            let mut out = Vec::new();
            for (i, el) in items.iter().enumerate() {
                match el {
                    Value::Hash(_) => flatten(&i.to_string(), el, &mut out),
                    other => out.push((i.to_string(), other.clone())),
                }
            }
            out.iter().map(|(k, v)| format!("{k}={}\n", ruby::to_s(v))).collect()
        }
        other => ruby::to_json(other),
    }
}
