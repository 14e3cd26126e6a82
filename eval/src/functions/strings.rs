//! The string functions: `camelcase capitalize chomp chop downcase lstrip rstrip strip upcase`
//! (`functions/*.rb`: Ruby's `String` methods on a string, on each string of an iterable, or
//! through arrays and hashes for `downcase`/`upcase`), `split join regsubst match versioncmp
//! strftime scanf`, and the 3.x functions `sprintf shellquote md5 sha1 sha256`
//! (`parser/functions/*.rb`), which take their arguments as Puppet 3 saw them: a top-level
//! `undef` is `''`, a regexp its `/source/`, a version or time its string form
//! ([`to_3x`]), and which check their own argument count (`md5(): Wrong number of arguments
//! given (0 for 1)`).
//!
//! `scanf` is Ruby's `String#scanf` (`scanf.rb` of Ruby's standard library), reimplemented
//! in [`scanf`](super::scanf): see that module for the directives.

use std::borrow::Cow;
use std::rc::Rc;

use pfmt::sprintf::{Arg, Conversions, RInt};
use pfmt::FormatError;
use poppet_ruby::string::capitalize;
use puppet_types::display::value_to_s;
use puppet_types::regexp::Regexp;
use puppet_types::value::Hash;
use puppet_types::{Type, Value};

