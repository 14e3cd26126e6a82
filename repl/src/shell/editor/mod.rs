//! The shell's line editor: Emacs keys over a multi-line buffer, drawn on the terminal in
//! proportion to each change.
//!
//! [`Editor::read_line`] reads one input. The first line shows the prompt and every further
//! line the continuation prompt ([`CONTINUATION`], as wide as the prompt). Enter runs the
//! input when the grammar says it is complete ([`verdict`]) and otherwise starts a new line
//! indented as the line before, one level (two spaces) more after an unclosed `{`, `[` or
//! `(`; a closing bracket typed at the start of an indented line takes a level back. Alt-Enter
//! always starts a new line.
//!
//! - **Drawing** ([`View`], [`render`]): the buffer is highlighted (`highlight.rs`), split
//!   into painted lines with their prompts and the history hint, and only the lines whose
//!   painted text changed are written again.
//! - **Keys** ([`keys`]): Ctrl-A/E/B/F/K/U/W/Y/D/H/L/T, Alt-B/F/D, arrows, Home/End, Delete,
//!   Backspace; Up and Down move between the lines of the input and through history at its
//!   first and last line; Ctrl-R searches history backwards as you type; Tab completes
//!   (`complete.rs`): one candidate is inserted, several insert their common prefix and a
//!   second Tab lists them in columns; Right or End at the end takes the hint (the rest of
//!   the newest history entry that starts with the input, shown dim); a bracketed paste is
//!   inserted whole.
//! - **Terminal** ([`terminal`]): raw mode while a line is read, restored after it and on a
//!   panic; bytes typed ahead are kept for the next line; with standard output piped, the
//!   editor uses `/dev/tty`. On a dumb terminal the editor reads plain lines.
//! - **History** ([`history`]): one entry per input, in rustyline's file format.

pub mod buffer;
pub mod history;
pub mod keys;
pub mod render;
pub mod terminal;

use std::cell::RefCell;
use std::rc::Rc;

use unicode_width::UnicodeWidthChar;

use super::complete;
use super::highlight::{matching_bracket, Highlighter, Theme};
use super::validate::{verdict, Verdict};
use super::Names;
use buffer::Buffer;
use history::History;
use keys::{decode, Decoded, Key};
use render::{Line, Renderer};
use terminal::{Input, Terminal};

/// The prompt of the lines after the first, as wide as the shell's prompt.
pub const CONTINUATION: &str = "   ...> ";

