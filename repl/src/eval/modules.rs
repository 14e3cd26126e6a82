//! Modules on the module path (`--modulepath DIR[:DIR]`), loaded by name as Puppet's loaders
//! do: a class or defined type `apache::vhost` from `apache/manifests/vhost.pp` (`apache` from
//! `apache/manifests/init.pp`), a function `apache::port` from `apache/functions/port.pp`, a
//! type alias `Apache::Port` from `apache/types/port.pp`. The first directory of the path that
//! has the module wins. A function implemented in Ruby (`lib/puppet/functions/...rb`) cannot
//! run here: calling it says so.

use std::path::PathBuf;

use super::Evaluator;
use crate::error::{fail, Eval};

/// What a name is looked up as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    /// A class or a defined type (`manifests/`).
    Definition,
    Function,
    TypeAlias,
}

impl Evaluator {
    /// Loads the file that should define `name` (lower-case, `::`-separated) from the module
    /// path, once; whether a file was found. Its definitions become known as a program's do.
    pub(crate) fn autoload(&mut self, entity: Entity, name: &str) -> Eval<bool> {
        if self.modulepath.is_empty() {
            return Ok(false);
        }
        let name = name.trim_start_matches("::").to_lowercase();
        let mut segments: Vec<&str> = name.split("::").collect();
        let module = segments.remove(0);
        if module.is_empty() {
            return Ok(false);
        }
        let (dir, file) = match entity {
            Entity::Definition if segments.is_empty() => ("manifests", vec!["init".to_owned()]),
            Entity::Definition => ("manifests", segments.iter().map(|s| (*s).to_owned()).collect()),
            // A global function can only be one a module implements in Ruby (3.x API).
            Entity::Function if segments.is_empty() => {
                return match self.ruby_global_function(&name) {
                    Some(m) => Err(fail(format!(
                        "The function '{name}' is implemented in Ruby (module {m}): Ruby functions are not available"
                    ))),
                    None => Ok(false),
                };
            }
            // Type aliases live in a module's namespace.
            _ if segments.is_empty() => return Ok(false),
            Entity::Function => ("functions", segments.iter().map(|s| (*s).to_owned()).collect()),
            Entity::TypeAlias => ("types", segments.iter().map(|s| (*s).to_owned()).collect()),
        };
        let Some(path) = self.module_file(module, dir, &file, "pp") else {
            if entity == Entity::Function {
                let mut ruby = vec![module.to_owned()];
                ruby.extend(segments.iter().map(|s| (*s).to_owned()));
                let last = ruby.pop().unwrap_or_default();
                let mut parts = vec!["puppet".to_owned(), "functions".to_owned()];
                parts.extend(ruby);
                parts.push(last);
                if self.module_file(module, "lib", &parts, "rb").is_some() {
                    return Err(fail(format!(
                        "The function '{name}' is implemented in Ruby (module {module}): Ruby functions are not available"
                    )));
                }
            }
            return Ok(false);
        };
        if !self.loaded_files.insert(path.clone()) {
            return Ok(false);
        }
        let bytes = std::fs::read(&path).map_err(|e| fail(format!("Could not read {}: {e}", path.display())))?;
        let source = puppet_syntax::lexer::check_encoding(&bytes)
            .map_err(|d| fail(format!("{} (file: {})", d.message, path.display())))?
            .to_owned();
        let program = match puppet_syntax::analyze(&source).result {
            Ok(p) => p,
            Err(errors) => {
                let d = &errors[0];
                return Err(fail(format!(
                    "Could not parse for environment production: {} (file: {}, line: {}, column: {})",
                    d.message,
                    path.display(),
                    d.span.line,
                    d.span.column
                )));
            }
        };
        if let Some(body) = &program.body {
            let saved = std::mem::replace(&mut self.source, std::rc::Rc::from(source.as_str()));
            let file = std::rc::Rc::from(path.display().to_string().as_str());
            let saved_file = self.loading_file.replace(file);
            let defined = self.define_all(body, &source);
            self.loading_file = saved_file;
            self.source = saved;
            defined?;
        }
        Ok(true)
    }

    /// `MODULE/DIR/a/b.EXT` in the first module path directory that has the module.
    fn module_file(&self, module: &str, dir: &str, parts: &[String], ext: &str) -> Option<PathBuf> {
        for root in &self.modulepath {
            let module_dir = root.join(module);
            if !module_dir.is_dir() {
                continue;
            }
            let mut path = module_dir.join(dir);
            for p in parts {
                path.push(p);
            }
            path.set_extension(ext);
            return path.is_file().then_some(path);
        }
        None
    }

    /// The module that implements a global function in Ruby (`lib/puppet/parser/functions/`
    /// or `lib/puppet/functions/`), if one does.
    fn ruby_global_function(&self, name: &str) -> Option<String> {
        for root in &self.modulepath {
            let Ok(modules) = std::fs::read_dir(root) else { continue };
            for m in modules.flatten() {
                let lib = m.path().join("lib/puppet");
                let file = format!("{name}.rb");
                if lib.join("parser/functions").join(&file).is_file() || lib.join("functions").join(&file).is_file() {
                    return Some(m.file_name().to_string_lossy().into_owned());
                }
            }
        }
        None
    }

    /// Whether a module implements the resource type in Ruby (`lib/puppet/type/NAME.rb`).
    pub(crate) fn ruby_type_exists(&self, lower: &str) -> bool {
        !lower.contains("::")
            && self.modulepath.iter().any(|root| {
                std::fs::read_dir(root).is_ok_and(|modules| {
                    modules.flatten().any(|m| m.path().join("lib/puppet/type").join(format!("{lower}.rb")).is_file())
                })
            })
    }

    /// Sets the module path (`DIR:DIR`).
    pub fn set_modulepath(&mut self, path: &str) {
        self.modulepath = std::env::split_paths(path).filter(|p| !p.as_os_str().is_empty()).collect();
    }

    /// The module a name belongs to (`apache` of `apache::vhost`), when it was loaded from one.
    pub(crate) fn module_of(&self, name: &str) -> String {
        if self.modulepath.is_empty() {
            return String::new();
        }
        let first = name.trim_start_matches("::").split("::").next().unwrap_or_default();
        if self.modulepath.iter().any(|root| root.join(first).is_dir()) {
            first.to_lowercase()
        } else {
            String::new()
        }
    }
}