use super::ruby;
use super::{Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;

/// How deep the functions descend into nested arrays and hashes.
const MAX_DEPTH: usize = 500;

/// `camelcase capitalize chomp chop lstrip rstrip strip`.
const STRING_OR_ITERABLE: &[&str] = &["Numeric $arg", "String $arg", "Iterable[Variant[String, Numeric]] $arg"];

/// `downcase upcase`: Puppet's local type `StringData = Variant[String, Numeric,
/// Array[StringData], Hash[StringData, StringData]]`, recursive; the dispatches take one level
/// of it and the function checks the rest ([`string_data`]), with the message the recursive
/// type gives.
const STRING_DATA: &[&str] = &[
    "Numeric $arg",
    "String $arg",
    "Array[Variant[String, Numeric, Array, Hash]] $arg",
    "Hash[Variant[String, Numeric, Array, Hash], Variant[String, Numeric, Array, Hash]] $arg",
];

/// The 3.x functions: any arguments (a block is ignored); the function checks their count.
const ANY: &[&str] = &["Any *$args, Callable &$block?"];

pub static FUNCTIONS: &[Builtin] = &[
    Builtin { name: "camelcase", dispatches: STRING_OR_ITERABLE, call: |ev, c| each_string(ev, c, camelcase) },
    Builtin { name: "capitalize", dispatches: STRING_OR_ITERABLE, call: |ev, c| each_string(ev, c, capitalize) },
    Builtin { name: "chomp", dispatches: STRING_OR_ITERABLE, call: |ev, c| each_string(ev, c, chomp) },
    Builtin { name: "chop", dispatches: STRING_OR_ITERABLE, call: |ev, c| each_string(ev, c, chop) },
    Builtin { name: "lstrip", dispatches: STRING_OR_ITERABLE, call: |ev, c| each_string(ev, c, lstrip) },
    Builtin { name: "rstrip", dispatches: STRING_OR_ITERABLE, call: |ev, c| each_string(ev, c, rstrip) },
    Builtin { name: "strip", dispatches: STRING_OR_ITERABLE, call: |ev, c| each_string(ev, c, strip) },
    Builtin { name: "downcase", dispatches: STRING_DATA, call: |ev, c| string_data(ev, c, "downcase", downcase) },
    Builtin { name: "upcase", dispatches: STRING_DATA, call: |ev, c| string_data(ev, c, "upcase", upcase) },
    Builtin {
        name: "split",
        dispatches: &["String $str, String $pattern", "String $str, Regexp $pattern", "String $str, Type[Regexp] $pattern"],
        call: split,
    },
    Builtin { name: "join", dispatches: &["Array $arg, String $delimiter?"], call: join },
    Builtin {
        name: "regsubst",
        dispatches: &[
            "Variant[Array[String],String] $target, String $pattern, Variant[String,Hash[String,String]] $replacement, Optional[Pattern[/^[GEIM]*$/]] $flags?, Enum['N','E','S','U'] $encoding?",
            "Variant[Array[String],String] $target, Variant[Regexp,Type[Regexp]] $pattern, Variant[String,Hash[String,String]] $replacement, Pattern[/^G?$/] $flags?",
        ],
        call: regsubst,
    },
    Builtin {
        name: "match",
        dispatches: &["String $string, Variant[Any, Type] $pattern", "Array[String] $string, Variant[Any, Type] $pattern"],
        call: match_function,
    },
    Builtin { name: "versioncmp", dispatches: &["String $a, String $b, Boolean $ignore_trailing_zeroes?"], call: versioncmp_function },
    Builtin {
        name: "strftime",
        dispatches: &[
            "Timespan $time_object, String $format",
            "Timestamp $time_object, String $format, String $timezone?",
            "String $format, String $timezone?",
        ],
        call: strftime,
    },
    Builtin { name: "scanf", dispatches: &["String $data, String $format, Callable &$block?"], call: scanf_function },
    Builtin { name: "sprintf", dispatches: ANY, call: sprintf },
    Builtin { name: "shellquote", dispatches: ANY, call: shellquote },
    Builtin { name: "md5", dispatches: ANY, call: |_, c| digest(c, "md5", |b| hex(&<md5::Md5 as md5::Digest>::digest(b))) },
    Builtin { name: "sha1", dispatches: ANY, call: |_, c| digest(c, "sha1", |b| hex(&<sha1::Sha1 as sha1::Digest>::digest(b))) },
    Builtin {
        name: "sha256",
        dispatches: ANY,
        call: |_, c| digest(c, "sha256", |b| hex(&<sha2::Sha256 as sha2::Digest>::digest(b))),
    },
];

// ---- Ruby's String methods -------------------------------------------------------------

/// Ruby's whitespace for `strip`: NUL, `\t \n \v \f \r` and space.
fn is_ruby_space(c: char) -> bool {
    matches!(c, '\0' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ')
}

fn lstrip(s: &str) -> String {
    s.trim_start_matches(is_ruby_space).to_string()
}

fn rstrip(s: &str) -> String {
    s.trim_end_matches(is_ruby_space).to_string()
}

fn strip(s: &str) -> String {
    s.trim_matches(is_ruby_space).to_string()
}

/// `String#chomp`: one trailing `\r\n`, `\n` or `\r` off.
fn chomp(s: &str) -> String {
    s.strip_suffix("\r\n").or_else(|| s.strip_suffix('\n')).or_else(|| s.strip_suffix('\r')).unwrap_or(s).to_string()
}

/// `String#chop`: the last character off (`\r\n` counts as one).
fn chop(s: &str) -> String {
    if let Some(t) = s.strip_suffix("\r\n") {
        return t.to_string();
    }
    let mut chars = s.chars();
    chars.next_back();
    chars.as_str().to_string()
}

/// `String#downcase`: full Unicode case mapping, character by character (Ruby has no final
/// sigma rule: `ΣΑΣ` is `σασ`).
pub(crate) fn downcase(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// `String#upcase` (`ß` is `SS`).
pub(crate) fn upcase(s: &str) -> String {
    s.chars().flat_map(char::to_uppercase).collect()
}

/// `s.split('_').map(&:capitalize).join('')`: Ruby's `split` drops trailing empty parts.
fn camelcase(s: &str) -> String {
    let mut parts: Vec<&str> = s.split('_').collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts.iter().map(|p| capitalize(p)).collect()
}

// ---- the string/iterable family ---------------------------------------------------------

/// A function of `STRING_OR_ITERABLE`: numbers as they are, a string transformed, each
/// string of an iterable transformed (other elements as they are).
fn each_string(_ev: &mut Evaluator, call: Call, f: fn(&str) -> String) -> Eval<Value> {
    let arg = call.arg(0);
    match &arg {
        Value::String(s) => Ok(Value::from(f(s).as_str())),
        Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => Ok(arg.clone()),
        _ => {
            let items = iterable_elements(&arg)?;
            Ok(Value::array(
                items
                    .into_iter()
                    .map(|x| match &x {
                        Value::String(s) => Value::from(f(s).as_str()),
                        _ => x.clone(),
                    })
                    .collect(),
            ))
        }
    }
}

/// The elements `map` sees of an iterable argument: an Array's, an Iterator's. Puppet's
/// functions call Ruby's `map` on the value itself, which a type (`Integer[1, 3]`) does not
/// have.
pub(crate) fn iterable_elements(v: &Value) -> Eval<Vec<Value>> {
    match v {
        Value::Array(a) => Ok(a.to_vec()),
        Value::Iterator(_) => match &puppet_types::new::array::new_array(std::slice::from_ref(v))? {
            Value::Array(a) => Ok(a.to_vec()),
            other => Ok(vec![other.clone()]),
        },
        other => Err(ruby::no_method("map", other)),
    }
}

/// Whether a value is Puppet's `StringData` (strings and numbers, in arrays and hashes).
fn is_string_data(v: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match v {
        Value::String(_) | Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => true,
        Value::Array(a) => a.iter().all(|x| is_string_data(x, depth + 1)),
        Value::Hash(h) => h.iter().all(|(k, x)| is_string_data(k, depth + 1) && is_string_data(x, depth + 1)),
        _ => false,
    }
}

/// `downcase`/`upcase`: through arrays and hashes. Puppet calls the function again on each
/// element that is no string, so an element that is no `StringData` fails that call's
/// dispatch, with its message.
fn string_data(ev: &mut Evaluator, call: Call, name: &str, f: fn(&str) -> String) -> Eval<Value> {
    let arg = call.arg(0);
    if !is_string_data(&arg, 0) {
        // the innermost container holding something else is the failing call's argument
        let culprit = innermost_bad(&arg, 0).unwrap_or(arg.clone());
        let Some((_, signatures)) = ev.registry.get(name) else { return Err(fail(format!("no function {name}"))) };
        puppet_types::dispatch::select_signature(name, &signatures, &[culprit], None)?;
    }
    Ok(map_string_data(&arg, f, 0))
}

/// The innermost array or hash on the way to a value that is no `StringData`.
fn innermost_bad(v: &Value, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    let children: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        Value::Hash(h) => h.iter().flat_map(|(k, x)| [k, x]).collect(),
        _ => return None,
    };
    for c in &children {
        if !is_string_data(c, depth + 1) {
            return match c {
                Value::Array(_) | Value::Hash(_) => innermost_bad(c, depth + 1).or_else(|| Some((*c).clone())),
                _ => Some(v.clone()),
            };
        }
    }
    None
}

fn map_string_data(v: &Value, f: fn(&str) -> String, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return v.clone();
    }
    match v {
        Value::String(s) => Value::from(f(s).as_str()),
        Value::Array(a) => Value::array(a.iter().map(|x| map_string_data(x, f, depth + 1)).collect()),
        Value::Hash(h) => {
            let mut out = Hash::with_capacity_and_hasher(h.len(), Default::default());
            for (k, x) in h.iter() {
                out.insert(map_string_data(k, f, depth + 1), map_string_data(x, f, depth + 1));
            }
            Value::hash(out)
        }
        other => other.clone(),
    }
}

// ---- regexps ----------------------------------------------------------------------------

/// A regexp compiled from a string as Ruby's `Regexp.compile(s, flags)` does: Ruby's syntax
/// errors (`end pattern with unmatched parenthesis: /(/i`), flags `i`, `m` (dot matches
/// newline) and `x`.
fn compile_regexp(source: &str, flags: &str) -> Eval<Rc<Regexp>> {
    if let Err(e) = puppet_types::new::regexp::new_regexp(&[Value::from(source)]) {
        // Ruby shows the options in the order m, i, x
        let mut options = String::new();
        for f in ['m', 'i', 'x'] {
            if flags.contains(f) {
                options.push(f);
            }
        }
        return Err(fail(format!("{}{options}", e.message)));
    }
    let full = if flags.is_empty() { source.to_string() } else { format!("(?{flags}){source}") };
    let re = Regexp::new(full);
    re.check().map_err(|e| fail(format!("{e}: /{source}/")))?;
    Ok(Rc::new(re))
}

/// One match: the byte ranges of the whole match and of each group.
struct Match {
    groups: Vec<Option<(usize, usize)>>,
}

impl Match {
    fn start(&self) -> usize {
        self.groups.first().copied().flatten().map_or(0, |g| g.0)
    }
    fn end(&self) -> usize {
        self.groups.first().copied().flatten().map_or(0, |g| g.1)
    }
}

/// The first match of `re` in `s` at or after byte `pos` (`rb_reg_search`).
fn search(re: &Regexp, s: &str, pos: usize) -> Eval<Option<Match>> {
    if pos > s.len() {
        return Ok(None);
    }
    let compiled = re.compiled().map_err(fail)?;
    match compiled.captures_from_pos(s, pos) {
        Ok(Some(caps)) => {
            Ok(Some(Match { groups: (0..caps.len()).map(|i| caps.get(i).map(|m| (m.start(), m.end()))).collect() }))
        }
        Ok(None) => Ok(None),
        Err(e) => Err(fail(format!("regexp match failed: {e}"))),
    }
}

/// The length in bytes of the character at `pos` (1 past the end).
fn char_len_at(s: &str, pos: usize) -> usize {
    s.get(pos..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8)
}

/// Ruby's `String#split(regexp)`, no limit: groups are included, trailing empty strings
/// dropped, an empty match splits between characters.
fn ruby_split(s: &str, re: &Regexp) -> Eval<Vec<String>> {
    let mut result: Vec<String> = Vec::new();
    let (mut beg, mut start) = (0usize, 0usize);
    let mut last_null = false;
    let len = s.len();
    while let Some(m) = search(re, s, start)? {
        let (mstart, mend) = (m.start(), m.end());
        if start == mstart && mstart == mend {
            if s.is_empty() {
                result.push(String::new());
                break;
            } else if last_null {
                result.push(s[beg..start].to_string());
                beg = start;
            } else {
                start += if start == len { 1 } else { char_len_at(s, start) };
                last_null = true;
                continue;
            }
        } else {
            result.push(s[beg..mstart].to_string());
            beg = mend;
            start = mend;
        }
        last_null = false;
        for g in m.groups.iter().skip(1).flatten() {
            result.push(s[g.0..g.1].to_string());
        }
        if result.len() > 1 << 22 {
            return Err(fail("split: too many parts"));
        }
    }
    if len > 0 && len > beg {
        result.push(s[beg..].to_string());
    }
    while result.last().is_some_and(String::is_empty) {
        result.pop();
    }
    Ok(result)
}

fn split(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let s = call.arg(0);
    let s = s.as_str().unwrap_or("");
    let re = match &call.arg(1) {
        Value::String(p) => compile_regexp(p, "")?,
        Value::Regexp(r) => r.clone(),
        Value::Type(t) => type_regexp(t).unwrap_or_else(|| Rc::new(Regexp::new(""))),
        _ => Rc::new(Regexp::new("")),
    };
    if let Some(literal) = literal_pattern(re.source()) {
        // A pattern without regexp syntax splits where the text is, as `str::split` does.
        let mut parts: Vec<Value> = if s.is_empty() { Vec::new() } else { s.split(literal).map(Value::from).collect() };
        while parts.last().is_some_and(|p| p.as_str() == Some("")) {
            parts.pop();
        }
        return Ok(Value::array(parts));
    }
    let parts = ruby_split(s, &re)?;
    Ok(Value::array(parts.iter().map(|p| Value::from(p.as_str())).collect()))
}

/// The text a regexp source matches when it has no regexp syntax at all (`,`, `::`).
fn literal_pattern(source: &str) -> Option<&str> {
    let plain = !source.is_empty() && source.chars().all(|c| c.is_alphanumeric() || " ,;:-_=/@%&!'\"<>~`".contains(c));
    plain.then_some(source)
}

/// The regexp of a `Regexp[...]` type (through aliases), `None` for the bare `Regexp`.
fn type_regexp(t: &Type) -> Option<Rc<Regexp>> {
    match t {
        Type::Type(Some(inner)) => type_regexp(inner),
        Type::Regexp(Some(r)) => Some(r.clone()),
        Type::Alias(a) => type_regexp(&a.resolved_type()),
        _ => None,
    }
}

fn join(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let delimiter = call.arg(1);
    let delimiter = delimiter.as_str().unwrap_or("");
    match &call.arg(0) {
        Value::Array(a) => Ok(Value::from(ruby_join(a, delimiter, 0)?.as_str())),
        _ => Ok(Value::from("")),
    }
}

/// Ruby's `Array#join`: each element's `to_s`, a nested array joined first with the same
/// delimiter (an empty one is an empty element).
fn ruby_join(items: &[Value], delimiter: &str, depth: usize) -> Eval<String> {
    if depth > MAX_DEPTH {
        return Err(fail("stack level too deep"));
    }
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(delimiter);
        }
        match item {
            Value::Array(inner) => out.push_str(&ruby_join(inner, delimiter, depth + 1)?),
            Value::String(s) => out.push_str(s),
            Value::Integer(i) => out.push_str(itoa::Buffer::new().format(*i)),
            other => out.push_str(&ruby::to_s(other)),
        }
    }
    Ok(out)
}