/// Why no input was read.
#[derive(Debug)]
pub enum ReadError {
    /// Ctrl-C: the input was dropped.
    Interrupted,
    /// Ctrl-D on an empty input, or the terminal closed.
    Eof,
    Io(std::io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Interrupted => f.write_str("interrupted"),
            ReadError::Eof => f.write_str("end of input"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// The columns `text` takes when it starts at column `start`: characters by their display
/// width, a tab to the next multiple of eight, control characters none.
pub fn columns(text: &str, start: usize) -> usize {
    wrapped_columns(text, start, usize::MAX)
}

/// [`columns`] on a terminal `wrap` columns wide: a wide character that does not fit on the
/// end of a row goes to the next, and the column it leaves empty counts.
pub fn wrapped_columns(text: &str, start: usize, wrap: usize) -> usize {
    let mut column = start;
    for c in text.chars() {
        let width = match c {
            '\t' => 8 - column % 8,
            c => c.width().unwrap_or(0),
        };
        if width > 1 && wrap > width && column % wrap + width > wrap {
            column += wrap - column % wrap;
        }
        column += width;
    }
    column - start
}

/// What one frame shows.
pub struct Scene<'a> {
    pub prompt: &'a str,
    pub text: &'a str,
    pub cursor: usize,
    /// Ghost text after the input (the cursor is at its end).
    pub hint: Option<&'a str>,
    /// Emphasise the bracket pair at the cursor.
    pub brackets: bool,
}

/// Turns the buffer into painted frame lines and draws them: the highlighter, the theme,
/// and the renderer holding what the screen shows.
pub struct View {
    highlighter: Rc<Highlighter>,
    theme: Theme,
    pub colour: bool,
    pub renderer: Renderer,
}

impl View {
    pub fn new(highlighter: Rc<Highlighter>, colour: bool, columns: usize) -> View {
        View { highlighter, theme: Theme::dark(), colour, renderer: Renderer::new(columns) }
    }

    /// The frame's lines and the cursor's line and column.
    pub fn frame(&self, scene: &Scene<'_>) -> (Vec<Line>, (usize, usize)) {
        let text = scene.text;
        let painted = if self.colour && !text.trim_start().starts_with(':') {
            let pair = if scene.brackets { matching_bracket(text, scene.cursor) } else { None };
            self.highlighter.paint_statements(text, &self.theme, pair)
        } else {
            text.to_owned()
        };
        let paint_prompt = |p: &str| if self.colour { format!("\x1b[1;32m{p}\x1b[0m") } else { p.to_owned() };
        let first = paint_prompt(scene.prompt);
        let rest = paint_prompt(CONTINUATION);
        let wrap = self.renderer.columns();
        let prompt_width = wrapped_columns(scene.prompt, 0, wrap);
        let continuation_width = wrapped_columns(CONTINUATION, 0, wrap);
        let mut lines: Vec<Line> = Vec::with_capacity(text.len() / 32 + 1);
        for (i, (plain, painted)) in text.split('\n').zip(painted.split('\n')).enumerate() {
            let (prompt, width) = if i == 0 { (&first, prompt_width) } else { (&rest, continuation_width) };
            let mut line = String::with_capacity(prompt.len() + painted.len());
            line.push_str(prompt);
            line.push_str(painted);
            lines.push(Line { width: width + wrapped_columns(plain, width, wrap), painted: line });
        }
        if let (Some(hint), Some(last)) = (scene.hint.filter(|h| !h.is_empty()), lines.last_mut()) {
            let shown = hint.split('\n').next().unwrap_or_default();
            if self.colour {
                last.painted.push_str(&format!("\x1b[2m{shown}\x1b[0m"));
            } else {
                last.painted.push_str(shown);
            }
            last.width += wrapped_columns(shown, last.width, wrap);
        }
        let before = &text[..scene.cursor.min(text.len())];
        let line = before.matches('\n').count();
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        let width = if line == 0 { prompt_width } else { continuation_width };
        (lines, (line, width + wrapped_columns(&before[start..], width, wrap)))
    }

    /// Writes to `out` what draws `scene` over the frame on the screen.
    pub fn draw(&mut self, scene: &Scene<'_>, out: &mut String) {
        let (lines, cursor) = self.frame(scene);
        self.renderer.render(lines, cursor, out);
    }
}

/// The indentation Enter gives the next line: the current line's, a level more when it
/// leaves a bracket open before the cursor.
pub fn indentation(line: &str) -> String {
    let indent: String = line.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let mut depth: i32 = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '#' => break,
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => depth -= 1,
                _ => {}
            },
        }
    }
    if depth > 0 {
        format!("{indent}  ")
    } else {
        indent
    }
}

/// Ctrl-R's state: what is searched for and the entry found.
struct Search {
    query: String,
    /// The history index of the entry shown.
    found: Option<usize>,
    /// The input before the search, for Ctrl-G.
    original: Buffer,
}

/// What a key did.
enum Outcome {
    Continue,
    Done(Result<String, ReadError>),
}

/// The line editor of the shell.
pub struct Editor {
    /// `None` on a dumb terminal: plain lines are read.
    terminal: Option<Terminal>,
    history: History,
    highlighter: Rc<Highlighter>,
    names: Rc<RefCell<Names>>,
    colour: bool,
    /// What Ctrl-K/U/W and Alt-D removed last, for Ctrl-Y.
    killed: String,
}

