//! String's methods. Indexes count characters, as Ruby's do for UTF-8 strings; case
//! mappings are Unicode's, as Ruby's are.

use std::rc::Rc;

use super::{arity, check_mutable, cmp, int_arg, str_arg, Found};
use crate::interp::{raise, unsupported, Block, Interp, MAX_LEN, R};
use crate::value::{RMatch, RRegexp, RValue};

pub use poppet_ruby::string::succ;

fn text(recv: &RValue) -> String {
    recv.as_string().unwrap_or_default()
}

/// Replaces the receiver's text (after the mutability check).
fn set(recv: &RValue, s: String) {
    if let RValue::Str(r) = recv {
        *r.s.borrow_mut() = s;
    }
}

/// A bang method: changes the receiver, answers it, or nil when nothing changed.
fn bang(it: &mut Interp<'_>, recv: &RValue, new: String) -> R<RValue> {
    check_mutable(it, recv)?;
    if new == text(recv) {
        return Ok(RValue::Nil);
    }
    set(recv, new);
    Ok(recv.clone())
}

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

/// The byte offset of character `i` (the end when past it).
pub fn byte_at(s: &str, i: usize) -> usize {
    s.char_indices().nth(i).map_or(s.len(), |(b, _)| b)
}

/// The character index of byte offset `b`.
pub fn char_at(s: &str, b: usize) -> usize {
    s[..b.min(s.len())].chars().count()
}

/// Ruby's whitespace for `strip` (and NUL on the right).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

