//! Ruby the engine does not run stops the template with an error naming the construct and
//! its place (`tests/unsupported.txt`: `=== name`, the template, `---`, then `LINE:COLUMN
//! construct`).

mod host;

use poppet_erb::{line_col, Kind, Template};

#[test]
fn unsupported_ruby_is_an_error_naming_it() {
    let cases = include_str!("unsupported.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for case in cases.split("\n=== ").skip(1) {
        let (name, rest) = case.split_once('\n').unwrap_or((case, ""));
        let (template, expected) = rest.split_once("\n---\n").unwrap_or((rest, ""));
        let expected = expected.trim_end();
        count += 1;
        let result = Template::compile(template).and_then(|t| t.render(&mut host::TestHost::new()));
        let got = match result {
            Err(e) if e.kind == Kind::Unsupported => {
                let (line, col) = line_col(template, e.at.unwrap_or(0));
                format!("{line}:{col} {}", e.message)
            }
            Err(e) => format!("not an unsupported error: {e}"),
            Ok(out) => format!("rendered: {out:?}"),
        };
        if got != expected {
            failures.push(format!("{name}\n  expected: {expected}\n  got:      {got}"));
        }
    }
    assert!(count >= 25, "only {count} cases read");
    assert!(failures.is_empty(), "{} of {count} cases:\n{}", failures.len(), failures.join("\n"));
}