/// One `read_line`'s state.
struct Session {
    buffer: Buffer,
    /// The history entry shown (`history.len()`: the input being typed).
    index: usize,
    /// The input being typed while history is shown.
    typed: Option<String>,
    search: Option<Search>,
    /// The last key was Tab (a second one lists the candidates).
    tabbed: bool,
    /// Candidates too many to list unasked: `y` lists them.
    asked: Option<Vec<String>>,
}

impl Editor {
    /// An editor on the terminal (`/dev/tty` when `use_tty`), or reading plain lines when
    /// `plain` (a dumb terminal, or standard input not a terminal).
    pub fn new(
        plain: bool,
        use_tty: bool,
        highlighter: Rc<Highlighter>,
        names: Rc<RefCell<Names>>,
    ) -> std::io::Result<Editor> {
        let terminal = if plain { None } else { Some(Terminal::open(use_tty)?) };
        Ok(Editor { terminal, history: History::new(), highlighter, names, colour: false, killed: String::new() })
    }

    pub fn set_colour(&mut self, colour: bool) {
        self.colour = colour;
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn history_mut(&mut self) -> &mut History {
        &mut self.history
    }

    /// Reads one input after `prompt`.
    pub fn read_line(&mut self, prompt: &str) -> Result<String, ReadError> {
        if self.terminal.is_none() {
            return read_plain(prompt);
        }
        let mut terminal = self.terminal.take().ok_or(ReadError::Eof)?;
        let result = self.read_terminal(&mut terminal, prompt);
        self.terminal = Some(terminal);
        result
    }

    fn read_terminal(&mut self, terminal: &mut Terminal, prompt: &str) -> Result<String, ReadError> {
        let mut raw = Some(terminal.raw()?);
        let mut view = View::new(self.highlighter.clone(), self.colour, terminal.columns());
        view.renderer.set_height(terminal.rows());
        let mut session = Session {
            buffer: Buffer::default(),
            index: self.history.len(),
            typed: None,
            search: None,
            tabbed: false,
            asked: None,
        };
        let mut out = String::from("\x1b[?2004h");
        self.draw(&mut view, &session, prompt, &mut out);
        terminal.write(out.as_bytes())?;
        let mut waited = false;
        loop {
            match decode(&terminal.pending, waited) {
                Decoded::Key(key, n) => {
                    terminal.pending.drain(..n.min(terminal.pending.len()));
                    waited = false;
                    let mut out = String::new();
                    if key == Key::Ctrl('z') {
                        // Suspended as the shell's job: the terminal as it was meanwhile,
                        // the input drawn anew on return.
                        view.renderer.finish(&mut out);
                        terminal.write(out.as_bytes())?;
                        drop(raw.take());
                        let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGTSTP);
                        raw = Some(terminal.raw()?);
                        let mut out = String::new();
                        view.renderer.resize(terminal.columns(), terminal.rows(), &mut out);
                        self.draw(&mut view, &session, prompt, &mut out);
                        terminal.write(out.as_bytes())?;
                        continue;
                    }
                    let outcome = self.key(key, &mut session, &mut view, prompt, &mut out);
                    if let Outcome::Done(result) = outcome {
                        out.push_str("\x1b[?2004l");
                        terminal.write(out.as_bytes())?;
                        return result;
                    }
                    // Draw once the keys typed ahead are handled.
                    if session.asked.is_none() && !matches!(decode(&terminal.pending, false), Decoded::Key(..)) {
                        self.draw(&mut view, &session, prompt, &mut out);
                    }
                    if !out.is_empty() {
                        terminal.write(out.as_bytes())?;
                    }
                }
                Decoded::More => {
                    let wait = if terminal.pending.is_empty() || waited { None } else { Some(50) };
                    match terminal.read(wait)? {
                        Input::Bytes => {}
                        Input::Timeout => waited = wait.is_some(),
                        Input::Resized => {
                            let mut out = String::new();
                            view.renderer.resize(terminal.columns(), terminal.rows(), &mut out);
                            self.draw(&mut view, &session, prompt, &mut out);
                            terminal.write(out.as_bytes())?;
                        }
                        Input::Closed => {
                            // Nothing more comes: what is left cannot become a key.
                            if terminal.pending.is_empty() || waited {
                                terminal.pending.clear();
                                let mut out = String::new();
                                view.renderer.finish(&mut out);
                                out.push_str("\x1b[?2004l");
                                terminal.write(out.as_bytes())?;
                                return Err(ReadError::Eof);
                            }
                            waited = true;
                        }
                    }
                }
            }
        }
    }

