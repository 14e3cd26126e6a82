//! Modules on the module path (`--modulepath DIR[:DIR]`), loaded by name as Puppet's loaders
//! do: a class or defined type `apache::vhost` from `apache/manifests/vhost.pp` (`apache` from
//! `apache/manifests/init.pp`), a function `apache::port` from `apache/functions/port.pp`, a
//! type alias `Apache::Port` from `apache/types/port.pp`. The first directory of the path that
//! has the module wins. A class or defined type is found as Puppet's 3.x type loader finds
//! it, trying the files of its enclosing names in turn, each after the module's `init.pp` (so
//! a nested class fails on the types of `init.pp`: parameter types are evaluated when a file
//! is loaded). Definitions remember their file, and errors in them name it. A function
//! implemented in Ruby (4.x in `lib/puppet/functions`, 3.x in `lib/puppet/parser/functions`)
//! cannot run here: calling it says so. A resource type implemented in Ruby has its
//! parameters checked when its `lib/puppet/type/NAME.rb` declares them one by one. A module
//! whose `metadata.json` Puppet refuses (a required key missing, `dependencies` no array) is
//! no module: Puppet logs an error for it when it makes the environment's modules, at the
//! start of every compilation, and goes on without it.

use std::cell::{Cell, OnceCell};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use puppet_types::Value;

use super::{Evaluator, Level, Strict};
use crate::catalog::Definition;
use crate::error::{fail, Eval};

/// The modules of the module path, as Puppet's `environment.modules` makes them: each
/// directory of a module path directory named as a module is (`^[a-z][a-z0-9_]*$`), the first
/// of a name wins, and one whose `metadata.json` Puppet refuses is left out (see
/// [`metadata_verdict`]). What Puppet logs on the way is logged once, when the next program
/// runs ([`Evaluator::announce_modules`]).
struct Modules {
    /// `(name, directory)`, in module path order, then in each directory's order.
    found: Vec<(String, PathBuf)>,
    logs: Vec<(Level, String)>,
    announced: Cell<bool>,
}