pub fn call(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let s = text(recv);
    Some(match name {
        "length" | "size" => arity(args, 0, 0).map(|_| RValue::Int(s.chars().count() as i64)),
        "bytesize" => Ok(RValue::Int(s.len() as i64)),
        "empty?" => arity(args, 0, 0).map(|_| RValue::Bool(s.is_empty())),
        "to_s" | "to_str" => Ok(recv.clone()),
        "to_sym" | "intern" => Ok(RValue::Sym(s.as_str().into())),
        "to_i" => arity(args, 0, 1).and_then(|_| {
            let base = match args.first() {
                Some(b) => int_arg(b)?,
                None => 10,
            };
            if !(2..=36).contains(&base) {
                return raise("ArgumentError", format!("invalid radix {base}"));
            }
            to_i(&s, base as u32)
        }),
        "to_f" => Ok(RValue::Float(to_f(&s))),
        "hex" => to_i(s.trim_start().trim_start_matches("0x").trim_start_matches("0X"), 16),
        "oct" => to_i(&s, 8),
        "upcase" | "downcase" | "capitalize" | "swapcase" if args.len() > 1 => {
            raise("ArgumentError", "too many options")
        }
        "upcase" | "downcase" | "capitalize" | "swapcase" if !args.is_empty() => {
            unsupported(format!("`String#{name}` with options"))
        }
        "upcase" | "downcase" | "capitalize" | "swapcase" => arity(args, 0, 1).map(|_| RValue::str(case_map(name, &s))),
        "upcase!" | "downcase!" | "capitalize!" | "swapcase!" => {
            let new = case_map(&name[..name.len() - 1], &s);
            bang(it, recv, new)
        }
        "strip" | "lstrip" | "rstrip" | "chomp" | "chop" | "squeeze" | "reverse" | "succ" | "next" => {
            arity(args, 0, 1).and_then(|_| Ok(RValue::str(transform(name, &s, args.first())?)))
        }
        "strip!" | "lstrip!" | "rstrip!" | "chomp!" | "chop!" | "squeeze!" | "reverse!" | "succ!" | "next!" => {
            let new = match transform(&name[..name.len() - 1], &s, args.first()) {
                Ok(n) => n,
                Err(e) => return Some(Err(e)),
            };
            let changed = bang(it, recv, new);
            if matches!(name, "reverse!" | "succ!" | "next!") {
                changed.map(|_| recv.clone())
            } else {
                changed
            }
        }
        "chars" => Ok(RValue::array(s.chars().map(|c| RValue::str(c.to_string())).collect())),
        "bytes" => Ok(RValue::array(s.bytes().map(|b| RValue::Int(i64::from(b))).collect())),
        "lines" => Ok(RValue::array(lines(&s).into_iter().map(RValue::str).collect())),
        "each_char" | "each_line" => match block {
            Some(b) => (|| {
                let parts: Vec<String> =
                    if name == "each_char" { s.chars().map(String::from).collect() } else { lines(&s) };
                for p in parts {
                    it.yield1(b, RValue::str(p))?;
                }
                Ok(recv.clone())
            })(),
            None => unsupported(format!("`{name}` without a block (enumerators)")),
        },
        "split" => arity(args, 0, 2).and_then(|_| split(it, &s, args)),
        "include?" => arity(args, 1, 1).and_then(|_| Ok(RValue::Bool(s.contains(&str_arg(&args[0])?)))),
        "start_with?" | "end_with?" => (|| {
            for a in args {
                let hit = match (a, name) {
                    (RValue::Regexp(r), "start_with?") => match regex_match(it, r, &s, 0)? {
                        Some(m) => m.groups[0].is_some_and(|(st, _)| st == 0),
                        None => false,
                    },
                    (_, "start_with?") => s.starts_with(&str_arg(a)?),
                    _ => s.ends_with(&str_arg(a)?),
                };
                if hit {
                    return Ok(RValue::Bool(true));
                }
            }
            Ok(RValue::Bool(false))
        })(),
        "index" | "rindex" => arity(args, 1, 2).and_then(|_| index(it, &s, name == "rindex", args)),
        "center" | "ljust" | "rjust" => arity(args, 1, 2).and_then(|_| {
            let width = int_arg(&args[0])?;
            let pad = match args.get(1) {
                Some(p) => str_arg(p)?,
                None => " ".into(),
            };
            if pad.is_empty() {
                return raise("ArgumentError", "zero width padding");
            }
            if width > MAX_LEN as i64 {
                return raise("ArgumentError", "argument too big");
            }
            Ok(RValue::str(justify(name, &s, width.max(0) as usize, &pad)))
        }),
        "*" => arity(args, 1, 1).and_then(|_| {
            let n = int_arg(&args[0])?;
            if n < 0 {
                return raise("ArgumentError", "negative argument");
            }
            if (n as u128) * (s.len() as u128) > MAX_LEN as u128 {
                return raise("ArgumentError", "argument too big");
            }
            Ok(RValue::str(s.repeat(n as usize)))
        }),
        "+" => arity(args, 1, 1).and_then(|_| Ok(RValue::str(s.clone() + &str_arg(&args[0])?))),
        "%" => arity(args, 1, 1).and_then(|_| {
            let mut fargs = vec![recv.clone()];
            match &args[0] {
                RValue::Array(a) => fargs.extend(a.v.borrow().iter().cloned()),
                other => fargs.push(other.clone()),
            }
            crate::bridge::format(it, &fargs)
        }),
        "<<" | "concat" => (|| {
            check_mutable(it, recv)?;
            let mut new = s.clone();
            for a in args {
                match a {
                    RValue::Int(i) => {
                        new.push(char::from_u32(u32::try_from(*i).unwrap_or(u32::MAX)).ok_or_else(|| {
                            crate::interp::Ctrl::Error(crate::error::Error::ruby(
                                "RangeError",
                                format!("{i} out of char range"),
                            ))
                        })?)
                    }
                    other => new.push_str(&str_arg(other)?),
                }
            }
            if new.len() > MAX_LEN {
                return unsupported("strings of more than 64 MiB");
            }
            set(recv, new);
            Ok(recv.clone())
        })(),
        "prepend" | "insert" | "replace" | "clear" => (|| {
            check_mutable(it, recv)?;
            let new = match name {
                "prepend" => {
                    let mut pre = String::new();
                    for a in args {
                        pre.push_str(&str_arg(a)?);
                    }
                    pre + &s
                }
                "replace" => {
                    arity(args, 1, 1)?;
                    str_arg(&args[0])?
                }
                "clear" => String::new(),
                _ => {
                    arity(args, 2, 2)?;
                    let idx = int_arg(&args[0])?;
                    let other = str_arg(&args[1])?;
                    let n = s.chars().count() as i64;
                    let pos = if idx < 0 { n + idx + 1 } else { idx };
                    if pos < 0 || pos > n {
                        return raise("IndexError", format!("index {idx} out of string"));
                    }
                    let b = byte_at(&s, pos as usize);
                    format!("{}{other}{}", &s[..b], &s[b..])
                }
            };
            set(recv, new);
            Ok(recv.clone())
        })(),
        "==" | "===" | "eql?" => {
            arity(args, 1, 1).map(|_| RValue::Bool(matches!(&args[0], RValue::Str(o) if *o.s.borrow() == s)))
        }
        "<=>" => arity(args, 1, 1).and_then(|_| {
            Ok(match cmp(recv, &args[0])? {
                Some(o) => RValue::Int(o as i64),
                None => RValue::Nil,
            })
        }),
        "<" | "<=" | ">" | ">=" | "between?" | "clamp" => {
            return None.or_else(|| Some(comparable(it, recv, name, args)))
        }
        "casecmp" | "casecmp?" => arity(args, 1, 1).map(|_| {
            let RValue::Str(o) = &args[0] else { return RValue::Nil };
            let (a, b) = (s.to_ascii_lowercase(), o.s.borrow().to_ascii_lowercase());
            if name == "casecmp?" {
                RValue::Bool(s.to_lowercase() == o.s.borrow().to_lowercase())
            } else {
                RValue::Int(a.as_bytes().cmp(b.as_bytes()) as i64)
            }
        }),
        "=~" => arity(args, 1, 1).and_then(|_| match &args[0] {
            RValue::Regexp(r) => match_index(it, r, &s),
            RValue::Str(_) => raise("TypeError", "wrong argument type String (expected Regexp)"),
            other => it.send(other, "=~", vec![recv.clone()], None),
        }),
        "match" | "match?" => arity(args, 1, 2).and_then(|_| {
            // a string is a regexp's source here (`Regexp.new(str)`)
            let r = match &args[0] {
                RValue::Str(p) => {
                    let source = p.s.borrow().clone();
                    Rc::new(RRegexp::new(source, "").or_else(|m| raise("RegexpError", m))?)
                }
                other => to_regexp(other)?,
            };
            let start = match args.get(1) {
                Some(p) => int_arg(p)?,
                None => 0,
            };
            let start = byte_at(&s, start.max(0) as usize);
            let m = regex_match(it, &r, &s, start)?;
            if name == "match?" {
                return Ok(RValue::Bool(m.is_some()));
            }
            let v = m.map_or(RValue::Nil, |m| RValue::Match(Rc::new(m)));
            it.last_match = v.clone();
            Ok(v)
        }),
        "scan" => arity(args, 1, 1).and_then(|_| scan(it, &s, &args[0], block)),
        "sub" | "gsub" | "sub!" | "gsub!" => (|| {
            arity(args, 1, 2)?;
            let global = name.starts_with('g');
            let new = substitute(it, &s, &args[0], args.get(1), block, global)?;
            if name.ends_with('!') {
                bang(it, recv, new)
            } else {
                Ok(RValue::str(new))
            }
        })(),
        "tr" | "tr_s" | "delete" | "count" | "squeeze_chars" => (|| match name {
            "tr" | "tr_s" => {
                arity(args, 2, 2)?;
                let from = str_arg(&args[0])?;
                let to = str_arg(&args[1])?;
                Ok(RValue::str(tr(&s, &from, &to, name == "tr_s")))
            }
            "delete" => {
                arity(args, 1, usize::MAX)?;
                let set = str_arg(&args[0])?;
                let (chars, negate) = char_set(&set);
                Ok(RValue::str(s.chars().filter(|c| chars.contains(c) == negate).collect::<String>()))
            }
            _ => {
                arity(args, 1, usize::MAX)?;
                let set = str_arg(&args[0])?;
                let (chars, negate) = char_set(&set);
                Ok(RValue::Int(s.chars().filter(|c| chars.contains(c) != negate).count() as i64))
            }
        })(),
        "[]" | "slice" => arity(args, 1, 2).and_then(|_| slice(it, &s, args)),
        "[]=" => (|| {
            check_mutable(it, recv)?;
            arity(args, 2, 3)?;
            let value = str_arg(&args[args.len() - 1])?;
            let (start, len) = match &args[..args.len() - 1] {
                [RValue::Int(i)] => (*i, 1),
                [RValue::Int(i), RValue::Int(l)] => (*i, *l),
                [RValue::Str(pat)] => {
                    let pat = pat.s.borrow().clone();
                    match s.find(&pat) {
                        Some(b) => (char_at(&s, b) as i64, pat.chars().count() as i64),
                        None => return raise("IndexError", "string not matched"),
                    }
                }
                _ => return unsupported("this form of `String#[]=`"),
            };
            let n = s.chars().count() as i64;
            let start = if start < 0 { n + start } else { start };
            if start < 0 || start > n {
                return raise("IndexError", format!("index {} out of string", args[0].as_string().unwrap_or_default()));
            }
            let (b0, b1) = (byte_at(&s, start as usize), byte_at(&s, (start + len.max(0)).min(n) as usize));
            set(recv, format!("{}{value}{}", &s[..b0], &s[b1..]));
            Ok(args[args.len() - 1].clone())
        })(),
        "ord" => match s.chars().next() {
            Some(c) => Ok(RValue::Int(i64::from(u32::from(c)))),
            None => raise("ArgumentError", "empty string"),
        },
        "chr" => Ok(RValue::str(s.chars().next().map(String::from).unwrap_or_default())),
        "partition" | "rpartition" => arity(args, 1, 1).and_then(|_| {
            let sep = str_arg(&args[0])?;
            let found = if name == "partition" { s.find(&sep) } else { s.rfind(&sep) };
            Ok(RValue::array(match found {
                Some(b) => vec![RValue::str(&s[..b]), RValue::str(sep.clone()), RValue::str(&s[b + sep.len()..])],
                None if name == "partition" => vec![RValue::str(s.clone()), RValue::str(""), RValue::str("")],
                None => vec![RValue::str(""), RValue::str(""), RValue::str(s.clone())],
            }))
        }),
        "ascii_only?" => Ok(RValue::Bool(s.is_ascii())),
        "+@" => Ok(match recv {
            RValue::Str(r) if r.frozen.get() => RValue::str(s),
            _ => recv.clone(),
        }),
        "-@" | "dedup" => Ok(match recv {
            RValue::Str(r) if r.frozen.get() => recv.clone(),
            _ => RValue::frozen_str(s),
        }),
        "delete_prefix" | "delete_suffix" | "delete_prefix!" | "delete_suffix!" => (|| {
            arity(args, 1, 1)?;
            let affix = str_arg(&args[0])?;
            let new = if name.starts_with("delete_prefix") {
                s.strip_prefix(affix.as_str()).unwrap_or(&s).to_string()
            } else {
                s.strip_suffix(affix.as_str()).unwrap_or(&s).to_string()
            };
            if name.ends_with('!') {
                bang(it, recv, new)
            } else {
                Ok(RValue::str(new))
            }
        })(),
        "tr!" | "tr_s!" | "delete!" => (|| {
            let base = &name[..name.len() - 1];
            let new = call(it, recv, base, args, block).unwrap_or_else(|| unsupported(format!("`String#{name}`")))?;
            bang(it, recv, new.as_string().unwrap_or_default())
        })(),
        "codepoints" => Ok(RValue::array(s.chars().map(|c| RValue::Int(i64::from(u32::from(c)))).collect())),
        "each_byte" => match block {
            Some(b) => (|| {
                for byte in s.bytes() {
                    it.yield1(b, RValue::Int(i64::from(byte)))?;
                }
                Ok(recv.clone())
            })(),
            None => unsupported("`each_byte` without a block"),
        },
        "upto" => match (args, block) {
            ([RValue::Str(to)], Some(b)) => (|| {
                let range = RValue::Range(Rc::new(crate::value::RRange {
                    lo: recv.clone(),
                    hi: RValue::Str(to.clone()),
                    exclusive: false,
                }));
                let items = super::enumerable::items(it, &range)?;
                for x in items {
                    it.yield1(b, x)?;
                }
                Ok(recv.clone())
            })(),
            _ => unsupported("this form of `String#upto`"),
        },
        "unpack" | "unpack1" | "encoding" | "force_encoding" | "encode" | "unicode_normalize" | "crypt" | "b" => {
            unsupported(format!("`String#{name}`"))
        }
        _ => return None,
    })
}

