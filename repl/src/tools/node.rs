//! What Puppet's applications that compile for a node share (`puppet lookup`, `puppet catalog
//! compile`): Ruby's report of an environment Puppet cannot load, the facts of a file, the
//! node's top scope (`$facts`, `$trusted`, `$server_facts`), this host's name, and the files
//! of a main manifest.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use puppet_eval::environment::{EnvironmentError, Given};
use puppet_eval::Session;
use puppet_types::value::Hash;
use puppet_types::Value;

include!("node_traces.rs");

/// The settings that place environments, modules and Hiera's global layer, as Puppet's
/// applications take them on the command line (each left out keeps Puppet's default).
#[derive(clap::Args)]
pub struct SettingsArgs {
    /// The environment (`production`).
    #[arg(long, value_name = "NAME")]
    pub environment: Option<String>,
    /// Puppet's `environmentpath` setting.
    #[arg(long, value_name = "DIRS")]
    pub environmentpath: Option<String>,
    /// Puppet's `hiera_config` setting: the global layer's hiera.yaml.
    #[arg(long = "hiera_config", alias = "hiera-config", value_name = "FILE")]
    pub hiera_config: Option<String>,
    /// Puppet's `modulepath` setting (replaces the environment's).
    #[arg(long, value_name = "DIRS")]
    pub modulepath: Option<String>,
    /// Puppet's `basemodulepath` setting.
    #[arg(long, value_name = "DIRS")]
    pub basemodulepath: Option<String>,
    /// Puppet's `codedir` setting.
    #[arg(long, value_name = "DIR")]
    pub codedir: Option<String>,
    /// Puppet's `confdir` setting.
    #[arg(long, value_name = "DIR")]
    pub confdir: Option<String>,
}

impl SettingsArgs {
    /// The settings given, for [`puppet_eval::environment::Settings::new`].
    pub fn given(&self) -> Given {
        Given {
            confdir: self.confdir.clone(),
            codedir: self.codedir.clone(),
            environmentpath: self.environmentpath.clone(),
            basemodulepath: self.basemodulepath.clone(),
            hiera_config: self.hiera_config.clone(),
            modulepath: self.modulepath.clone(),
        }
    }

    /// The environment's name (`production` unless given).
    pub fn environment_name(&self) -> String {
        self.environment.clone().unwrap_or_else(|| "production".into())
    }
}

/// Ruby's report of the uncaught exception an environment that cannot be found or read ends
/// Puppet with: `FILE:LINE:in `METHOD': MESSAGE (CLASS)`, then the backtrace (every
/// application loads its environment the same way, before it runs).
pub fn crash_report(e: &EnvironmentError) -> String {
    let (first, class, trace, rest) = match e {
        EnvironmentError::NotFound { .. } => (
            "/usr/lib/ruby/vendor_ruby/puppet/environments.rb:40:in `get!'",
            "Puppet::Environments::EnvironmentNotFound",
            NOT_FOUND_TRACE,
            String::new(),
        ),
        EnvironmentError::Parse { file, line, .. } => (
            "/usr/lib/ruby/vendor_ruby/puppet/settings/config_file.rb:37:in `block (2 levels) in parse_file'",
            "Puppet::Settings::ParseError",
            PARSE_ERROR_TRACE,
            format!("\n (file: {}, line: {line})", file.display()),
        ),
    };
    let message = match e {
        EnvironmentError::Parse { text, .. } => format!("Could not match line {text}"),
        other => other.to_string(),
    };
    let mut out = format!("{first}: {message} ({class}){rest}\n");
    for t in trace {
        out.push_str(&format!("\tfrom {t}\n"));
    }
    out
}

/// The facts of `--facts`: JSON for `.json`, YAML for `.yml` and `.yaml`, else whichever
/// reads; a hash, else Puppet's error (`puppet lookup`'s words).
pub fn read_facts(file: &str) -> Result<Hash, String> {
    let incorrect = || {
        format!("Incorrectly formatted data in {file} given via the --facts flag (only accepts yaml and json files)")
    };
    let facts = puppet_eval::facts::read(&PathBuf::from(file)).map_err(|_| incorrect())?;
    // Puppet's node facts hold no nil: a null fact is an empty string
    let facts: Hash = facts.iter().map(|(k, v)| (k.clone(), no_nil(v))).collect();
    const TRUSTED: [&str; 4] = ["hostname", "domain", "fqdn", "clientcert"];
    let has = |k: &str| facts.contains_key(&Value::from(k));
    if TRUSTED.iter().any(|k| has(k)) && !TRUSTED.iter().all(|k| has(k)) {
        return Err(format!(
            "When overriding any of the hostname,domain,fqdn,clientcert facts with {file} given via the --facts flag, they must all be overridden."
        ));
    }
    Ok(facts)
}

