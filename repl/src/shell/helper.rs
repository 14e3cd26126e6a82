//! The line editor's helper: highlighting as you type, Enter's decision (run or continue),
//! completion by context, and hints from history.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter as LineHighlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};

use super::complete::{self, World};
use super::highlight::{matching_bracket, Highlighter, Theme};
use super::validate::{verdict, Verdict};
use super::{commands, Names};

pub struct PuppetHelper {
    highlighter: Rc<Highlighter>,
    theme: Theme,
    names: Rc<RefCell<Names>>,
    colour: Rc<Cell<bool>>,
    hinter: HistoryHinter,
}

impl PuppetHelper {
    pub fn new(highlighter: Rc<Highlighter>, names: Rc<RefCell<Names>>, colour: Rc<Cell<bool>>) -> PuppetHelper {
        PuppetHelper { highlighter, theme: Theme::dark(), names, colour, hinter: HistoryHinter::new() }
    }
}

impl Helper for PuppetHelper {}

impl LineHighlighter for PuppetHelper {
    fn highlight<'l>(&self, line: &'l str, pos: usize) -> Cow<'l, str> {
        if !self.colour.get() || line.trim_start().starts_with(':') {
            return Cow::Borrowed(line);
        }
        Cow::Owned(self.highlighter.paint(line, &self.theme, matching_bracket(line, pos)))
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(&'s self, prompt: &'p str, default: bool) -> Cow<'b, str> {
        if self.colour.get() && default {
            Cow::Owned(format!("\x1b[1;32m{prompt}\x1b[0m"))
        } else {
            Cow::Borrowed(prompt)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.colour.get() {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    /// Every keystroke and cursor move repaints: colours depend on the whole input, and the
    /// matching bracket on the cursor.
    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.colour.get()
    }
}

impl Validator for PuppetHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(match verdict(ctx.input()) {
            Verdict::Incomplete => ValidationResult::Incomplete,
            // A syntax error runs too, so that it is shown with its location at once.
            Verdict::Complete | Verdict::Invalid(_) => ValidationResult::Valid(None),
        })
    }
}

impl Hinter for PuppetHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        self.hinter.hint(line, pos, ctx)
    }
}

impl Completer for PuppetHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let names = self.names.borrow();
        let world = NamesWorld(&names);
        let (start, candidates) = complete::complete(line, pos, &world);
        Ok((start, candidates.into_iter().map(|c| Pair { display: c.display, replacement: c.replacement }).collect()))
    }
}

/// The session's names as completion sees them.
struct NamesWorld<'a>(&'a Names);

impl World for NamesWorld<'_> {
    fn variables(&self) -> Vec<String> {
        self.0.variables.clone()
    }

    fn keys(&self, variable: &str, path: &[String]) -> Vec<String> {
        self.0.keys(variable, path)
    }

    fn functions(&self) -> Vec<String> {
        self.0.functions.clone()
    }

    fn types(&self) -> Vec<String> {
        self.0.types.clone()
    }

    fn classes(&self) -> Vec<String> {
        self.0.classes.clone()
    }

    fn defined_types(&self) -> Vec<String> {
        self.0.defined_types.clone()
    }

    fn commands(&self) -> Vec<String> {
        commands::COMMANDS.iter().map(|c| c.name.to_owned()).collect()
    }

    fn command_arguments(&self, command: &str) -> Vec<String> {
        commands::arguments(command, self.0)
    }
}