/// `<`, `<=`, `>`, `>=`, `between?`, `clamp` by `<=>` (Comparable).
pub fn comparable(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue]) -> R<RValue> {
    use std::cmp::Ordering::*;
    match name {
        "between?" => {
            arity(args, 2, 2)?;
            let lo = super::cmp_strict(it, recv, &args[0])?;
            let hi = super::cmp_strict(it, recv, &args[1])?;
            Ok(RValue::Bool(lo != Less && hi != Greater))
        }
        "clamp" => {
            arity(args, 2, 2)?;
            if super::cmp_strict(it, recv, &args[0])? == Less {
                return Ok(args[0].clone());
            }
            if super::cmp_strict(it, recv, &args[1])? == Greater {
                return Ok(args[1].clone());
            }
            Ok(recv.clone())
        }
        _ => {
            arity(args, 1, 1)?;
            let o = super::cmp_strict(it, recv, &args[0])?;
            Ok(RValue::Bool(match name {
                "<" => o == Less,
                "<=" => o != Greater,
                ">" => o == Greater,
                _ => o != Less,
            }))
        }
    }
}

fn case_map(name: &str, s: &str) -> String {
    match name {
        "upcase" => s.to_uppercase(),
        "downcase" => s.to_lowercase(),
        "capitalize" => poppet_ruby::string::capitalize(s),
        _ => s
            .chars()
            .map(|c| if c.is_uppercase() { c.to_lowercase().collect::<String>() } else { c.to_uppercase().collect() })
            .collect(),
    }
}