/// Ruby's `sub`/`gsub` replacement text for one match: `\0 \& \1..\9 \k<name> \` \' \\`.
fn expand_replacement(repl: &str, s: &str, m: &Match, names: &[Option<String>], out: &mut String) -> Eval<()> {
    let numbered = names.iter().all(Option::is_none);
    let group = |no: usize, out: &mut String| {
        if let Some(Some((a, b))) = m.groups.get(no) {
            out.push_str(&s[*a..*b]);
        }
    };
    let mut chars = repl.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, n)) = chars.next() else {
            out.push('\\');
            break;
        };
        match n {
            '1'..='9' => {
                if numbered {
                    group(n as usize - '0' as usize, out);
                }
            }
            '0' | '&' => group(0, out),
            '`' => out.push_str(&s[..m.start()]),
            '\'' => out.push_str(&s[m.end()..]),
            '\\' => out.push('\\'),
            'k' if chars.peek().is_some_and(|(_, c)| *c == '<') => {
                chars.next();
                let mut name = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '>' {
                        closed = true;
                        break;
                    }
                    name.push(c);
                }
                if !closed {
                    return Err(fail("invalid group name reference format"));
                }
                // the last group of that name that took part
                let found: Vec<usize> = names
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g.as_deref() == Some(name.as_str()))
                    .map(|(i, _)| i)
                    .collect();
                if found.is_empty() {
                    return Err(fail(format!("undefined group name reference: {name}")));
                }
                if let Some(&no) = found.iter().rev().find(|&&i| matches!(m.groups.get(i), Some(Some(_)))) {
                    group(no, out);
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Ok(())
}

