//! Breakpoints: at `debug::break()` (in a file `:load`ed or played, or in typed code) the
//! shell stops the evaluation and opens a nested prompt, `debug>`, in the scope of the call:
//! its inputs see and set that scope's variables (a function's parameters, a class's
//! variables). `:whereami` shows the code around the breakpoint, `:stacktrace` the calls that
//! led there, `:vars` the variables in scope; `:continue` (or Ctrl-D) lets the evaluation go
//! on. The hook is the evaluator's (`puppet_eval::eval::debug`).

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;

use puppet_eval::eval::debug::{Break, BreakHook};
use puppet_eval::Evaluator;
use puppet_types::Value;

use super::editor::{Editor, ReadError};
use super::highlight::{Highlighter, Theme};

/// The prompt of a breakpoint.
const PROMPT: &str = "debug> ";

/// The hook the shell installs: the nested prompt, reading with the shell's line editor.
pub(super) fn hook(
    editor: Rc<RefCell<Editor>>,
    colour: Rc<Cell<bool>>,
    highlighter: Rc<Highlighter>,
    history: Option<PathBuf>,
) -> BreakHook {
    Box::new(move |ev: &mut Evaluator, stop: &Break| {
        let paint = |text: &str| {
            if colour.get() {
                highlighter.paint(text, &Theme::dark(), None)
            } else {
                text.to_owned()
            }
        };
        println!("Stopped at debug::break() in {}. :continue goes on; Puppet code runs in this scope.", place(stop));
        whereami(stop, 2, &paint);
        loop {
            let read = editor.borrow_mut().read_line(PROMPT);
            let input = match read {
                Ok(input) => input,
                Err(ReadError::Interrupted) => continue,
                Err(_) => break,
            };
            if !input.trim().is_empty() {
                super::remember(&mut editor.borrow_mut(), &input, history.as_deref());
            }
            match input.trim() {
                "" => {}
                ":continue" | ":c" | ":cont" | ":q" | ":quit" => break,
                ":whereami" | ":w" => whereami(stop, 5, &paint),
                ":stacktrace" | ":bt" => stacktrace(stop),
                ":vars" | ":v" => vars(ev),
                command if command.starts_with(':') => {
                    println!("At a breakpoint: :continue, :whereami, :stacktrace, :vars; the other commands after :continue.");
                }
                code => match ev.evaluate_here(code) {
                    Ok(value) => println!("=> {}", paint(&literal(&value))),
                    Err(failure) => println!("Error: {}{}", failure.message, failure.location()),
                },
            }
        }
    })
}

/// Where the breakpoint is: `<input 3>, line 2` or a file's path.
fn place(stop: &Break) -> String {
    format!("{}, line {}", stop.file.as_deref().unwrap_or("the input"), stop.line)
}

/// The lines around the breakpoint, numbered, its own marked.
fn whereami(stop: &Break, context: usize, paint: &dyn Fn(&str) -> String) {
    let text = match stop.file.as_deref() {
        Some(file) => crate::excerpt::read_manifest(file).unwrap_or_else(|| stop.source.to_string()),
        None => stop.source.to_string(),
    };
    let line = stop.line as usize;
    if line == 0 || line > text.lines().count() {
        return;
    }
    print!("{}", crate::excerpt::numbered_lines(&text, line, context, paint));
}

/// The calls that led to the breakpoint, innermost first.
fn stacktrace(stop: &Break) {
    println!("  at {}", place(stop));
    for (file, line) in stop.stack.iter().filter(|(_, line)| *line > 0) {
        println!("  called at {}, line {line}", file.as_deref().unwrap_or("the input"));
    }
}

/// The variables of the breakpoint's scope and the local scopes around it.
fn vars(ev: &Evaluator) {
    let variables = ev.local_variables();
    if variables.is_empty() {
        println!("No local variables: the breakpoint is in the top scope (:continue, then :vars).");
    }
    for (name, value) in variables {
        println!("  ${name} = {}", literal(&value));
    }
}

/// A value as a Puppet literal.
fn literal(value: &Value) -> String {
    pfmt::convert_with(value, &Value::from("%p")).unwrap_or_else(|e| format!("(cannot be shown: {e})"))
}