    /// The hint for the input: the rest of the newest history entry that starts with it,
    /// when the cursor is at its end.
    fn hint(&self, session: &Session) -> Option<String> {
        let text = session.buffer.text();
        if text.is_empty() || session.buffer.cursor() < text.len() || session.search.is_some() {
            return None;
        }
        let entries = &self.history.entries()[..session.index.min(self.history.len())];
        let entries = if entries.is_empty() { self.history.entries() } else { entries };
        let found = entries.iter().rev().find(|e| e.starts_with(text))?;
        (found.len() > text.len()).then(|| found[text.len()..].to_owned())
    }

    fn draw(&self, view: &mut View, session: &Session, prompt: &str, out: &mut String) {
        let hint = self.hint(session);
        let search_prompt;
        let prompt = match &session.search {
            Some(search) => {
                let state = if search.found.is_none() && !search.query.is_empty() { "failed " } else { "" };
                search_prompt = format!("({state}reverse-i-search)`{}': ", search.query);
                search_prompt.as_str()
            }
            None => prompt,
        };
        let scene = Scene {
            prompt,
            text: session.buffer.text(),
            cursor: session.buffer.cursor(),
            hint: hint.as_deref(),
            brackets: true,
        };
        view.draw(&scene, out);
    }

    /// Ends the input: drawn once more without hint, the cursor after it.
    fn accept(&mut self, session: &mut Session, view: &mut View, prompt: &str, out: &mut String) -> Outcome {
        let end = session.buffer.text().len();
        session.buffer.set_cursor(end);
        let scene = Scene { prompt, text: session.buffer.text(), cursor: end, hint: None, brackets: false };
        view.draw(&scene, out);
        view.renderer.finish(out);
        Outcome::Done(Ok(session.buffer.text().to_owned()))
    }

