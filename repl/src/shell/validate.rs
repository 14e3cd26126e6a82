//! Whether the shell's input is complete: Enter runs a complete program (or one with a real
//! syntax error, which is shown at once) and continues the input on a new line when the
//! program has only started.
//!
//! The grammar decides, through Puppet's own messages: input is unfinished when its first
//! syntax error is at the end (`Syntax error at end of input`: an open bracket, a dangling
//! operator, `|$x|` without a body), or when a string, a heredoc or a comment is still open.

/// What Enter does with the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Run it.
    Complete,
    /// Continue on the next line.
    Incomplete,
    /// Run it, so that its syntax error is shown: more lines would not help.
    Invalid(String),
}

/// The messages of input that more lines can finish.
const UNFINISHED: &[&str] = &[
    "Syntax error at end of input",
    "Syntax error at end of file",
    "Unclosed quote after",
    "Unclosed multiline comment",
    "Heredoc without any following lines of text",
    "Heredoc without end-tagged line",
];

/// The verdict on `input`. Empty input and meta-commands (`:help`) are complete.
pub fn verdict(input: &str) -> Verdict {
    let trimmed = input.trim_start();
    if trimmed.is_empty() || trimmed.starts_with(':') {
        return Verdict::Complete;
    }
    match puppet_syntax::analyze(input).result {
        Ok(_) => Verdict::Complete,
        Err(errors) => match errors.first() {
            Some(e) if UNFINISHED.iter().any(|m| e.message.starts_with(m)) => Verdict::Incomplete,
            Some(e) => Verdict::Invalid(e.message.clone()),
            None => Verdict::Complete,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs and whether Enter runs them (`run`), continues (`more`) or shows an error.
    const CASES: &[(&str, &str)] = &[
        ("", "run"),
        ("   ", "run"),
        (":help", "run"),
        ("  :vars x*", "run"),
        ("notice(1)", "run"),
        ("$x = 1", "run"),
        ("if $x {", "more"),
        ("if $x {\n  notice(1)", "more"),
        ("if $x {\n  notice(1)\n}", "run"),
        ("\"abc", "more"),
        ("'abc", "more"),
        ("\"${x", "more"),
        ("[1,", "more"),
        ("[1, 2", "more"),
        ("{ a => ", "more"),
        ("$x = ", "more"),
        ("1 +", "more"),
        ("$a = 1 and", "more"),
        ("[1].each |$x|", "more"),
        ("[1].map |$x| {", "more"),
        ("notice(1", "more"),
        ("class a {", "more"),
        ("define d($x) {", "more"),
        ("function f(", "more"),
        ("case $x {", "more"),
        ("$x ? {", "more"),
        ("/* a comment", "more"),
        ("/* a comment */", "run"),
        ("# a comment", "run"),
        ("$x = @(END)", "more"),
        ("$x = @(END)\nabc", "more"),
        ("$x = @(END)\nabc\nEND", "run"),
        ("notice(1))", "error"),
        ("}", "error"),
        ("1 2", "run"),
        ("notice(1)\n]", "error"),
    ];

    #[test]
    fn verdicts() {
        let mut wrong = Vec::new();
        for (input, expected) in CASES {
            let got = match verdict(input) {
                Verdict::Complete => "run",
                Verdict::Incomplete => "more",
                Verdict::Invalid(_) => "error",
            };
            if got != *expected {
                wrong.push(format!("{input:?}: expected {expected}, got {got}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn invalid_input_keeps_puppets_message() {
        assert_eq!(verdict("}"), Verdict::Invalid("Syntax error at '}'".into()));
    }
}
