//! Puppet values as JSON, for the runner's `--output json` and the catalog's JSON form.

use puppet_types::Value;

/// A value as JSON: data as itself, hash keys as `key` writes them and every other value as
/// `other` writes it. JSON numbers are 64-bit here, so a bignum is written as its digits in a
/// string, and a float JSON cannot hold (infinite) as Ruby prints it.
pub fn value_to_json(v: &Value, key: &dyn Fn(&Value) -> String, other: &dyn Fn(&Value) -> String) -> serde_json::Value {
    match v {
        Value::Undef => serde_json::Value::Null,
        Value::Boolean(b) => (*b).into(),
        Value::Integer(i) => (*i).into(),
        Value::BigInt(b) => b.to_string().into(),
        Value::Float(f) => {
            serde_json::Number::from_f64(*f).map_or_else(|| puppet_types::display::float_to_s(*f).into(), Into::into)
        }
        Value::String(s) => s.to_string().into(),
        Value::Array(a) => a.iter().map(|v| value_to_json(v, key, other)).collect::<Vec<_>>().into(),
        Value::Hash(h) => {
            let mut map = serde_json::Map::new();
            for (k, v) in h.iter() {
                map.insert(key(k), value_to_json(v, key, other));
            }
            map.into()
        }
        v => other(v).into(),
    }
}
