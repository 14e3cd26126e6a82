//! `--yaml`: YAML documents read into Puppet values, one value per document (`---` separates
//! documents). YAML 1.2's core schema decides what a plain scalar is, as the `yaml-rust2`
//! parser does:
//!
//! | YAML | Puppet |
//! | ---- | ------ |
//! | `~`, `null`, nothing | `undef` |
//! | `true`, `True`, `TRUE`, `false`, ... | Boolean (`yes`, `no`, `on`, `off` are strings: YAML 1.2, unlike Ruby's YAML 1.1) |
//! | `12`, `+12`, `-3`, `0x1f`, `0o17` within 64 bits | Integer |
//! | `1.5`, `1e3`, `.inf`, `-.inf`, `.nan` | Float |
//! | a quoted or block scalar, or any other plain scalar | String |
//! | `!!str`, `!!int`, `!!float`, `!!bool`, `!!null` | that kind (a scalar that is not one is an error); other tags are ignored |
//! | a sequence | Array |
//! | a mapping | Hash, in document order; keys may be any value |
//! | an alias (`*a`) | the anchored value (`&a`), shared, not copied |

use std::collections::HashMap;
use std::str::Chars;

use puppet_types::value::Hash;
use puppet_types::Value;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::Yaml;

use super::MAX_DEPTH;

/// The values of the YAML documents in `src`, in order; reading stops at the first error.
pub fn documents(src: &str) -> Documents<'_> {
    Documents { parser: Parser::new_from_str(src), done: false }
}

/// The documents of a YAML stream, read one at a time.
pub struct Documents<'a> {
    parser: Parser<Chars<'a>>,
    done: bool,
}

impl Iterator for Documents<'_> {
    type Item = Result<Value, String>;

    fn next(&mut self) -> Option<Result<Value, String>> {
        if self.done {
            return None;
        }
        let r = self.document().transpose();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }
}

/// A container being read.
enum Open {
    Seq { items: Vec<Value>, anchor: usize },
    Map { entries: Hash, key: Option<Value>, anchor: usize },
}

impl Documents<'_> {
    /// The next document's value, `None` at the end of the stream.
    fn document(&mut self) -> Result<Option<Value>, String> {
        loop {
            match self.event()? {
                (Event::StreamEnd, _) => return Ok(None),
                (Event::DocumentStart, _) => break,
                _ => {}
            }
        }
        let mut anchors: HashMap<usize, Value> = HashMap::new();
        let mut stack: Vec<Open> = Vec::new();
        let mut root: Option<Value> = None;
        loop {
            let (event, mark) = self.event()?;
            let (value, anchor) = match event {
                Event::DocumentEnd => return Ok(Some(root.unwrap_or(Value::Undef))),
                Event::StreamEnd => return Ok(root),
                Event::Scalar(text, style, anchor, tag) => {
                    (scalar(text, style, tag.as_ref()).map_err(|e| at(e, mark))?, anchor)
                }
                Event::Alias(id) => match anchors.get(&id) {
                    Some(v) => (v.clone(), 0),
                    None => return Err(at("an alias to an unknown anchor".into(), mark)),
                },
                Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(at(format!("the document nests deeper than {MAX_DEPTH} levels"), mark));
                    }
                    stack.push(match event {
                        Event::SequenceStart(..) => Open::Seq { items: Vec::new(), anchor },
                        _ => Open::Map { entries: Hash::default(), key: None, anchor },
                    });
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                    Some(Open::Seq { items, anchor }) => (Value::array(items), anchor),
                    Some(Open::Map { entries, anchor, .. }) => (Value::hash(entries), anchor),
                    None => return Err(at("an unbalanced end of a collection".into(), mark)),
                },
                Event::Nothing | Event::StreamStart | Event::DocumentStart => continue,
            };
            if anchor > 0 {
                anchors.insert(anchor, value.clone());
            }
            match stack.last_mut() {
                Some(Open::Seq { items, .. }) => items.push(value),
                Some(Open::Map { entries, key, .. }) => match key.take() {
                    None => *key = Some(value),
                    Some(k) => {
                        entries.insert(k, value);
                    }
                },
                None => root = Some(value),
            }
        }
    }

    fn event(&mut self) -> Result<(Event, Marker), String> {
        self.parser.next_token().map_err(|e| format!("invalid YAML on standard input: {e}"))
    }
}

