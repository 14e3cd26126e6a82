//! The interactive shell: `poppet` without arguments on a terminal.
//!
//! One [`Shell`] holds the session (the evaluator and its top scope) and the settings; the
//! line editor (rustyline) gets a `helper::PuppetHelper` that highlights with the grammar's
//! `highlights.scm`, asks the grammar whether the input is complete ([`validate`]), completes
//! names by context ([`complete`]) and hints from history. Inputs starting with `:` are
//! meta-commands ([`commands`]); everything else is Puppet code, evaluated against the
//! persistent scope, its value echoed as a Puppet literal (`=> [1, 'a']`) and kept in `$_`.
//!
//! The helper never borrows the session: completion reads [`Names`], a snapshot of the names
//! refreshed after each input.
//!
//! - **Line editing**: Emacs keys; Alt-Enter inserts a line break, a bracketed paste inserts
//!   a block whole, a multi-line input is one history entry, and history lives in
//!   `$XDG_STATE_HOME/poppet/history`.
//! - **Results** are echoed through the format engine (`%p`, or the `:set format` string or
//!   format map) and coloured by the same highlighter as the input, since a `%p` result is
//!   Puppet source; `$_` is the last result that is not undef. Errors show Puppet's message,
//!   the location and the source line with a caret (`Failure::excerpt`, shared with the
//!   runner).
//! - **The prompt is not one program.** A top-level variable assigned again at the prompt is
//!   removed first (a note says so; it is restored when the input fails), while inside one
//!   input Puppet's "Cannot reassign" holds. A function or type alias defined again replaces
//!   the old one (the evaluator's redefinition error is per program).
//! - **Interrupts**: rustyline reads Ctrl-C as a key while editing (the input is cleared);
//!   while code runs, Ctrl-C is a signal that sets the evaluator's interrupt flag.

pub mod commands;
pub mod complete;
mod helper;
pub mod highlight;
pub mod validate;

use std::cell::{Cell, RefCell};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use puppet_syntax::ast::{Expr, ExprKind};
use puppet_types::Value;
use rustyline::error::ReadlineError;
use rustyline::history::{FileHistory, History};
use rustyline::{
    Cmd, CompletionType, Config as EditorConfig, EditMode, Editor, EventHandler, KeyCode, KeyEvent, Modifiers,
};

use highlight::{Highlighter, Theme};
use puppet_eval::{Level, Log, Options, Outcome, Session};

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
    pub fact_keys: Vec<String>,
    pub functions: Vec<String>,
    pub types: Vec<String>,
    pub classes: Vec<String>,
}

/// The interactive session.
pub struct Shell {
    pub session: Session,
    pub settings: Settings,
    facts: puppet_types::value::Hash,
    node: String,
    base_options: Options,
    modulepath: Option<String>,
    /// The lowest log level shown (shared with the session's log sink).
    log_level: Rc<Cell<Level>>,
    sink_colour: Rc<Cell<bool>>,
    names: Rc<RefCell<Names>>,
    highlighter: Rc<Highlighter>,
    interrupt: Arc<AtomicBool>,
    /// Files run with `:load`, for `:reload`.
    loaded: Vec<PathBuf>,
    /// The last Puppet input, for `:edit`.
    last_input: String,
    /// The variables Puppet sets before any input (facts, `$trusted`, `$name`, ...), which
    /// `:vars` leaves out unless asked.
    preset: std::collections::HashSet<String>,
}

