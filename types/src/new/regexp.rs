//! `Regexp.new` (`PRegexpType.new_function`; Puppet names the function `new_float`, so its
//! messages say `'new_float'`).
//!
//! ```puppet
//! dispatch from_string(String pattern, Boolean escape?)
//! ```
//!
//! `Regexp('a.b')` is `/a.b/`; with `escape` true the string is matched literally
//! (`Regexp('a.b', true)` is `/a\.b/`, Ruby's `Regexp.escape`). A pattern Ruby cannot compile
//! is Ruby's `RegexpError`, e.g. `end pattern with unmatched parenthesis: /(/`; the checks
//! here are the syntax errors of Ruby's regexp engine (Onigmo) that a pattern can make:
//!
//! | error                                         | example      |
//! |-----------------------------------------------|--------------|
//! | `too short escape sequence`                   | `\`          |
//! | `end pattern with unmatched parenthesis`      | `(a`         |
//! | `unmatched close parenthesis`                 | `a)`         |
//! | `premature end of char-class`                 | `[a`         |
//! | `empty char-class`                            | `[]`         |
//! | `empty range in char class`                   | `[b-a]`      |
//! | `invalid POSIX bracket type`                  | `[[:foo:]]`  |
//! | `target of repeat operator is not specified`  | `*a`, `a\|+`, `(?)` |
//! | `upper is smaller than lower in repeat range` | `a{3,2}`     |
//! | `undefined group option`                      | `(?z)`       |
//! | `invalid backref number/name`                 | `\1` without a group |
//! | `undefined name <x> reference`                | `\k<x>`      |

use std::rc::Rc;

use crate::error::{Error, Result};
use crate::regexp::Regexp;
use crate::ty::Type;
use crate::value::Value;

use crate::dispatch::{Dispatch, Dispatcher, Signature, Selected};

#[derive(Clone, Copy)]
enum Method {
    FromString,
}