fn transform(name: &str, s: &str, arg: Option<&RValue>) -> R<String> {
    Ok(match name {
        "strip" => s.trim_matches(|c| is_space(c) || c == '\0').to_string(),
        "lstrip" => s.trim_start_matches(is_space).to_string(),
        "rstrip" => s.trim_end_matches(|c| is_space(c) || c == '\0').to_string(),
        "chomp" => match arg {
            Some(RValue::Str(suffix)) => {
                let suffix = suffix.s.borrow().clone();
                if suffix.is_empty() {
                    s.trim_end_matches(['\n', '\r']).to_string()
                } else {
                    s.strip_suffix(suffix.as_str()).unwrap_or(s).to_string()
                }
            }
            Some(RValue::Nil) => s.to_string(),
            Some(other) => {
                return raise(
                    "TypeError",
                    format!("no implicit conversion of {} into String", super::conversion_name(other)),
                )
            }
            None => s
                .strip_suffix("\r\n")
                .or_else(|| s.strip_suffix('\n'))
                .or_else(|| s.strip_suffix('\r'))
                .unwrap_or(s)
                .to_string(),
        },
        "chop" => {
            if let Some(rest) = s.strip_suffix("\r\n") {
                rest.to_string()
            } else {
                let mut c = chars(s);
                c.pop();
                c.into_iter().collect()
            }
        }
        "squeeze" => {
            let set = match arg {
                Some(a) => Some(char_set(&str_arg(a)?)),
                None => None,
            };
            let mut out = String::new();
            let mut last = None;
            for c in s.chars() {
                let in_set = set.as_ref().is_none_or(|(cs, neg)| cs.contains(&c) != *neg);
                if Some(c) == last && in_set {
                    continue;
                }
                out.push(c);
                last = Some(c);
            }
            out
        }
        "reverse" => s.chars().rev().collect(),
        _ => succ(s),
    })
}

