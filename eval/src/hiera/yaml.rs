//! YAML as Puppet's Hiera reads it: `Puppet::Util::Yaml.safe_load`, which is Ruby's Psych
//! (YAML 1.1) with only Symbol allowed beyond plain data. The `yaml-rust2` parser gives the
//! events; what a plain scalar is follows Psych's `ScalarScanner#tokenize`, not YAML 1.2:
//!
//! | YAML | value |
//! | ---- | ----- |
//! | `~`, `null`, nothing | `undef` |
//! | `yes`, `true`, `on` / `no`, `false`, `off` (any case) | Boolean |
//! | `12`, `1_000`, `1,000`, `017` (octal), `0x1f`, `0b101`, `1:30` (base 60) | Integer |
//! | `1.5`, `1.`, `.5`, `1.0e+3`, `.inf`, `-.inf`, `.nan` | Float (`1e3` is a String) |
//! | `2001-12-14`, `2001-12-14 21:59:43` | an error: Ruby's Date and Time are not allowed |
//! | `:name` | a Ruby Symbol: a hash key becomes the string `name`; a value cannot be looked up |
//! | quoted and block scalars, `!!str`, anything else | String |
//!
//! Only the first document of a file counts; an alias (`*a`) repeats its anchored value and
//! a merge key (`<<: *a`) merges a hash into the one it is in, as Psych does. Syntax errors
//! are yaml-rust2's, worded as libyaml words them (inside a flow collection, libyaml's own).
//! The runner's `--facts` YAML files are read here too.

use std::collections::HashMap;

use puppet_types::value::Hash;
use puppet_types::Value;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// How deeply a document may nest: deeper is an error, never a stack overflow.
const MAX_DEPTH: usize = 256;

/// A document read: its value (`None` for an empty file, which Psych reads as `nil`), and
/// the top-level keys whose values hold something Puppet cannot look up (a Ruby Symbol),
/// with what is wrong.
pub struct Document {
    pub value: Option<Value>,
    pub unusable: HashMap<String, String>,
}

/// Why a file could not be read: Psych's message (`did not find expected ',' or ']' while
/// parsing a flow sequence at line 1 column 8`, `Tried to load unspecified class: Date`).
#[derive(Debug)]
pub enum YamlError {
    Syntax(String),
    DisallowedClass(String),
}

/// Reads the first document of `src`.
pub fn read(src: &str) -> Result<Document, YamlError> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    Reader {
        src,
        parser: Parser::new_from_str(src),
        anchors: HashMap::new(),
        unusable: HashMap::new(),
        open: Vec::new(),
    }
    .document()
}

/// A container being read.
enum Open {
    Seq { items: Vec<Value>, anchor: usize },
    Map { entries: Hash, key: Option<Value>, merge_key: bool, anchor: usize },
}

struct Reader<'a> {
    src: &'a str,
    parser: Parser<std::str::Chars<'a>>,
    anchors: HashMap<usize, Value>,
    unusable: HashMap<String, String>,
    /// Where each open collection starts (a flow collection at its `[` or `{`).
    open: Vec<Marker>,
}

/// A scalar's value, or what keeps it from being one Puppet can use.
enum Scalar {
    Value(Value),
    Symbol(String),
}

