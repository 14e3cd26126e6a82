//! Nothing in the type system panics or runs away: every value and type of the golden tables
//! against every other one through each question, plus deep nesting, recursive aliases,
//! huge ranges and bad patterns.

use poppet_tests::table;

use puppet_types::literal::Reader;
use puppet_types::{assignable, common, compare, display, infer, instance, mismatch, new, normalize, Type, Value};

/// The golden tables.
const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");

/// The values the golden tables' lines read to (those the literal reader accepts).
fn table_values() -> Vec<Value> {
    let reader = Reader::default();
    let mut values = Vec::new();
    for path in table::files(GOLDEN) {
        for case in table::read(&path).cases {
            if let Ok(v) = reader.read(&case.code) {
                values.push(v);
            }
        }
    }
    values
}

fn ask_everything(a: &Value, b: &Value) {
    let _ = compare::equals(a, b);
    let _ = compare::compare(a, b);
    let _ = display::value_to_s(a);
    let _ = display::value_to_string(a);
    if let Value::Type(t) = a {
        let _ = instance::is_instance(t, b);
        let _ = mismatch::describe_value("x", t, b);
        let _ = normalize::normalize(t);
        let _ = new::new_value(t, std::slice::from_ref(b));
        if let Value::Type(u) = b {
            let _ = assignable::is_assignable(t, u);
            let _ = common::common_type(t, u);
        }
    }
}

#[test]
fn every_pair_of_table_values() {
    let values = table_values();
    assert!(values.len() > 1000, "the golden tables give {} values", values.len());
    for v in &values {
        let _ = infer::infer_set(v);
        let _ = infer::infer(v);
        let _ = infer::infer_generalized(v);
    }
    // A deterministic sample of pairs: each value against a stride of the others.
    let n = values.len();
    for (i, a) in values.iter().enumerate() {
        for k in 0..40 {
            let b = &values[(i * 7919 + k * 104_729) % n];
            ask_everything(a, b);
        }
    }
}

#[test]
fn recursive_aliases_end() {
    let mut reader = Reader::default();
    let tree = reader.define_alias("Tree", "Array[Variant[Integer, Tree]]").expect("alias");
    let ok = reader.read("[1, [2, [3, []]]]").expect("value");
    let bad = reader.read("[1, [2, ['x']]]").expect("value");
    assert!(instance::is_instance(&tree, &ok));
    assert!(!instance::is_instance(&tree, &bad));
    assert!(!mismatch::describe_value("x", &tree, &bad).is_empty());
    // Aliases that only refer to each other, or to themselves directly.
    let selfish = reader.define_alias("Selfish", "Variant[Selfish, Selfish]").expect("alias");
    let loop_a = reader.define_alias("LoopA", "Optional[LoopA]").expect("alias");
    for t in [&tree, &selfish, &loop_a] {
        for u in [&tree, &selfish, &loop_a, &Type::Any, &Type::INTEGER] {
            let _ = assignable::is_assignable(t, u);
            let _ = assignable::is_assignable(u, t);
            let _ = common::common_type(t, u);
            let _ = normalize::normalize(t);
            let _ = t.to_string();
        }
        for v in [&ok, &bad, &Value::Undef] {
            let _ = instance::is_instance(t, v);
            let _ = mismatch::describe_value("x", t, v);
            let _ = new::new_value(t, std::slice::from_ref(v));
        }
    }
}

#[test]
fn deep_nesting_is_an_error_or_a_value() {
    for depth in [100, 300, 5_000] {
        let src = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let _ = Reader::default().read(&src);
        let src = format!("{}Integer{}", "Array[".repeat(depth), "]".repeat(depth));
        let _ = Reader::default().read(&src);
    }
    // Values built directly, deeper than any parser allows.
    let mut v = Value::Integer(1);
    let mut t = Type::INTEGER;
    for _ in 0..200_000 {
        v = Value::array(vec![v]);
        t = Type::array_of(t);
    }
    let _ = infer::infer(&v);
    let _ = instance::is_instance(&t, &v);
    let _ = display::value_to_s(&v);
    let _ = t.to_string();
    let _ = mismatch::describe_value("x", &Type::INTEGER, &v);
    // Dropping the nested values must not overflow the stack either.
    drop((v, t));
}

#[test]
fn extreme_parameters() {
    let reader = Reader::default();
    for src in [
        "Integer[-9223372036854775807, 9223372036854775807]",
        "Float[-1.7976931348623157e308, 1.7976931348623157e308]",
        "String[9223372036854775807]",
        "Array[Integer, 9223372036854775807, 9223372036854775807]",
        "Tuple[Integer, 9223372036854775807]",
        "Pattern['(((']",
        "Pattern['a{99999999999}']",
        "Regexp['\\\\']",
        "Timespan[9223372036854775807]",
        "Timestamp[-9223372036854775807]",
        "Timespan(9223372036854775807)",
        "Timestamp(9223372036854775807)",
        "Timestamp('99999-01-01')",
        "Integer('99999999999999999999999')",
        "Integer('0x', 16)",
        "Float('1e999')",
        "SemVer('99999999999999999999.0.0')",
        "SemVerRange('>=1.0.0 <' )",
        "Binary('!!!')",
        "URI('http://[::1')",
        "Struct[{a => Struct[{b => Struct[{c => Integer}]}]}]({a => {b => {c => 'x'}}})",
        "Enum[]",
        "Callable[[], [], []]",
    ] {
        if let Ok(v) = reader.read(src) {
            let _ = display::value_to_s(&v);
            let _ = infer::infer(&v);
            ask_everything(&v, &Value::Integer(9_223_372_036_854_775_807));
            ask_everything(&v, &Value::Float(f64::MAX));
        }
    }
}

/// Golden lines edited at random (a byte replaced, inserted or removed, a piece repeated)
/// go through the reader and every question.
#[test]
fn mutated_table_lines() {
    let mut lines: Vec<String> = Vec::new();
    for path in table::files(GOLDEN) {
        lines.extend(table::read(&path).cases.into_iter().map(|c| c.code));
    }
    let alphabet: &[u8] = b"[]{}()',\"=>0123456789-.%aZ $/\\#:|*";
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    let reader = Reader::default();
    for _ in 0..200_000 {
        let mut bytes = lines[rng.usize(..lines.len())].clone().into_bytes();
        for _ in 0..rng.usize(1..4) {
            let at = rng.usize(..=bytes.len());
            match rng.u8(..4) {
                0 if at < bytes.len() => bytes[at] = alphabet[rng.usize(..alphabet.len())],
                1 => bytes.insert(at, alphabet[rng.usize(..alphabet.len())]),
                2 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {
                    let end = (at + rng.usize(..8)).min(bytes.len());
                    let piece = bytes[at..end].to_vec();
                    bytes.splice(at..at, piece);
                }
            }
        }
        let src = String::from_utf8_lossy(&bytes);
        if let Ok(v) = reader.read(&src) {
            let _ = infer::infer_set(&v);
            let _ = infer::infer_generalized(&v);
            ask_everything(&v, &v);
            ask_everything(&Value::ty(infer::infer(&v)), &v);
        }
    }
}