fn lines(s: &str) -> Vec<String> {
    s.split_inclusive('\n').map(str::to_string).collect()
}

/// Ruby's `String#to_i`: the leading integer (with `_` between digits), 0 when none.
fn to_i(s: &str, base: u32) -> R<RValue> {
    let t = s.trim_start_matches(is_space);
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let t = match base {
        16 => t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t),
        2 => t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")).unwrap_or(t),
        8 => t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")).or_else(|| t.strip_prefix("0_")).unwrap_or(t),
        _ => t,
    };
    let mut digits = String::new();
    let mut last_underscore = false;
    for c in t.chars() {
        if c == '_' && !digits.is_empty() && !last_underscore {
            last_underscore = true;
            continue;
        }
        if c.to_digit(base).is_none() {
            break;
        }
        last_underscore = false;
        digits.push(c);
    }
    if digits.is_empty() {
        return Ok(RValue::Int(0));
    }
    match i64::from_str_radix(&digits, base) {
        Ok(v) => Ok(RValue::Int(if neg { -v } else { v })),
        Err(_) => unsupported("integers beyond 64 bits"),
    }
}

/// Ruby's `String#to_f`: the leading decimal number, 0.0 when none.
pub fn to_f(s: &str) -> f64 {
    let t = s.trim_start_matches(is_space);
    let b = t.as_bytes();
    let mut end = 0;
    let mut seen_digit = false;
    if end < b.len() && matches!(b[end], b'+' | b'-') {
        end += 1;
    }
    while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'_' && seen_digit) {
        seen_digit = true;
        end += 1;
    }
    if end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
        seen_digit = true;
        end += 1;
        while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'_') {
            end += 1;
        }
    }
    if seen_digit && end < b.len() && matches!(b[end], b'e' | b'E') {
        let mut e = end + 1;
        if e < b.len() && matches!(b[e], b'+' | b'-') {
            e += 1;
        }
        if e < b.len() && b[e].is_ascii_digit() {
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            end = e;
        }
    }
    t[..end].replace('_', "").parse().unwrap_or(0.0)
}

fn justify(name: &str, s: &str, width: usize, pad: &str) -> String {
    let len = s.chars().count();
    if width <= len {
        return s.to_string();
    }
    let total = width - len;
    let padding = |n: usize| pad.chars().cycle().take(n).collect::<String>();
    match name {
        "ljust" => format!("{s}{}", padding(total)),
        "rjust" => format!("{}{s}", padding(total)),
        _ => {
            let left = total / 2;
            format!("{}{s}{}", padding(left), padding(total - left))
        }
    }
}

/// The characters of a `tr`/`delete`/`count` set (`a-z` ranges), and whether it is negated
/// (`^...`).
fn char_set(spec: &str) -> (Vec<char>, bool) {
    let c = chars(spec);
    let (negate, c) = if c.len() > 1 && c[0] == '^' { (true, &c[1..]) } else { (false, &c[..]) };
    (expand(c), negate)
}

