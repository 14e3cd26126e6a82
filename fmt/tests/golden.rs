//! The golden tables (`tests/golden/*.txt`, recorded from Puppet 7.23 by
//! `cargo run -q --release -p puppet-types --example record -- fmt/tests/golden/FILE.txt`):
//! each line is a conversion to String (`String(VALUE)`, `String(VALUE, FORMATS)`,
//! `String.new(...)`, `new(String, ...)`); its arguments are read by the literal reader, the
//! conversion is pfmt's, and the result (or error) is compared with what Puppet's
//! `notice(LINE)` logs.
//!
//! `GOLDEN=name` runs only the files whose name contains `name`; `GOLDEN_SHOW=n` prints up to
//! `n` failures per file (default 10).
//!
//! `tests/golden/disagree.todo` lists the cases known to disagree with Puppet (open work, one
//! `file: code` line each). The test fails when any other case disagrees, and when a listed
//! case agrees (so the list only shrinks); `GOLDEN_TODO=write` rewrites it.

mod support;

use puppet_syntax::ast::{CallKind, Expr, ExprKind};
use puppet_types::literal::Reader;
use puppet_types::{display, Error, Value};
use support::golden::{self, Expect};

/// Computes one golden line: what `notice(CODE)` logs, or the error message.
fn run(code: &str) -> Result<String, String> {
    let program = puppet_syntax::parse(code)
        .map_err(|d| d.first().map(|d| d.message.clone()).unwrap_or_default())?;
    let body = program.body.ok_or("no expression")?;
    // Puppet's log shows the first line of a message (the oracle records that line).
    let value = convert(&Reader::default(), &body)
        .map_err(|e| format!("Evaluation Error: {}", e.message.lines().next().unwrap_or_default()))?;
    Ok(display::value_to_s(&value))
}

/// Evaluates `T(args)`, `T.new(args)` or `new(T, args)` with pfmt's `new` (String.new is
/// `new_string`, Puppet's argument checks included).
fn convert(reader: &Reader, e: &Expr) -> Result<Value, Error> {
    let ExprKind::Call { kind, functor, arguments, lambda: None, .. } = &e.kind else {
        return match &e.kind {
            ExprKind::Block(stmts) if stmts.len() == 1 => convert(reader, &stmts[0]),
            _ => reader.eval(e),
        };
    };
    let mut args = arguments.iter().map(|a| reader.eval(a)).collect::<Result<Vec<Value>, Error>>()?;
    let (target, what) = match (kind, &functor.kind) {
        (CallKind::Function, ExprKind::QualifiedName(n)) if n == "new" && !args.is_empty() => {
            (args.remove(0), "Function Call")
        }
        (CallKind::Function, _) => (reader.eval(functor)?, "Function Call"),
        (CallKind::Method, ExprKind::NamedAccess { left, .. }) => (reader.eval(left)?, "Method call"),
        _ => return reader.eval(e),
    };
    let Value::Type(ref t) = target else { return reader.eval(e) };
    pfmt::new_value(t, &args)
        .map_err(|e| Error::new(format!("Error while evaluating a {what}, {}", e.message)))
}

#[test]
fn golden_tables() {
    let only = std::env::var("GOLDEN").ok();
    let show: usize = std::env::var("GOLDEN_SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let todo_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/disagree.todo");
    let todo_text = std::fs::read_to_string(&todo_path).unwrap_or_default();
    let todo: std::collections::HashSet<&str> =
        todo_text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).collect();
    let mut disagree: Vec<String> = Vec::new();
    let (mut total, mut failed, mut unrecorded, mut fixed) = (0, 0, 0, 0);
    let mut summary = String::new();
    for path in golden::files() {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        let table = golden::read(&path);
        let mut file_failed = 0;
        for case in &table.cases {
            total += 1;
            let expected = match &case.expect {
                Expect::Notice(n) => Ok(n.clone()),
                Expect::Error(e) => Err(e.clone()),
                Expect::Unrecorded => {
                    unrecorded += 1;
                    continue;
                }
            };
            let code = case.code.clone();
            let got = std::panic::catch_unwind(move || run(&code)).unwrap_or_else(|_| Err("PANIC".into()));
            let key = format!("{name}: {}", case.code);
            let known = todo.contains(key.as_str());
            if got != expected {
                disagree.push(key);
                if known {
                    continue;
                }
                file_failed += 1;
                if file_failed <= show {
                    eprintln!("{name}:{}: {}\n  expected {:?}\n  got      {:?}", case.line, case.code, expected, got);
                }
            } else if known {
                fixed += 1;
                eprintln!("{name}:{}: {} agrees with Puppet now: remove it from disagree.todo", case.line, case.code);
            }
        }
        failed += file_failed;
        summary.push_str(&format!("  {name}: {} cases, {file_failed} failed\n", table.cases.len()));
    }
    if only.is_none() && std::env::var("GOLDEN_TODO").as_deref() == Ok("write") {
        let mut text = String::from(
            "# Golden cases that disagree with Puppet 7.23: open work, fix and remove.\n\
             # Rewritten by `GOLDEN_TODO=write cargo test -p pfmt --test golden`.\n",
        );
        for d in &disagree {
            text.push_str(d);
            text.push('\n');
        }
        let _ = std::fs::write(&todo_path, text);
        return;
    }
    eprintln!(
        "golden tables:\n{summary}total {total}, failed {failed} (besides {} known in disagree.todo), \
         unrecorded {unrecorded}, fixed {fixed}",
        todo.len()
    );
    assert_eq!((failed, unrecorded, fixed), (0, 0, 0), "golden cases disagree with Puppet 7.23");
}
