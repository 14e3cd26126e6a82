//! The Ruby behaviour the `new` functions inherit: `Kernel#Integer` and `Kernel#Float` on
//! strings, and the way Ruby 3.1 writes values into its own messages (`String#inspect`,
//! `to_s`, `NoMethodError`; a value's `inspect` and class are [`crate::params`]'s, which the
//! evaluator shares).

use crate::display::float_to_s;
use crate::error::Error;
use crate::int::Int;
use crate::value::Value;

/// `Kernel#Integer(s)` or `Kernel#Integer(s, radix)` ([`poppet_ruby::kernel::integer`]);
/// `Err(())` is Ruby's `invalid value for Integer()`.
pub(crate) fn parse_integer(s: &str, radix: Option<u32>) -> Result<Int, ()> {
    poppet_ruby::kernel::integer(s, radix).map(Int::from_big).ok_or(())
}

/// `Kernel#Float(s)` ([`poppet_ruby::kernel::float`]); `Err(())` is Ruby's `invalid value
/// for Float()`.
pub(crate) fn parse_float(s: &str) -> Result<f64, ()> {
    poppet_ruby::kernel::float(s).ok_or(())
}

/// Puppet's `WS_BETWEEN_SIGN_AND_NUMBER` (`\A([+-])[[:blank:]]+(.*)\z`): a sign followed by
/// blanks; the string without the blanks, which the numeric conversions try again.
pub(crate) fn without_blanks_after_sign(s: &str) -> Option<String> {
    let sign = s.chars().next().filter(|c| *c == '+' || *c == '-')?;
    let rest = &s[1..];
    let trimmed = rest.trim_start_matches([' ', '\t']);
    if trimmed.len() == rest.len() || trimmed.contains('\n') {
        return None;
    }
    Some(format!("{sign}{trimmed}"))
}

/// Ruby's `String#inspect`.
pub(crate) use poppet_ruby::string::inspect as inspect_str;

/// Ruby's `to_s` of a value, as `"#{value}"` writes it into a message.
pub(crate) fn to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Default => "default".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::BigInt(b) => b.to_string(),
        Value::Float(f) => float_to_s(*f),
        Value::String(s) => s.to_string(),
        Value::Array(_) | Value::Hash(_) => crate::params::ruby_inspect(v),
        Value::Type(t) => t.to_string(),
        other => crate::display::value_to_s(other),
    }
}

/// Ruby's `NoMethodError` message (its first line; Ruby 3.1 appends the failing source line).
pub(crate) fn no_method(method: &str, v: &Value) -> Error {
    Error::new(format!("undefined method `{method}' for {}", crate::params::ruby_receiver(v)))
}

/// Ruby's class name in `no implicit conversion of X into Integer`.
pub(crate) fn conversion_class(v: &Value) -> &'static str {
    match v {
        Value::Undef => "nil",
        Value::Default => "Symbol",
        Value::Boolean(true) => "true",
        Value::Boolean(false) => "false",
        Value::Integer(_) | Value::BigInt(_) => "Integer",
        Value::Float(_) => "Float",
        Value::String(_) => "String",
        Value::Array(_) => "Array",
        Value::Hash(_) => "Hash",
        Value::Regexp(_) => "Regexp",
        _ => "Object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_integer("0x10", None), Ok(Int::Small(16)));
        assert_eq!(parse_integer("09", None), Err(()));
        assert_eq!(parse_float("1e3"), Ok(1000.0));
        assert_eq!(parse_float("1."), Err(()));
    }

    #[test]
    fn blanks_after_sign() {
        assert_eq!(without_blanks_after_sign("- 5").as_deref(), Some("-5"));
        assert_eq!(without_blanks_after_sign("+\t 0x1f").as_deref(), Some("+0x1f"));
        assert_eq!(without_blanks_after_sign("-5"), None);
        assert_eq!(without_blanks_after_sign(" - 5"), None);
    }

    #[test]
    fn ruby_strings() {
        assert_eq!(crate::params::ruby_receiver(&Value::Integer(1)), "1:Integer");
        assert_eq!(crate::params::ruby_receiver(&Value::Undef), "nil:NilClass");
        let long = Value::from("x".repeat(70).as_str());
        assert_eq!(crate::params::ruby_receiver(&long), format!("\"{}\":String", "x".repeat(70)));
        assert_eq!(to_s(&Value::from("x")), "x");
        assert_eq!(to_s(&Value::array(vec![Value::Integer(1), Value::from("a")])), "[1, \"a\"]");
    }
}
