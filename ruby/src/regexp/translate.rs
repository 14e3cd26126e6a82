//! Ruby's regexp dialect (Onigmo's syntax) translated to the syntax of the `regex` and
//! `fancy-regex` crates, which match Puppet's regexps.
//!
//! Ruby differences that are translated: `^`/`$` are always line anchors; the `m` flag is
//! Rust's `s` (dot matches newline); `\h`/`\H` are hex digits; `\d`, `\w`, `\s` (and their
//! negations) are ASCII-only, as Ruby's are (`\b` and POSIX classes stay Unicode-aware, as
//! in Ruby); `\Z` is "end, or before a final newline"; `\0oo` is an octal escape; `\p{^L}`
//! is `\P{L}`; `(?<name>…)` and `(?'name'…)` named groups are kept, and where there is one,
//! plain groups do not capture (Onigmo's rule: `/(?<x>b)(c)/` has one group).
//!
//! ```
//! assert_eq!(poppet_ruby::regexp::translate(r"\h+\Z"), r"(?m)[0-9a-fA-F]+(?=\n?\z)");
//! ```

/// Translates Ruby's regexp dialect to fancy-regex's.
pub fn translate(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 8);
    // Ruby's ^ and $ always match at line boundaries.
    out.push_str("(?m)");
    let named = has_named_group(src);
    let mut chars = src.chars().peekable();
    let mut in_class = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('h') if in_class > 0 => out.push_str("0-9a-fA-F"),
                Some('h') => out.push_str("[0-9a-fA-F]"),
                Some('H') if in_class == 0 => out.push_str("[^0-9a-fA-F]"),
                Some('d') if in_class > 0 => out.push_str("0-9"),
                Some('d') => out.push_str("[0-9]"),
                Some('D') if in_class == 0 => out.push_str("[^0-9]"),
                Some('w') if in_class > 0 => out.push_str("a-zA-Z0-9_"),
                Some('w') => out.push_str("[a-zA-Z0-9_]"),
                Some('W') if in_class == 0 => out.push_str("[^a-zA-Z0-9_]"),
                Some('s') if in_class > 0 => out.push_str("\\t\\n\\x0B\\f\\r "),
                Some('s') => out.push_str("[\\t\\n\\x0B\\f\\r ]"),
                Some('S') if in_class == 0 => out.push_str("[^\\t\\n\\x0B\\f\\r ]"),
                Some('Z') if in_class == 0 => out.push_str("(?=\\n?\\z)"),
                Some('/') => out.push('/'),
                // Onigmo's negated property `\p{^L}` is `\P{L}` (and `\P{^L}` is `\p{L}`).
                Some(p @ ('p' | 'P')) if chars.clone().take(2).eq(['{', '^']) => {
                    chars.next();
                    chars.next();
                    out.push_str(if p == 'p' { "\\P{" } else { "\\p{" });
                }
                Some('0') => {
                    // Ruby's octal escape `\0`, `\0o`, `\0oo` (the regex crate has none).
                    let mut code = 0u32;
                    for _ in 0..2 {
                        match chars.peek().and_then(|c| c.to_digit(8)) {
                            Some(d) => {
                                code = code * 8 + d;
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    out.push_str(&format!("\\x{{{code:X}}}"));
                }
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push_str("\\\\"),
            },
            '[' if in_class > 0 && chars.peek() == Some(&':') => {
                // A POSIX bracket: Unicode-aware in Ruby, ASCII-only in the regex crate.
                let rest: String = chars.clone().take_while(|c| *c != ']').collect();
                match rest.strip_prefix(':').and_then(|r| r.strip_suffix(':')).and_then(posix_class) {
                    Some(class) => {
                        out.push_str(class);
                        for _ in 0..=rest.chars().count() {
                            chars.next();
                        }
                    }
                    None => out.push_str("\\["),
                }
            }
            '[' => {
                in_class += 1;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            ']' if in_class > 0 => {
                in_class -= 1;
                out.push(']');
            }
            '(' if in_class == 0 && chars.peek() == Some(&'?') && chars.clone().nth(1) == Some('\'') => {
                // Ruby's other spelling of a named group, `(?'name'…)`.
                chars.next();
                chars.next();
                out.push_str("(?<");
                out.extend(chars.by_ref().take_while(|c| *c != '\''));
                out.push('>');
            }
            '(' if in_class == 0 && chars.peek() == Some(&'?') => {
                // Ruby's inline options: (?imx-imx) and (?imx-imx:…); `m` is dot-all.
                let rest: String = chars.clone().skip(1).take_while(|c| *c != ':' && *c != ')').collect();
                if !rest.is_empty() && rest.chars().all(|c| matches!(c, 'i' | 'm' | 'x' | '-')) {
                    out.push_str("(?");
                    out.extend(rest.chars().map(|c| if c == 'm' { 's' } else { c }));
                    for _ in 0..=rest.chars().count() {
                        chars.next();
                    }
                } else {
                    out.push('(');
                }
            }
            '(' if in_class == 0 && named => out.push_str("(?:"),
            _ => out.push(c),
        }
    }
    out
}

/// Whether the source has a named group, `(?<name>…)` or `(?'name'…)` (not a look-behind),
/// outside character classes and escapes.
fn has_named_group(src: &str) -> bool {
    let b = src.as_bytes();
    let (mut i, mut in_class) = (0, 0usize);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => in_class += 1,
            b']' if in_class > 0 => in_class -= 1,
            b'(' if in_class == 0 && b.get(i + 1) == Some(&b'?') => match b.get(i + 2) {
                Some(b'\'') => return true,
                Some(b'<') if !matches!(b.get(i + 3), Some(b'=' | b'!')) => return true,
                _ => {}
            },
            _ => {}
        }
        i += 1;
    }
    false
}

/// The Unicode classes of Ruby's POSIX brackets (`[:alpha:]`, `[:^digit:]`).
fn posix_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => "\\p{Alphabetic}",
        "^alpha" => "\\P{Alphabetic}",
        "digit" => "\\p{Nd}",
        "^digit" => "\\P{Nd}",
        "alnum" => "\\p{Alphabetic}\\p{Nd}",
        "upper" => "\\p{Uppercase}",
        "^upper" => "\\P{Uppercase}",
        "lower" => "\\p{Lowercase}",
        "^lower" => "\\P{Lowercase}",
        "space" => "\\p{White_Space}",
        "^space" => "\\P{White_Space}",
        "punct" => "\\p{P}",
        "^punct" => "\\P{P}",
        "word" => "\\w",
        "^word" => "\\W",
        "xdigit" => "0-9a-fA-F",
        "cntrl" => "\\p{Cc}",
        "^cntrl" => "\\P{Cc}",
        "blank" => "\\p{Zs}\\t",
        _ => return None,
    })
}
