//! `poppet catalog compile [NODE]` (and its short form `poppet compile --node NODE`): Puppet
//! 7.23's `puppet catalog compile` (`face/catalog.rb`, the `compiler` terminus of
//! `indirector/catalog/compiler.rb`), the catalog a node gets from its environment: the
//! environment's main manifest (`manifest` of `environment.conf`, else `manifests/`: a file,
//! or a directory's `.pp` files in path order) with its `node` definitions, the modules of the
//! environment's module path, Hiera's three layers, printed as Puppet's JSON catalog.
//!
//! The settings are Puppet's (`--environment`, `--environmentpath`, `--modulepath`,
//! `--basemodulepath`, `--hiera_config`, `--codedir`, `--confdir`, `--vardir`,
//! `--facts_terminus`). The node's facts are what Puppet's facts terminus gives: `yaml` reads
//! the facts a Puppet server cached for it (`$vardir/yaml/facts/NODE.yaml`, none when there is
//! no such file); `facter`, the default, this host's facts (here the built-in Debian 12 set,
//! where Puppet runs Facter). `--facts FILE` (poppet's, as `puppet lookup`'s) gives them from
//! a JSON or YAML file instead. `$trusted` is local, its certificate name the `clientcert`
//! fact; `$server_facts` this host's.
//!
//! Output as Puppet's: `Notice: Compiled catalog for NODE in environment ENV in S seconds` on
//! standard output, then the catalog (pretty JSON; one line with `--render-as json` or
//! `pson`; `yaml` as Psych dumps the catalog object), its `version` the time (Puppet's
//! default `config_version`), its `catalog_uuid` random. An error is logged twice, then again
//! as `Could not call 'find' on 'catalog': ...` twice, then the usage hint; exit 1.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use puppet_eval::environment::{self, Settings};
use puppet_eval::{Options, Session};
use puppet_types::value::Hash;
use puppet_types::Value;

use super::{node, Console, Level};

#[derive(Parser)]
#[command(
    name = "poppet catalog",
    bin_name = "poppet catalog",
    about = "Compile catalogs (Puppet 7.23's `puppet catalog`)"
)]
struct CatalogCli {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Compile the catalog of a node from its environment, as `puppet catalog compile`.
    Compile(CompileArgs),
}

#[derive(clap::Args)]
#[command(after_help = "The node's facts: with --facts_terminus yaml, those cached in $vardir/yaml/facts/NODE.yaml; \
with --facts FILE, those of the file; else this host's (the built-in Debian 12 node's).")]
pub struct CompileArgs {
    /// The node to compile for (default: this host's certificate name).
    #[arg(value_name = "NODE")]
    certname: Option<String>,
    /// The node to compile for (as the argument).
    #[arg(long, value_name = "NAME", conflicts_with = "certname")]
    node: Option<String>,
    /// The node's facts, from a JSON or YAML file (`facter --json`, `puppet facts`).
    #[arg(long, value_name = "FILE")]
    facts: Option<String>,
    /// How the catalog is printed: json or pson (one line), yaml, console (pretty JSON, the
    /// default).
    #[arg(long = "render-as", value_name = "FORMAT")]
    render_as: Option<String>,
    #[command(flatten)]
    settings: node::SettingsArgs,
    /// Puppet's `vardir` setting: where the `yaml` facts terminus finds cached facts.
    #[arg(long, value_name = "DIR", default_value = "/var/cache/puppet")]
    vardir: PathBuf,
    /// Puppet's `facts_terminus` setting: facter (this host's facts) or yaml (cached facts).
    #[arg(long = "facts_terminus", alias = "facts-terminus", value_name = "TERMINUS", default_value = "facter")]
    facts_terminus: String,
    /// Puppet's `strict_variables` setting: an unknown variable is an error.
    #[arg(long = "strict_variables", alias = "strict-variables")]
    strict_variables: bool,
    /// Puppet's `strict` setting: off, warning or error.
    #[arg(long, value_name = "LEVEL", default_value = "warning")]
    strict: String,
    /// Puppet's `color` setting.
    #[arg(long, value_name = "WHEN", default_value = "ansi")]
    color: String,
    /// Accepted as Puppet accepts them.
    #[arg(long, short = 'd')]
    debug: bool,
    #[arg(long, short = 'v')]
    verbose: bool,
}