fn build() -> Dispatcher<Method> {
    Dispatcher {
        name: "new_float",
        dispatches: vec![Dispatch::new(Method::FromString)
            .req("pattern", Type::STRING)
            .opt("escape", Type::Boolean(None))],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Regexp.new(args...)`, before `new`'s assertion of the result.
pub fn new_regexp(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::FromString) | Selected::Mismatch(_) => {
            let pattern = args.first().and_then(Value::as_str).unwrap_or("");
            let escape = matches!(args.get(1), Some(Value::Boolean(true)));
            from_string(pattern, escape)
        }
    })
}

/// The signatures (for `Init[Regexp]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `Regexp.new(escape ? Regexp.escape(pattern) : pattern)`.
fn from_string(pattern: &str, escape: bool) -> Result<Value> {
    let source = if escape { Regexp::escape(pattern) } else { pattern.to_owned() };
    if let Some(message) = ruby_syntax_error(&source) {
        return Err(Error::new(format!("{message}: /{source}/")));
    }
    Ok(Value::Regexp(Rc::new(Regexp::new(source))))
}

/// The POSIX bracket names Onigmo knows (`[[:alpha:]]`).
const POSIX_BRACKETS: &[&str] =
    &["alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit", "word"];

/// What Onigmo says about a pattern it cannot compile, `None` when it compiles.
pub(crate) fn ruby_syntax_error(src: &str) -> Option<String> {
    let chars: Vec<char> = src.chars().collect();
    let mut scan = Scan { chars: &chars, pos: 0, groups: 0, names: Vec::new(), backrefs: Vec::new() };
    match scan.alternatives(0) {
        Err(message) => Some(message.to_owned()),
        Ok(()) => scan.references(),
    }
}

struct Scan<'a> {
    chars: &'a [char],
    pos: usize,
    /// Capture groups seen.
    groups: usize,
    /// Names of the named groups.
    names: Vec<String>,
    /// Back references (`\1`, `\k<x>`) to check at the end.
    backrefs: Vec<Backref>,
}

enum Backref {
    Number(usize),
    Name(String),
}

type Check = std::result::Result<(), &'static str>;

impl Scan<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    /// Alternatives up to the end (depth 0) or the closing parenthesis of a group.
    fn alternatives(&mut self, depth: usize) -> Check {
        if depth > 200 {
            return Ok(());
        }
        let mut has_target = false;
        while let Some(c) = self.peek() {
            match c {
                '|' => {
                    self.pos += 1;
                    has_target = false;
                }
                ')' if depth > 0 => return Ok(()),
                ')' => return Err("unmatched close parenthesis"),
                '(' => {
                    self.pos += 1;
                    self.group(depth)?;
                    has_target = true;
                }
                '[' => {
                    self.pos += 1;
                    self.class()?;
                    has_target = true;
                }
                '\\' => {
                    self.escape()?;
                    has_target = true;
                }
                '*' | '+' | '?' => {
                    if !has_target {
                        return Err("target of repeat operator is not specified");
                    }
                    self.pos += 1;
                }
                '{' => match self.interval() {
                    Some((lower, upper)) => {
                        if !has_target {
                            return Err("target of repeat operator is not specified");
                        }
                        if let (Some(l), Some(u)) = (lower, upper) {
                            if l > u {
                                return Err("upper is smaller than lower in repeat range");
                            }
                        }
                    }
                    None => {
                        self.pos += 1;
                        has_target = true;
                    }
                },
                _ => {
                    self.pos += 1;
                    has_target = true;
                }
            }
        }
        if depth > 0 {
            Err("end pattern with unmatched parenthesis")
        } else {
            Ok(())
        }
    }

    /// A group after its `(`, through its `)`.
    fn group(&mut self, depth: usize) -> Check {
        if self.peek() == Some('?') {
            self.pos += 1;
            match self.peek() {
                Some(':') | Some('=') | Some('!') | Some('>') | Some('~') => self.pos += 1,
                Some('#') => {
                    while let Some(c) = self.peek() {
                        self.pos += 1;
                        if c == ')' {
                            return Ok(());
                        }
                    }
                    return Err("end pattern in group");
                }
                Some('<') if matches!(self.peek_at(1), Some('=') | Some('!')) => self.pos += 2,
                Some('<') | Some('\'') => {
                    let close = if self.peek() == Some('<') { '>' } else { '\'' };
                    self.pos += 1;
                    let start = self.pos;
                    while self.peek().is_some_and(|c| c != close) {
                        self.pos += 1;
                    }
                    let name: String = self.chars[start..self.pos].iter().collect();
                    if self.peek().is_none() || name.is_empty() {
                        return Err("invalid group name <>");
                    }
                    self.pos += 1;
                    self.groups += 1;
                    self.names.push(name);
                }
                _ => {
                    let start = self.pos;
                    while self.peek().is_some_and(|c| matches!(c, 'i' | 'm' | 'x' | '-')) {
                        self.pos += 1;
                    }
                    match self.peek() {
                        Some(':') => self.pos += 1,
                        Some(')') if self.pos > start => {
                            self.pos += 1;
                            return Ok(());
                        }
                        None => return Err("end pattern in group"),
                        _ => return Err("undefined group option"),
                    }
                }
            }
        } else {
            self.groups += 1;
        }
        self.alternatives(depth + 1)?;
        // at the closing parenthesis
        self.pos += 1;
        Ok(())
    }

    /// An escape; records back references.
    fn escape(&mut self) -> Check {
        self.pos += 1;
        let Some(c) = self.peek() else { return Err("too short escape sequence") };
        self.pos += 1;
        match c {
            '1'..='9' => {
                let mut n = c.to_digit(10).unwrap_or(0) as usize;
                while let Some(d) = self.peek().and_then(|d| d.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d as usize);
                    self.pos += 1;
                }
                self.backrefs.push(Backref::Number(n));
            }
            'k' if self.peek() == Some('<') => {
                self.pos += 1;
                let start = self.pos;
                while self.peek().is_some_and(|c| c != '>') {
                    self.pos += 1;
                }
                let name: String = self.chars[start..self.pos].iter().collect();
                if self.peek().is_some() {
                    self.pos += 1;
                }
                if name.parse::<usize>().is_err() && !name.starts_with('-') {
                    self.backrefs.push(Backref::Name(name));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A character class after its `[`, through its `]`.
    fn class(&mut self) -> Check {
        if self.peek() == Some('^') {
            self.pos += 1;
        }
        if self.peek() == Some(']') {
            // a leading `]` is literal when the class closes later, else the class is empty
            if self.chars[self.pos + 1..].contains(&']') {
                self.pos += 1;
            } else {
                return Err("empty char-class");
            }
        }
        let mut prev: Option<char> = None;
        while let Some(c) = self.peek() {
            match c {
                ']' => {
                    self.pos += 1;
                    return Ok(());
                }
                '\\' => {
                    self.pos += 1;
                    if self.peek().is_none() {
                        return Err("premature end of char-class");
                    }
                    self.pos += 1;
                    prev = None;
                }
                '[' if self.peek_at(1) == Some(':') => {
                    let rest: String = self.chars[self.pos + 2..].iter().collect();
                    if let Some(end) = rest.find(":]") {
                        let name = rest[..end].trim_start_matches('^');
                        if !POSIX_BRACKETS.contains(&name) {
                            return Err("invalid POSIX bracket type");
                        }
                        self.pos += 2 + rest[..end].chars().count() + 2;
                    } else {
                        self.pos += 1;
                    }
                    prev = None;
                }
                '[' => {
                    self.pos += 1;
                    self.class()?;
                    prev = None;
                }
                '-' if prev.is_some() && self.peek_at(1).is_some_and(|n| n != ']' && n != '\\' && n != '[') => {
                    let (lo, hi) = (prev.unwrap_or('\0'), self.peek_at(1).unwrap_or('\0'));
                    if lo > hi {
                        return Err("empty range in char class");
                    }
                    self.pos += 2;
                    prev = None;
                }
                _ => {
                    self.pos += 1;
                    prev = Some(c);
                }
            }
        }
        Err("premature end of char-class")
    }

    /// An interval `{n}`, `{n,}`, `{,m}`, `{n,m}` at the position: its bounds, consumed;
    /// `None` (nothing consumed) when the brace is a literal.
    fn interval(&mut self) -> Option<(Option<u64>, Option<u64>)> {
        let rest: String = self.chars[self.pos + 1..].iter().take_while(|c| **c != '}').collect();
        if self.pos + 1 + rest.chars().count() >= self.chars.len() {
            return None;
        }
        let (lower, upper) = match rest.split_once(',') {
            Some((l, u)) => (l, Some(u)),
            None => (rest.as_str(), None),
        };
        let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        let ok = match upper {
            None => digits(lower),
            Some(u) => (digits(lower) || lower.is_empty()) && (digits(u) || u.is_empty()) && !(lower.is_empty() && u.is_empty()),
        };
        // `{,m}` is read as a literal here (Ruby repeats 0 to m times; both compile)
        if !ok || lower.is_empty() {
            return None;
        }
        self.pos += rest.chars().count() + 2;
        let l = lower.parse().ok();
        let u = match upper {
            None => l,
            Some("") => None,
            Some(u) => u.parse().ok(),
        };
        Some((l, u))
    }

    /// The back references must name existing groups.
    fn references(&self) -> Option<String> {
        for r in &self.backrefs {
            match r {
                Backref::Number(n) if *n > self.groups || !self.names.is_empty() => {
                    return Some("invalid backref number/name".to_owned())
                }
                Backref::Name(name) if !self.names.contains(name) => {
                    return Some(format!("undefined name <{name}> reference"))
                }
                _ => {}
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(src: &str) -> Option<String> {
        from_string(src, false).err().map(|e| e.message)
    }

    #[test]
    fn ruby_errors() {
        assert_eq!(err("(").as_deref(), Some("end pattern with unmatched parenthesis: /(/"));
        assert_eq!(err("(?<n>a").as_deref(), Some("end pattern with unmatched parenthesis: /(?<n>a/"));
        assert_eq!(err(")").as_deref(), Some("unmatched close parenthesis: /)/"));
        assert_eq!(err("[").as_deref(), Some("premature end of char-class: /[/"));
        assert_eq!(err("[a\\]").as_deref(), Some("premature end of char-class: /[a\\]/"));
        assert_eq!(err("*").as_deref(), Some("target of repeat operator is not specified: /*/"));
        assert_eq!(err("a|*").as_deref(), Some("target of repeat operator is not specified: /a|*/"));
        assert_eq!(err("(*)").as_deref(), Some("target of repeat operator is not specified: /(*)/"));
        assert_eq!(err("{2}").as_deref(), Some("target of repeat operator is not specified: /{2}/"));
        assert_eq!(err("a{2,1}").as_deref(), Some("upper is smaller than lower in repeat range: /a{2,1}/"));
        assert_eq!(err("\\").as_deref(), Some("too short escape sequence: /\\/"));
        assert_eq!(err("[]").as_deref(), Some("empty char-class: /[]/"));
        assert_eq!(err("[b-a]").as_deref(), Some("empty range in char class: /[b-a]/"));
        assert_eq!(err("(?z)").as_deref(), Some("undefined group option: /(?z)/"));
        assert_eq!(err("[[:foo:]]").as_deref(), Some("invalid POSIX bracket type: /[[:foo:]]/"));
        assert_eq!(err("\\1").as_deref(), Some("invalid backref number/name: /\\1/"));
        assert_eq!(err("\\k<x>").as_deref(), Some("undefined name <x> reference: /\\k<x>/"));
    }

    #[test]
    fn ruby_accepts() {
        for ok in ["a**", "a++", "x{,3}", "a{2}{3}", "\\h+", "[]a]", "(?i-mx:a.b)", "(?<x>a)\\k<x>", "(a)\\1", "[[:alpha:]-]", "a{", "(?#c)a", ""] {
            assert_eq!(err(ok), None, "{ok}");
        }
    }

    #[test]
    fn escaping() {
        let v = from_string("a b#c-d", true).ok();
        assert_eq!(v.and_then(|v| if let Value::Regexp(ref r) = v { Some(r.source().to_owned()) } else { None }).as_deref(), Some("a\\ b\\#c\\-d"));
    }
}