/// A fact's value with every nil (JSON's `null`, YAML's `~`) an empty string, at any depth.
fn no_nil(v: &Value) -> Value {
    match v {
        Value::Undef => Value::from(""),
        Value::Array(items) => Value::array(items.iter().map(no_nil).collect()),
        Value::Hash(h) => Value::hash(h.iter().map(|(k, v)| (k.clone(), no_nil(v))).collect()),
        other => other.clone(),
    }
}

/// The node's top scope as Puppet's applications make it for a node they find: each fact,
/// `$facts` exactly the facts given, `$trusted` local (its certificate name the `clientcert`
/// fact, if any), the environment's name, `$server_facts` as given.
pub fn install_node(session: &Session, facts: &Hash, env_name: &str, server_facts: Hash) {
    let top = &session.evaluator.top;
    let s = |v: &str| Value::from(v);
    for name in ["clientcert", "clientversion", "clientnoop"] {
        if !facts.contains_key(&s(name)) {
            top.remove(name);
        }
    }
    top.replace("facts", Value::hash(facts.clone()));
    let certname = match facts.get(&s("clientcert")) {
        Some(Value::String(c)) => Some(c.to_string()),
        _ => None,
    };
    let (host, domain) = match &certname {
        Some(c) => match c.split_once('.') {
            Some((h, d)) => (s(h), s(d)),
            None => (s(c), Value::Undef),
        },
        None => (Value::Undef, Value::Undef),
    };
    let mut trusted = Hash::default();
    trusted.insert(s("authenticated"), s("local"));
    trusted.insert(s("certname"), certname.as_deref().map_or(Value::Undef, s));
    trusted.insert(s("extensions"), Value::hash(Hash::default()));
    trusted.insert(s("hostname"), host);
    trusted.insert(s("domain"), domain);
    trusted.insert(s("external"), Value::hash(Hash::default()));
    top.replace("trusted", Value::hash(trusted));
    top.replace("environment", s(env_name));
    top.replace("server_facts", Value::hash(server_facts));
}

/// This host's name, as Puppet's `node_name_value` (its certificate name) defaults to it.
pub fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "testnode".into())
}

/// The files of a main manifest: the file itself, or a directory's `.pp` files all the way
/// down, sorted by their paths as strings (Puppet's `glob('**/*.pp').sort`).
pub fn manifest_files(path: &Path) -> Vec<PathBuf> {
    if !path.is_dir() {
        return vec![path.to_path_buf()];
    }
    let mut files = Vec::new();
    walk(path, &mut files, 0);
    files.sort_by(|a, b| a.as_os_str().as_encoded_bytes().cmp(b.as_os_str().as_encoded_bytes()));
    files
}

/// How deep a manifest directory is walked (a symbolic link loop ends here).
const MAX_DEPTH: usize = 64;

/// The `.pp` files under `dir`: `**` does not go into a symbolic link to a directory (so a
/// link loop ends), a link to a file counts.
fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let linked = e.file_type().is_ok_and(|t| t.is_symlink());
        if p.is_dir() {
            if !linked {
                walk(&p, out, depth + 1);
            }
        } else if p.extension().is_some_and(|x| x == "pp") && p.is_file() {
            out.push(p);
        }
    }
}

/// A file of a main manifest: its path, which names it, and its text.
pub struct ManifestFile {
    pub name: Rc<str>,
    pub text: String,
}

/// A main manifest's files read for environment `env`: a file that cannot be read, or is
/// not UTF-8 (or starts with a byte order mark), gives Puppet's error; one that is not there
/// is no file.
pub fn read_manifest(path: &Path, env: &str) -> Result<Vec<ManifestFile>, String> {
    let mut out = Vec::new();
    for file in manifest_files(path) {
        match std::fs::read(&file) {
            Ok(bytes) => {
                let text = puppet_syntax::lexer::check_encoding(&bytes)
                    .map_err(|d| format!("Could not parse for environment {env}: {}", d.message))?;
                out.push(ManifestFile { name: Rc::from(file.to_string_lossy().as_ref()), text: text.to_owned() });
            }
            // Puppet compiles nothing for a main manifest that is not there
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {e}", file.display())),
        }
    }
    Ok(out)
}

/// The files as `Session::run_manifests` takes them.
pub fn programs(files: &[ManifestFile]) -> Vec<(Option<Rc<str>>, &str)> {
    files.iter().map(|f| (Some(f.name.clone()), f.text.as_str())).collect()
}
