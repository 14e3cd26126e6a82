//! Directory environments as Puppet 7.23 finds and reads them (`environments.rb`,
//! `settings/environment_conf.rb`, `settings/config_file.rb`): the settings that place them
//! (`codedir`, `confdir`, `environmentpath`, `basemodulepath`, `hiera_config`, a `modulepath`
//! given on the command line), the environment's directory (the first directory of the
//! environment path that has one of its name), and its `environment.conf`: `modulepath`
//! (relative entries from the environment's directory, `$basemodulepath` and the other
//! settings interpolated, globs expanded) and `manifest`.
//!
//! Defaults are those of Debian's `puppet` package run as root (`/etc/puppet`,
//! `/etc/puppet/code`, `/usr/share/puppet/modules`). Bad input gives Puppet's messages: an
//! environment no directory holds ([`EnvironmentError::NotFound`]), a line of
//! `environment.conf` that is no setting ([`EnvironmentError::Parse`]); settings Puppet does
//! not know in `environment.conf`, and sections, are ignored with its warnings.

use std::fmt;
use std::path::{Path, PathBuf};

/// The settings that place environments, modules and the global Hiera configuration.
#[derive(Clone, Debug)]
pub struct Settings {
    pub confdir: PathBuf,
    pub codedir: PathBuf,
    /// `environmentpath`: directories that hold environments, searched in order.
    pub environmentpath: Vec<PathBuf>,
    /// `basemodulepath`: the module directories every environment's default module path ends
    /// with.
    pub basemodulepath: Vec<PathBuf>,
    /// `hiera_config`: the global layer's `hiera.yaml`.
    pub hiera_config: PathBuf,
    /// `modulepath` set on the command line: replaces what `environment.conf` says.
    pub modulepath: Option<Vec<PathBuf>>,
}

/// The settings a command line gives (each `None` keeps Puppet's default, which may depend
/// on the others: `environmentpath` is `$codedir/environments`).
#[derive(Clone, Debug, Default)]
pub struct Given {
    pub confdir: Option<String>,
    pub codedir: Option<String>,
    pub environmentpath: Option<String>,
    pub basemodulepath: Option<String>,
    pub hiera_config: Option<String>,
    pub modulepath: Option<String>,
}

/// `File::PATH_SEPARATOR` lists, each entry made absolute from the working directory.
fn path_list(text: &str) -> Vec<PathBuf> {
    text.split(':').filter(|p| !p.is_empty()).map(absolute).collect()
}

fn absolute(p: &str) -> PathBuf {
    let path = PathBuf::from(p);
    if path.is_absolute() {
        return path;
    }
    std::env::current_dir().map(|d| d.join(&path)).unwrap_or(path)
}

impl Settings {
    /// Puppet's settings with what the command line gives; `$confdir` and `$codedir` in the
    /// others are interpolated.
    pub fn new(given: &Given) -> Settings {
        let confdir = absolute(given.confdir.as_deref().unwrap_or("/etc/puppet"));
        let codedir = absolute(given.codedir.as_deref().unwrap_or("/etc/puppet/code"));
        let expand = |text: &str| {
            text.replace("$confdir", &confdir.to_string_lossy()).replace("$codedir", &codedir.to_string_lossy())
        };
        let environmentpath = path_list(&expand(given.environmentpath.as_deref().unwrap_or("$codedir/environments")));
        let basemodulepath =
            path_list(&expand(given.basemodulepath.as_deref().unwrap_or("$codedir/modules:/usr/share/puppet/modules")));
        let hiera_config = absolute(&expand(given.hiera_config.as_deref().unwrap_or("$confdir/hiera.yaml")));
        let modulepath = given.modulepath.as_deref().map(|m| path_list(&expand(m)));
        Settings { confdir, codedir, environmentpath, basemodulepath, hiera_config, modulepath }
    }
}

/// An environment found and read.
#[derive(Clone, Debug)]
pub struct Environment {
    pub name: String,
    /// The environment's directory.
    pub dir: PathBuf,
    /// Its module path (`environment.conf`'s `modulepath`, else `modules` and the base module
    /// path), directories that do not exist included.
    pub modulepath: Vec<PathBuf>,
    /// Its main manifest (a file or a directory; `manifests` by default).
    pub manifest: PathBuf,
    /// Puppet's warnings about its `environment.conf`.
    pub warnings: Vec<String>,
}

/// Why an environment cannot be used. Puppet does not catch these: they end the command
/// with Ruby's report of the exception.
#[derive(Clone, Debug, PartialEq)]
pub enum EnvironmentError {
    /// No directory of the environment path has one of this name.
    NotFound { name: String, path: Vec<PathBuf> },
    /// A line of `environment.conf` is neither a setting, a section, a comment nor blank.
    Parse { text: String, file: PathBuf, line: usize },
}

impl fmt::Display for EnvironmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvironmentError::NotFound { name, path } => write!(
                f,
                "Could not find a directory environment named '{name}' anywhere in the path: {}. Does the directory exist?",
                path.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>().join(":")
            ),
            EnvironmentError::Parse { text, file, line } => {
                write!(f, "Could not match line {text}\n (file: {}, line: {line})", file.display())
            }
        }
    }
}

/// `environment.conf` read: its `[main]` settings in order (name, value).
struct Conf {
    settings: Vec<(String, String)>,
    sections: Vec<String>,
}

/// The settings `environment.conf` may hold (`VALID_SETTINGS`).
const VALID_SETTINGS: [&str; 7] = [
    "modulepath",
    "manifest",
    "config_version",
    "environment_timeout",
    "environment_data_provider",
    "static_catalogs",
    "rich_data",
];

