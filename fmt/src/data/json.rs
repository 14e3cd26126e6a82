//! `--json`: JSON documents read into Puppet values, one value per document. Standard input
//! holds one document or several, whitespace-separated (JSON lines).
//!
//! | JSON | Puppet |
//! | ---- | ------ |
//! | `null` | `undef` |
//! | `true`, `false` | Boolean |
//! | a number without fraction or exponent, within 64 bits | Integer (beyond: an error) |
//! | any other number | Float |
//! | a string | String |
//! | an array | Array |
//! | an object | Hash with String keys, in document order (a repeated key keeps its first place and its last value, as Ruby's JSON does) |

use std::fmt;

use puppet_types::value::Hash;
use puppet_types::Value;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

/// The values of the JSON documents in `src`, in order; reading stops at the first error.
pub fn documents(src: &str) -> impl Iterator<Item = Result<Value, String>> + '_ {
    let mut stream = serde_json::Deserializer::from_str(src).into_iter::<JsonValue>();
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        match stream.next()? {
            Ok(JsonValue(v)) => Some(Ok(v)),
            Err(e) => {
                failed = true;
                Some(Err(format!("invalid JSON on standard input: {e}")))
            }
        }
    })
}

/// A Puppet value deserialised straight from JSON (no intermediate `serde_json::Value`, so
/// object keys keep their order).
struct JsonValue(Value);

impl<'de> de::Deserialize<'de> for JsonValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JsonValue, D::Error> {
        d.deserialize_any(ValueVisitor).map(JsonValue)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Undef)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Undef)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Boolean(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Integer(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        i64::try_from(u)
            .map(Value::Integer)
            .map_err(|_| E::custom(format!("the integer {u} is outside Puppet's Integer range (64 bits)")))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Float(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::from(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(JsonValue(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Hash::with_capacity_and_hasher(map.size_hint().unwrap_or(0).min(4096), Default::default());
        while let Some(JsonValue(key)) = map.next_key()? {
            let JsonValue(v) = map.next_value()?;
            entries.insert(key, v);
        }
        Ok(Value::hash(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_types::display::value_to_string;

    fn all(src: &str) -> Vec<String> {
        documents(src).map(|r| r.map(|v| value_to_string(&v)).unwrap_or_else(|e| format!("!! {e}"))).collect()
    }

    #[test]
    fn documents_and_lines() {
        assert_eq!(all(r#"{"b": 1, "a": [null, true, 1.5, "x"]}"#), ["{'b' => 1, 'a' => [undef, true, 1.5, 'x']}"]);
        assert_eq!(all("1\n\"two\"\n[3]\n"), ["1", "'two'", "[3]"]);
        assert_eq!(all(""), Vec::<String>::new());
        assert_eq!(
            all("1 2 ["),
            ["1", "2", "!! invalid JSON on standard input: EOF while parsing a list at line 1 column 5"]
        );
        assert_eq!(all("18446744073709551615").len(), 1);
        assert!(all("18446744073709551615")[0].contains("outside Puppet's Integer range"));
        let deep = "[".repeat(100_000);
        assert!(all(&deep)[0].contains("recursion limit exceeded"));
    }
}