const USAGE: &str = "Try 'puppet help catalog compile' for usage";

/// `poppet catalog ARGS` (`args` starts with `catalog`); returns the exit code.
pub fn command(args: impl Iterator<Item = OsString>) -> ExitCode {
    match CatalogCli::try_parse_from(args) {
        Ok(CatalogCli { action: Action::Compile(args) }) => compile_command(args),
        Err(e) => e.exit(),
    }
}

/// `poppet compile ARGS` (`args` starts with `compile`): `poppet catalog compile`.
pub fn compile_shortcut(args: impl Iterator<Item = OsString>) -> ExitCode {
    #[derive(Parser)]
    #[command(
        name = "poppet compile",
        bin_name = "poppet compile",
        about = "Compile the catalog of a node (`poppet catalog compile`)"
    )]
    struct Shortcut {
        #[command(flatten)]
        args: CompileArgs,
    }
    match Shortcut::try_parse_from(args) {
        Ok(s) => compile_command(s.args),
        Err(e) => e.exit(),
    }
}

fn compile_command(args: CompileArgs) -> ExitCode {
    super::on_deep_stack("the compilation", move || {
        let console = Console { color: super::color_setting(&args.color) };
        match compile(&args, &console) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => ExitCode::from(code),
        }
    })
}

/// The formats Puppet's network format handler knows (`--render-as` is checked against them
/// with the options, before anything runs).
const FORMATS: [&str; 11] =
    ["s", "json", "yaml", "pson", "binary", "msgpack", "dot", "console", "flat", "rich_data_json", "rich_data_msgpack"];

fn compile(args: &CompileArgs, console: &Console) -> Result<(), u8> {
    let started = Instant::now();
    let err = |message: &str| console.line(&mut std::io::stderr().lock(), Level::Err, message);
    let strict = match args.strict.as_str() {
        "off" => puppet_eval::Strict::Off,
        "warning" => puppet_eval::Strict::Warning,
        "error" => puppet_eval::Strict::Error,
        other => {
            err(&super::invalid_strict(other));
            return Err(1);
        }
    };
    if let Some(format) = args.render_as.as_deref().filter(|f| !FORMATS.contains(&f.to_lowercase().as_str())) {
        err(&format!("Could not parse application options: I don't know how to render '{format}'"));
        return Err(1);
    }
    let settings = Settings::new(&args.settings.given());
    let env_name = args.settings.environment_name();
    let env = environment::load(&settings, &env_name).map_err(|e| {
        eprint!("{}", node::crash_report(&e));
        1
    })?;
    for w in &env.warnings {
        console.line(&mut std::io::stderr().lock(), Level::Warning, w);
    }
    let host = node::host_name();
    let name = args.certname.clone().or_else(|| args.node.clone()).unwrap_or_else(|| host.clone()).to_lowercase();
    // A failure of the compiler terminus: logged, then reported by the face.
    let failed = |message: &str| {
        let full = format!("{message} on node {name}");
        err(&full);
        err(&full);
        let find = format!("Could not call 'find' on 'catalog': {full}");
        err(&find);
        err(&find);
        err(USAGE);
        1
    };

    let facts = match &args.facts {
        Some(file) => node::read_facts(file).map_err(|m| failed(&m))?,
        None if args.facts_terminus == "yaml" => cached_facts(&args.vardir, &name).map_err(|m| failed(&m))?,
        None => puppet_eval::facts::builtin(&host),
    };
    let options = Options { strict, strict_variables: args.strict_variables, ..Options::default() };
    let mut session = Session::new(options, &facts, &name);
    // The node's parameters are its facts and the server's (`Node#add_server_facts`).
    let server = server_facts(&host, &env_name);
    node::install_node(&session, &facts, &env_name, server.clone());
    for (key, value) in server.iter() {
        if let Value::String(key) = key {
            if !facts.contains_key(&Value::from(&**key)) {
                session.evaluator.top.replace(key, value.clone());
            }
        }
    }
    let modulepath = env.modulepath.iter().map(|p| p.to_string_lossy().into_owned()).collect::<Vec<_>>().join(":");
    session.evaluator.set_modulepath(&modulepath);
    session.evaluator.set_hiera_layers(puppet_eval::hiera::Layers {
        global: Some(settings.hiera_config.clone()),
        environment: Some(env.dir.clone()),
    });

    let files = node::read_manifest(&env.manifest, &env_name).map_err(|m| failed(&m))?;
    let outcome = session.run_manifests(&node::programs(&files));
    for log in &outcome.logs {
        print_log(console, log);
    }
    if let Some(failure) = &outcome.error {
        return Err(failed(&failure.text_in(&env_name)));
    }
    let seconds = started.elapsed().as_secs_f64();
    console.notice(&format!("Compiled catalog for {name} in environment {env_name} in {seconds:.2} seconds"));
    let catalog = without_exported(session.evaluator.compiler.catalog.to_json(&name, &env_name));
    let text = render(args.render_as.as_deref().unwrap_or("console"), with_identity(catalog)).map_err(|m| {
        err(&m);
        1
    })?;
    println!("{text}");
    Ok(())
}