/// `IniFile.parse` and `ConfigFile#parse_file`: `name = value` lines (the value trimmed),
/// `[section]` lines, comments and blank lines.
fn parse_conf(file: &Path, text: &str) -> Result<Conf, EnvironmentError> {
    let mut conf = Conf { settings: Vec::new(), sections: vec!["main".into()] };
    let mut section = "main".to_string();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                section = name.to_string();
                if !conf.sections.contains(&section) {
                    conf.sections.push(section.clone());
                }
                continue;
            }
        }
        let setting = trimmed.split_once('=').and_then(|(name, value)| {
            let name = name.trim_end();
            let word = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            word.then(|| (name.to_string(), value.trim().to_string()))
        });
        match setting {
            Some((name, value)) => {
                if section == "main" {
                    conf.settings.push((name, value));
                }
            }
            None => {
                return Err(EnvironmentError::Parse { text: line.to_string(), file: file.to_path_buf(), line: i + 1 })
            }
        }
    }
    Ok(conf)
}

impl Conf {
    fn get(&self, name: &str) -> Option<&str> {
        self.settings.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Finds environment `name` on the settings' environment path and reads its
/// `environment.conf`.
pub fn load(settings: &Settings, name: &str) -> Result<Environment, EnvironmentError> {
    let dir =
        settings.environmentpath.iter().map(|p| p.join(name)).find(|d| d.is_dir() && valid_name(name)).ok_or_else(
            || EnvironmentError::NotFound { name: name.to_string(), path: settings.environmentpath.clone() },
        )?;
    let conf_file = dir.join("environment.conf");
    let mut warnings = Vec::new();
    let conf = match std::fs::read_to_string(&conf_file) {
        Ok(text) => {
            let conf = parse_conf(&conf_file, &text)?;
            if conf.sections.len() > 1 {
                warnings.push(format!(
                    "Invalid sections in environment.conf at '{}'. Environment conf may not have sections. The following sections are being ignored: '{}'",
                    conf_file.display(),
                    conf.sections[1..].join(",")
                ));
            }
            let unknown: Vec<&str> =
                conf.settings.iter().map(|(n, _)| n.as_str()).filter(|n| !VALID_SETTINGS.contains(n)).collect();
            if !unknown.is_empty() {
                warnings.push(format!(
                    "Invalid settings in environment.conf at '{}'. The following unknown setting(s) are being ignored: {}",
                    conf_file.display(),
                    unknown.join(", ")
                ));
            }
            Some(conf)
        }
        Err(_) => None,
    };
    let interpolate = |text: &str| -> String {
        let base = settings.basemodulepath.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>().join(":");
        text.replace("$basemodulepath", &base)
            .replace("$environment", name)
            .replace("$codedir", &settings.codedir.to_string_lossy())
            .replace("$confdir", &settings.confdir.to_string_lossy())
    };
    let from_env = |p: &str| -> PathBuf {
        if p.starts_with('$') {
            PathBuf::from(p)
        } else {
            normalize(&dir.join(p))
        }
    };
    let modulepath = match (&settings.modulepath, conf.as_ref().and_then(|c| c.get("modulepath"))) {
        (Some(m), _) => m.clone(),
        (None, Some(m)) => {
            let mut out = Vec::new();
            for entry in m.split(':').filter(|p| !p.is_empty()) {
                let expanded = interpolate(&from_env(entry).to_string_lossy());
                for p in expanded.split(':').filter(|p| !p.is_empty()) {
                    if p.contains(['*', '?', '[', '{']) {
                        let mut found: Vec<PathBuf> = glob::glob(p).map(|g| g.flatten().collect()).unwrap_or_default();
                        found.sort();
                        out.extend(found);
                    } else {
                        out.push(PathBuf::from(p));
                    }
                }
            }
            out
        }
        (None, None) => std::iter::once(dir.join("modules")).chain(settings.basemodulepath.iter().cloned()).collect(),
    };
    let manifest = match conf.as_ref().and_then(|c| c.get("manifest")) {
        Some(m) => PathBuf::from(interpolate(&from_env(m).to_string_lossy())),
        None => dir.join("manifests"),
    };
    Ok(Environment { name: name.to_string(), dir, modulepath, manifest, warnings })
}

/// `Puppet::Node::Environment.valid_name?`: word characters only.
fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// `File.expand_path`'s removal of `.` and `..` segments.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conf_lines_are_settings_sections_or_comments() {
        let conf = parse_conf(Path::new("e.conf"), "# c\n\nmodulepath = a:b \n[x]\nmanifest=m\n").ok().unwrap();
        assert_eq!(conf.get("modulepath"), Some("a:b"));
        assert_eq!(conf.get("manifest"), None, "only [main] counts");
        assert_eq!(conf.sections, ["main", "x"]);
        let err = parse_conf(Path::new("/e/environment.conf"), "modulepath = m\nthis is not a setting\n").err();
        assert_eq!(
            err.map(|e| e.to_string()).unwrap_or_default(),
            "Could not match line this is not a setting\n (file: /e/environment.conf, line: 2)"
        );
    }

    #[test]
    fn a_missing_environment_names_the_path() {
        let settings =
            Settings::new(&Given { environmentpath: Some("/nonexistent/a:/nonexistent/b".into()), ..Given::default() });
        let err = load(&settings, "production").err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(err, "Could not find a directory environment named 'production' anywhere in the path: /nonexistent/a:/nonexistent/b. Does the directory exist?");
    }
}
