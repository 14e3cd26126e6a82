//! The golden tables (`tests/golden/*.txt`, recorded from Puppet 7.23 by
//! `cargo xtask record types fmt/tests/golden/FILE.txt`; the format is the test kit's
//! `poppet_tests::table`):
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

use poppet_tests::table;
use puppet_syntax::ast::{CallKind, Expr, ExprKind};
use puppet_types::literal::Reader;
use puppet_types::{display, Error, Value};

/// Computes one golden line: what `notice(CODE)` logs, or the error message.
fn run(code: &str) -> Result<String, String> {
    let program = puppet_syntax::parse(code).map_err(|d| d.first().map(|d| d.message.clone()).unwrap_or_default())?;
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
    pfmt::new_value(t, &args).map_err(|e| Error::new(format!("Error while evaluating a {what}, {}", e.message)))
}

#[test]
fn golden_tables() {
    table::check_tables(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"), "pfmt", run);
}