/// The facts Puppet's `yaml` facts terminus finds for `node`: those a server cached in
/// `VARDIR/yaml/facts/NODE.yaml` (a `Puppet::Node::Facts` object: its `values`), none when
/// there is no such file.
fn cached_facts(vardir: &Path, node: &str) -> Result<Hash, String> {
    let file = vardir.join("yaml/facts").join(format!("{node}.yaml"));
    if !file.is_file() {
        return Ok(Hash::default());
    }
    puppet_eval::facts::read(&file)
}

/// `$server_facts`, as the compiler terminus makes them from this host's facts.
fn server_facts(host: &str, env_name: &str) -> Hash {
    let s = |v: &str| Value::from(v);
    let local = puppet_eval::facts::builtin(host);
    let networking = local.get(&s("networking"));
    let net = |key: &str| match networking {
        Some(Value::Hash(n)) => n.get(&s(key)).cloned(),
        _ => None,
    };
    let mut server = Hash::default();
    server.insert(s("serverversion"), s(puppet_eval::facts::PUPPET_VERSION));
    server.insert(s("servername"), net("fqdn").unwrap_or_else(|| s(host)));
    for (key, fact) in [("serverip", "ip"), ("serverip6", "ip6")] {
        if let Some(v) = net(fact) {
            server.insert(s(key), v);
        }
    }
    server.insert(s("environment"), s(env_name));
    server
}

/// The catalog an agent gets: the compiler terminus filters out what is virtual, exported
/// resources included (without storeconfigs their export goes nowhere), and their edges.
fn without_exported(mut catalog: serde_json::Value) -> serde_json::Value {
    let reference = |r: &serde_json::Value| {
        format!("{}[{}]", r["type"].as_str().unwrap_or_default(), r["title"].as_str().unwrap_or_default())
    };
    let mut gone = std::collections::HashSet::new();
    if let Some(resources) = catalog.get_mut("resources").and_then(serde_json::Value::as_array_mut) {
        resources.retain(|r| {
            let exported = r["exported"] == serde_json::Value::Bool(true);
            if exported {
                gone.insert(reference(r));
            }
            !exported
        });
    }
    if let Some(edges) = catalog.get_mut("edges").and_then(serde_json::Value::as_array_mut) {
        edges
            .retain(|e| ![&e["source"], &e["target"]].iter().any(|end| end.as_str().is_some_and(|t| gone.contains(t))));
    }
    catalog
}

/// The catalog with what each compile gives it anew, where Puppet's `to_data_hash` has it:
/// `version` (the time, Puppet's default `config_version`), `code_id` (none),
/// `catalog_uuid` (random), `catalog_format` (2).
fn with_identity(catalog: serde_json::Value) -> serde_json::Value {
    let serde_json::Value::Object(fields) = catalog else { return catalog };
    let version = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let mut out = serde_json::Map::new();
    for (key, value) in fields {
        out.insert(key.clone(), value);
        if key == "name" {
            out.insert("version".into(), version.into());
            out.insert("code_id".into(), serde_json::Value::Null);
            out.insert("catalog_uuid".into(), uuid().into());
            out.insert("catalog_format".into(), 2.into());
        }
    }
    serde_json::Value::Object(out)
}