fn expand(c: &[char]) -> Vec<char> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '\\' && i + 1 < c.len() {
            out.push(c[i + 1]);
            i += 2;
            continue;
        }
        if i + 2 < c.len() && c[i + 1] == '-' && c[i] <= c[i + 2] {
            for u in c[i] as u32..=c[i + 2] as u32 {
                if let Some(ch) = char::from_u32(u) {
                    out.push(ch);
                }
            }
            i += 3;
            continue;
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

fn tr(s: &str, from: &str, to: &str, squeeze: bool) -> String {
    let (from_set, negate) = char_set(from);
    let to_set = expand(&chars(to));
    let mut out = String::new();
    let mut last: Option<char> = None;
    for c in s.chars() {
        let pos = from_set.iter().position(|f| *f == c);
        let mapped = match (pos, negate) {
            (Some(i), false) => Some(to_set.get(i).or(to_set.last()).copied()),
            (None, true) => Some(to_set.last().copied()),
            _ => None,
        };
        match mapped {
            Some(Some(m)) => {
                if squeeze && last == Some(m) {
                    continue;
                }
                out.push(m);
                last = Some(m);
            }
            Some(None) => {}
            None => {
                out.push(c);
                last = None;
            }
        }
    }
    out
}

/// A pattern argument as a regexp (a string matches itself literally).
pub fn to_regexp(v: &RValue) -> R<Rc<RRegexp>> {
    match v {
        RValue::Regexp(r) => Ok(r.clone()),
        RValue::Str(s) => {
            let source = poppet_ruby::regexp::escape(&s.s.borrow());
            RRegexp::new(source, "").map(Rc::new).or_else(|m| raise("RegexpError", m))
        }
        other => raise("TypeError", format!("wrong argument type {} (expected Regexp)", other.class_name())),
    }
}

/// The first match of `r` in `s` at or after byte `start`.
pub fn regex_match(it: &mut Interp<'_>, r: &Rc<RRegexp>, s: &str, start: usize) -> R<Option<RMatch>> {
    let _ = it;
    let re = match r.re.compiled() {
        Ok(re) => re,
        Err(m) => return raise("RegexpError", m),
    };
    if start > s.len() {
        return Ok(None);
    }
    let caps = match re.captures_from_pos(s, start) {
        Ok(c) => c,
        Err(e) => return unsupported(format!("a regexp the engine cannot run here ({e})")),
    };
    Ok(caps.map(|c| RMatch {
        subject: s.into(),
        regexp: r.clone(),
        groups: (0..c.len()).map(|i| c.get(i).map(|m| (m.start(), m.end()))).collect(),
        names: re.capture_names().enumerate().filter_map(|(i, n)| n.map(|n| (n.to_string(), i))).collect(),
    }))
}

/// `str =~ re`: the character index of the first match, or nil; sets `$~`.
pub fn match_index(it: &mut Interp<'_>, r: &Rc<RRegexp>, s: &str) -> R<RValue> {
    let m = regex_match(it, r, s, 0)?;
    let v = match &m {
        Some(m) => RValue::Int(char_at(s, m.groups[0].map_or(0, |g| g.0)) as i64),
        None => RValue::Nil,
    };
    it.last_match = m.map_or(RValue::Nil, |m| RValue::Match(Rc::new(m)));
    Ok(v)
}

/// Every match of `r` in `s`, in order (an empty match advances one character).
pub fn all_matches(it: &mut Interp<'_>, r: &Rc<RRegexp>, s: &str) -> R<Vec<RMatch>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos <= s.len() {
        it.step()?;
        let Some(m) = regex_match(it, r, s, pos)? else { break };
        let (st, en) = m.groups[0].unwrap_or((pos, pos));
        pos = if en == st { en + s[en..].chars().next().map_or(1, char::len_utf8) } else { en };
        out.push(m);
    }
    Ok(out)
}

fn split(it: &mut Interp<'_>, s: &str, args: &[RValue]) -> R<RValue> {
    let limit = match args.get(1) {
        Some(l) => int_arg(l)?,
        None => 0,
    };
    let mut parts: Vec<String> = Vec::new();
    let awk = match args.first() {
        None | Some(RValue::Nil) => true,
        Some(RValue::Str(p)) => *p.s.borrow() == " ",
        _ => false,
    };
    let max = if limit > 0 { limit as usize } else { usize::MAX };
    if s.is_empty() {
        return Ok(RValue::array(vec![]));
    }
    if awk {
        let mut rest = s.trim_start_matches(is_space);
        while !rest.is_empty() {
            if parts.len() + 1 == max {
                parts.push(rest.to_string());
                rest = "";
                break;
            }
            match rest.find(is_space) {
                Some(i) => {
                    parts.push(rest[..i].to_string());
                    rest = rest[i..].trim_start_matches(is_space);
                    if rest.is_empty() && limit < 0 {
                        parts.push(String::new());
                    }
                }
                None => {
                    parts.push(rest.to_string());
                    rest = "";
                }
            }
        }
        let _ = rest;
    } else {
        match &args[0] {
            RValue::Str(p) => {
                let p = p.s.borrow().clone();
                if p.is_empty() {
                    let cs = chars(s);
                    for (i, c) in cs.iter().enumerate() {
                        if parts.len() + 1 == max {
                            parts.push(cs[i..].iter().collect());
                            break;
                        }
                        parts.push(c.to_string());
                    }
                } else {
                    let mut rest = s;
                    loop {
                        if parts.len() + 1 == max {
                            parts.push(rest.to_string());
                            break;
                        }
                        match rest.find(&p) {
                            Some(i) => {
                                parts.push(rest[..i].to_string());
                                rest = &rest[i + p.len()..];
                            }
                            None => {
                                parts.push(rest.to_string());
                                break;
                            }
                        }
                    }
                }
            }
            RValue::Regexp(r) => {
                // Perl's rules, as Ruby's: an empty match at a field's start does not split;
                // elsewhere it splits between characters
                let r = r.clone();
                let (mut beg, mut pos, mut splits) = (0, 0, 0usize);
                while pos <= s.len() && splits + 1 < max {
                    let Some(m) = regex_match(it, &r, s, pos)? else { break };
                    let (ms, me) = m.groups[0].unwrap_or((pos, pos));
                    if ms == me {
                        if ms >= s.len() {
                            break;
                        }
                        if ms == beg {
                            pos = ms + s[ms..].chars().next().map_or(1, char::len_utf8);
                            continue;
                        }
                    }
                    parts.push(s[beg..ms].to_string());
                    for g in 1..m.groups.len() {
                        if let Some(text) = m.group(g) {
                            parts.push(text);
                        }
                    }
                    splits += 1;
                    beg = me;
                    pos = me;
                }
                parts.push(s[beg.min(s.len())..].to_string());
            }
            other => {
                return raise("TypeError", format!("wrong argument type {} (expected Regexp)", other.class_name()))
            }
        }
    }
    if limit == 0 {
        while parts.last().is_some_and(String::is_empty) {
            parts.pop();
        }
    }
    Ok(RValue::array(parts.into_iter().map(RValue::str).collect()))
}

