//! `Binary`: a sequence of bytes (`Binary('YWJj')`), and its formats
//! (`PBinaryType` in `pops/types/p_binary_type.rb`, over Ruby's `Base64`).
//!
//! `Binary.new` (the function `new_Binary`):
//!
//! | arguments                        | bytes                                               |
//! |----------------------------------|-----------------------------------------------------|
//! | `str` or `str, '%B'`             | strict base64 (RFC 4648: padding required, no line breaks) |
//! | `str, '%b'`                      | lenient base64 (RFC 2045: other characters skipped; Puppet first appends `'=' * (length % 3)`) |
//! | `str, '%u'`                      | URL-safe base64 (`-` and `_`), padding optional     |
//! | `str, '%s'`, `str, '%r'`         | the string's UTF-8 bytes                            |
//! | `[97, 98]` (`Array[Integer[0, 255]]`) | those bytes                                     |
//! | `{value => str, format => f}`, `{value => [bytes]}` | as above                      |
//!
//! Undecodable base64 is `invalid base64`. A Binary prints as strict base64.

use std::rc::Rc;

use base64::Engine;

use crate::dispatch::{alias, entry, enum_of, get, hash_with_keys, Dispatch, Dispatcher, Selected, Signature};
use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::Value;

/// The bytes of a `Binary` value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Binary(pub Vec<u8>);

impl Binary {
    /// `to_s`: strict base64 (`Base64.strict_encode64`).
    pub fn to_base64_strict(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(&self.0)
    }

    /// `relaxed_to_s`: `Base64.encode64`, lines of 60 characters each ending in a line feed.
    pub fn to_base64_relaxed(&self) -> String {
        let strict = self.to_base64_strict();
        let mut out = String::with_capacity(strict.len() + strict.len() / 60 + 1);
        for chunk in strict.as_bytes().chunks(60) {
            out.push_str(&String::from_utf8_lossy(chunk));
            out.push('\n');
        }
        out
    }

    /// `urlsafe_to_s`: `Base64.urlsafe_encode64` (`-` and `_`, padded).
    pub fn to_base64_urlsafe(&self) -> String {
        base64::engine::general_purpose::URL_SAFE.encode(&self.0)
    }

    /// `Binary + Binary` (the evaluator's `concatenate`).
    pub fn concat(&self, other: &Binary) -> Binary {
        let mut bytes = self.0.clone();
        bytes.extend_from_slice(&other.0);
        Binary(bytes)
    }
}

impl std::fmt::Display for Binary {
    /// Strict base64, as `notice` and interpolation print a Binary.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_base64_strict())
    }
}

// ---- Ruby's base64 decoding (pack.c, directive `m`) ---------------------------------------

const INVALID: &str = "invalid base64";

/// The value of a base64 digit (standard alphabet).
fn digit(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// `Base64.decode64` (`unpack1('m')`): characters outside the alphabet are skipped; a `=`
/// in the third or fourth place of a group ends the data; an incomplete last group gives
/// the bytes it completes.
pub fn decode64(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len() * 3 / 4);
    let mut i = 0;
    // The next digit, skipping other characters; `None` at the end, or at a `=` when
    // `stop_at_pad`.
    let mut next = |stop_at_pad: bool| -> Option<u32> {
        while let Some(&c) = b.get(i) {
            if let Some(d) = digit(c) {
                i += 1;
                return Some(d);
            }
            if stop_at_pad && c == b'=' {
                return None;
            }
            i += 1;
        }
        None
    };
    while let Some(a) = next(false) {
        let Some(x) = next(false) else { break };
        let Some(c) = next(true) else {
            out.push(((a << 2) | (x >> 4)) as u8);
            break;
        };
        let Some(d) = next(true) else {
            out.push(((a << 2) | (x >> 4)) as u8);
            out.push(((x << 4) | (c >> 2)) as u8);
            break;
        };
        out.push(((a << 2) | (x >> 4)) as u8);
        out.push(((x << 4) | (c >> 2)) as u8);
        out.push(((c << 6) | d) as u8);
    }
    out
}