/// Ruby's `sub`/`gsub(re, replacement)` on one string.
fn substitute(s: &str, re: &Regexp, replacement: &Value, global: bool) -> Eval<String> {
    let names: Vec<Option<String>> = match re.compiled() {
        Ok(r) => r.capture_names().map(|n| n.map(str::to_string)).collect(),
        Err(e) => return Err(fail(e)),
    };
    let mut out = String::with_capacity(s.len());
    let mut offset = 0usize;
    let mut pos = 0usize;
    while let Some(m) = search(re, s, pos)? {
        let (b, e) = (m.start(), m.end());
        out.push_str(&s[offset..b]);
        match replacement {
            Value::Hash(h) => {
                if let Some(v) = h.get(&Value::from(&s[b..e])) {
                    out.push_str(&ruby::to_s(v));
                }
            }
            Value::String(r) => expand_replacement(r, s, &m, &names, &mut out)?,
            _ => {}
        }
        offset = e;
        if !global {
            break;
        }
        if b == e {
            if s.len() <= e {
                break;
            }
            let l = char_len_at(s, e);
            out.push_str(&s[e..e + l]);
            offset = e + l;
        }
        if offset > s.len() {
            break;
        }
        pos = offset;
        if out.len() > 1 << 28 {
            return Err(fail("regsubst: result too large"));
        }
    }
    out.push_str(&s[offset.min(s.len())..]);
    Ok(out)
}

