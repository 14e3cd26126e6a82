//! `Regexp.new` (`PRegexpType.new_function`; Puppet names the function `new_float`, so its
//! messages say `'new_float'`).
//!
//! ```puppet
//! dispatch from_string(String pattern, Boolean escape?)
//! ```
//!
//! `Regexp('a.b')` is `/a.b/`; with `escape` true the string is matched literally
//! (`Regexp('a.b', true)` is `/a\.b/`, Ruby's `Regexp.escape`). A pattern Ruby cannot compile
//! is Ruby's `RegexpError`, e.g. `end pattern with unmatched parenthesis: /(/`, as
//! [`poppet_ruby::regexp::check`] finds them (Onigmo's syntax errors), among them:
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

use crate::dispatch::{Dispatch, Dispatcher, Selected, Signature};

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
    poppet_ruby::regexp::check(&source).map_err(Error::new)?;
    Ok(Value::Regexp(Rc::new(Regexp::new(source))))
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
        for ok in [
            "a**",
            "a++",
            "x{,3}",
            "a{2}{3}",
            "\\h+",
            "[]a]",
            "(?i-mx:a.b)",
            "(?<x>a)\\k<x>",
            "(a)\\1",
            "[[:alpha:]-]",
            "a{",
            "(?#c)a",
            "",
        ] {
            assert_eq!(err(ok), None, "{ok}");
        }
    }

    #[test]
    fn escaping() {
        let v = from_string("a b#c-d", true).ok();
        assert_eq!(
            v.and_then(|v| if let Value::Regexp(ref r) = v { Some(r.source().to_owned()) } else { None }).as_deref(),
            Some("a\\ b\\#c\\-d")
        );
    }
}