/// Where modules are loaded from, and what has been loaded.
#[derive(Default)]
pub struct Loader {
    /// The module path (`--modulepath`), searched in order.
    pub modulepath: Vec<PathBuf>,
    /// The modules of the module path, found when first needed ([`Evaluator::modules`]).
    modules: OnceCell<Modules>,
    /// The manifests loaded so far (each is loaded once).
    pub(crate) loaded_files: HashSet<PathBuf>,
    /// The classes and defined types the modules' manifests define, once asked
    /// ([`Evaluator::module_definitions`]).
    definitions: OnceCell<Vec<(String, bool)>>,
    /// The module manifest whose definitions are being made known.
    pub(crate) loading_file: Option<Rc<str>>,
    /// The module manifest whose code is being evaluated (`None`: the program's).
    pub(crate) current_file: Option<Rc<str>>,
}

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
        if self.loader.modulepath.is_empty() {
            return Ok(false);
        }
        let name = name.trim_start_matches("::").to_lowercase();
        let mut segments: Vec<&str> = name.split("::").collect();
        let module = segments.remove(0);
        if module.is_empty() {
            return Ok(false);
        }
        let (dir, file) = match entity {
            Entity::Definition => return self.autoload_definition(module, &segments, &name),
            // A global function can only be one a module implements in Ruby.
            Entity::Function if segments.is_empty() => {
                return match self.ruby_global_function(&name) {
                    Some((m, v4)) => self.load_port(&m, &name, v4),
                    None => Ok(false),
                };
            }
            // Type aliases live in a module's namespace.
            _ if segments.is_empty() => return Ok(false),
            Entity::Function => ("functions", segments.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>()),
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
                    return self.load_port(module, &name, true);
                }
            }
            return Ok(false);
        };
        if !self.loader.loaded_files.insert(path.clone()) {
            return Ok(false);
        }
        let parsed = parse_manifest(&path)?;
        self.define_manifest(&path, parsed)?;
        Ok(true)
    }

    /// Loads a class or defined type as Puppet's 3.x type loader does
    /// (`TypeLoader#try_load_fqname`): for `m::a::b` the files of `m/a/b`, then of `m/a`,
    /// then of `m`, until one defines the name. Each takes the module's `init.pp` first (the
    /// module's `match_manifests`), then `manifests/a/b.pp`; the files of one step are all
    /// parsed before any is instantiated. Whether a file was loaded.
    fn autoload_definition(&mut self, module: &str, segments: &[&str], name: &str) -> Eval<bool> {
        let mut loaded = false;
        for n in (0..=segments.len()).rev() {
            let mut files = Vec::new();
            files.extend(self.module_file(module, "manifests", &["init".to_owned()], "pp"));
            if n > 0 {
                let rest: Vec<String> = segments[..n].iter().map(|s| (*s).to_owned()).collect();
                files.extend(self.module_file(module, "manifests", &rest, "pp").filter(|f| !files.contains(f)));
            }
            let mut parsed = Vec::new();
            for path in files {
                if self.loader.loaded_files.insert(path.clone()) {
                    let manifest = parse_manifest(&path)?;
                    parsed.push((path, manifest));
                }
            }
            for (path, manifest) in parsed {
                loaded = true;
                self.define_manifest(&path, manifest)?;
            }
            if self.is_class_or_define(name) {
                break;
            }
        }
        Ok(loaded)
    }

    /// Makes a module manifest's definitions known (errors name the file).
    fn define_manifest(&mut self, path: &Path, (source, program): (String, puppet_syntax::ast::Program)) -> Eval<()> {
        let Some(body) = &program.body else { return Ok(()) };
        let saved = std::mem::replace(&mut self.source, Rc::from(source.as_str()));
        let file: Rc<str> = Rc::from(path.display().to_string().as_str());
        let saved_file = self.loader.loading_file.replace(file.clone());
        let defined = self.define_all(body, &source);
        self.loader.loading_file = saved_file;
        self.source = saved;
        defined.map_err(|flow| crate::catalog::compiler::in_file(flow, Some(&file)))
    }

    /// A module's directory on the module path, if it is there.
    pub fn module_path(&self, module: &str) -> Option<PathBuf> {
        self.module_dir(module)
    }

    /// A module's directory: in the first module path directory that has the module (Puppet's
    /// `environment.module(name)`), unless Puppet refuses the module.
    pub(crate) fn module_dir(&self, module: &str) -> Option<PathBuf> {
        self.modules().iter().find(|(name, _)| name == module).map(|(_, dir)| dir.clone())
    }

    /// The modules of the module path, `(name, directory)`.
    fn modules(&self) -> &[(String, PathBuf)] {
        &self.loader.modules.get_or_init(|| find_modules(&self.loader.modulepath, self.options.strict)).found
    }

    /// Logs, once for a module path, what Puppet logs when it makes the modules (a module
    /// refused for its `metadata.json`, a `metadata.json` it cannot parse): a compilation
    /// makes them before anything else.
    pub fn announce_modules(&mut self) {
        if self.loader.modulepath.is_empty() {
            return;
        }
        self.modules();
        let logs = match self.loader.modules.get() {
            Some(m) if !m.announced.replace(true) => m.logs.clone(),
            _ => return,
        };
        for (level, message) in logs {
            self.log(level, message);
        }
    }

    /// `MODULE/DIR/a/b.EXT` in the module's directory.
    fn module_file(&self, module: &str, dir: &str, parts: &[String], ext: &str) -> Option<PathBuf> {
        let mut path = self.module_dir(module)?.join(dir);
        for p in parts {
            path.push(p);
        }
        path.set_extension(ext);
        path.is_file().then_some(path)
    }

    /// The module that implements a global function in Ruby, and whether in the 4.x API, as
    /// Puppet's loaders find it: the first module with `lib/puppet/functions/NAME.rb`, else the
    /// first with `lib/puppet/parser/functions/NAME.rb`; else, as Puppet's 3.x autoloader
    /// finds it (`Puppet::Parser::Functions.function`, searching `DIR/*/lib` of every module
    /// path directory), in a module another directory's module of the same name shadows: with
    /// stdlib 9.7.0 before 8.5.0, 8.5.0's `validate_bool` is still found.
    fn ruby_global_function(&self, name: &str) -> Option<(String, bool)> {
        let file = format!("{name}.rb");
        let find =
            |dir: &str| self.modules().iter().find(|(_, path)| path.join("lib/puppet").join(dir).join(&file).is_file());
        if let Some((module, _)) = find("functions") {
            return Some((module.clone(), true));
        }
        if let Some((module, _)) = find("parser/functions") {
            return Some((module.clone(), false));
        }
        let legacy = Path::new("lib/puppet/parser/functions").join(&file);
        self.loader.modulepath.iter().find_map(|dir| {
            let mut modules: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).collect();
            modules.sort();
            let module = modules.into_iter().find(|m| m.join(&legacy).is_file())?;
            Some((module.file_name()?.to_str()?.to_owned(), false))
        })
    }

    /// Loads the port of `module`'s Ruby function `name` (its 4.x API's file, or 3.x's), as
    /// Puppet loads the file; Puppet's refusal to run Ruby when Poppet has no port of it.
    fn load_port(&mut self, module: &str, name: &str, v4: bool) -> Eval<bool> {
        match crate::functions::ported::find(module, name, v4) {
            Some(port) => {
                self.registry.load_port(port);
                Ok(true)
            }
            None => Err(fail(format!(
                "The function '{name}' is implemented in Ruby (module {module}): Ruby functions are not available"
            ))),
        }
    }

    /// The names of the ported functions of the modules on the module path whose Ruby files
    /// are there (what completion offers besides the loaded functions).
    pub fn module_functions(&self) -> Vec<&'static str> {
        crate::functions::ported::all()
            .filter(|port| {
                let Some(dir) = self.module_dir(port.module) else { return false };
                let lib = dir.join("lib/puppet");
                let name = port.builtin.name;
                match port.api {
                    crate::functions::ported::Api::V4 => {
                        lib.join("functions").join(format!("{}.rb", name.replace("::", "/"))).is_file()
                    }
                    crate::functions::ported::Api::V3 { .. } => {
                        lib.join("parser/functions").join(format!("{name}.rb")).is_file()
                    }
                }
            })
            .map(|port| port.builtin.name)
            .collect()
    }

    /// Loads a module's function as a call would (its port, where the module has its Ruby
    /// file); the port, if it is one. For `:doc`.
    pub fn load_module_function(&mut self, name: &str) -> Option<&'static crate::functions::ported::Port> {
        let key = name.trim_start_matches("::");
        if self.registry.get(key).is_none() {
            let _ = self.autoload(Entity::Function, key);
        }
        self.registry.port(key)
    }

    /// A class or defined type by name, loaded from the module path when it is not known
    /// yet: the definition, and whether it is a class. (A file that fails to load is as
    /// good as absent here.)
    pub fn find_definition(&mut self, name: &str) -> Option<(Rc<Definition>, bool)> {
        let key = name.trim_start_matches("::").to_lowercase();
        if !self.is_class_or_define(&key) {
            let _ = self.autoload(Entity::Definition, &key);
        }
        let compiler = &self.compiler;
        match compiler.classes_defs.get(&key) {
            Some(def) => Some((def.clone(), true)),
            None => compiler.defines.get(&key).map(|def| (def.clone(), false)),
        }
    }

    /// The classes and defined types known so far (those programs defined and those loaded
    /// from modules), sorted: name, and whether it is a class.
    pub fn definitions(&self) -> Vec<(String, bool)> {
        let compiler = &self.compiler;
        let classes = compiler.classes_defs.keys().map(|k| (k.clone(), true));
        let mut all: Vec<(String, bool)> = classes.chain(compiler.defines.keys().map(|k| (k.clone(), false))).collect();
        all.sort();
        all
    }

    /// The classes and defined types the module path's manifests define, whether loaded or
    /// not (for completion): each `manifests/**/*.pp` file's `class NAME` and `define NAME`
    /// at the start of a line, found without parsing. Read once per module path.
    pub fn module_definitions(&self) -> &[(String, bool)] {
        self.loader.definitions.get_or_init(|| {
            let mut found = Vec::new();
            for (_, dir) in self.modules() {
                scan_definitions(&dir.join("manifests"), &mut found);
            }
            found.sort();
            found.dedup();
            found
        })
    }

    /// The version of a module on the module path (its `metadata.json`'s), if it says one.
    pub fn module_version(&self, module: &str) -> Option<String> {
        let dir = self.module_dir(module)?;
        let text = std::fs::read_to_string(dir.join("metadata.json")).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        json.get("version")?.as_str().map(str::to_owned)
    }

    /// Whether a module implements the resource type in Ruby (`lib/puppet/type/NAME.rb`).
    pub(crate) fn ruby_type_exists(&self, lower: &str) -> bool {
        !lower.contains("::")
            && self.modules().iter().any(|(_, dir)| dir.join("lib/puppet/type").join(format!("{lower}.rb")).is_file())
    }

    /// The attributes of a resource type a module implements in Ruby, read from the
    /// `newparam`/`newproperty`/`ensurable` declarations of its `lib/puppet/type/NAME.rb`,
    /// and `provider` when a module has providers for it (`lib/puppet/provider/NAME/`: Puppet
    /// loads them with the type, and the first adds the parameter). `None` when the file
    /// defines attributes in ways this reading cannot follow (loops, shared code, a parent
    /// type): its parameters are then not checked.
    pub(crate) fn ruby_type_attributes(&self, lower: &str) -> Option<Vec<String>> {
        if lower.contains("::") {
            return None;
        }
        let modules: Vec<PathBuf> = self.modules().iter().map(|(_, dir)| dir.join("lib/puppet")).collect();
        let file = format!("type/{lower}.rb");
        let path = modules.iter().map(|lib| lib.join(&file)).find(|p| p.is_file())?;
        let mut names = static_ruby_attributes(&std::fs::read_to_string(path).ok()?, lower)?;
        let providers = format!("provider/{lower}");
        let has_provider = |lib: &PathBuf| {
            std::fs::read_dir(lib.join(&providers))
                .is_ok_and(|files| files.flatten().any(|f| f.path().extension().is_some_and(|e| e == "rb")))
        };
        if modules.iter().any(has_provider) {
            names.push("provider".to_owned());
        }
        Some(names)
    }

    /// The namevar of a resource type a module implements in Ruby: the parameter its
    /// `lib/puppet/type/NAME.rb` declares with `namevar: true` or `isnamevar`, when there is
    /// one; else `name`.
    pub(crate) fn ruby_type_namevar(&self, lower: &str) -> String {
        let file = format!("lib/puppet/type/{lower}.rb");
        let source = self.modules().iter().find_map(|(_, dir)| std::fs::read_to_string(dir.join(&file)).ok());
        source.and_then(|s| ruby_namevar(&s)).unwrap_or_else(|| "name".to_owned())
    }

    /// Sets the module path (`DIR:DIR`).
    pub fn set_modulepath(&mut self, path: &str) {
        self.loader.modulepath = std::env::split_paths(path).filter(|p| !p.as_os_str().is_empty()).collect();
        self.loader.modules = OnceCell::new();
        self.loader.definitions = OnceCell::new();
        self.registry.unload_ports();
    }

    /// The module a name belongs to (`apache` of `apache::vhost`), when it was loaded from one.
    pub(crate) fn module_of(&self, name: &str) -> String {
        if self.loader.modulepath.is_empty() {
            return String::new();
        }
        let first = name.trim_start_matches("::").split("::").next().unwrap_or_default().to_lowercase();
        if self.modules().iter().any(|(module, _)| *module == first) {
            first.to_lowercase()
        } else {
            String::new()
        }
    }
}