fn regsubst(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let target = call.arg(0);
    let replacement = call.arg(2);
    let flags = call.arg(3);
    let flags = flags.as_str().unwrap_or("");
    let (re, global) = if call.dispatch == 0 {
        let pattern = call.arg(1);
        let mut re_flags = String::new();
        for f in flags.chars() {
            match f {
                'E' => re_flags.push('x'),
                'I' => re_flags.push('i'),
                'M' => re_flags.push('m'),
                _ => {}
            }
        }
        (compile_regexp(pattern.as_str().unwrap_or(""), &re_flags)?, flags.contains('G'))
    } else {
        let re = match &call.arg(1) {
            Value::Regexp(r) => r.clone(),
            Value::Type(t) => type_regexp(t).unwrap_or_else(|| Rc::new(Regexp::new(""))),
            _ => Rc::new(Regexp::new("")),
        };
        (re, flags == "G")
    };
    match &target {
        Value::String(s) => Ok(Value::from(substitute(s, &re, &replacement, global)?.as_str())),
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter() {
                let s = item.as_str().unwrap_or("");
                out.push(Value::from(substitute(s, &re, &replacement, global)?.as_str()));
            }
            Ok(Value::array(out))
        }
        _ => Ok(target.clone()),
    }
}

// ---- match --------------------------------------------------------------------------------

fn match_function(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let pattern = call.arg(1);
    match &call.arg(0) {
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for s in items.iter() {
                out.push(match_one(s.as_str().unwrap_or(""), &pattern, 0)?.unwrap_or(Value::Undef));
            }
            Ok(Value::array(out))
        }
        s => Ok(match_one(s.as_str().unwrap_or(""), &pattern, 0)?.unwrap_or(Value::Undef)),
    }
}

fn match_error(class: &str) -> crate::error::Flow {
    fail(format!(
        "match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got {class}"
    ))
}

/// The match of `s` by a pattern: its groups, or `None`.
fn match_one(s: &str, pattern: &Value, depth: usize) -> Eval<Option<Value>> {
    if depth > 100 {
        return Err(fail("stack level too deep"));
    }
    match pattern {
        Value::String(p) => do_match(s, &*compile_regexp(p, "")?),
        Value::Regexp(r) => do_match(s, r),
        Value::Array(items) => {
            for item in flatten(items, 0) {
                if let Some(m) = match_one(s, &item, depth + 1)? {
                    return Ok(Some(m));
                }
            }
            Ok(None)
        }
        Value::Type(t) => match &**t {
            Type::Alias(a) => match_one(s, &Value::ty(a.resolved_type()), depth + 1),
            Type::Variant(types) => {
                for t in types.iter() {
                    if let Some(m) = match_one(s, &Value::ty(t.clone()), depth + 1)? {
                        return Ok(Some(m));
                    }
                }
                Ok(None)
            }
            Type::Regexp(None) => Err(fail("Given Regexp Type has no regular expression")),
            Type::Regexp(Some(r)) => do_match(s, r),
            Type::Pattern(patterns) => {
                for p in patterns.iter() {
                    if let Some(m) = do_match(s, p)? {
                        return Ok(Some(m));
                    }
                }
                Ok(None)
            }
            _ => Err(match_error(&ruby::class(pattern))),
        },
        other => Err(match_error(&ruby::class(other))),
    }
}

