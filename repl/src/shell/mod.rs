//! The interactive shell: `poppet` without arguments on a terminal.
//!
//! One [`Shell`] holds the session (the evaluator and its top scope) and the settings; the
//! line editor ([`editor`]) highlights with the grammar's `highlights.scm`, asks the grammar
//! whether the input is complete ([`validate`]), completes names by context ([`complete`])
//! and hints from history. Inputs starting with `:` are
//! meta-commands ([`commands`]); everything else is Puppet code, evaluated against the
//! persistent scope, its value echoed as a Puppet literal (`=> [1, 'a']`) and kept in `$_`.
//!
//! The editor never borrows the session: completion reads [`Names`], a snapshot of the names
//! refreshed after each input.
//!
//! - **Line editing**: Emacs keys; the lines after the first show a continuation prompt,
//!   Enter on unfinished input starts a new line indented to its depth, Alt-Enter inserts a
//!   line break, a bracketed paste inserts a block whole, a multi-line input is one history
//!   entry, and history lives in `$XDG_STATE_HOME/poppet/history`.
//! - **Results** are echoed through the format engine (`%p`, or the `:set format` string or
//!   format map) and coloured by the same highlighter as the input, since a `%p` result is
//!   Puppet source; `$_` is the last result that is not undef, and `$_N` the result of
//!   input N (`<input N>`: numbered output history, rolled back with its input). Errors show Puppet's message,
//!   the location and the source line with a caret (`Failure::excerpt`, shared with the
//!   runner).
//! - **Every input is a transaction.** It runs between an evaluator checkpoint and either
//!   its commit or its rollback (`puppet_eval::Checkpoint`): a failed input leaves no
//!   variable, resource or definition behind, and `:undo` goes back to the checkpoint of the
//!   last input that succeeded. `:reload` starts a new session and runs the journal of
//!   successful inputs again, the loaded files read afresh.
//! - **The prompt is not one program.** A top-level variable set by an earlier input may be
//!   assigned once more (`$x = $x + 1`; a note says so: `Evaluator::allow_rebinding`), while
//!   inside one input Puppet's "Cannot reassign" holds. A function or type alias defined
//!   again replaces the old one (the evaluator's redefinition error is per program).
//! - **Positions name their input.** Each input is `<input N>` and each loaded file its
//!   path to the evaluator (`Evaluator::program_name`): what they define and declare is placed
//!   there, so an error met later in a function of an earlier input shows that input's line
//!   (`poppet::excerpt`, carets placed by display width), and `:set trace on` the calls the
//!   error unwound through.
//! - **Interrupts**: the editor reads Ctrl-C as a key while editing (the input is cleared);
//!   while code runs, Ctrl-C is a signal that sets the evaluator's interrupt flag.

pub mod commands;
pub mod complete;
mod context;
mod debugger;
pub mod editor;
mod helper;
pub mod highlight;
mod reference;
pub mod validate;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use editor::{Editor, ReadError};
use puppet_syntax::ast::ExprKind;
use puppet_types::Value;

use highlight::{Highlighter, Theme};
use puppet_eval::{Checkpoint, Failure, Level, Log, Options, Outcome, Session};

/// How the shell starts.
pub struct Config {
    pub options: Options,
    pub facts: puppet_types::value::Hash,
    pub node: String,
    /// Colours on the terminal (`--color`, `NO_COLOR`, `TERM=dumb` decided by the caller).
    pub colour: bool,
    /// No banner.
    pub quiet: bool,
    /// A file of Puppet code to run first (`~/.config/poppet/init.pp`), if any.
    pub init: Option<PathBuf>,
    /// Where history is kept, if anywhere.
    pub history: Option<PathBuf>,
    pub log_level: Level,
    /// Where modules are loaded from (`--modulepath`).
    pub modulepath: Option<String>,
    /// The directory environment the session is in (`--environment-dir`), if any.
    pub environment: Option<Environment>,
}

/// A directory environment a session evaluates in: its name, its module path, Hiera's
/// layers, its main manifest (a file or a directory of them).
#[derive(Clone, Debug)]
pub struct Environment {
    pub name: String,
    pub modulepath: String,
    pub hiera: puppet_eval::hiera::Layers,
    pub manifest: PathBuf,
}