/// A module manifest's text and program, or Puppet's error for a file it cannot read or parse.
fn parse_manifest(path: &Path) -> Eval<(String, puppet_syntax::ast::Program)> {
    let bytes = std::fs::read(path).map_err(|e| fail(format!("Could not read {}: {e}", path.display())))?;
    let source = puppet_syntax::lexer::check_encoding(&bytes)
        .map_err(|d| fail(format!("{} (file: {})", d.message, path.display())))?
        .to_owned();
    match puppet_syntax::analyze(&source).result {
        Ok(program) => Ok((source, program)),
        Err(errors) => {
            let d = &errors[0];
            Err(fail(format!(
                "Could not parse for environment production: {} (file: {}, line: {}, column: {})",
                d.message,
                path.display(),
                d.span.line,
                d.span.column
            )))
        }
    }
}

/// The one parameter a Ruby resource type's source declares as its namevar:
/// `newparam(:path, namevar: true)`, `newparam(:path, :namevar => true)`, or a `newparam`
/// whose block says `isnamevar`. `None` for none, or several (a composite namevar).
fn ruby_namevar(source: &str) -> Option<String> {
    let mut found: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    for line in source.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("newparam(:").or_else(|| line.strip_prefix("newparam :")) {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let flagged = rest.contains("namevar: true") || rest.contains(":namevar => true");
            if flagged {
                found.push(name.clone());
            }
            current = Some(name);
        } else if line.starts_with("newproperty") {
            current = None;
        } else if line == "isnamevar" {
            if let Some(name) = current.take() {
                found.push(name);
            }
        }
    }
    found.dedup();
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The attributes a Ruby resource type's source declares one by one (`newparam(:name)`,
/// `newproperty :value`, `ensurable`), or `None` when anything else may add some.
///
/// The statements of the `newtype` block are read at its body's indentation: attribute
/// declarations, and the other statements of the type DSL that add none (`def`, `desc`,
/// `feature`, `autorequire`, `validate`, ...), whose bodies, indented further, are not read
/// (a method may loop, or look up other types). Any other statement there (a loop, a
/// condition, an `include`), a parent type, or code that reaches into shared code, and the
/// attributes are not known.
fn static_ruby_attributes(source: &str, lower: &str) -> Option<Vec<String>> {
    const DYNAMIC: &[&str] = &[
        "PuppetX",
        "puppet_x",
        "require_relative",
        "newcheck",
        "newmetaparam",
        "define_method",
        "class_eval",
        "instance_eval",
        "send(",
    ];
    /// The statements of the type DSL (and Ruby's) that declare no attribute.
    const NO_ATTRIBUTE: &[&str] = &[
        "def",
        "end",
        "}",
        "desc",
        "@doc",
        "feature",
        "autorequire",
        "autobefore",
        "autosubscribe",
        "autonotify",
        "validate",
        "require",
        "newtype",
    ];
    if DYNAMIC.iter().any(|d| source.contains(d)) {
        return None;
    }
    let newtype = |quote: &str| source.matches(&format!("newtype({quote}{lower}")).count();
    if source.matches("newtype(").count() != 1 || newtype(":") + newtype("'") + newtype("\"") != 1 {
        return None;
    }
    let indent = |line: &str| line.len() - line.trim_start().len();
    let lines: Vec<&str> = source.lines().collect();
    let start = lines.iter().position(|l| l.contains("newtype("))?;
    // A parent type's attributes are inherited.
    if lines[start].contains("parent") {
        return None;
    }
    let is_code = |l: &str| !l.trim().is_empty() && !l.trim_start().starts_with('#');
    let body_indent = indent(lines.iter().skip(start + 1).find(|l| is_code(l))?);
    if body_indent <= indent(lines[start]) {
        return None;
    }
    let mut names = Vec::new();
    let mut i = start + 1;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if !is_code(line) || indent(line) > body_indent {
            continue;
        }
        if indent(line) < body_indent {
            // The block's end: nothing after it may declare attributes.
            let rest = lines.get(i..).unwrap_or_default();
            if rest.iter().any(|l| l.contains("newparam") || l.contains("newproperty") || l.contains("ensurable")) {
                return None;
            }
            break;
        }
        let statement = line.trim();
        // A heredoc's text, or a string running over several lines, is skipped.
        if let Some(tag) = heredoc_tag(statement) {
            while i < lines.len() && lines[i].trim() != tag {
                i += 1;
            }
            i += 1;
        } else if (statement.starts_with("desc") || statement.starts_with("@doc"))
            && statement.matches('"').count() % 2 == 1
        {
            while i < lines.len() && !lines[i].contains('"') {
                i += 1;
            }
            i += 1;
        }
        let word: String =
            statement.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '@' | '}')).collect();
        match word.as_str() {
            "ensurable" => names.push("ensure".to_owned()),
            "newparam" | "newproperty" => {
                let rest = statement[word.len()..].trim_start_matches(['(', ' ']);
                let rest = rest.strip_prefix(':').or_else(|| rest.strip_prefix(['\'', '"']))?;
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if name.is_empty() {
                    return None;
                }
                names.push(name);
            }
            w if NO_ATTRIBUTE.contains(&w) => {}
            _ => return None,
        }
    }
    Some(names)
}