fn index(it: &mut Interp<'_>, s: &str, reverse: bool, args: &[RValue]) -> R<RValue> {
    let n = s.chars().count() as i64;
    let start = match args.get(1) {
        Some(p) => {
            let p = int_arg(p)?;
            let p = if p < 0 { n + p } else { p };
            if p < 0 || p > n {
                return Ok(RValue::Nil);
            }
            Some(p as usize)
        }
        None => None,
    };
    match &args[0] {
        RValue::Str(p) => {
            let p = p.s.borrow().clone();
            let found = if reverse {
                let limit = byte_at(s, start.unwrap_or(n as usize));
                let hay_end = (limit + p.len()).min(s.len());
                s[..hay_end].rfind(&p)
            } else {
                let from = byte_at(s, start.unwrap_or(0));
                s[from..].find(&p).map(|i| i + from)
            };
            Ok(found.map_or(RValue::Nil, |b| RValue::Int(char_at(s, b) as i64)))
        }
        RValue::Regexp(r) => {
            let r = r.clone();
            if reverse {
                let limit = byte_at(s, start.unwrap_or(n as usize));
                let mut best = None;
                for m in all_matches(it, &r, s)? {
                    let st = m.groups[0].map_or(0, |g| g.0);
                    if st <= limit {
                        best = Some((st, m));
                    }
                }
                Ok(match best {
                    Some((st, m)) => {
                        it.last_match = RValue::Match(Rc::new(m));
                        RValue::Int(char_at(s, st) as i64)
                    }
                    None => RValue::Nil,
                })
            } else {
                let from = byte_at(s, start.unwrap_or(0));
                let m = regex_match(it, &r, s, from)?;
                Ok(match m {
                    Some(m) => {
                        let st = m.groups[0].map_or(0, |g| g.0);
                        it.last_match = RValue::Match(Rc::new(m));
                        RValue::Int(char_at(s, st) as i64)
                    }
                    None => RValue::Nil,
                })
            }
        }
        other => raise("TypeError", format!("no implicit conversion of {} into String", super::conversion_name(other))),
    }
}

/// `str[...]`: by index, start and length, range, regexp (and group), or substring.
fn slice(it: &mut Interp<'_>, s: &str, args: &[RValue]) -> R<RValue> {
    let cs = chars(s);
    let n = cs.len() as i64;
    let piece = |start: i64, len: i64| -> RValue {
        let start = if start < 0 { n + start } else { start };
        if start < 0 || start > n || len < 0 {
            return RValue::Nil;
        }
        let end = start.saturating_add(len).min(n);
        RValue::str(cs[start as usize..end as usize].iter().collect::<String>())
    };
    Ok(match args {
        [RValue::Int(i)] => {
            let i = if *i < 0 { n + i } else { *i };
            if i < 0 || i >= n {
                RValue::Nil
            } else {
                RValue::str(cs[i as usize].to_string())
            }
        }
        [RValue::Int(start), RValue::Int(len)] => piece(*start, *len),
        [RValue::Range(r)] => match super::misc::range_bounds(r, n)? {
            Some((start, len)) => piece(start, len),
            None => RValue::Nil,
        },
        [RValue::Str(sub)] => {
            let sub = sub.s.borrow().clone();
            if s.contains(&sub) {
                RValue::str(sub)
            } else {
                RValue::Nil
            }
        }
        [RValue::Regexp(r)] | [RValue::Regexp(r), _] => {
            let m = regex_match(it, r, s, 0)?;
            let group = match args.get(1) {
                Some(RValue::Int(g)) => *g as usize,
                Some(RValue::Str(name)) => {
                    let name = name.s.borrow().clone();
                    match m.as_ref().and_then(|m| m.names.iter().find(|(n, _)| *n == name).map(|(_, i)| *i)) {
                        Some(i) => i,
                        None if m.is_none() => 0,
                        None => return raise("IndexError", format!("undefined group name reference: {name}")),
                    }
                }
                Some(_) => return unsupported("this form of `String#[]`"),
                None => 0,
            };
            let v = m.as_ref().and_then(|m| m.group(group)).map_or(RValue::Nil, RValue::str);
            it.last_match = m.map_or(RValue::Nil, |m| RValue::Match(Rc::new(m)));
            v
        }
        [RValue::Float(f)] => {
            let i = f.trunc() as i64;
            return slice(it, s, &[RValue::Int(i)]);
        }
        [other, ..] => {
            return raise(
                "TypeError",
                format!("no implicit conversion of {} into Integer", super::conversion_name(other)),
            )
        }
        [] => RValue::Nil,
    })
}