impl Environment {
    /// Makes `session` evaluate in the environment: its Hiera layers, `$environment` and
    /// `$server_facts['environment']` its name.
    pub fn install(&self, session: &mut Session) {
        session.evaluator.set_hiera_layers(self.hiera.clone());
        let top = &session.evaluator.top;
        top.replace("environment", Value::from(self.name.as_str()));
        if let Some(Value::Hash(server)) = &top.get("server_facts") {
            let mut server = (**server).clone();
            server.insert(Value::from("environment"), Value::from(self.name.as_str()));
            top.replace("server_facts", Value::hash(server));
        }
    }
}

/// What `:set` changes.
pub struct Settings {
    /// How results are shown: a format string (`'%p'` when `None`) or a format map hash, as
    /// `String.new` takes them.
    pub format: Option<Value>,
    pub colour: bool,
    /// Show how long each input took.
    pub timing: bool,
    /// Show the (generalized) type after each result.
    pub show_types: bool,
    /// Show the calls an error unwound through after it.
    pub trace: bool,
}

/// What the shell does after an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Continue,
    Quit,
    /// Show the last N history entries (all without N): the line editor has them.
    History(Option<usize>),
    /// Run this input as if typed (what `:edit` saved), adding it to history.
    Run(String),
}

/// The names completion offers, refreshed after each input (the line editor's helper reads
/// them while the session is busy elsewhere).
#[derive(Default)]
pub struct Names {
    pub variables: Vec<String>,
    /// The top-scope variables that hold hashes (`$facts`), whose keys complete.
    pub hashes: HashMap<String, Value>,
    pub functions: Vec<String>,
    pub types: Vec<String>,
    pub classes: Vec<String>,
    pub defined_types: Vec<String>,
}

impl Names {
    /// The string keys of the hash in `variable`, or of the one `path` leads to in it.
    pub fn keys(&self, variable: &str, path: &[String]) -> Vec<String> {
        let Some(mut value) = self.hashes.get(variable) else { return Vec::new() };
        for key in path {
            let next = match value {
                Value::Hash(h) => h.get(&Value::from(key.as_str())),
                Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
            match next {
                Some(v) => value = v,
                None => return Vec::new(),
            }
        }
        match value {
            Value::Hash(h) => h.keys().filter_map(|k| k.as_str().map(str::to_owned)).collect(),
            _ => Vec::new(),
        }
    }
}

/// The interactive session.
pub struct Shell {
    pub session: Session,
    pub settings: Settings,
    facts: puppet_types::value::Hash,
    node: String,
    base_options: Options,
    modulepath: Option<String>,
    environment: Option<Environment>,
    /// How the session's log lines are shown (shared with its sink).
    sink: Sink,
    names: Rc<RefCell<Names>>,
    highlighter: Rc<Highlighter>,
    interrupt: Arc<AtomicBool>,
    /// Files run with `:load`, for `:reload`.
    loaded: Vec<PathBuf>,
    /// The last Puppet input, for `:edit`.
    last_input: String,
    /// How many inputs of Puppet code have run: the next is `<input N+1>`.
    inputs: usize,
    /// The text of each input and loaded file by the name its positions go by, for the
    /// excerpts of errors met later in what it defined.
    sources: HashMap<Rc<str>, Rc<str>>,
    /// The inputs that succeeded since the session started, in order (what `:reload` runs
    /// again), each with the checkpoint from before it (what `:undo` goes back to; the
    /// oldest are let go after [`UNDO_DEPTH`]).
    journal: Vec<Committed>,
    /// The init file, run again by `:reset`.
    init: Option<PathBuf>,
    /// The last error, for `:stacktrace`.
    last_failure: Option<(Failure, Rc<str>)>,
    /// The variables Puppet sets before any input (facts, `$trusted`, `$name`, ...), which
    /// `:vars` leaves out unless asked.
    preset: std::collections::HashSet<String>,
}

impl Shell {
    pub fn new(config: &Config) -> Shell {
        let sink = Sink {
            level: Rc::new(Cell::new(config.log_level)),
            colour: Rc::new(Cell::new(config.colour)),
            muted: Rc::new(Cell::new(false)),
            program: Rc::default(),
        };
        let interrupt = Arc::new(AtomicBool::new(false));
        let mut session = new_session(config.options, &config.facts, &config.node, &sink, &interrupt);
        if let Some(path) = &config.modulepath {
            session.evaluator.set_modulepath(path);
        }
        if let Some(env) = &config.environment {
            env.install(&mut session);
        }
        let mut shell = Shell {
            session,
            settings: Settings { format: None, colour: config.colour, timing: false, show_types: false, trace: false },
            facts: config.facts.clone(),
            node: config.node.clone(),
            base_options: config.options,
            modulepath: config.modulepath.clone(),
            environment: config.environment.clone(),
            sink,
            names: Rc::default(),
            highlighter: Rc::new(Highlighter::new()),
            interrupt,
            loaded: Vec::new(),
            last_input: String::new(),
            preset: Default::default(),
            inputs: 0,
            sources: HashMap::new(),
            journal: Vec::new(),
            init: config.init.clone(),
            last_failure: None,
        };
        shell.preset = shell.session.evaluator.top.variables().iter().map(|(n, _)| n.to_string()).collect();
        shell.refresh_names();
        shell
    }

