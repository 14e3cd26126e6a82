//! The evaluator's golden suite: every program of `tests/golden/*.txt` run through a fresh
//! session, its notices, warnings, `err()` messages and error compared with what Puppet 7.23
//! did (recorded by `examples/record.rs`; the format is in `syntax/tests/support/cases.rs`).
//!
//! `GOLDEN_FILTER=text` runs only the cases whose name contains `text`.

#[path = "../../syntax/tests/support/cases.rs"]
mod cases;

use poppet::{Level, Session};

/// Our outcome in the recorder's expectation lines.
fn expectation(source: &str) -> Vec<String> {
    let outcome = Session::default().run(source);
    let mut lines = Vec::new();
    let one_line = |m: &str| m.replace('\n', "\u{2424}");
    for (level, label) in [(Level::Notice, "notice"), (Level::Warning, "warning"), (Level::Err, "err")] {
        for message in outcome.messages(level) {
            lines.push(format!("{label}: {}", one_line(message)));
        }
    }
    if let Some(error) = &outcome.error {
        // Puppet's recorded error is the first line of what it prints.
        let text = error.puppet_text();
        lines.push(format!("error: {}", text.lines().next().unwrap_or_default()));
    }
    lines
}

#[test]
fn golden() {
    let report = cases::run("golden", "GOLDEN_FILTER", |case, source| {
        let ours = std::panic::catch_unwind(|| expectation(source))
            .unwrap_or_else(|_| vec!["PANIC".to_string()]);
        if ours == case.expected {
            return None;
        }
        Some(format!(
            "{}  puppet: {:?}\n  ours:   {:?}",
            cases::show_source(source),
            case.expected,
            ours
        ))
    });
    report.print("golden", "agree with Puppet 7.23");
    assert!(report.problems.is_empty(), "malformed case files");
    assert!(report.failures.is_empty(), "{} cases differ from Puppet", report.failures.len());
}