fn scan(it: &mut Interp<'_>, s: &str, pattern: &RValue, block: Option<&Block>) -> R<RValue> {
    let r = to_regexp(pattern)?;
    let mut out = Vec::new();
    for m in all_matches(it, &r, s)? {
        let item = if m.groups.len() > 1 {
            RValue::array((1..m.groups.len()).map(|g| m.group(g).map_or(RValue::Nil, RValue::str)).collect())
        } else {
            RValue::str(m.group(0).unwrap_or_default())
        };
        it.last_match = RValue::Match(Rc::new(m));
        match block {
            Some(b) => {
                it.yield1(b, item)?;
            }
            None => out.push(item),
        }
    }
    Ok(if block.is_some() { RValue::str(s) } else { RValue::array(out) })
}

/// `sub`/`gsub`: the replacement is a string (with `\1`, `\0`, `\k<name>` references), a
/// hash (of the matched text), or the block's value.
fn substitute(
    it: &mut Interp<'_>,
    s: &str,
    pattern: &RValue,
    replacement: Option<&RValue>,
    block: Option<&Block>,
    global: bool,
) -> R<String> {
    let r = to_regexp(pattern)?;
    let matches = if global { all_matches(it, &r, s)? } else { regex_match(it, &r, s, 0)?.into_iter().collect() };
    let mut out = String::new();
    let mut last = 0;
    for m in matches {
        let (st, en) = m.groups[0].unwrap_or((last, last));
        out.push_str(&s[last..st]);
        let m = Rc::new(m);
        let with = match (replacement, block) {
            (Some(RValue::Str(rep)), _) => expand_replacement(&rep.s.borrow(), &m, s),
            (Some(RValue::Hash(h)), _) => {
                let key = RValue::str(m.group(0).unwrap_or_default()).key();
                let v = h.map.borrow().get(&key).map(|(_, v)| v.clone()).unwrap_or(RValue::Nil);
                it.to_s(&v)?
            }
            (Some(other), _) => {
                return raise(
                    "TypeError",
                    format!("no implicit conversion of {} into String", super::conversion_name(other)),
                )
            }
            (None, Some(b)) => {
                it.last_match = RValue::Match(m.clone());
                let v = it.yield1(b, RValue::str(m.group(0).unwrap_or_default()))?;
                it.to_s(&v)?
            }
            (None, None) => return unsupported("`gsub` without a replacement or block (enumerators)"),
        };
        out.push_str(&with);
        if out.len() > MAX_LEN {
            return unsupported("strings of more than 64 MiB");
        }
        last = en;
    }
    out.push_str(&s[last.min(s.len())..]);
    Ok(out)
}

/// A replacement string's references expanded for match `m`.
fn expand_replacement(rep: &str, m: &RMatch, s: &str) -> String {
    let mut out = String::new();
    let mut it = rep.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some(d @ '0'..='9') => out.push_str(&m.group(d as usize - '0' as usize).unwrap_or_default()),
            Some('&') => out.push_str(&m.group(0).unwrap_or_default()),
            Some('`') => out.push_str(&s[..m.groups[0].map_or(0, |g| g.0)]),
            Some('\'') => out.push_str(&s[m.groups[0].map_or(0, |g| g.1)..]),
            Some('\\') => out.push('\\'),
            Some('k') if it.peek() == Some(&'<') => {
                it.next();
                let name: String = it.by_ref().take_while(|c| *c != '>').collect();
                if let Some((_, i)) = m.names.iter().find(|(n, _)| *n == name) {
                    out.push_str(&m.group(*i).unwrap_or_default());
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}
