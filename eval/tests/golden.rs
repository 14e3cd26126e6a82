//! The evaluator's golden suite: every program of `tests/golden/*.txt` run through a fresh
//! session, its notices, warnings, `err()` messages and error compared with what Puppet 7.23
//! did (recorded by `examples/record.rs`; the format is in `syntax/tests/support/cases.rs`).
//!
//! `GOLDEN_FILTER=text` runs only the cases whose name contains `text`.
//!
//! `tests/golden/disagree.todo` lists the cases known to disagree (`FILE: case name`), each
//! with the reason in the comment lines above it: they are reported, not failed, until they
//! agree, when the runner asks for them to be removed from the list.

#[path = "../../syntax/tests/support/cases.rs"]
mod cases;
#[allow(dead_code)]
#[path = "../examples/support/oracle.rs"]
mod oracle;

use puppet_eval::Session;

/// Our outcome in the recorder's expectation lines.
fn expectation(source: &str) -> Vec<String> {
    oracle::our_expectation(&Session::default().run(source))
}

#[test]
fn golden() {
    let todo_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/disagree.todo");
    let todo_text = std::fs::read_to_string(&todo_path).unwrap_or_default();
    let known: Vec<&str> = todo_text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
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
    // A failure is `FILE:LINE: NAME\n...`: known when `FILE: NAME` is listed.
    let key = |failure: &str| {
        let first = failure.lines().next().unwrap_or_default();
        let mut parts = first.splitn(3, ':');
        let (file, name) = (parts.next().unwrap_or_default(), parts.nth(1).unwrap_or_default().trim());
        format!("{file}: {name}")
    };
    let failing: Vec<String> = report.failures.iter().map(|f| key(f)).collect();
    let unexpected: Vec<&String> = failing.iter().filter(|k| !known.contains(&k.as_str())).collect();
    let fixed: Vec<&&str> = if std::env::var("GOLDEN_FILTER").is_ok() {
        Vec::new()
    } else {
        known.iter().filter(|k| !failing.iter().any(|f| f == *k)).collect()
    };
    for k in &fixed {
        eprintln!("{k}: agrees with Puppet now: remove it from disagree.todo");
    }
    eprintln!("golden: {} known disagreements (disagree.todo)", known.len());
    assert!(unexpected.is_empty() && fixed.is_empty(), "{} cases differ from Puppet besides disagree.todo; {} listed cases agree", unexpected.len(), fixed.len());
}

/// The programs of `tests/golden_modules/*.txt`, run with the modules of `tests/modules` on
/// the module path (recorded by `examples/modules_oracle.rb`, Puppet with that module path;
/// the module path is written `<modules>` in messages).
#[test]
fn modules() {
    let modules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/modules");
    let report = cases::run("golden_modules", "GOLDEN_FILTER", |case, source| {
        let ours = std::panic::catch_unwind(|| {
            let mut session = Session::default();
            session.evaluator.set_modulepath(&modules.display().to_string());
            oracle::hide_modulepath(oracle::our_expectation(&session.run(source)), &modules)
        })
        .unwrap_or_else(|_| vec!["PANIC".to_string()]);
        if ours == case.expected {
            return None;
        }
        Some(format!("{}  puppet: {:?}\n  ours:   {:?}", cases::show_source(source), case.expected, ours))
    });
    report.print("golden_modules", "agree with Puppet 7.23");
    assert!(report.problems.is_empty(), "malformed case files");
    assert!(report.failures.is_empty(), "{} module programs differ from Puppet", report.failures.len());
}
