//! Hash and Struct to String (`string_PHashType`, `string_PStructType`).
//!
//! | Format    | Hash/Struct Formats
//! | ------    | -------------
//! | h         | formats with `{ }` delimiters, `,` element separator and ` => ` inner element separator unless overridden by flags
//! | s         | same as h
//! | p         | same as h
//! | a         | converts the hash to an array of `[k,v]` tuples and formats it using array rule(s)
//!
//! See "Flags" `<[({\|` for formatting of delimiters, and the container options `separator`,
//! `separator2` (between key and value) and `string_formats` (the map for keys and values;
//! default `{Any => '%p'}`).
//!
//! The alternate form flag `#` will format each hash key/value entry indented on a separate
//! line.

use puppet_types::infer::infer_set;
use puppet_types::value::Hash;
use puppet_types::{Type, Value};

use crate::array::rstrip;
use crate::convert::{convert_typed, is_container, Indentation};
use crate::error::FormatError;
use crate::map::{default_container_formats, value_type, FormatMap, DEFAULT_HASH_SEPARATOR, DEFAULT_HASH_SEPARATOR2};

/// `String(hash, format)`.
pub fn string_hash(val_type: &Type, h: &Hash, map: &FormatMap, ind: Indentation) -> Result<String, FormatError> {
    let format = map.get_format(val_type)?;
    let mut sep: String = format.separator.as_deref().unwrap_or(DEFAULT_HASH_SEPARATOR).to_owned();
    let assoc: &str = format.separator2.as_deref().unwrap_or(DEFAULT_HASH_SEPARATOR2);
    let string_formats = format.container_string_formats.clone().unwrap_or_else(default_container_formats);
    let (open, close) = format.delimiter_pair(("{", "}"));
    if format.alt {
        if !sep.ends_with('\n') {
            rstrip(&mut sep);
        }
        sep.push('\n');
    }
    match format.letter {
        'a' => {
            let pairs: Vec<Value> = h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect();
            let array = Value::array(pairs);
            convert_typed(&infer_set(&array), &array, map, ind)
        }
        'h' | 's' | 'p' => {
            let ind = ind.indenting(format.alt || ind.is_indenting);
            let mut buf = String::new();
            if ind.breaks() {
                buf.push('\n');
                buf.push_str(&ind.padding());
            }
            let children = ind.increase(false);
            let (cond_break, padding) = if format.alt { ("\n", children.padding()) } else { ("", String::new()) };
            buf.push_str(open);
            buf.push_str(cond_break);
            let value_types: Option<Vec<&Type>> = match val_type {
                Type::Struct(elements) if elements.len() == h.len() => {
                    Some(elements.iter().map(|e| &e.value_type).collect())
                }
                _ => None,
            };
            for (i, (k, v)) in h.iter().enumerate() {
                if i > 0 {
                    buf.push_str(&sep);
                }
                let key_type = value_type(&[map, &string_formats], k);
                let val_t = match &value_types {
                    Some(types) => types[i].clone(),
                    None => value_type(&[map, &string_formats], v),
                };
                let key_map = if is_container(&key_type) { map } else { &string_formats };
                let val_map = if is_container(&val_t) { map } else { &string_formats };
                let key = convert_typed(&key_type, k, key_map, children)?;
                let val = convert_typed(&val_t, v, val_map, children)?;
                buf.push_str(&padding);
                buf.push_str(&key);
                buf.push_str(assoc);
                buf.push_str(&val);
            }
            if format.alt {
                buf.push_str(cond_break);
                buf.push_str(&ind.padding());
            }
            buf.push_str(close);
            Ok(buf)
        }
        other => Err(FormatError::illegal("Hash", other, "hasp")),
    }
}

#[cfg(test)]
mod tests {
    fn s(v: &str, fmt: &str) -> String {
        crate::format_literal(v, fmt)
    }

    #[test]
    fn indentation() {
        assert_eq!(s("{a => [1,2], b => {c => 3}}", "'%#h'"), "{\n  'a' => [1, 2],\n  'b' => {\n    'c' => 3\n  }\n}");
    }

    #[test]
    fn pairs() {
        assert_eq!(s("{a => 1}", "'%a'"), "[['a', 1]]");
        assert_eq!(
            s("{a => 1, b => 2}", "{Hash => {format => '%(h', separator => '; ', separator2 => ': '}}"),
            "('a': 1; 'b': 2)"
        );
    }
}