impl Shell {
    pub fn new(config: &Config) -> Shell {
        let log_level = Rc::new(Cell::new(config.log_level));
        let sink_colour = Rc::new(Cell::new(config.colour));
        let interrupt = Arc::new(AtomicBool::new(false));
        let mut session =
            new_session(config.options, &config.facts, &config.node, &log_level, &sink_colour, &interrupt);
        if let Some(path) = &config.modulepath {
            session.evaluator.set_modulepath(path);
        }
        let mut shell = Shell {
            session,
            settings: Settings { format: None, colour: config.colour, timing: false, show_types: false },
            facts: config.facts.clone(),
            node: config.node.clone(),
            base_options: config.options,
            modulepath: config.modulepath.clone(),
            log_level,
            sink_colour,
            names: Rc::default(),
            highlighter: Rc::new(Highlighter::new()),
            interrupt,
            loaded: Vec::new(),
            last_input: String::new(),
            preset: Default::default(),
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

    /// Evaluates Puppet code; with `echo`, shows its value. Returns whether it succeeded.
    pub fn evaluate(&mut self, source: &str, echo: bool) -> bool {
        let replaced = self.prepare_redefinitions(source);
        self.interrupt.store(false, Ordering::SeqCst);
        let started = Instant::now();
        let outcome = self.session.run(source);
        let elapsed = started.elapsed();
        let ok = outcome.error.is_none();
        if ok {
            for (name, _) in &replaced {
                self.note(&format!("${name} reassigned"));
            }
        } else {
            // The input did not run to its end: variables it did not set keep their values.
            for (name, old) in replaced {
                if !self.session.evaluator.top.has_own(&name) {
                    self.session.evaluator.top.bind(name.as_str().into(), old);
                }
            }
        }
        self.show_outcome(&outcome, source, echo);
        if self.settings.timing {
            self.note(&format!("took {}", human_duration(elapsed)));
        }
        self.refresh_names();
        ok
    }

    fn show_outcome(&mut self, outcome: &Outcome, source: &str, echo: bool) {
        let mut out = std::io::stdout().lock();
        if let Some(error) = &outcome.error {
            let (red, reset) = if self.settings.colour { ("\x1b[1;31m", "\x1b[0m") } else { ("", "") };
            let _ = writeln!(out, "{red}Error:{reset} {}{}", error.message, error.location());
            if let Some(excerpt) = error.excerpt(source, self.settings.colour) {
                let _ = writeln!(out, "{excerpt}");
            }
            return;
        }
        // `$_` is the last value that is not undef (as Python's `_` skips None).
        let Some(value) = outcome.value.as_ref().filter(|v| !v.is_undef()) else { return };
        self.session.evaluator.top.replace("_", value.clone());
        if !echo {
            return;
        }
        let shown = self.show_value(value);
        let _ = writeln!(out, "=> {shown}");
    }

    /// A value as the shell shows it: through the format engine (`%p` unless `:set format`
    /// says otherwise; Sensitive values stay redacted), coloured as Puppet source, with its
    /// type when `:set types on`.
    pub fn show_value(&self, value: &Value) -> String {
        let text = match &self.settings.format {
            None => pfmt::convert_with(value, &Value::from("%p")),
            Some(format) => pfmt::string_new(value, Some(format)),
        };
        let text = text.unwrap_or_else(|e| format!("(cannot be shown: {e})"));
        let mut shown =
            if self.settings.colour { self.highlighter.highlight_value(&text, &Theme::dark()) } else { text };
        if self.settings.show_types {
            let t = puppet_types::infer::generalize(&puppet_types::infer::infer(value));
            shown.push_str(&self.dim(&format!("  : {t}")));
        }
        shown
    }

    /// A note (dim on a terminal).
    pub fn note(&self, text: &str) {
        println!("{}", self.dim(text));
    }

    fn dim(&self, text: &str) -> String {
        if self.settings.colour {
            format!("\x1b[2m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// At the prompt, top-level variables assigned by `source` that already exist are
    /// removed first (returned with their values, to restore when the input fails). (A
    /// function or type alias defined again replaces the old one in the evaluator already:
    /// Puppet's redefinition error is about one program.)
    fn prepare_redefinitions(&mut self, source: &str) -> Vec<(String, Value)> {
        let Ok(program) = puppet_syntax::analyze(source).result else { return Vec::new() };
        let mut replaced = Vec::new();
        let mut assigned = Vec::new();
        let statements = match program.body.as_ref().map(|b| &b.kind) {
            Some(ExprKind::Block(statements)) => statements.as_slice(),
            Some(_) => program.body.as_slice(),
            None => &[],
        };
        for statement in statements {
            assigned_variables(statement, &mut assigned);
        }
        for name in assigned {
            if PROTECTED.contains(&name.as_str()) || replaced.iter().any(|(n, _)| *n == name) {
                continue;
            }
            if let Some(old) = self.session.evaluator.top.remove(&name) {
                replaced.push((name, old));
            }
        }
        replaced
    }

    /// Reloads the names completion offers from the session.
    pub fn refresh_names(&mut self) {
        let ev = &self.session.evaluator;
        let mut names = self.names.borrow_mut();
        names.variables = ev.top.variables().iter().map(|(n, _)| n.to_string()).collect();
        names.fact_keys = match &ev.top.get("facts") {
            Some(Value::Hash(h)) => h.keys().filter_map(|k| k.as_str().map(str::to_owned)).collect(),
            _ => Vec::new(),
        };
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
        names.classes = ev.classes.iter().cloned().collect();
    }

    /// Starts over: a new session with the same facts, node and options.
    pub fn reset(&mut self) {
        self.session = new_session(
            self.session.evaluator.options,
            &self.facts,
            &self.node,
            &self.log_level,
            &self.sink_colour,
            &self.interrupt,
        );
        if let Some(path) = &self.modulepath {
            self.session.evaluator.set_modulepath(path);
        }
        self.refresh_names();
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
        self.log_level.set(level);
    }

    pub fn log_level(&self) -> Level {
        self.log_level.get()
    }

    pub fn set_colour(&mut self, on: bool) {
        self.settings.colour = on;
        self.sink_colour.set(on);
    }

    /// Runs a file with `:load` (remembered for `:reload`).
    pub fn load(&mut self, path: PathBuf) -> Result<(), String> {
        let bytes = std::fs::read(&path).map_err(|e| format!("Could not read {}: {e}", path.display()))?;
        let text = puppet_syntax::lexer::check_encoding(&bytes).map_err(|d| d.message)?.to_owned();
        if !self.loaded.contains(&path) {
            self.loaded.push(path);
        }
        self.evaluate(&text, false);
        Ok(())
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

/// Variables that belong to Puppet; assigning them stays Puppet's error.
const PROTECTED: &[&str] = &["facts", "trusted", "server_facts", "environment", "_"];

/// The variables a top-level statement assigns (`$x = …`, `[$a, $b] = …`, chained `=`).
fn assigned_variables(e: &Expr, out: &mut Vec<String>) {
    if let ExprKind::Assignment { left, right, .. } = &e.kind {
        collect_targets(left, out);
        assigned_variables(right, out);
    }
}

fn collect_targets(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Variable(name) => out.push(name.trim_start_matches("::").to_owned()),
        ExprKind::Array(items) => items.iter().for_each(|i| collect_targets(i, out)),
        _ => {}
    }
}

fn new_session(
    options: Options,
    facts: &puppet_types::value::Hash,
    node: &str,
    level: &Rc<Cell<Level>>,
    colour: &Rc<Cell<bool>>,
    interrupt: &Arc<AtomicBool>,
) -> Session {
    let mut session = Session::new(options, facts, node);
    let (level, colour) = (level.clone(), colour.clone());
    session.evaluator.set_sink(Box::new(move |log: &Log| print_log(log, level.get(), colour.get())));
    session.evaluator.interrupt = interrupt.clone();
    session
}

/// A log line as it happens: `Notice: message`, the level coloured on a terminal.
fn print_log(log: &Log, min_level: Level, colour: bool) {
    if log.level < min_level {
        return;
    }
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

const PROMPT: &str = "poppet> ";

/// Runs the interactive shell until `:quit` or Ctrl-D.
pub fn run(config: Config) -> ExitCode {
    let mut shell = Shell::new(&config);
    // Ctrl-C while code runs stops it; while editing, the editor reads it as a key.
    let flag = shell.interrupt.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));

    let mut editor = match new_editor() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("Error: the line editor could not start: {e}");
            return ExitCode::from(1);
        }
    };
    let colour = Rc::new(Cell::new(config.colour));
    editor.set_helper(Some(helper::PuppetHelper::new(shell.highlighter.clone(), shell.names.clone(), colour.clone())));
    if let Some(path) = &config.history {
        let _ = editor.load_history(path);
    }
    if !config.quiet {
        println!(
            "Poppet {}: the Puppet language, evaluated as Puppet 7.23 does. :help for commands, Ctrl-D to quit.",
            env!("CARGO_PKG_VERSION")
        );
    }
    if let Some(init) = &config.init {
        if let Err(message) = shell.load(init.clone()) {
            println!("Error: {message}");
        }
        shell.loaded.clear();
    }
    loop {
        colour.set(shell.settings.colour);
        match editor.readline(PROMPT) {
            Ok(input) => {
                if !input.trim().is_empty() {
                    let _ = editor.add_history_entry(input.as_str());
                    if let Some(path) = &config.history {
                        save_history(&mut editor, path);
                    }
                }
                match shell.handle(&input) {
                    Next::Quit => break,
                    Next::History(count) => print_history(editor.history(), count),
                    Next::Run(text) => {
                        println!("{}", shell.paint_source(&text));
                        let _ = editor.add_history_entry(text.as_str());
                        shell.handle(&text);
                    }
                    Next::Continue => {}
                }
            }
            // Ctrl-C at the prompt clears the input.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("Error: {e}");
                break;
            }
        }
    }
    ExitCode::SUCCESS
}

/// The line editor: Emacs keys, completions listed, one history entry per input (a
/// multi-line block is one entry), pasted blocks inserted whole (bracketed paste).
fn new_editor() -> rustyline::Result<Editor<helper::PuppetHelper, FileHistory>> {
    let config = EditorConfig::builder()
        .edit_mode(EditMode::Emacs)
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .bracketed_paste(true)
        .history_ignore_space(true)
        .history_ignore_dups(true)?
        .max_history_size(10_000)?
        .build();
    let mut editor = Editor::with_config(config)?;
    editor.bind_sequence(KeyEvent(KeyCode::Enter, Modifiers::ALT), EventHandler::Simple(Cmd::Newline));
    Ok(editor)
}

fn save_history(editor: &mut Editor<helper::PuppetHelper, FileHistory>, path: &std::path::Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = editor.append_history(path);
}

/// `:history [N]`: the last N entries (all by default), numbered.
fn print_history(history: &FileHistory, count: Option<usize>) {
    let len = history.len();
    let take = count.unwrap_or(len).min(len);
    for index in len - take..len {
        if let Ok(Some(entry)) = history.get(index, rustyline::history::SearchDirection::Forward) {
            let text = entry.entry.replace('\n', "\n      ");
            println!("{:>5} {text}", index + 1);
        }
    }
}

/// Whether the shell should start: no code given and standard input is a terminal.
pub fn wanted() -> bool {
    std::io::stdin().is_terminal()
}