/// `Base64.strict_decode64` (`unpack1('m0')`): groups of four alphabet characters, the last
/// possibly `xx==` or `xxx=` with no leftover bits; anything else is `invalid base64`.
pub fn strict_decode64(s: &str) -> Result<Vec<u8>> {
    let b = s.as_bytes();
    let invalid = || Error::new(INVALID);
    let mut out = Vec::with_capacity(b.len() * 3 / 4);
    let mut i = 0;
    while i < b.len() {
        let a = digit(b[i]).ok_or_else(invalid)?;
        let x = digit(*b.get(i + 1).ok_or_else(invalid)?).ok_or_else(invalid)?;
        match (b.get(i + 2), b.get(i + 3)) {
            (Some(b'='), Some(b'=')) if i + 4 == b.len() => {
                if x & 0xf != 0 {
                    return Err(invalid());
                }
                out.push(((a << 2) | (x >> 4)) as u8);
                return Ok(out);
            }
            (Some(&c), Some(b'=')) if i + 4 == b.len() => {
                let c = digit(c).ok_or_else(invalid)?;
                if c & 0x3 != 0 {
                    return Err(invalid());
                }
                out.push(((a << 2) | (x >> 4)) as u8);
                out.push(((x << 4) | (c >> 2)) as u8);
                return Ok(out);
            }
            (Some(&c), Some(&d)) => {
                let c = digit(c).ok_or_else(invalid)?;
                let d = digit(d).ok_or_else(invalid)?;
                out.push(((a << 2) | (x >> 4)) as u8);
                out.push(((x << 4) | (c >> 2)) as u8);
                out.push(((c << 6) | d) as u8);
            }
            _ => return Err(invalid()),
        }
        i += 4;
    }
    Ok(out)
}

/// `Base64.urlsafe_decode64`: `-` and `_` for `+` and `/`; missing padding is added
/// (unless the string ends in `=`), then strict decoding.
pub fn urlsafe_decode64(s: &str) -> Result<Vec<u8>> {
    let mut t: String = s
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    let len = s.chars().count();
    if !s.ends_with('=') && !len.is_multiple_of(4) {
        t.extend(std::iter::repeat_n('=', 4 - len % 4));
    }
    strict_decode64(&t)
}

// ---- Binary.new ------------------------------------------------------------------------

const FORMATS: [&str; 5] = ["%b", "%u", "%B", "%s", "%r"];

fn is_string(v: &Value) -> bool {
    matches!(v, Value::String(_))
}

fn is_format(v: &Value) -> bool {
    v.as_str().is_some_and(|s| FORMATS.contains(&s))
}

fn is_byte_array(v: &Value) -> bool {
    matches!(v, Value::Array(items) if items.iter().all(|i| matches!(i, Value::Integer(0..=255))))
}

/// `BinaryArgsHash`: `{value => String, format => Optional[Base64Format]}` or
/// `{value => Array[ByteInteger]}`.
fn is_args_hash(v: &Value) -> bool {
    if let Some(h) = hash_with_keys(v, &["value", "format"], &["value"]) {
        let format_ok = get(h, "format").is_none_or(|f| f.is_undef() || is_format(f));
        if get(h, "value").is_some_and(is_string) && format_ok {
            return true;
        }
    }
    hash_with_keys(v, &["value"], &["value"]).is_some_and(|h| get(h, "value").is_some_and(is_byte_array))
}

fn format_type() -> Type {
    alias("Base64Format", enum_of(&FORMATS))
}

fn byte_integer() -> Type {
    alias("ByteInteger", Type::integer(Some(0), Some(255)))
}

fn args_hash_type() -> Type {
    // An entry whose value is Optional has an optional key (Puppet prints it `'format'`).
    let string_hash = Type::Struct(
        vec![entry("value", false, Type::STRING), entry("format", true, Type::optional(format_type()))].into(),
    );
    let array_hash = Type::Struct(vec![entry("value", false, Type::array_of(byte_integer()))].into());
    alias("BinaryArgsHash", Type::variant(vec![alias("StringHash", string_hash), alias("ArrayHash", array_hash)]))
}