impl Reader<'_> {
    fn document(mut self) -> Result<Document, YamlError> {
        loop {
            match self.event()?.0 {
                Event::StreamEnd => return Ok(Document { value: None, unusable: self.unusable }),
                Event::DocumentStart => break,
                _ => {}
            }
        }
        let mut stack: Vec<Open> = Vec::new();
        // What is wrong with the value of the top-level entry being read.
        let mut problem: Option<String> = None;
        loop {
            let (event, mark) = self.event()?;
            let (value, anchor, plain_merge) = match event {
                Event::DocumentEnd | Event::StreamEnd => return Ok(Document { value: None, unusable: self.unusable }),
                Event::Scalar(text, style, anchor, tag) => {
                    let merge = style == TScalarStyle::Plain && tag.is_none() && text == "<<";
                    match scalar(&text, style, tag.as_ref())? {
                        Scalar::Value(v) => (v, anchor, merge),
                        Scalar::Symbol(name) => {
                            // A Symbol key is its name (Puppet's `symkeys_to_string`).
                            let is_key = matches!(stack.last(), Some(Open::Map { key: None, .. }));
                            if !is_key {
                                problem.get_or_insert_with(|| "Runtime[ruby, 'Symbol']".into());
                            }
                            (Value::from(name.as_str()), anchor, false)
                        }
                    }
                }
                Event::Alias(id) => match self.anchors.get(&id) {
                    Some(v) => (v.clone(), 0, false),
                    None => return Err(syntax("found undefined alias", mark)),
                },
                Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(syntax("the document nests too deeply", mark));
                    }
                    self.open.push(mark);
                    stack.push(match event {
                        Event::SequenceStart(..) => Open::Seq { items: Vec::new(), anchor },
                        _ => Open::Map { entries: Hash::default(), key: None, merge_key: false, anchor },
                    });
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => match (self.open.pop(), stack.pop()).1 {
                    Some(Open::Seq { items, anchor }) => (Value::array(items), anchor, false),
                    Some(Open::Map { entries, anchor, .. }) => (Value::hash(entries), anchor, false),
                    None => return Err(syntax("did not find expected node content", mark)),
                },
                Event::Nothing | Event::StreamStart | Event::DocumentStart => continue,
            };
            if anchor > 0 {
                self.anchors.insert(anchor, value.clone());
            }
            let depth = stack.len();
            match stack.last_mut() {
                Some(Open::Seq { items, .. }) => items.push(value),
                Some(Open::Map { entries, key, merge_key, .. }) => match key.take() {
                    None => {
                        *merge_key = plain_merge;
                        *key = Some(value);
                    }
                    Some(k) => {
                        if std::mem::take(merge_key) {
                            merge_into(entries, k, value);
                        } else {
                            if depth == 1 {
                                if let (Some(p), Value::String(name)) = (problem.take(), &k) {
                                    self.unusable.insert(name.to_string(), p);
                                }
                            }
                            entries.insert(k, value);
                        }
                        if depth == 1 {
                            problem = None;
                        }
                    }
                },
                None => {
                    // The document's root: the rest of the stream is not read (Psych's
                    // `safe_load` takes the first document).
                    return Ok(Document { value: Some(value), unusable: self.unusable });
                }
            }
        }
    }

    fn event(&mut self) -> Result<(Event, Marker), YamlError> {
        self.parser.next_token().map_err(|e| YamlError::Syntax(self.psych_message(&e.to_string())))
    }

    /// An error inside a flow collection is libyaml's about that collection, at its start
    /// (Psych reports libyaml's context mark): `did not find expected ',' or ']' while
    /// parsing a flow sequence at line 2 column 14`. Other errors are yaml-rust2's, in
    /// libyaml's order of words.
    fn psych_message(&self, text: &str) -> String {
        let flow = self.open.last().and_then(|m| Some((m, self.src.chars().nth(m.index())?)));
        let in_flow = text.contains("flow") || text.contains("':'") || text.contains("mapping values");
        match flow {
            Some((m, '[')) if in_flow => {
                format!(
                    "did not find expected ',' or ']' while parsing a flow sequence at line {} column {}",
                    m.line(),
                    m.col() + 1
                )
            }
            Some((m, '{')) if in_flow => {
                format!(
                    "did not find expected ',' or '}}' while parsing a flow mapping at line {} column {}",
                    m.line(),
                    m.col() + 1
                )
            }
            _ => psych_message(text),
        }
    }
}