/// `Array#flatten` (iterative: any depth).
fn flatten(items: &[Value], _depth: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut stack: Vec<std::slice::Iter<'_, Value>> = vec![items.iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            Some(Value::Array(inner)) => stack.push(inner.iter()),
            Some(other) => out.push(other.clone()),
            None => {
                stack.pop();
            }
        }
    }
    out
}

/// `regexp.match(s).to_a`: the whole match and each group (`undef` for groups that did not
/// take part).
fn do_match(s: &str, re: &Regexp) -> Eval<Option<Value>> {
    match search(re, s, 0)? {
        Some(m) => Ok(Some(Value::array(
            m.groups.iter().map(|g| g.map_or(Value::Undef, |(a, b)| Value::from(&s[a..b]))).collect(),
        ))),
        None => Ok(None),
    }
}

// ---- versioncmp -----------------------------------------------------------------------------

/// The tokens of `/[-.]|\d+|[^-.\d]+/`.
fn version_tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i] == b'-' || b[i] == b'.' {
            i += 1;
        } else if b[i].is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            while i < b.len() && !(b[i] == b'-' || b[i] == b'.' || b[i].is_ascii_digit()) {
                i += 1;
            }
        }
        out.push(&s[start..i]);
    }
    out
}

/// `Puppet::Util::Package.normalize`: the trailing `.` and `0` run of the part before the
/// first `-` removed (`1.0.0` is `1`, `10` is `1`).
fn normalize_version(v: &str) -> Eval<String> {
    let mut parts: Vec<String> = v.split('-').map(str::to_string).collect();
    while parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    let Some(first) = parts.first_mut() else {
        return Err(fail("undefined method `sub!' for nil:NilClass"));
    };
    // the first run of [.0] that ends a line
    let b = first.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'.' || b[i] == b'0' {
            let mut j = i;
            while j < b.len() && (b[j] == b'.' || b[j] == b'0') {
                j += 1;
            }
            if j == b.len() || b[j] == b'\n' {
                first.replace_range(i..j, "");
                break;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    Ok(parts.join("-"))
}

/// `Puppet::Util::Package.versioncmp`.
pub(crate) fn versioncmp(a: &str, b: &str, ignore_trailing_zeroes: bool) -> Eval<i64> {
    use std::cmp::Ordering;
    let (a, b) = if ignore_trailing_zeroes {
        (normalize_version(a)?, normalize_version(b)?)
    } else {
        (a.to_string(), b.to_string())
    };
    let ord = |o: Ordering| match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    };
    let (ax, bx) = (version_tokens(&a), version_tokens(&b));
    for (x, y) in ax.iter().zip(bx.iter()) {
        if x == y {
            continue;
        }
        if *x == "-" {
            return Ok(-1);
        }
        if *y == "-" {
            return Ok(1);
        }
        if *x == "." {
            return Ok(-1);
        }
        if *y == "." {
            return Ok(1);
        }
        let digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
        if digits(x) && digits(y) {
            if x.starts_with('0') || y.starts_with('0') {
                return Ok(ord(upcase(x).as_bytes().cmp(upcase(y).as_bytes())));
            }
            // no leading zeros: the longer number is the larger
            return Ok(ord(x.len().cmp(&y.len()).then_with(|| x.cmp(y))));
        }
        return Ok(ord(upcase(x).as_bytes().cmp(upcase(y).as_bytes())));
    }
    Ok(ord(a.as_bytes().cmp(b.as_bytes())))
}

fn versioncmp_function(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let (a, b) = (call.arg(0), call.arg(1));
    let ignore = matches!(call.arg(2), Value::Boolean(true));
    Ok(Value::Integer(versioncmp(a.as_str().unwrap_or(""), b.as_str().unwrap_or(""), ignore)?))
}

// ---- strftime, scanf ------------------------------------------------------------------------

fn strftime(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let text = match (call.dispatch, &call.arg(0)) {
        (0, Value::Timespan(t)) => puppet_types::time::strftime_timespan(t, call.arg(1).as_str().unwrap_or(""))?,
        (1, Value::Timestamp(t)) => {
            let tz = call.arg(2);
            puppet_types::time::strftime_timestamp(t, call.arg(1).as_str().unwrap_or(""), tz.as_str())?
        }
        _ => {
            // the legacy signature: the current time
            warn_once(
                ev,
                "legacy#strftime",
                "The argument signature (String format, [String timezone]) is deprecated for #strftime. See #strftime documentation and Timespan type for more info",
            );
            let now = puppet_types::time::Timestamp::now();
            let tz = call.arg(1);
            puppet_types::time::strftime_timestamp(&now, call.arg(0).as_str().unwrap_or(""), tz.as_str())?
        }
    };
    Ok(Value::from(text.as_str()))
}

/// `Puppet.warn_once`: a deprecation warning logged once per key and session (per top
/// scope: the evaluator has no place for it, so it is kept here, by the top scope's identity).
pub(crate) fn warn_once(ev: &mut Evaluator, key: &str, message: &str) {
    if ev.first_time(key) {
        ev.log(crate::eval::Level::Warning, message.to_string());
    }
}

fn scanf_function(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let (data, format) = (call.arg(0), call.arg(1));
    let result = Value::array(super::scanf::scanf(data.as_str().unwrap_or(""), format.as_str().unwrap_or(""))?);
    match &call.block {
        Some(block) => ev.call_block(block, &[result]),
        None => Ok(result),
    }
}

// ---- the 3.x functions ----------------------------------------------------------------------

/// A 3.x function's arity check (`Puppet::Parser::Functions.newfunction`): `arity` ≥ 0 is
/// exact, negative is a minimum of `-arity - 1`.
pub(crate) fn check_arity(name: &str, args: &[Value], arity: i64) -> Eval<()> {
    let n = args.len() as i64;
    if arity >= 0 && n != arity {
        return Err(fail(format!("{name}(): Wrong number of arguments given ({n} for {arity})")));
    }
    if arity < 0 && n < -arity - 1 {
        return Err(fail(format!("{name}(): Wrong number of arguments given ({n} for minimum {})", -arity - 1)));
    }
    Ok(())
}

/// A value as a 3.x function gets it (`Runtime3FunctionArgumentConverter`): `undef` is `''`
/// at the top (`nil` inside arrays and hashes), regexps their `/source/`, versions, times and
/// binaries their string form.
pub(crate) fn to_3x(v: &Value, top: bool, depth: usize) -> Value {
    match v {
        Value::Undef if top => Value::from(""),
        Value::Regexp(r) => Value::from(puppet_types::display::regexp_with_delimiters(r.source()).as_str()),
        Value::SemVer(_) | Value::SemVerRange(_) | Value::Timespan(_) | Value::Timestamp(_) => {
            Value::from(value_to_s(v).as_str())
        }
        Value::Binary(b) => Value::from(b.to_base64_strict().as_str()),
        Value::Array(a) if depth < MAX_DEPTH => Value::array(a.iter().map(|x| to_3x(x, false, depth + 1)).collect()),
        Value::Hash(h) if depth < MAX_DEPTH => {
            let mut out = Hash::with_capacity_and_hasher(h.len(), Default::default());
            for (k, x) in h.iter() {
                out.insert(to_3x(k, false, depth + 1), to_3x(x, false, depth + 1));
            }
            Value::hash(out)
        }
        other => other.clone(),
    }
}

/// The arguments of a 3.x function ([`to_3x`]): an Iterator anywhere is refused, and so is
/// an Integer beyond 64 bits.
pub(crate) fn args_3x(args: &[Value]) -> Eval<Vec<Value>> {
    fn has_iterator(v: &Value, depth: usize) -> bool {
        match v {
            Value::Iterator(_) => true,
            Value::Array(a) if depth < MAX_DEPTH => a.iter().any(|x| has_iterator(x, depth + 1)),
            Value::Hash(h) if depth < MAX_DEPTH => {
                h.iter().any(|(k, x)| has_iterator(k, depth + 1) || has_iterator(x, depth + 1))
            }
            _ => false,
        }
    }
    if args.iter().any(|a| has_iterator(a, 0)) {
        return Err(fail("Use of an Iterator is not supported here"));
    }
    if let Some(big) = args.iter().find_map(puppet_types::int::find_big) {
        return Err(fail(big.out_of_range_message()));
    }
    Ok(args.iter().map(|a| to_3x(a, true, 0)).collect())
}

/// The class of a value in Ruby's `no implicit conversion of X into String` (`true`, `nil`
/// and `false` are named by value).
pub(crate) fn implicit_name(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        other => ruby::class(other),
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// `md5`, `sha1`, `sha256`: the hex digest of one string.
fn digest(call: Call, name: &str, f: fn(&[u8]) -> String) -> Eval<Value> {
    check_arity(name, &call.args, 1)?;
    let args = args_3x(&call.args)?;
    match &args[0] {
        Value::String(s) => Ok(Value::from(f(s.as_bytes()).as_str())),
        other => Err(fail(format!("no implicit conversion of {} into String", implicit_name(other)))),
    }
}

/// `sprintf`: Ruby's `Kernel#format` ([`pfmt::sprintf::format_list`]) of the 3.x arguments.
fn sprintf(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    check_arity("sprintf", &call.args, -2)?;
    let args = args_3x(&call.args)?;
    let format = match &args[0] {
        Value::String(s) => s.clone(),
        other => return Err(fail(format!("no implicit conversion of {} into String", implicit_name(other)))),
    };
    let text = ruby_format(&format, &args[1..])?;
    Ok(Value::from(text.as_str()))
}

/// Ruby's `Kernel#format` of Puppet's values (as Ruby objects: `%s` their `to_s`, `%p`
/// their `inspect`).
pub(crate) fn ruby_format(format: &str, args: &[Value]) -> Eval<String> {
    let list: Vec<Arg<'_>> = args
        .iter()
        .map(|a| match a {
            Value::String(s) => Arg::Str(Cow::Borrowed(&**s)),
            Value::Integer(i) => Arg::Int(i128::from(*i)),
            Value::BigInt(b) => Arg::Big((**b).clone()),
            Value::Float(f) => Arg::Float(*f),
            other => Arg::Obj(other),
        })
        .collect();
    Ok(pfmt::sprintf::format_list(format, &list, &Ruby3x)?)
}

/// How `sprintf`'s directives see the 3.x arguments that are Ruby objects (`Arg::Obj`): `%s`
/// is Ruby's `to_s` (`[1, "a", nil]` for an Array), `%p` its `inspect`, and `true`, `false`
/// and `nil` are named by value in conversion errors (`can't convert nil into Integer`); the
/// rest converts as `pfmt` converts.
struct Ruby3x;

impl Ruby3x {
    /// Ruby's name of `true`, `false` and `nil` in conversion messages.
    fn special(arg: &Arg<'_>) -> Option<&'static str> {
        match arg {
            Arg::Obj(Value::Boolean(true)) => Some("true"),
            Arg::Obj(Value::Boolean(false)) => Some("false"),
            Arg::Obj(Value::Undef) => Some("nil"),
            _ => None,
        }
    }
}

impl Conversions for Ruby3x {
    fn to_s<'a>(&self, arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
        match arg {
            Arg::Obj(v) => Ok(Cow::Owned(ruby::to_s(v))),
            other => pfmt::ruby::to_s(other),
        }
    }

    fn inspect<'a>(&self, arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
        match arg {
            Arg::Obj(v) => Ok(Cow::Owned(ruby::inspect(v))),
            other => pfmt::ruby::inspect(other),
        }
    }

    fn to_integer(&self, arg: &Arg<'_>) -> Result<RInt, FormatError> {
        match Self::special(arg) {
            Some(name) => Err(FormatError::new(format!("can't convert {name} into Integer"))),
            None => pfmt::ruby::to_integer(arg),
        }
    }

    fn to_float(&self, arg: &Arg<'_>) -> Result<f64, FormatError> {
        match Self::special(arg) {
            Some(name) => Err(FormatError::new(format!("can't convert {name} into Float"))),
            None => pfmt::ruby::to_float(arg),
        }
    }

    fn num2int(&self, arg: &Arg<'_>) -> Result<i64, FormatError> {
        match Self::special(arg) {
            Some(name) => Err(FormatError::new(format!("no implicit conversion of {name} into Integer"))),
            None => pfmt::ruby::num2int(arg),
        }
    }
}

/// `String#count` of `shellquote`'s sets: whether every character is safe.
fn shell_safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || "@%_+=:,./-".contains(c)
}

fn shellquote(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    const DANGEROUS: &str = "!\"`$\\";
    let args = args_3x(&call.args)?;
    let words = flatten(&args, 0);
    let mut result = Vec::with_capacity(words.len());
    for word in &words {
        let word = match word {
            Value::String(s) => s.clone(),
            Value::Hash(h) if h.is_empty() => {
                result.push(String::new());
                continue;
            }
            other => return Err(ruby::no_method("length", other)),
        };
        if !word.is_empty() && word.chars().all(shell_safe) {
            result.push(word.to_string());
        } else if !word.chars().any(|c| DANGEROUS.contains(c)) {
            result.push(format!("\"{word}\""));
        } else if !word.contains('\'') {
            result.push(format!("'{word}'"));
        } else {
            let mut r = String::from("\"");
            for c in word.chars() {
                if DANGEROUS.contains(c) {
                    r.push('\\');
                }
                r.push(c);
            }
            r.push('"');
            result.push(r);
        }
    }
    Ok(Value::from(result.join(" ").as_str()))
}