/// The dispatches of `new_Binary` (`PBinaryType.new_function`).
fn function() -> Dispatcher<u8> {
    Dispatcher {
        name: "new_Binary",
        dispatches: vec![
            Dispatch::new(0).req_checked("str", Type::STRING, is_string).opt_checked(
                "format",
                format_type(),
                is_format,
            ),
            Dispatch::new(1).req_checked("byte_array", Type::array_of(byte_integer()), is_byte_array),
            Dispatch::new(2).req_checked("hash_args", args_hash_type(), is_args_hash),
        ],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<u8> = function();
}

/// The signatures of `Binary.new` (for `Init[Binary]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `Binary.new(args...)`; see the table at the top of this file.
pub fn new_binary(args: &[Value]) -> Result<Value> {
    let (Selected::Call(index) | Selected::Mismatch(index)) = FUNCTION.with(|f| f.select(args))?;
    let bytes = match (index, args) {
        (0, [Value::String(s), rest @ ..]) => from_string(s, rest.first().and_then(Value::as_str))?,
        (1, [Value::Array(items)]) => from_array(items),
        (_, [Value::Hash(h)]) => match get(h, "value") {
            Some(Value::Array(items)) => from_array(items),
            Some(Value::String(s)) => from_string(s, get(h, "format").and_then(Value::as_str))?,
            _ => return Err(FUNCTION.with(|f| f.no_match(args))),
        },
        _ => return Err(FUNCTION.with(|f| f.no_match(args))),
    };
    Ok(Value::Binary(Rc::new(Binary(bytes))))
}

/// `from_string(str, format = '%B')`.
fn from_string(s: &str, format: Option<&str>) -> Result<Vec<u8>> {
    match format.unwrap_or("%B") {
        "%b" => {
            let padding = "=".repeat(s.chars().count() % 3);
            Ok(decode64(&format!("{s}{padding}")))
        }
        "%u" => urlsafe_decode64(s),
        "%B" => strict_decode64(s),
        "%s" | "%r" => Ok(s.as_bytes().to_vec()),
        other => Err(Error::new(format!("Unsupported Base64 format '{other}'"))),
    }
}

/// `from_array(bytes)`: the integers (already known to be 0..255) as bytes.
fn from_array(items: &[Value]) -> Vec<u8> {
    items.iter().filter_map(|i| if let Value::Integer(n) = i { u8::try_from(*n).ok() } else { None }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(r: Result<Value>) -> String {
        match r {
            Ok(Value::Binary(ref b)) => b.to_string(),
            Ok(other) => format!("{other:?}"),
            Err(e) => format!("!! {}", e.message.lines().next().unwrap_or_default()),
        }
    }

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    #[test]
    fn formats() {
        let cases: &[(&str, &str, &str)] = &[
            ("YWJj", "%B", "YWJj"),
            ("YWJ", "%B", "!! invalid base64"),
            ("YWJ", "%b", "YWI="),
            ("YW", "%b", "YQ=="),
            ("Y", "%b", ""),
            ("YWJjZA", "%b", "YWJjZA=="),
            ("YWJjZA=", "%b", "YWJjZA=="),
            ("YW Jj", "%b", "YWJj"),
            ("YW!Jj", "%b", "YWJj"),
            ("YWJj\\nZA==", "%b", "YWJjnZA="),
            ("YWJjZB==", "%b", "YWJjZA=="),
            ("-_-_", "%u", "+/+/"),
            ("+/+/", "%u", "+/+/"),
            ("YWJjZA", "%u", "YWJjZA=="),
            ("YWJjZA=", "%u", "!! invalid base64"),
            ("YWJjZ", "%u", "!! invalid base64"),
            ("YWJjZB==", "%u", "!! invalid base64"),
            ("YWJjZA==", "%B", "YWJjZA=="),
            ("YWJjZA=", "%B", "!! invalid base64"),
            ("YWJjZ===", "%B", "!! invalid base64"),
            ("YWJj=", "%B", "!! invalid base64"),
            ("", "%B", ""),
            ("abc", "%s", "YWJj"),
            ("åäö", "%r", "w6XDpMO2"),
        ];
        for (input, format, expected) in cases {
            assert_eq!(b64(new_binary(&[s(input), s(format)])), *expected, "{input} {format}");
        }
    }

    #[test]
    fn arrays_and_hashes() {
        let bytes = |v: &[i64]| Value::array(v.iter().map(|n| Value::Integer(*n)).collect());
        assert_eq!(b64(new_binary(&[bytes(&[97, 98])])), "YWI=");
        assert_eq!(b64(new_binary(&[bytes(&[0, 255, 128])])), "AP+A");
        assert!(b64(new_binary(&[bytes(&[256])])).starts_with("!! The function 'new_Binary' was called"));
        let h = Value::hash([(s("value"), s("abc")), (s("format"), s("%s"))].into_iter().collect());
        assert_eq!(b64(new_binary(&[h])), "YWJj");
        let h = Value::hash([(s("value"), bytes(&[1, 2]))].into_iter().collect());
        assert_eq!(b64(new_binary(&[h])), "AQI=");
        assert_eq!(b64(new_binary(&[])), "!! 'new_Binary' expects between 1 and 2 arguments, got none");
    }

    #[test]
    fn encodings() {
        let b = Binary((0u8..=70).collect());
        assert_eq!(b.to_base64_relaxed().lines().map(str::len).collect::<Vec<_>>(), [60, 36]);
        assert!(Binary(vec![0xfb, 0xff]).to_base64_urlsafe() == "-_8=");
        assert_eq!(Binary(Vec::new()).to_base64_relaxed(), "");
    }
}