/// Psych's merge key: `<<: {…}` (or an alias to a hash) merges the hash into the one being
/// read; `<<: [{…}, {…}]` merges each, the first winning; anything else is an ordinary key.
fn merge_into(entries: &mut Hash, key: Value, value: Value) {
    match &value {
        Value::Hash(h) => {
            for (k, v) in h.iter() {
                entries.insert(k.clone(), v.clone());
            }
        }
        Value::Array(items) if items.iter().all(|i| matches!(i, Value::Hash(_))) => {
            let mut merged = Hash::default();
            for item in items.iter().rev() {
                if let Value::Hash(h) = item {
                    for (k, v) in h.iter() {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
            for (k, v) in merged {
                entries.insert(k, v);
            }
        }
        _ => {
            entries.insert(key, value);
        }
    }
}

fn syntax(problem: &str, mark: Marker) -> YamlError {
    YamlError::Syntax(format!("{problem} at line {} column {}", mark.line(), mark.col() + 1))
}

/// yaml-rust2's error (`while parsing a flow sequence, expected ',' or ']' at byte 9 line 2
/// column 1`) in libyaml's words, as Psych reports them (`did not find expected ',' or ']'
/// while parsing a flow sequence at line 2 column 1`).
fn psych_message(text: &str) -> String {
    let (message, position) = match text.find(" at byte ") {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    let position = match position.find(" line ") {
        Some(i) => format!(" at{}", &position[i..]),
        None => String::new(),
    };
    let message = match message.strip_prefix("while ").and_then(|m| m.split_once(", ")) {
        Some((context, problem)) => {
            let problem = match problem.strip_prefix("expected ") {
                Some(rest) => format!("did not find expected {rest}"),
                None => problem.to_string(),
            };
            format!("{problem} while {context}")
        }
        None => message.to_string(),
    };
    format!("{message}{position}")
}

/// A scalar: quoted and block scalars are strings, `!!str` too; plain ones (and other tags)
/// are what Psych's scanner makes of them.
fn scalar(text: &str, style: TScalarStyle, tag: Option<&Tag>) -> Result<Scalar, YamlError> {
    if let Some(t) = tag {
        if t.handle == "tag:yaml.org,2002:" && t.suffix == "str" {
            return Ok(Scalar::Value(Value::from(text)));
        }
        if t.handle == "!" && t.suffix.starts_with("ruby/") {
            let class = t.suffix.split_once(':').map_or(t.suffix.as_str(), |(_, c)| c);
            return Err(YamlError::DisallowedClass(class.to_string()));
        }
    }
    if style != TScalarStyle::Plain {
        return Ok(Scalar::Value(Value::from(text)));
    }
    tokenize(text)
}

/// Psych's `ScalarScanner#tokenize`, its branches in its order.
fn tokenize(s: &str) -> Result<Scalar, YamlError> {
    let value = |v: Value| Ok(Scalar::Value(v));
    if s.is_empty() {
        return value(Value::Undef);
    }
    if word_like(s) || s.contains('\n') {
        if s.chars().count() > 5 {
            return value(Value::from(s));
        }
        let lower = s.to_ascii_lowercase();
        return value(match lower.as_str() {
            "~" | "null" => Value::Undef,
            "yes" | "true" | "on" => Value::Boolean(true),
            "no" | "false" | "off" => Value::Boolean(false),
            _ => Value::from(s),
        });
    }
    if is_time(s) {
        return Err(YamlError::DisallowedClass("Time".into()));
    }
    if let Some((y, m, d)) = date(s) {
        // Psych makes a Date of a valid date; an invalid one stays a string.
        return if valid_date(y, m, d) {
            Err(YamlError::DisallowedClass("Date".into()))
        } else {
            value(Value::from(s))
        };
    }
    let lower = s.to_ascii_lowercase();
    if lower == ".inf" || lower == "+.inf" {
        return value(Value::Float(f64::INFINITY));
    }
    if lower == "-.inf" {
        return value(Value::Float(f64::NEG_INFINITY));
    }
    if lower == ".nan" {
        return value(Value::Float(f64::NAN));
    }
    if s.len() > 1 && s.starts_with(':') {
        let name = &s[1..];
        let name = match name.as_bytes().first() {
            Some(&q @ (b'"' | b'\'')) if name.len() > 1 && name.ends_with(q as char) => &name[1..name.len() - 1],
            _ => name,
        };
        return Ok(Scalar::Symbol(name.trim_start_matches(':').to_string()));
    }
    if let Some(v) = sexagesimal(s) {
        return Ok(v);
    }
    if is_float(s) {
        if s.trim_start_matches(['-', '+']) == "." {
            return value(Value::from(s));
        }
        let cleaned: String = s.chars().filter(|c| *c != '_' && *c != ',').collect();
        let cleaned = cleaned.replace(".e", "e").replace(".E", "E");
        let cleaned = cleaned.strip_suffix('.').unwrap_or(&cleaned);
        return value(cleaned.parse::<f64>().map(Value::Float).unwrap_or_else(|_| Value::from(s)));
    }
    if is_integer(s) {
        return Ok(integer(s));
    }
    value(Value::from(s))
}

/// `/^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|\/\\~;=]+/`: text that starts like a word.
fn word_like(s: &str) -> bool {
    let class = |c: char| c.is_alphabetic() || c.is_whitespace() || "_!@#$%^&*(){}<>|/\\~;=".contains(c);
    let mut chars = s.chars();
    let Some(first) = chars.next() else { return false };
    if class(first) {
        return true;
    }
    !first.is_ascii_digit() && !".:-".contains(first) && chars.next().is_some_and(class)
}

/// Psych's TIME: `-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?`.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize, min: usize, max: usize| -> bool {
        let start = *i;
        while *i < b.len() && *i - start < max && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start >= min
    };
    let byte = |i: &mut usize, c: u8| -> bool {
        if b.get(*i) == Some(&c) {
            *i += 1;
            true
        } else {
            false
        }
    };
    if !(digits(&mut i, 4, 4)
        && byte(&mut i, b'-')
        && digits(&mut i, 1, 2)
        && byte(&mut i, b'-')
        && digits(&mut i, 1, 2))
    {
        return false;
    }
    if !(byte(&mut i, b'T') || byte(&mut i, b't')) {
        let start = i;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if !(digits(&mut i, 1, 2)
        && byte(&mut i, b':')
        && digits(&mut i, 2, 2)
        && byte(&mut i, b':')
        && digits(&mut i, 2, 2))
    {
        return false;
    }
    if byte(&mut i, b'.') {
        digits(&mut i, 0, usize::MAX);
    }
    let zone_start = i;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i == b.len() {
        return true;
    }
    if byte(&mut i, b'Z') {
        return i == b.len();
    }
    if byte(&mut i, b'-') || byte(&mut i, b'+') {
        if !digits(&mut i, 1, 2) {
            return false;
        }
        byte(&mut i, b':');
        digits(&mut i, 0, 2);
        return i == b.len();
    }
    i == zone_start && i == b.len()
}

/// `^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`: year, month and day.
fn date(s: &str) -> Option<(i32, u32, u32)> {
    let mut parts = s.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || !(1..=2).contains(&m.len()) || !(1..=2).contains(&d.len()) {
        return None;
    }
    if ![y, m, d].iter().all(|p| p.bytes().all(|c| c.is_ascii_digit())) {
        return None;
    }
    let (m, d): (u32, u32) = (m.parse().ok()?, d.parse().ok()?);
    (m <= 12 && d <= 31).then_some((y.parse().ok()?, m, d))
}

fn valid_date(y: i32, m: u32, d: u32) -> bool {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// `^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$` (an integer) and the same with `\.[0-9_]*` after
/// (a float): Psych's base 60, each part weighing `60 ** (index - 2).abs`.
fn sexagesimal(s: &str) -> Option<Scalar> {
    let (body, fraction) = match s.split_once('.') {
        Some((b, f)) if f.bytes().all(|c| c.is_ascii_digit() || c == b'_') => (b, Some(f)),
        Some(_) => return None,
        None => (s, None),
    };
    let unsigned = body.strip_prefix(['-', '+']).unwrap_or(body);
    let parts: Vec<&str> = unsigned.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let first = parts[0];
    if !first.as_bytes().first().is_some_and(u8::is_ascii_digit)
        || !first.bytes().all(|c| c.is_ascii_digit() || c == b'_')
    {
        return None;
    }
    for p in &parts[1..] {
        let ok = match p.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    // Ruby's `to_i` (or `to_f`) of each part of `string.split(':')`: the sign stays on the
    // first part, so `-1:30` is -3600 + 1800.
    let mut total = 0f64;
    let count = body.split(':').count();
    for (e, p) in body.split(':').enumerate() {
        let p = if e + 1 == count { fraction.map_or(p.to_string(), |f| format!("{p}.{f}")) } else { p.to_string() };
        let v = p.replace('_', "").parse::<f64>().unwrap_or(0.0);
        let v = if fraction.is_some() { v } else { v.trunc() };
        total += v * 60f64.powi((e as i32 - 2).abs());
    }
    Some(Scalar::Value(if fraction.is_some() {
        Value::Float(total)
    } else {
        puppet_types::Int::from_f64(total).map_or(Value::Undef, puppet_types::Int::into_value)
    }))
}

/// Psych's FLOAT: `^(?:[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?)$`.
fn is_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    if b.get(i).is_some_and(u8::is_ascii_digit) {
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_' || b[i] == b',') {
            i += 1;
        }
    }
    if b.get(i) != Some(&b'.') {
        return false;
    }
    i += 1;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if !matches!(b.get(i), Some(b'-' | b'+')) {
            return false;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// Psych's INTEGER: base 2 (`0b`), 8 (a leading `0`), 10 and 16 (`0x`), with `_` and `,`.
fn is_integer(s: &str) -> bool {
    let u = s.strip_prefix(['-', '+']).unwrap_or(s);
    let all = |t: &str, f: fn(u8) -> bool| !t.is_empty() && t.bytes().all(|c| f(c) || c == b'_' || c == b',');
    if let Some(rest) = u.strip_prefix("0b") {
        return all(rest, |c| c == b'0' || c == b'1');
    }
    if let Some(rest) = u.strip_prefix("0x") {
        return all(rest, |c| c.is_ascii_hexdigit());
    }
    if let Some(rest) = u.strip_prefix('0') {
        return rest.is_empty() || all(rest, |c| (b'0'..=b'7').contains(&c));
    }
    // `[1-9](?:[0-9]|,[0-9]|_[0-9])*`
    let b = u.as_bytes();
    if !b.first().is_some_and(|c| (b'1'..=b'9').contains(c)) {
        return false;
    }
    let mut i = 1;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            i += 1;
        } else if (b[i] == b',' || b[i] == b'_') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 2;
        } else {
            return false;
        }
    }
    true
}

/// Ruby's `Integer(s.gsub(/[,_]/, ''))`.
fn integer(s: &str) -> Scalar {
    let cleaned: String = s.chars().filter(|c| *c != '_' && *c != ',').collect();
    let (negative, u) = match cleaned.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, cleaned.strip_prefix('+').unwrap_or(&cleaned)),
    };
    let (digits, radix) = if let Some(rest) = u.strip_prefix("0b") {
        (rest, 2)
    } else if let Some(rest) = u.strip_prefix("0x") {
        (rest, 16)
    } else if u.len() > 1 && u.starts_with('0') {
        (&u[1..], 8)
    } else {
        (u, 10)
    };
    // Ruby's integers have any size: a bignum stays one (see `puppet_types::int`)
    match num_bigint::BigInt::parse_bytes(digits.as_bytes(), radix) {
        Some(n) => Scalar::Value(puppet_types::Int::from_big(if negative { -n } else { n }).into_value()),
        None => Scalar::Value(Value::from(s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_types::display::value_to_string;

    fn one(src: &str) -> String {
        match read(src) {
            Ok(Document { value: Some(v), .. }) => value_to_string(&v),
            Ok(Document { value: None, .. }) => "nothing".into(),
            Err(YamlError::Syntax(m)) => format!("syntax: {m}"),
            Err(YamlError::DisallowedClass(c)) => format!("class: {c}"),
        }
    }

    #[test]
    fn scalars_follow_psych() {
        assert_eq!(
            one("[yes, No, on, OFF, ~, null, '', x, 017, 0x1f, 0b101, 1_000, '1,000', 08, 1:30, 1.5, 1., .5, 1e3, 1.0e+3, -.inf, -1:30, 1:30.5, +12, 0, -0, 0o17, 1__0, 12e, .]"),
            "[true, false, true, false, undef, undef, '', 'x', 15, 31, 5, 1000, '1,000', '08', 5400, 1.5, 1.0, 0.5, '1e3', 1000.0, -Infinity, -1800, 5430.0, 12, 0, 0, '0o17', '1__0', '12e', '.']"
        );
        assert_eq!(
            one("a: 1,000\nf: 1_0\ng: 0b1_0\nh: 0x_1f\nj: 1.5e-3\n"),
            "{'a' => 1000, 'f' => 10, 'g' => 2, 'h' => 31, 'j' => 0.0015}"
        );
        assert_eq!(one("a: 'yes'\nb: !!str 12\nc: |\n  x\n"), "{'a' => 'yes', 'b' => '12', 'c' => \"x\\n\"}");
        assert_eq!(one("x: 2020-01-01"), "class: Date");
        assert_eq!(one("x: 2020-02-30"), "{'x' => '2020-02-30'}");
        assert_eq!(one("x: 2001-12-14 21:59:43.10 -5"), "class: Time");
        assert_eq!(one(""), "nothing");
        assert_eq!(one("--- 1\n--- [\n"), "1");
    }

    #[test]
    fn symbols_aliases_merge_keys() {
        let d = read(":a: 1\nb: :c\nd: 123456789012345678901234567890\n").ok().unwrap();
        assert_eq!(value_to_string(&d.value.unwrap()), "{'a' => 1, 'b' => 'c', 'd' => 123456789012345678901234567890}");
        assert_eq!(d.unusable.get("b").map(String::as_str), Some("Runtime[ruby, 'Symbol']"));
        assert!(!d.unusable.contains_key("d"));
        assert!(!d.unusable.contains_key("a"));
        assert_eq!(
            one("a: &x {p: 1, q: 2}\nb:\n  <<: *x\n  q: 3\n"),
            "{'a' => {'p' => 1, 'q' => 2}, 'b' => {'p' => 1, 'q' => 3}}"
        );
    }

    #[test]
    fn syntax_errors_read_as_psych_words_them() {
        assert_eq!(
            one("a: [1\nb: 2\n"),
            "syntax: did not find expected ',' or ']' while parsing a flow sequence at line 1 column 4"
        );
        assert!(one(&"[".repeat(10_000)).starts_with("syntax: "));
    }
}