    fn key(&mut self, key: Key, session: &mut Session, view: &mut View, prompt: &str, out: &mut String) -> Outcome {
        if session.search.is_some() {
            match self.search_key(&key, session) {
                Some(key) => return self.key(key, session, view, prompt, out),
                None => return Outcome::Continue,
            }
        }
        if let Some(candidates) = session.asked.take() {
            // The answer to "Display all N possibilities?": `y` or space lists them.
            if matches!(key, Key::Char('y' | 'Y' | ' ')) {
                let displays: Vec<&str> = candidates.iter().map(String::as_str).collect();
                out.push_str(&list_columns(&displays, view.renderer_columns()));
            } else {
                out.push_str("\r\n");
            }
            view.renderer.forget();
            return Outcome::Continue;
        }
        let tabbed = std::mem::take(&mut session.tabbed);
        let buffer = &mut session.buffer;
        match key {
            Key::Char(c) => {
                if matches!(c, '}' | ']' | ')') {
                    let before = buffer.line_before_cursor();
                    if !before.is_empty() && before.chars().all(|c| c == ' ') {
                        let remove = before.len().min(2);
                        let at = buffer.cursor();
                        buffer.remove(at - remove..at);
                    }
                }
                let mut bytes = [0u8; 4];
                buffer.insert(c.encode_utf8(&mut bytes));
            }
            Key::Paste(text) => buffer.insert(&text),
            Key::Enter => {
                if verdict(buffer.text()) == Verdict::Incomplete {
                    let indent = indentation(buffer.line_before_cursor());
                    buffer.insert(&format!("\n{indent}"));
                } else {
                    return self.accept(session, view, prompt, out);
                }
            }
            Key::AltEnter => buffer.insert("\n"),
            Key::Tab => self.complete(session, tabbed, view, prompt, out),
            Key::Backspace | Key::Ctrl('h') => {
                buffer.backspace();
            }
            Key::Delete => {
                buffer.delete();
            }
            Key::Ctrl('d') => {
                if buffer.is_empty() {
                    let scene = Scene { prompt, text: "", cursor: 0, hint: None, brackets: false };
                    view.draw(&scene, out);
                    view.renderer.finish(out);
                    return Outcome::Done(Err(ReadError::Eof));
                }
                buffer.delete();
            }
            Key::Ctrl('c') => {
                let end = buffer.text().len();
                buffer.set_cursor(end);
                let scene = Scene { prompt, text: buffer.text(), cursor: end, hint: None, brackets: false };
                view.draw(&scene, out);
                view.renderer.finish(out);
                return Outcome::Done(Err(ReadError::Interrupted));
            }
            Key::Ctrl('a') | Key::Home => buffer.home(),
            Key::Ctrl('e') | Key::End => {
                if buffer.cursor() == buffer.text().len() {
                    self.take_hint(session);
                } else {
                    buffer.end();
                }
            }
            Key::Ctrl('b') | Key::Left => buffer.left(),
            Key::Ctrl('f') | Key::Right => {
                if buffer.cursor() == buffer.text().len() {
                    self.take_hint(session);
                } else {
                    buffer.right();
                }
            }
            Key::Alt('b') | Key::WordLeft => buffer.set_cursor(buffer.word_left()),
            Key::Alt('f') | Key::WordRight => buffer.set_cursor(buffer.word_right()),
            Key::Ctrl('k') => {
                let (at, end) = (buffer.cursor(), buffer.line_end());
                // At the end of a line, the line break goes.
                let end = if end == at { (end + 1).min(buffer.text().len()) } else { end };
                self.killed = buffer.remove(at..end);
            }
            Key::Ctrl('u') => {
                let (start, at) = (buffer.line_start(), buffer.cursor());
                self.killed = buffer.remove(start..at);
            }
            Key::Ctrl('w') => {
                let (start, at) = (buffer.big_word_left(), buffer.cursor());
                self.killed = buffer.remove(start..at);
            }
            Key::AltBackspace => {
                let (start, at) = (buffer.word_left(), buffer.cursor());
                self.killed = buffer.remove(start..at);
            }
            Key::Alt('d') => {
                let (at, end) = (buffer.cursor(), buffer.word_right());
                self.killed = buffer.remove(at..end);
            }
            Key::Ctrl('y') => {
                let killed = self.killed.clone();
                buffer.insert(&killed);
            }
            Key::Ctrl('t') => buffer.transpose(),
            Key::Ctrl('l') => {
                out.push_str("\x1b[H\x1b[2J");
                view.renderer.forget();
            }
            Key::Ctrl('p') | Key::Up => self.line_or_history(session, true),
            Key::Ctrl('n') | Key::Down => self.line_or_history(session, false),
            Key::Ctrl('r') => {
                session.search = Some(Search { query: String::new(), found: None, original: session.buffer.clone() });
            }
            _ => {}
        }
        Outcome::Continue
    }

    /// Takes the hint into the input.
    fn take_hint(&self, session: &mut Session) {
        if let Some(hint) = self.hint(session) {
            session.buffer.insert(&hint);
        }
    }

    /// Up (`back`) or Down: to the line above or below, or through history from the first
    /// or last line.
    fn line_or_history(&self, session: &mut Session, back: bool) {
        if !session.buffer.vertical(back) {
            self.history_move(session, back);
        }
    }

    /// Up (`back`) or Down through history.
    fn history_move(&self, session: &mut Session, back: bool) {
        let len = self.history.len();
        let index = session.index.min(len);
        let target = if back {
            match index.checked_sub(1) {
                Some(i) => i,
                None => return,
            }
        } else if index < len {
            index + 1
        } else {
            return;
        };
        if index == len {
            session.typed = Some(session.buffer.text().to_owned());
        }
        session.index = target;
        let text = match self.history.get(target) {
            Some(entry) => entry.to_owned(),
            None => session.typed.take().unwrap_or_default(),
        };
        session.buffer.replace_all(&text);
        if !back {
            // Going down, the cursor starts on the entry's first line.
            let first = text.find('\n').unwrap_or(text.len());
            session.buffer.set_cursor(first);
        }
    }

