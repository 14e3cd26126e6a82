//! Every diagnostic Puppet gave in the recorded validation cases is one of Puppet's issues
//! (`puppet_syntax::issues` finds its code), but for the errors Puppet's parser raises on its
//! own, without an issue (`eparser.rb`'s and `parser_support.rb`'s `error` calls), and the
//! heredoc syntax checkers' `ArgumentError`s.

/// Messages that are no issue's, as Puppet words them (`%{name}`: any text).
const NO_ISSUE: &[&str] = &[
    "'class' keyword not allowed at this location",
    "A quoted string is not valid as a name here",
    "Exported (@@) can only be applied to a Resource Expression",
    "Expression is not valid as a resource, resource-default, or resource-override",
    "Syntax error resource body without title or hash with +>",
    "Virtual (@) can only be applied to a Resource Expression",
    "attempt to pass argument list to the function '%{name}' which cannot be called without parentheses",
    "illegal comma separated argument list",
    "EPP syntax checker: the syntax identifier must be a String, e.g. pp",
    "PP syntax checker: the syntax identifier must be a String, e.g. pp",
];

fn no_issue(message: &str) -> bool {
    NO_ISSUE.iter().any(|m| match m.split_once("%{name}") {
        Some((before, after)) => message.starts_with(before) && message.ends_with(after),
        None => message == *m,
    })
}

#[test]
fn every_recorded_message_has_an_issue_code() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("tests/validate").flatten().map(|e| e.path()).collect();
    entries.sort();
    let mut missing = Vec::new();
    let mut checked = 0;
    for path in entries.iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
        let text = std::fs::read_to_string(path).expect("a case file");
        for line in text.lines() {
            let Some(message) = ["error: ", "warning: ", "syntax-error: "].iter().find_map(|p| line.strip_prefix(p))
            else {
                continue;
            };
            // the position Puppet appends (a heredoc's EPP message has one inside its quotes)
            let message = match message.rsplit_once(" (line: ") {
                Some((m, rest)) if !rest.contains('"') => m,
                _ => message,
            };
            checked += 1;
            let code = puppet_syntax::issues::code(message);
            if code.is_none() != no_issue(message) {
                missing.push(format!("{}: {message} ({code:?})", path.display()));
            }
        }
    }
    assert!(checked > 500, "only {checked} messages");
    assert!(missing.is_empty(), "wrong issue codes for:\n{}", missing.join("\n"));
}