    /// Runs one input: a meta-command or Puppet code.
    pub fn handle(&mut self, input: &str) -> Next {
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Next::Continue;
        }
        if let Some(command) = trimmed.strip_prefix(':') {
            return commands::run(self, command);
        }
        self.last_input = input.to_owned();
        self.evaluate(input, true);
        Next::Continue
    }

    /// Evaluates an input of Puppet code; with `echo`, shows its value. Returns whether it
    /// succeeded.
    pub fn evaluate(&mut self, source: &str, echo: bool) -> bool {
        self.inputs += 1;
        let name: Rc<str> = Rc::from(format!("<input {}>", self.inputs));
        self.run_program(source, name, None, echo)
    }

    /// Runs a program as one transaction: it commits when it succeeds (its checkpoint kept
    /// for `:undo`, the program for `:reload`), and is rolled back when it fails, leaving no
    /// trace. `name` is what its positions go by; `file` the manifest it was read from.
    fn run_program(&mut self, source: &str, name: Rc<str>, file: Option<PathBuf>, echo: bool) -> bool {
        let text: Rc<str> = Rc::from(source);
        self.sources.insert(name.clone(), text.clone());
        let checkpoint = self.session.evaluator.checkpoint();
        let ev = &mut self.session.evaluator;
        ev.program_name = Some(name.clone());
        // Positions in a typed input are shown without its name; a file's name its file.
        let typed = file.is_none();
        *self.sink.program.borrow_mut() = typed.then(|| name.clone());
        ev.allow_rebinding(|name| PROTECTED.contains(&name) || result_number(name).is_some());
        self.interrupt.store(false, Ordering::SeqCst);
        let started = Instant::now();
        let mut outcome = self.session.run(source);
        let elapsed = started.elapsed();
        if let Some(error) = outcome.error.as_mut().filter(|e| !typed && e.file.is_none() && e.line > 0) {
            // A loaded file's own positions name it.
            error.file = Some(name.to_string());
        }
        let rebound = self.session.evaluator.take_rebound();
        self.session.evaluator.program_name = None;
        *self.sink.program.borrow_mut() = None;
        let ok = outcome.error.is_none();
        if ok {
            for variable in &rebound {
                self.note(&format!("${variable} reassigned"));
            }
            self.journal.push(Committed { name: name.clone(), text, file, checkpoint: Some(checkpoint) });
            let kept = self.journal.iter().filter(|c| c.checkpoint.is_some()).count();
            if kept > UNDO_DEPTH {
                if let Some(oldest) = self.journal.iter_mut().find(|c| c.checkpoint.is_some()) {
                    oldest.checkpoint = None;
                }
            }
        } else {
            self.session.evaluator.rollback(checkpoint);
        }
        let number = typed.then(|| input_number(&name)).flatten();
        self.show_outcome(&outcome, source, if typed { &name } else { "" }, number, echo);
        if self.settings.timing {
            self.note(&format!("took {}", human_duration(elapsed)));
        }
        self.refresh_names();
        ok
    }