    /// The newest entry at or before `from` that contains `query`.
    fn search_back(&self, query: &str, from: usize) -> Option<usize> {
        let entries = self.history.entries();
        let end = (from + 1).min(entries.len());
        entries[..end].iter().rposition(|e| e.contains(query))
    }

    /// A key while searching: `None` when the search took it, else the key to handle once
    /// the search has ended with its entry in the buffer.
    fn search_key(&mut self, key: &Key, session: &mut Session) -> Option<Key> {
        let search = session.search.as_mut()?;
        let newest = self.history.len().saturating_sub(1);
        match key {
            Key::Char(c) => {
                search.query.push(*c);
                let from = search.found.unwrap_or(newest);
                search.found = self.search_back(&search.query, from);
            }
            Key::Backspace | Key::Ctrl('h') => {
                search.query.pop();
                search.found = if search.query.is_empty() { None } else { self.search_back(&search.query, newest) };
            }
            Key::Ctrl('r') => {
                let from = search.found.map_or(Some(newest), |f| f.checked_sub(1));
                if let Some(from) = from {
                    if let Some(found) = self.search_back(&search.query, from) {
                        search.found = Some(found);
                    }
                }
            }
            Key::Ctrl('g') | Key::Escape => {
                let original = search.original.clone();
                session.buffer = original;
                session.search = None;
                return None;
            }
            other => {
                session.search = None;
                return Some(other.clone());
            }
        }
        let (query, found) = (search.query.clone(), search.found);
        match found.and_then(|i| self.history.get(i)) {
            Some(entry) => {
                let at = entry.find(&query).unwrap_or(0);
                session.buffer.replace_all(entry);
                session.buffer.set_cursor(at);
                session.index = found.unwrap_or(session.index);
            }
            None if query.is_empty() => session.buffer = search.original.clone(),
            None => {}
        }
        None
    }

    /// Tab: one candidate is inserted; several insert their common prefix, and a second Tab
    /// lists them.
    fn complete(&self, session: &mut Session, tabbed: bool, view: &mut View, prompt: &str, out: &mut String) {
        let names = self.names.borrow();
        let world = super::helper::NamesWorld(&names);
        let buffer = &mut session.buffer;
        let (start, candidates) = complete::complete(buffer.text(), buffer.cursor(), &world);
        let start = start.min(buffer.cursor());
        match candidates.as_slice() {
            [] => {}
            [only] => buffer.replace(start..buffer.cursor(), &only.replacement),
            several => {
                let prefix = common_prefix(several.iter().map(|c| c.replacement.as_str()));
                let typed = &buffer.text()[start..buffer.cursor()];
                if prefix.len() > typed.len() && prefix.starts_with(typed) {
                    buffer.replace(start..buffer.cursor(), &prefix);
                    session.tabbed = true;
                } else if tabbed && several.len() > ASK_ABOVE {
                    let displays = several.iter().map(|c| c.display.clone()).collect();
                    // The input as it is stays above the question (keys typed ahead of the
                    // Tab may not be drawn yet).
                    self.draw(view, session, prompt, out);
                    view.renderer.finish(out);
                    out.push_str(&format!("Display all {} possibilities? (y or n)", several.len()));
                    session.asked = Some(displays);
                } else if tabbed {
                    let displays: Vec<String> = several.iter().map(|c| c.display.clone()).collect();
                    let displays: Vec<&str> = displays.iter().map(String::as_str).collect();
                    let columns = view.renderer_columns();
                    self.draw(view, session, prompt, out);
                    view.renderer.finish(out);
                    out.push_str(&list_columns(&displays, columns));
                } else {
                    session.tabbed = true;
                }
            }
        }
    }
}

