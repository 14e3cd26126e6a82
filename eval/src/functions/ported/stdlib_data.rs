//! stdlib's functions that read and write data formats (YAML, JSON, TOML, Python and Ruby literals, HOCON) and number and string conversions, ported from its Ruby (8.5.0 and 9.7.0).

use std::collections::HashMap;

use poppet_ruby::yaml::{self, Node};
use puppet_types::Value;

use super::stdlib_strings::{real_or_shim, rewrap_sensitive, SHIM};
use super::{stdlib_9, v3, v4, Port};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;
use crate::functions::{ruby, Call};

pub static PORTS: &[Port] = &[
    v4("stdlib", "to_yaml", SHIM, |ev, c| real_or_shim(ev, c, "to_yaml", TO_YAML, to_yaml)),
    v4("stdlib", "stdlib::to_yaml", TO_YAML, |ev, c| rewrap_sensitive(ev, c, to_yaml)),
    v3("stdlib", "parseyaml", -1, |_, c| parse_or_default(c, parse_yaml)),
    v3("stdlib", "parsejson", -1, |_, c| parse_or_default(c, parse_json)),
    v4("stdlib", "parsepson", &["String[1] $pson_string, Any $default?"], parsepson),
];

const TO_YAML: &[&str] = &["Any $data, Hash $options?"];

// ---- reading ------------------------------------------------------------------------------

/// stdlib's `parseyaml(text, [default])` and `parsejson(text, [default])` (3.x): the data the
/// text holds; the default (undef without one) where that is nothing, `false` or `null`, and
/// where it cannot be read, when one is given (else the error).
fn parse_or_default(call: Call, parse: fn(&str) -> Eval<Value>) -> Eval<Value> {
    let Some(text) = call.args.first() else {
        return Err(fail("Wrong number of arguments. 1 or 2 arguments should be provided."));
    };
    let default = call.args.get(1).cloned();
    let parsed = match text {
        Value::String(s) => parse(s),
        Value::Boolean(b) => Err(fail(format!("no implicit conversion of {b} into String"))),
        other => Err(fail(format!("no implicit conversion of {} into String", ruby::class(other)))),
    };
    match parsed {
        Ok(v) if crate::eval::truthy(&v) => Ok(v),
        Ok(_) => Ok(default.unwrap_or(Value::Undef)),
        Err(e) => match default {
            Some(d) if crate::eval::truthy(&d) => Ok(d),
            _ => Err(e),
        },
    }
}

/// Psych's `YAML.load` (Psych 4: Symbols allowed, aliases not): the first document's data.
fn parse_yaml(text: &str) -> Eval<Value> {
    use crate::hiera::yaml::{read, YamlError};
    match read(text) {
        Ok(doc) => match first_alias(text) {
            Some(name) => Err(fail(format!("Unknown alias: {name}"))),
            None => Ok(doc.value.unwrap_or(Value::Undef)),
        },
        Err(YamlError::DisallowedClass(c)) => Err(fail(format!("Tried to load unspecified class: {c}"))),
        Err(YamlError::Syntax(m)) => Err(fail(format!("(<unknown>): {m}"))),
    }
}

/// The name of the first alias (`*name`) of a YAML text's first document, which Psych's
/// `load` refuses.
fn first_alias(text: &str) -> Option<String> {
    use yaml_rust2::parser::{Event, Parser};
    let mut parser = Parser::new_from_str(text);
    loop {
        match parser.next_token().ok()? {
            (Event::Alias(_), mark) => {
                let rest: String = text.chars().skip(mark.index()).collect();
                let rest = rest.strip_prefix('*').unwrap_or(&rest);
                let end = rest.find(|c: char| c.is_whitespace() || ",[]{}".contains(c)).unwrap_or(rest.len());
                return Some(rest[..end].to_owned());
            }
            (Event::DocumentEnd | Event::StreamEnd, _) => return None,
            _ => {}
        }
    }
}