/// A random (version 4) UUID, as Ruby's `SecureRandom.uuid`.
fn uuid() -> String {
    let mut b = [0u8; 16];
    // without the system's randomness the identifier is still well-formed
    let _ = getrandom::fill(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

/// The catalog as `--render-as` says.
fn render(format: &str, catalog: serde_json::Value) -> Result<String, String> {
    match format.to_lowercase().as_str() {
        "json" | "pson" => Ok(ruby_json(&catalog, None)),
        "console" => Ok(ruby_json(&catalog, Some(0))),
        "yaml" => yaml(&catalog),
        other => Err(format!("Could not call 'find' on 'catalog': Unknown rendering format '{other}'")),
    }
}

/// JSON as Ruby's generator writes it: `JSON.generate` (`indent` `None`), or
/// `JSON.pretty_generate` from the given depth, whose empty array is `[`, an empty line and
/// `]`, and whose empty object `{` and `}` on lines of their own.
fn ruby_json(value: &serde_json::Value, indent: Option<usize>) -> String {
    let mut out = String::new();
    write_json(value, indent, &mut out);
    out
}

fn write_json(value: &serde_json::Value, indent: Option<usize>, out: &mut String) {
    use serde_json::Value as J;
    let pad = |out: &mut String, depth: usize| out.extend(std::iter::repeat_n("  ", depth));
    match value {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => out.push_str(&i.to_string()),
            (None, Some(u), _) => out.push_str(&u.to_string()),
            (None, None, Some(f)) => out.push_str(&poppet_ruby::float::float_to_s(f)),
            _ => out.push_str(&n.to_string()),
        },
        J::String(text) => poppet_ruby::json::generate_string(text, out),
        J::Array(items) => {
            out.push('[');
            match indent {
                None => {
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        write_json(item, None, out);
                    }
                }
                Some(depth) => {
                    out.push('\n');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(",\n");
                        }
                        pad(out, depth + 1);
                        write_json(item, Some(depth + 1), out);
                    }
                    out.push('\n');
                    pad(out, depth);
                }
            }
            out.push(']');
        }
        J::Object(fields) => {
            out.push('{');
            match indent {
                None => {
                    for (i, (key, item)) in fields.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        poppet_ruby::json::generate_string(key, out);
                        out.push(':');
                        write_json(item, None, out);
                    }
                }
                Some(depth) => {
                    out.push('\n');
                    for (i, (key, item)) in fields.iter().enumerate() {
                        if i > 0 {
                            out.push_str(",\n");
                        }
                        pad(out, depth + 1);
                        poppet_ruby::json::generate_string(key, out);
                        out.push_str(": ");
                        write_json(item, Some(depth + 1), out);
                    }
                    if !fields.is_empty() {
                        out.push('\n');
                    }
                    pad(out, depth);
                }
            }
            out.push('}');
        }
    }
}

/// The catalog as Psych dumps the `Puppet::Resource::Catalog` object: its data under the
/// object's tag.
fn yaml(catalog: &serde_json::Value) -> Result<String, String> {
    let value = pfmt::data::json::documents(&catalog.to_string()).next().and_then(Result::ok);
    let text = value.map(|v| puppet_eval::ruby::to_yaml(&v)).unwrap_or_else(|| Ok(String::new()));
    text.map(|t| t.replacen("---", "--- !ruby/object:Puppet::Resource::Catalog", 1))
}

/// A log line of the compilation: errors and warnings on standard error, notices (with
/// their scope, `Scope(Class[main]): `) on standard output.
fn print_log(console: &Console, log: &puppet_eval::Log) {
    use puppet_eval::Level as L;
    let level = match log.level {
        L::Debug | L::Info => return,
        L::Notice => Level::Notice,
        L::Warning => Level::Warning,
        L::Err | L::Alert | L::Emerg | L::Crit => Level::Err,
    };
    let message = match (&log.source, &log.location) {
        (Some(source), _) if level == Level::Notice => format!("{source}: {}", log.message),
        (_, Some(location)) => format!("{}\n   (location: {location})", log.message),
        // Puppet's console says where a warning or error is from, or that it cannot
        _ if level != Level::Notice && !log.message.contains("(file") => {
            format!("{}\n   (file & line not available)", log.message)
        }
        _ => log.message.clone(),
    };
    if level == Level::Notice {
        console.notice(&message);
    } else {
        console.line(&mut std::io::stderr().lock(), level, &message);
    }
}