/// The tag of a heredoc a line opens (`DOC` of `@doc = <<-DOC`).
fn heredoc_tag(line: &str) -> Option<&str> {
    let at = line.find("<<")?;
    let rest = line[at + 2..].trim_start_matches(['-', '~']);
    let rest = rest.trim_start_matches(['\'', '"']);
    let tag = &rest[..rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len())];
    (!tag.is_empty() && tag.chars().next().is_some_and(|c| c.is_ascii_uppercase())).then_some(tag)
}

/// The modules of `modulepath` and what Puppet logs making them ([`Modules`]).
fn find_modules(modulepath: &[PathBuf], strict: Strict) -> Modules {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    let mut seen = HashSet::new();
    let mut logs = Vec::new();
    for root in modulepath {
        let Ok(entries) = std::fs::read_dir(root) else { continue };
        // In the directory's order, as Ruby's `Dir.children` lists it.
        let names: Vec<String> = entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .filter_map(|e| e.file_name().to_str().map(str::to_owned))
            .filter(|name| is_module_name(name))
            .collect();
        for name in names {
            if !seen.insert(name.clone()) {
                continue;
            }
            let dir = root.join(&name);
            match metadata_verdict(&name, &dir, strict) {
                Verdict::Accepted => found.push((name, dir)),
                Verdict::Warned(message) => {
                    logs.push((Level::Warning, message));
                    found.push((name, dir));
                }
                Verdict::Refused(message) => logs.push((Level::Err, message)),
            }
        }
    }
    Modules { found, logs, announced: Cell::new(false) }
}