/// Ruby's `JSON.parse` (the json gem 2.6): its message where it refuses the text.
fn parse_json(text: &str) -> Eval<Value> {
    if let Some(message) = poppet_ruby::json::parse_error(text) {
        return Err(fail(message));
    }
    match pfmt::data::json::documents(text).next() {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(fail(e)),
        None => Ok(Value::Undef),
    }
}

/// `parsepson(text, [default])` (4.x): Puppet's PSON parser's data of an object or array;
/// the default where it fails, when one is given. stdlib 9.7.0 first warns of its
/// deprecation.
fn parsepson(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let result = (|| {
        if stdlib_9(ev) {
            let message = "This method is deprecated. From Puppet 8, PSON is no longer natively supported. Please use JSON.parse().";
            ev.call_function_inner("deprecation", vec![Value::from("parsepson"), Value::from(message)], None, call.at)?;
        }
        Pson { s: call.arg(0).as_str().unwrap_or_default().as_bytes(), i: 0, depth: 0 }.document()
    })();
    match (result, call.args.get(1)) {
        (Err(_), Some(default)) => Ok(default.clone()),
        (result, _) => result,
    }
}

/// Puppet's PSON parser (`PSON::Pure::Parser`, the json gem's old pure-Ruby parser): a
/// StringScanner over the bytes, its messages showing the next 20 bytes.
struct Pson<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

/// How deep PSON nests (the parser's `max_nesting`).
const PSON_MAX_NESTING: usize = 19;