fn at(message: String, mark: Marker) -> String {
    format!("invalid YAML on standard input: {message} at line {} column {}", mark.line(), mark.col() + 1)
}

/// A scalar's value: quoted and block scalars are strings; plain ones follow the core schema,
/// or their `!!` tag.
fn scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Result<Value, String> {
    let core = tag.filter(|t| t.handle == "tag:yaml.org,2002:").map(|t| t.suffix.as_str());
    let bad = |kind: &str, text: &str| Err(format!("the scalar '{text}' is no {kind}"));
    match core {
        Some("str") => Ok(Value::from(text.as_str())),
        Some("int") => match Yaml::from_str(&text) {
            Yaml::Integer(i) => Ok(Value::Integer(i)),
            _ => bad("!!int", &text),
        },
        Some("float") => match Yaml::from_str(&text) {
            Yaml::Integer(i) => Ok(Value::Float(i as f64)),
            y @ Yaml::Real(_) => y.as_f64().map(Value::Float).map_or_else(|| bad("!!float", &text), Ok),
            _ => bad("!!float", &text),
        },
        Some("bool") => match Yaml::from_str(&text) {
            Yaml::Boolean(b) => Ok(Value::Boolean(b)),
            _ => bad("!!bool", &text),
        },
        Some("null") => match Yaml::from_str(&text) {
            Yaml::Null => Ok(Value::Undef),
            _ => bad("!!null", &text),
        },
        _ if style != TScalarStyle::Plain || tag.is_some() => Ok(Value::from(text.as_str())),
        _ => Ok(plain(text)),
    }
}

/// A plain scalar by YAML 1.2's core schema.
fn plain(text: String) -> Value {
    match Yaml::from_str(&text) {
        Yaml::Null => Value::Undef,
        Yaml::Boolean(b) => Value::Boolean(b),
        Yaml::Integer(i) => Value::Integer(i),
        y @ Yaml::Real(_) => y.as_f64().map_or_else(|| Value::from(text.as_str()), Value::Float),
        _ => Value::from(text.as_str()),
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
    fn scalars_collections_documents() {
        assert_eq!(
            all("b: 1\na: [~, true, 1.5, x, '2', 0x10, yes]\n"),
            ["{'b' => 1, 'a' => [undef, true, 1.5, 'x', '2', 16, 'yes']}"]
        );
        assert_eq!(all("--- 1\n--- two\n---\n- 3\n"), ["1", "'two'", "[3]"]);
        assert_eq!(all("---\n"), ["undef"]);
        assert_eq!(all(""), Vec::<String>::new());
        assert_eq!(all("? [1, 2]\n: x\n"), ["{[1, 2] => 'x'}"]);
        assert_eq!(all("a: &x [1]\nb: *x\n"), ["{'a' => [1], 'b' => [1]}"]);
        assert_eq!(all("!!str 12"), ["'12'"]);
        assert_eq!(all("!!float 12"), ["12.0"]);
        assert_eq!(
            all("[!!int x]")[0],
            "!! invalid YAML on standard input: the scalar 'x' is no !!int at line 1 column 8"
        );
        assert!(all("[1, 2")[0].starts_with("!! invalid YAML on standard input: "));
        let r = all(&"[".repeat(100_000));
        assert_eq!(r, ["!! invalid YAML on standard input: recursion limit exceeded at byte 255 line 1 column 256"]);
        assert!(all(&"- ".repeat(100_000))[0].contains("nests deeper than 128"));
    }
}