impl View {
    /// The terminal width the renderer draws for.
    pub fn renderer_columns(&self) -> usize {
        self.renderer.columns()
    }
}

/// More candidates than this are listed only when the user says so (as rustyline asks).
const ASK_ABOVE: usize = 100;

/// The longest prefix all the strings share.
fn common_prefix<'a>(mut strings: impl Iterator<Item = &'a str>) -> String {
    let Some(first) = strings.next() else { return String::new() };
    let mut len = first.len();
    for s in strings {
        len = first.bytes().zip(s.bytes()).take(len).take_while(|(a, b)| a == b).count();
    }
    while !first.is_char_boundary(len) {
        len -= 1;
    }
    first[..len].to_owned()
}

/// Candidates in columns down then across, as wide as the terminal allows (rustyline's
/// list), each row ended with `\r\n`.
pub fn list_columns(items: &[&str], width: usize) -> String {
    let cell = items.iter().map(|s| columns(s, 0)).max().unwrap_or(0) + 2;
    let across = (width / cell).max(1);
    let down = items.len().div_ceil(across);
    let mut out = String::new();
    for row in 0..down {
        for col in 0..across {
            let Some(item) = items.get(col * down + row) else { break };
            out.push_str(item);
            let last = col + 1 == across || (col + 1) * down + row >= items.len();
            if !last {
                out.push_str(&" ".repeat(cell - columns(item, 0)));
            }
        }
        out.push_str("\r\n");
    }
    out
}

/// A line from standard input after `prompt`, further lines while the input is unfinished
/// (a dumb terminal: no keys, no colours).
fn read_plain(prompt: &str) -> Result<String, ReadError> {
    use std::io::{BufRead, Write};
    let mut input = String::new();
    let mut prompt = prompt;
    loop {
        print!("{prompt}");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        if std::io::stdin().lock().read_line(&mut line)? == 0 {
            return if input.is_empty() { Err(ReadError::Eof) } else { Ok(input) };
        }
        let line = line.strip_suffix('\n').unwrap_or(&line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        input.push_str(line);
        if verdict(&input) != Verdict::Incomplete {
            return Ok(input);
        }
        input.push('\n');
        prompt = CONTINUATION;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enter_indents_a_level_after_an_open_bracket() {
        assert_eq!(indentation("if true {"), "  ");
        assert_eq!(indentation("  notice(1)"), "  ");
        assert_eq!(indentation("  $a = [1,"), "    ");
        assert_eq!(indentation("  $s = '{'"), "  ");
        assert_eq!(indentation("foo({ # {"), "  ");
    }

    #[test]
    fn candidates_are_listed_in_columns() {
        assert_eq!(list_columns(&["a", "bb", "c"], 8), "a   c\r\nbb\r\n");
        assert_eq!(list_columns(&["one"], 2), "one\r\n");
    }

    #[test]
    fn common_prefixes() {
        assert_eq!(common_prefix(["$facts", "$fact2"].into_iter()), "$fact");
        assert_eq!(common_prefix(["é1", "é2"].into_iter()), "é");
    }

    #[test]
    fn wide_characters_that_do_not_fit_go_to_the_next_row() {
        assert_eq!(columns("漢字", 0), 4);
        assert_eq!(wrapped_columns("漢字", 0, 3), 5);
        assert_eq!(wrapped_columns("a漢", 8, 10), 4);
        assert_eq!(wrapped_columns("\tx", 3, 80), 6);
    }

    #[test]
    fn frames_have_continuation_prompts_and_hints() {
        let view = View::new(Rc::new(Highlighter::new()), false, 80);
        let scene = Scene { prompt: "poppet> ", text: "if true {\n  1", cursor: 13, hint: Some("}"), brackets: true };
        let (lines, cursor) = view.frame(&scene);
        assert_eq!(lines[0].painted, "poppet> if true {");
        assert_eq!(lines[1].painted, "   ...>   1}");
        assert_eq!(lines[1].width, 12);
        assert_eq!(cursor, (1, 11));
    }
}