impl Pson<'_> {
    fn peek(&self) -> String {
        let end = (self.i + 20).min(self.s.len());
        String::from_utf8_lossy(&self.s[self.i..end]).into_owned()
    }

    fn error(&self, what: &str) -> crate::error::Flow {
        fail(format!("{what} at '{}'!", self.peek()))
    }

    fn scan(&mut self, token: &str) -> bool {
        let found = self.s[self.i..].starts_with(token.as_bytes());
        if found {
            self.i += token.len();
        }
        found
    }

    /// Blanks and comments (`IGNORE`): whether there were any.
    fn skip_ignored(&mut self) -> bool {
        let start = self.i;
        loop {
            let rest = &self.s[self.i..];
            if rest.first().is_some_and(|c| b" \t\r\n".contains(c)) {
                self.i += 1;
            } else if rest.starts_with(b"//") {
                match rest.iter().position(|c| *c == b'\n' || *c == b'\r') {
                    Some(end) => self.i += end + 1,
                    None => break,
                }
            } else if rest.starts_with(b"/*") {
                match rest[2..].windows(2).position(|w| w == b"*/") {
                    Some(end) => self.i += end + 4,
                    None => break,
                }
            } else {
                break;
            }
        }
        self.i > start
    }

    fn document(&mut self) -> Eval<Value> {
        let mut obj = None;
        while self.i < self.s.len() {
            if self.scan("{") || self.scan("[") {
                if obj.is_some() {
                    return Err(fail(format!("source '{}' not in PSON!", self.peek())));
                }
                self.depth = 1;
                obj = Some(if self.s[self.i - 1] == b'{' { self.object()? } else { self.array()? });
            } else if !self.skip_ignored() {
                return Err(fail(format!("source '{}' not in PSON!", self.peek())));
            }
        }
        obj.ok_or_else(|| fail("source did not contain any PSON!"))
    }

    fn nested(&self) -> Eval<()> {
        if self.depth > PSON_MAX_NESTING {
            return Err(fail(format!("nesting of {} is too deep", self.depth)));
        }
        Ok(())
    }

    fn value(&mut self) -> Eval<Option<Value>> {
        if let Some(v) = self.number() {
            return Ok(Some(v));
        }
        for (word, v) in [("true", Value::Boolean(true)), ("false", Value::Boolean(false)), ("null", Value::Undef)] {
            if self.scan(word) {
                return Ok(Some(v));
            }
        }
        if let Some(s) = self.string()? {
            return Ok(Some(Value::from(s.as_str())));
        }
        for (open, is_object) in [("[", false), ("{", true)] {
            if self.scan(open) {
                self.depth += 1;
                let v = if is_object { self.object()? } else { self.array()? };
                self.depth -= 1;
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// `FLOAT` (a fraction or an exponent) or `INTEGER` (`-?0|-?[1-9]\d*`).
    fn number(&mut self) -> Option<Value> {
        let s = self.s;
        let digits = |mut j: usize| {
            while s.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            j
        };
        let mut j = self.i + usize::from(s.get(self.i) == Some(&b'-'));
        match s.get(j) {
            Some(b'0') => j += 1,
            Some(b'1'..=b'9') => j = digits(j),
            _ => return None,
        }
        let int_end = j;
        let mut float_end = None;
        if s.get(j) == Some(&b'.') && s.get(j + 1).is_some_and(u8::is_ascii_digit) {
            j = digits(j + 1);
            float_end = Some(j);
        }
        if matches!(s.get(j), Some(b'e' | b'E')) {
            let k = j + 1 + usize::from(matches!(s.get(j + 1), Some(b'+' | b'-')));
            if s.get(k).is_some_and(u8::is_ascii_digit) {
                float_end = Some(digits(k));
            }
        }
        let text = |end: usize| std::str::from_utf8(&s[self.i..end]).unwrap_or_default().to_owned();
        let v = match float_end {
            Some(end) => Value::Float(text(end).parse().ok()?),
            None => {
                let digits = text(int_end);
                match digits.parse::<i64>() {
                    Ok(i) => Value::Integer(i),
                    Err(_) => puppet_types::Int::from_big(digits.parse().ok()?).into_value(),
                }
            }
        };
        self.i = float_end.unwrap_or(int_end);
        Some(v)
    }

    /// `STRING`, its escapes undone (`\uXXXX` as UTF-16); `None` where none starts here.
    fn string(&mut self) -> Eval<Option<String>> {
        if self.s.get(self.i) != Some(&b'"') {
            return Ok(None);
        }
        let mut j = self.i + 1;
        let mut out: Vec<u8> = Vec::new();
        let mut units: Vec<u16> = Vec::new();
        loop {
            let Some(&c) = self.s.get(j) else { return Ok(None) };
            if c != b'\\' || self.s.get(j + 1) != Some(&b'u') {
                if !units.is_empty() {
                    out.extend_from_slice(String::from_utf16_lossy(&units).as_bytes());
                    units.clear();
                }
            }
            match c {
                b'"' => break,
                0..=0x1f => return Ok(None),
                b'\\' => {
                    let Some(&e) = self.s.get(j + 1) else { return Ok(None) };
                    if e == b'u' {
                        let hex = self.s.get(j + 2..j + 6).and_then(|h| std::str::from_utf8(h).ok());
                        let Some(unit) = hex.and_then(|h| u16::from_str_radix(h, 16).ok()) else { return Ok(None) };
                        // Ruby appends each byte as a character: one past ASCII is no UTF-16
                        if unit & 0x8080 != 0 {
                            return Err(fail("Caught Encoding::InvalidByteSequenceError: a \\u escape PSON cannot decode"));
                        }
                        units.push(unit);
                        j += 6;
                        continue;
                    }
                    if e < 0x20 {
                        return Ok(None);
                    }
                    out.push(match e {
                        b'b' => 8,
                        b'f' => 12,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        other => other,
                    });
                    j += 2;
                }
                _ => {
                    out.push(c);
                    j += 1;
                }
            }
        }
        self.i = j + 1;
        Ok(Some(String::from_utf8_lossy(&out).into_owned()))
    }

    fn array(&mut self) -> Eval<Value> {
        self.nested()?;
        let mut items = Vec::new();
        let mut delim = false;
        while self.i < self.s.len() {
            if let Some(v) = self.value()? {
                delim = false;
                items.push(v);
                self.skip_ignored();
                if self.scan(",") {
                    delim = true;
                } else if self.s.get(self.i) != Some(&b']') {
                    return Err(self.error("expected ',' or ']' in array"));
                }
            } else if self.scan("]") {
                if delim {
                    return Err(self.error("expected next element in array"));
                }
                break;
            } else if !self.skip_ignored() {
                return Err(self.error("unexpected token in array"));
            }
        }
        Ok(Value::array(items))
    }

    fn object(&mut self) -> Eval<Value> {
        self.nested()?;
        let mut entries = puppet_types::value::Hash::default();
        let mut delim = false;
        while self.i < self.s.len() {
            if let Some(key) = self.string()? {
                self.skip_ignored();
                if !self.scan(":") {
                    return Err(self.error("expected ':' in object"));
                }
                self.skip_ignored();
                let Some(v) = self.value()? else { return Err(self.error("expected value in object")) };
                entries.insert(Value::from(key.as_str()), v);
                delim = false;
                self.skip_ignored();
                if self.scan(",") {
                    delim = true;
                } else if self.s.get(self.i) != Some(&b'}') {
                    return Err(self.error("expected ',' or '}' in object"));
                }
            } else if self.scan("}") {
                if delim {
                    return Err(self.error("expected next name, value pair in object"));
                }
                break;
            } else if !self.skip_ignored() {
                return Err(self.error("unexpected token in object"));
            }
        }
        Ok(Value::hash(entries))
    }
}

// ---- YAML ---------------------------------------------------------------------------------

/// `to_yaml(data, [options])` (stdlib 8.5.0; 9.7.0's `stdlib::to_yaml`, the global name a
/// deprecated shim): Ruby's `data.to_yaml(options)`, Psych's YAML document of the value
/// with the options' `indentation`, `line_width`, `canonical` and `header`.
fn to_yaml(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let options = yaml_options(&call.arg(1))?;
    let node = YamlNodes::default().node(&call.arg(0), 0)?;
    let text = yaml::dump(&node, &options, &reads_as_string).map_err(fail)?;
    Ok(Value::from(text.as_str()))
}

/// Whether Psych's scanner reads a plain scalar as this very string (not `true`, `1`, a
/// date, a Symbol, ...): Hiera's reader of Psych's scalars decides.
fn reads_as_string(s: &str) -> bool {
    matches!(crate::hiera::yaml::read(s), Ok(crate::hiera::yaml::Document { value: Some(Value::String(ref t)), .. }) if &**t == s)
}

/// Psych's dump options from `to_yaml`'s options hash (its keys made Symbols; others ignored).
fn yaml_options(options: &Value) -> Eval<yaml::Options> {
    let mut out = yaml::Options::default();
    let Value::Hash(h) = options else { return Ok(out) };
    for (key, value) in h.iter() {
        let Value::String(key) = key else { return Err(ruby::no_method("to_sym", key)) };
        match &**key {
            "indentation" => out.indentation = Some(ruby_int(value)?),
            "line_width" => {
                out.line_width = Some(match value {
                    Value::Integer(i) => *i,
                    Value::Float(f) => *f as i64,
                    other => return Err(ruby::cmperr(other, &Value::Integer(0))),
                })
            }
            "canonical" => out.canonical = crate::eval::truthy(value),
            "header" => out.header = crate::eval::truthy(value),
            _ => {}
        }
    }
    Ok(out)
}

/// Ruby's `NUM2INT` of an option: an integer, a float truncated, else a `TypeError`.
fn ruby_int(v: &Value) -> Eval<i64> {
    match v {
        Value::Integer(i) => Ok(*i),
        Value::Float(f) => Ok(*f as i64),
        Value::Undef => Err(fail("no implicit conversion from nil to integer")),
        Value::Boolean(b) => Err(fail(format!("no implicit conversion of {b} into Integer"))),
        other => Err(fail(format!("no implicit conversion of {} into Integer", ruby::class(other)))),
    }
}

/// How deep a value may nest in `to_yaml` (a bound for the stack).
const MAX_DEPTH: usize = 1000;

/// Values turned into Psych's nodes, an array or hash met again (the same object, as Ruby
/// shares it) becoming an alias of the first, numbered in the order the repeats are met.
#[derive(Default)]
struct YamlNodes {
    /// Each array or hash met, by address: its anchor once met again.
    seen: HashMap<usize, Option<u32>>,
    anchors: u32,
}

impl YamlNodes {
    /// The anchors first (a first pass, as Psych numbers them when a repeat is met), then the
    /// nodes.
    fn node(mut self, v: &Value, depth: usize) -> Eval<Node> {
        self.number(v, depth)?;
        let mut written = HashMap::new();
        Ok(self.build(v, &mut written))
    }

    fn number(&mut self, v: &Value, depth: usize) -> Eval<()> {
        if depth > MAX_DEPTH {
            return Err(fail("to_yaml(): the value nests too deeply"));
        }
        let Some(address) = address(v) else {
            return match v {
                Value::Sensitive(inner) => self.number(inner, depth + 1),
                Value::Undef
                | Value::Default
                | Value::Boolean(_)
                | Value::Integer(_)
                | Value::BigInt(_)
                | Value::Float(_)
                | Value::String(_)
                | Value::Regexp(_) => Ok(()),
                other => Err(fail(format!(
                    "to_yaml(): Poppet does not write Puppet's Ruby object of a {} as YAML",
                    puppet_types::infer::infer(other)
                ))),
            };
        };
        if let Some(anchor) = self.seen.get_mut(&address) {
            if anchor.is_none() {
                self.anchors += 1;
                *anchor = Some(self.anchors);
            }
            return Ok(());
        }
        self.seen.insert(address, None);
        match v {
            Value::Array(items) => items.iter().try_for_each(|x| self.number(x, depth + 1)),
            Value::Hash(h) => h.iter().try_for_each(|(k, x)| {
                self.number(k, depth + 1)?;
                self.number(x, depth + 1)
            }),
            _ => Ok(()),
        }
    }

    fn build(&self, v: &Value, written: &mut HashMap<usize, ()>) -> Node {
        if let Some(address) = address(v) {
            let anchor = self.seen.get(&address).copied().flatten();
            if let Some(a) = anchor {
                if written.insert(address, ()).is_some() {
                    return Node::Alias(a);
                }
            }
            return match v {
                Value::Array(items) => Node::Seq(anchor, items.iter().map(|x| self.build(x, written)).collect()),
                Value::Hash(h) => {
                    Node::Map(anchor, h.iter().map(|(k, x)| (self.build(k, written), self.build(x, written))).collect())
                }
                _ => Node::Null,
            };
        }
        match v {
            Value::Undef => Node::Null,
            Value::Default => Node::Symbol("default".into()),
            Value::Boolean(b) => Node::Bool(*b),
            Value::Integer(_) | Value::BigInt(_) => Node::Int(ruby::to_s(v)),
            Value::Float(f) => Node::Float(*f),
            Value::String(s) => Node::Str(s.to_string()),
            Value::Regexp(_) => Node::Regexp(ruby::inspect(v)),
            Value::Sensitive(inner) => Node::Object(
                None,
                "Puppet::Pops::Types::PSensitiveType::Sensitive".into(),
                vec![("value".into(), self.build(inner, written))],
            ),
            _ => Node::Null,
        }
    }
}

/// The address of an array's or hash's shared value (Ruby's object identity).
fn address(v: &Value) -> Option<usize> {
    match v {
        Value::Array(items) => Some(std::rc::Rc::as_ptr(items) as usize),
        Value::Hash(h) => Some(std::rc::Rc::as_ptr(h) as usize),
        _ => None,
    }
}