/// `Puppet::Module.is_module_directory_name?`.
fn is_module_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// What Puppet makes of a module's `metadata.json`.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Accepted,
    /// Accepted, with a warning.
    Warned(String),
    /// Left out of the environment, with the error Puppet logs (`Puppet.log_exception`).
    Refused(String),
}

/// `Puppet::Module#read_metadata` and `#load_metadata`, as `Puppet::Module.new` runs them: a
/// module without `metadata.json`, or with an empty one (`{}`), is accepted; one Ruby's JSON
/// parser cannot read is accepted as without metadata, with a warning (strict `warning`;
/// refused with strict `error`: `NAME has an invalid and unparsable metadata.json file. The
/// parse error: 859: unexpected token at '...'`). Otherwise `source`, `author`, `version`,
/// `license` and `dependencies` must be there and not null (`No source module metadata
/// provided for NAME`), and `dependencies` must be an array (`The value for the key
/// dependencies in the file metadata.json of the module NAME must be an array, not: '...'`).
fn metadata_verdict(name: &str, dir: &Path, strict: Strict) -> Verdict {
    let Ok(bytes) = std::fs::read(dir.join("metadata.json")) else { return Verdict::Accepted };
    let text = String::from_utf8_lossy(&bytes);
    if let Some(error) = poppet_ruby::json::parse_error(&text) {
        let message = format!("{name} has an invalid and unparsable metadata.json file. The parse error: {error}");
        return match strict {
            Strict::Off => Verdict::Accepted,
            Strict::Warning => Verdict::Warned(message),
            Strict::Error => Verdict::Refused(message),
        };
    }
    // What Ruby reads but this reader does not (comments) is taken as it is.
    let Some(Ok(document)) = pfmt::data::json::documents(&text).next() else { return Verdict::Accepted };
    let Value::Hash(data) = &document else { return Verdict::Accepted };
    if data.is_empty() {
        return Verdict::Accepted;
    }
    for key in ["source", "author", "version", "license", "dependencies"] {
        match data.get(&Value::from(key)) {
            None | Some(Value::Undef) => {
                return Verdict::Refused(format!("No {key} module metadata provided for {name}"));
            }
            Some(Value::Array(_)) => {}
            Some(value) if key == "dependencies" => {
                return Verdict::Refused(format!(
                    "The value for the key dependencies in the file metadata.json of the module {name} must be an \
                     array, not: '{}'",
                    crate::ruby::to_s(value)
                ));
            }
            Some(_) => {}
        }
    }
    Verdict::Accepted
}

/// The `class NAME` and `define NAME` lines of the manifests under `dir`, recursively.
fn scan_definitions(dir: &Path, found: &mut Vec<(String, bool)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            scan_definitions(&path, found);
        } else if path.extension().is_some_and(|e| e == "pp") {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            for line in text.lines() {
                let (is_class, rest) = match (line.strip_prefix("class "), line.strip_prefix("define ")) {
                    (Some(rest), _) => (true, rest),
                    (_, Some(rest)) => (false, rest),
                    _ => continue,
                };
                let name: String = rest
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                if !name.is_empty() && !name.ends_with(':') {
                    found.push((name.trim_start_matches("::").to_lowercase(), is_class));
                }
            }
        }
    }
}