    /// `:undo`: takes back the last input that succeeded; its name, or `None` when there is
    /// nothing to take back.
    pub fn undo(&mut self) -> Result<Rc<str>, &'static str> {
        let Some(last) = self.journal.pop() else { return Err("Nothing to undo.") };
        let Some(checkpoint) = last.checkpoint else {
            self.journal.push(last);
            return Err("Nothing more to undo: the older inputs are no longer kept.");
        };
        self.session.evaluator.rollback(checkpoint);
        if let Some(Value::Undef) | None = self.session.evaluator.top.get("_") {
            self.session.evaluator.top.remove("_");
        }
        self.refresh_names();
        Ok(last.name)
    }

    /// Shows what an input gave: its error, or its value (with `echo`). A typed input's
    /// value that is not undef is kept as `$_` and as `$_N`, `N` its `number`.
    fn show_outcome(&mut self, outcome: &Outcome, source: &str, name: &str, number: Option<usize>, echo: bool) {
        if let Some(error) = &outcome.error {
            if !self.sink.muted.get() {
                self.show_error(error, source, name);
                if self.settings.trace {
                    self.show_trace(error, name);
                }
            }
            let name = if name.is_empty() { error.file.as_deref().unwrap_or_default() } else { name };
            self.last_failure = Some((error.clone(), Rc::from(name)));
            return;
        }
        let value = outcome.value.clone().unwrap_or(Value::Undef);
        // `$_` is the last value that is not undef (as Python's `_` skips None).
        if !value.is_undef() {
            self.session.evaluator.top.replace("_", value.clone());
            if let Some(number) = number {
                self.session.evaluator.top.replace(&format!("_{number}"), value.clone());
            }
        }
        if echo && !self.sink.muted.get() && !(value.is_undef() && only_definitions(source)) {
            let shown = self.show_value(&value);
            println!("=> {shown}");
        }
    }

    /// An error: Puppet's message and location (without the file when it is the program's
    /// own), then the line it points at in the input or file where the failing code was
    /// written.
    pub fn show_error(&self, error: &Failure, source: &str, name: &str) {
        let mut out = std::io::stdout().lock();
        let (red, reset) = if self.settings.colour { ("\x1b[1;31m", "\x1b[0m") } else { ("", "") };
        let here = error.file.as_deref() == Some(name);
        let location = if here { Failure { file: None, ..error.clone() }.location() } else { error.location() };
        let _ = writeln!(out, "{red}Error:{reset} {}{location}", error.message);
        let text_of = |file: &str| match self.sources.get(file) {
            Some(text) => Some(text.to_string()),
            None => crate::excerpt::read_manifest(file),
        };
        let excerpt = if here {
            crate::excerpt::excerpt(source, error.line, error.column, self.settings.colour)
        } else {
            crate::excerpt::of_failure(error, source, text_of, self.settings.colour)
        };
        if let Some(excerpt) = excerpt {
            let _ = writeln!(out, "{excerpt}");
        }
    }

    /// The calls an error unwound through, innermost first, each with where it was made,
    /// after where the error is.
    pub fn show_trace(&self, error: &Failure, name: &str) {
        let place = |file: Option<&str>, line: u32| {
            let file = file.filter(|f| *f != name).unwrap_or(name);
            format!("{file}:{line}")
        };
        let mut lines = Vec::new();
        if error.line > 0 {
            let column = if error.column > 0 { format!(":{}", error.column) } else { String::new() };
            lines.push(format!("  at {}{column}", place(error.file.as_deref(), error.line)));
        }
        for frame in &error.trace {
            lines.push(format!("  in {}(), called at {}", frame.function, place(frame.file.as_deref(), frame.line)));
        }
        if lines.is_empty() {
            self.note("No call trace: the error is not in Puppet code.");
        } else {
            self.note(&format!("Call trace, innermost first:\n{}", lines.join("\n")));
        }
    }

    /// The text a position's file stands for: an input, a loaded file, a module's manifest
    /// (`None`: the last input).
    pub fn text_of(&self, file: Option<&str>) -> Option<String> {
        let Some(file) = file else { return Some(self.last_input.clone()) };
        match self.sources.get(file) {
            Some(text) => Some(text.to_string()),
            None => crate::excerpt::read_manifest(file),
        }
    }

    /// The name of the last input or file that ran, if any.
    pub fn last_input_name(&self) -> Option<String> {
        (self.inputs > 0).then(|| format!("<input {}>", self.inputs))
    }

    /// The last error, with its call trace (`:stacktrace`).
    pub fn last_failure(&self) -> Option<&(Failure, Rc<str>)> {
        self.last_failure.as_ref()
    }

    /// A value as the shell shows it: through the format engine (`%p` unless `:set format`
    /// says otherwise; Sensitive values stay redacted), coloured as Puppet source, with its
    /// type when `:set types on`.
    pub fn show_value(&self, value: &Value) -> String {
        let text = match &self.settings.format {
            None => {
                let one_line = pfmt::convert_with(value, &Value::from("%p"));
                match one_line {
                    // Wider than the terminal: pretty-printed, one entry a line.
                    Ok(text) if text.chars().count() + 3 > terminal_width() => {
                        pfmt::convert_with(value, &Value::from("%#p")).or(Ok(text))
                    }
                    other => other,
                }
            }
            Some(format) => pfmt::string_new(value, Some(format)),
        };
        let mut shown = self.colour_value(text);
        if self.settings.show_types {
            let t = puppet_types::infer::generalize(&puppet_types::infer::infer(value));
            shown.push_str(&self.dim(&format!("  : {t}")));
        }
        shown
    }

    /// A value pretty-printed (`%#p`: one entry a line), coloured as source.
    pub fn show_pretty(&self, value: &Value) -> String {
        self.colour_value(pfmt::convert_with(value, &Value::from("%#p")))
    }

    fn colour_value(&self, text: Result<String, pfmt::FormatError>) -> String {
        let text = text.unwrap_or_else(|e| format!("(cannot be shown: {e})"));
        if self.settings.colour {
            self.highlighter.highlight_value(&text, &Theme::dark())
        } else {
            text
        }
    }

    /// A note (dim on a terminal).
    pub fn note(&self, text: &str) {
        println!("{}", self.dim(text));
    }

    /// A warning (yellow on a terminal).
    pub fn warn(&self, text: &str) -> String {
        if self.settings.colour {
            format!("\x1b[33m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn dim(&self, text: &str) -> String {
        if self.settings.colour {
            format!("\x1b[2m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Reloads the names completion offers from the session.
    pub fn refresh_names(&mut self) {
        let ev = &self.session.evaluator;
        let mut names = self.names.borrow_mut();
        let variables = ev.top.variables();
        names.hashes = variables
            .iter()
            .filter(|(_, v)| matches!(v, Value::Hash(_)))
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect();
        names.variables = variables.into_iter().map(|(n, _)| n.to_string()).collect();
        let mut functions: Vec<String> = ev.registry.names().map(str::to_owned).collect();
        functions.extend(ev.functions.keys().cloned());
        functions.extend(ev.module_functions().into_iter().map(str::to_owned));
        functions.sort();
        functions.dedup();
        names.functions = functions;
        let mut types: Vec<String> = commands::BUILTIN_TYPES.iter().map(|t| (*t).to_owned()).collect();
        types.extend(ev.aliases.values().map(|t| t.to_string()));
        types.sort();
        types.dedup();
        names.types = types;
        let mut definitions = ev.definitions();
        definitions.extend(ev.module_definitions().iter().cloned());
        definitions.sort();
        definitions.dedup();
        names.classes = definitions.iter().filter(|(_, class)| *class).map(|(n, _)| n.clone()).collect();
        names.defined_types = definitions.into_iter().filter(|(_, class)| !class).map(|(n, _)| n).collect();
    }

    /// Starts over: a new session with the same facts, node and options, after which the
    /// init file runs again.
    pub fn reset(&mut self) {
        self.fresh_session();
        self.run_init();
        self.run_main_manifest();
        self.refresh_names();
    }

    /// In an environment, compiles its main manifest (its files as one program, as Puppet
    /// does): the node definitions match the node, whose classes and resources are then in
    /// the catalog. Like the init file, it starts the session: `:reload` and `:reset` run it
    /// again, `:undo` does not take it back. Its errors are shown.
    pub fn run_main_manifest(&mut self) {
        let Some(env) = &self.environment else { return };
        let files = match crate::tools::node::read_manifest(&env.manifest, &env.name) {
            Ok(files) => files,
            Err(message) => {
                println!("Error: {message}");
                return;
            }
        };
        for file in &files {
            self.sources.insert(file.name.clone(), Rc::from(file.text.as_str()));
        }
        let checkpoint = self.session.evaluator.checkpoint();
        let outcome = self.session.run_manifests(&crate::tools::node::programs(&files));
        if let Some(failure) = &outcome.error {
            self.session.evaluator.rollback(checkpoint);
            println!("Error: {}", failure.text_in(&env.name));
        }
        self.refresh_names();
    }

    /// A new session: nothing defined, nothing declared, no history of inputs.
    fn fresh_session(&mut self) {
        self.session =
            new_session(self.session.evaluator.options, &self.facts, &self.node, &self.sink, &self.interrupt);
        if let Some(path) = &self.modulepath {
            self.session.evaluator.set_modulepath(path);
        }
        if let Some(env) = &self.environment {
            env.install(&mut self.session);
        }
        self.journal.clear();
        self.sources.clear();
    }

    /// Runs the init file, if there is one (its errors are shown; it is not one of the
    /// files `:reload` runs again, nor can `:undo` take it back).
    fn run_init(&mut self) {
        let Some(init) = self.init.clone() else { return };
        if let Err(message) = self.load(init) {
            println!("Error: {message}");
        }
        self.loaded.clear();
        self.journal.clear();
    }

    /// The node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Sets one fact for this session and those `:reset` starts (`:set fact`): in `$facts` and
    /// as a top-scope variable.
    pub fn set_fact(&mut self, path: &str, text: &str) -> Result<(), String> {
        puppet_eval::facts::set(&mut self.facts, path, text)?;
        self.refresh_node();
        Ok(())
    }

    /// Sets the node's variables again (facts, `$settings::`) after a change of facts or
    /// options.
    pub fn refresh_node(&mut self) {
        let ev = &self.session.evaluator;
        puppet_eval::facts::install(&ev.top, &self.facts, &self.node, &ev.options);
        self.refresh_names();
    }

    /// The options the shell started with (for `:reset` of settings).
    pub fn base_options(&self) -> Options {
        self.base_options
    }

    pub fn set_log_level(&mut self, level: Level) {
        self.sink.level.set(level);
    }

    pub fn log_level(&self) -> Level {
        self.sink.level.get()
    }

    pub fn set_colour(&mut self, on: bool) {
        self.settings.colour = on;
        self.sink.colour.set(on);
    }

    /// Runs a file with `:load` (remembered for `:reload`): one transaction, its positions
    /// named by its path.
    pub fn load(&mut self, path: PathBuf) -> Result<bool, String> {
        let text = read_manifest(&path)?;
        if !self.loaded.contains(&path) {
            self.loaded.push(path.clone());
        }
        let name: Rc<str> = Rc::from(path.display().to_string());
        Ok(self.run_program(&text, name, Some(path), false))
    }

    /// `:reload`: starts the session again and runs every input that succeeded since, in
    /// order, with the loaded files read afresh: what a file declared before is replaced by
    /// what it declares now. The inputs typed are run quietly (their results and messages
    /// were shown the first time); the files show their messages and errors. An input that
    /// fails now is dropped, with a note. Returns how many inputs ran again.
    pub fn reload(&mut self) -> usize {
        let journal = std::mem::take(&mut self.journal);
        self.fresh_session();
        self.run_init();
        self.run_main_manifest();
        let mut count = 0;
        for entry in journal {
            count += 1;
            let ok = match &entry.file {
                Some(path) => match read_manifest(path) {
                    Ok(text) => self.run_program(&text, entry.name.clone(), Some(path.clone()), false),
                    Err(message) => {
                        println!("Error: {message}");
                        false
                    }
                },
                None => {
                    self.sink.muted.set(true);
                    let ok = self.run_program(&entry.text, entry.name.clone(), None, false);
                    self.sink.muted.set(false);
                    ok
                }
            };
            if !ok && entry.file.is_none() {
                self.note(&format!("{} failed when run again; it is dropped", entry.name));
            }
        }
        self.refresh_names();
        count
    }

    /// The environment's main manifest (a file or a directory), in an environment.
    pub fn main_manifest(&self) -> Option<&PathBuf> {
        self.environment.as_ref().map(|e| &e.manifest)
    }

    /// The files loaded so far, in order.
    pub fn loaded(&self) -> &[PathBuf] {
        &self.loaded
    }

    pub fn last_input(&self) -> &str {
        &self.last_input
    }

    pub fn highlighter(&self) -> &Highlighter {
        &self.highlighter
    }

    /// Puppet source coloured as the editor shows it (plain without colour).
    pub fn paint_source(&self, text: &str) -> String {
        if self.settings.colour {
            self.highlighter.paint(text, &Theme::dark(), None)
        } else {
            text.to_owned()
        }
    }
}

/// Variables that belong to Puppet or to the shell; assigning them stays Puppet's error.
/// The numbered results (`$_3`) are the shell's too.
const PROTECTED: &[&str] = &["facts", "trusted", "server_facts", "environment", "_"];

/// `N` of the name `<input N>` of a typed input.
fn input_number(name: &str) -> Option<usize> {
    name.strip_prefix("<input ")?.strip_suffix('>')?.parse().ok()
}

/// `N` when `name` is that of the numbered result `$_N` of input N.
pub fn result_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('_')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    digits.parse().ok()
}

/// Whether a program only defines (functions, type aliases, classes, defined types, nodes):
/// its undef value is not worth echoing.
fn only_definitions(source: &str) -> bool {
    let Ok(program) = puppet_syntax::analyze(source).result else { return false };
    let statements = match program.body.as_ref().map(|b| &b.kind) {
        Some(ExprKind::Block(statements)) => statements.as_slice(),
        Some(_) => program.body.as_slice(),
        None => return true,
    };
    statements.iter().all(|s| {
        matches!(
            s.kind,
            ExprKind::Function { .. }
                | ExprKind::TypeAlias { .. }
                | ExprKind::Class { .. }
                | ExprKind::Define { .. }
                | ExprKind::Node { .. }
        )
    })
}

/// The terminal's width in columns (80 when it cannot be told).
fn terminal_width() -> usize {
    terminal_size::terminal_size().map_or(80, |(w, _)| usize::from(w.0))
}

/// How many inputs `:undo` can take back.
const UNDO_DEPTH: usize = 100;

/// An input that succeeded.
struct Committed {
    /// What its positions go by: `<input 3>`, a loaded file's path.
    name: Rc<str>,
    text: Rc<str>,
    /// The file it was read from (`:load`).
    file: Option<PathBuf>,
    /// The session before it ran, while `:undo` can still go back there.
    checkpoint: Option<Checkpoint>,
}

/// A manifest's text (Puppet's encoding rules: UTF-8, a BOM refused).
fn read_manifest(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("Could not read {}: {e}", path.display()))?;
    Ok(puppet_syntax::lexer::check_encoding(&bytes).map_err(|d| d.message)?.to_owned())
}

/// How the session's log lines are shown: the shell's settings, shared with the session's
/// sink.
#[derive(Clone)]
struct Sink {
    /// The lowest level shown.
    level: Rc<Cell<Level>>,
    colour: Rc<Cell<bool>>,
    /// Nothing is shown (`:reload` running the inputs again).
    muted: Rc<Cell<bool>>,
    /// The name of the program running (`<input 3>`): positions in it are shown without it.
    program: Rc<RefCell<Option<Rc<str>>>>,
}

fn new_session(
    options: Options,
    facts: &puppet_types::value::Hash,
    node: &str,
    sink: &Sink,
    interrupt: &Arc<AtomicBool>,
) -> Session {
    let mut session = Session::new(options, facts, node);
    let sink = sink.clone();
    session.evaluator.set_sink(Box::new(move |log: &Log| {
        if sink.muted.get() || log.level < sink.level.get() {
            return;
        }
        match &*sink.program.borrow() {
            Some(name) => {
                let message = log.message.replace(&format!("(file: {name}, "), "(");
                print_log(&Log { level: log.level, message, source: None, location: None }, sink.colour.get());
            }
            None => print_log(log, sink.colour.get()),
        }
    }));
    session.evaluator.interrupt = interrupt.clone();
    session
}

/// A log line as it happens: `Notice: message`, the level coloured on a terminal.
fn print_log(log: &Log, colour: bool) {
    let paint = match (colour, log.level) {
        (false, _) => "",
        (true, Level::Debug | Level::Info) => "\x1b[2m",
        (true, Level::Notice) => "\x1b[36m",
        (true, Level::Warning) => "\x1b[33m",
        (true, _) => "\x1b[31m",
    };
    let reset = if paint.is_empty() { "" } else { "\x1b[0m" };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{paint}{}:{reset} {}", log.level.label(), log.message);
    let _ = out.flush();
}

fn human_duration(d: Duration) -> String {
    let micros = d.as_micros();
    if micros < 1_000 {
        format!("{micros} µs")
    } else if micros < 1_000_000 {
        format!("{:.2} ms", d.as_secs_f64() * 1e3)
    } else {
        format!("{:.3} s", d.as_secs_f64())
    }
}

/// Where history is kept: `$XDG_STATE_HOME/poppet/history` (`~/.local/state/poppet/history`).
pub fn default_history_path() -> Option<PathBuf> {
    Some(dirs::state_dir()?.join("poppet").join("history"))
}

/// The init file: `$XDG_CONFIG_HOME/poppet/init.pp` (`~/.config/poppet/init.pp`), when it exists.
pub fn default_init_path() -> Option<PathBuf> {
    let path = dirs::config_dir()?.join("poppet").join("init.pp");
    path.is_file().then_some(path)
}

pub(crate) const PROMPT: &str = "poppet> ";

/// Runs the interactive shell until `:quit` or Ctrl-D.
pub fn run(config: Config) -> ExitCode {
    let mut shell = Shell::new(&config);
    // Ctrl-C while code runs stops it; while editing, the editor reads it as a key.
    let flag = shell.interrupt.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));

    // With standard output piped, the editor works on the terminal itself: only results go
    // down the pipe, not the editor's escape sequences. A dumb terminal gets plain lines.
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    let use_tty = !std::io::stdout().is_terminal();
    let mut editor = match Editor::new(dumb, use_tty, shell.highlighter.clone(), shell.names.clone()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("Error: the line editor could not start: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(path) = &config.history {
        let _ = editor.history_mut().load(path);
    }
    let editor = Rc::new(RefCell::new(editor));
    shell.session.evaluator.breakpoint = Some(debugger::hook(
        editor.clone(),
        shell.sink.colour.clone(),
        shell.highlighter.clone(),
        config.history.clone(),
    ));
    if !config.quiet {
        println!(
            "Poppet {}: the Puppet language, evaluated as Puppet 7.23 does. :help for commands, Ctrl-D to quit.",
            env!("CARGO_PKG_VERSION")
        );
    }
    shell.run_init();
    shell.run_main_manifest();
    loop {
        editor.borrow_mut().set_colour(shell.settings.colour);
        let read = editor.borrow_mut().read_line(PROMPT);
        match read {
            Ok(input) => {
                if !input.trim().is_empty() {
                    remember(&mut editor.borrow_mut(), &input, config.history.as_deref());
                }
                match shell.handle(&input) {
                    Next::Quit => break,
                    Next::History(count) => print_history(editor.borrow().history(), count),
                    Next::Run(text) => {
                        println!("{}", shell.paint_source(&text));
                        editor.borrow_mut().history_mut().add(&text);
                        shell.handle(&text);
                    }
                    Next::Continue => {}
                }
            }
            // Ctrl-C at the prompt clears the input.
            Err(ReadError::Interrupted) => continue,
            Err(ReadError::Eof) => break,
            Err(e) => {
                eprintln!("Error: {e}");
                break;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Adds an input to the history, and to the history file when there is one.
fn remember(editor: &mut Editor, input: &str, path: Option<&std::path::Path>) {
    editor.history_mut().add(input);
    if let Some(path) = path {
        save_history(editor, path);
    }
}

fn save_history(editor: &mut Editor, path: &std::path::Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = editor.history_mut().append(path);
}

/// `:history [N]`: the last N entries (all by default), numbered.
fn print_history(history: &editor::history::History, count: Option<usize>) {
    let entries = history.entries();
    let len = entries.len();
    let take = count.unwrap_or(len).min(len);
    for (index, entry) in entries.iter().enumerate().skip(len - take) {
        let text = entry.replace('\n', "\n      ");
        println!("{:>5} {text}", index + 1);
    }
}

/// Whether the shell should start: no code given and standard input is a terminal.
pub fn wanted() -> bool {
    std::io::stdin().is_terminal()
}
