//! Strings as Puppet's `slurp_support.rb` reads them: the search for a string's end (or the
//! next interpolation), and the escapes of single- and double-quoted strings and heredoc
//! texts (`\n`, `\u{…}`, `\$`…), with the problems Puppet reports.

use super::*;

/// What ended a slurped piece of string: `SLURP_*_PATTERN`'s group 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Term {
    Quote,
    Dollar,
    DollarBrace,
    End,
}

impl Term {
    pub(super) fn len(self) -> usize {
        match self {
            Term::Quote | Term::Dollar => 1,
            Term::DollarBrace => 2,
            Term::End => 0,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Quoting {
    Single,
    Double,
    Unquoted,
}

/// `scan_until` with `SLURP_SQ_PATTERN`, `SLURP_DQ_PATTERN` or `SLURP_UQ_PATTERN`:
/// `(?:[^\\]|^)(?:[\\]{2})*(TERM)`, searched from `from` (where `^` matches, the scanner's
/// position being the start of the string for Ruby's StringScanner). Returns the start of
/// the match, the start of the terminator and the terminator.
///
/// The regexp matches at the first terminator (found by `memchr`) after an even run of
/// backslashes; the match starts at the character before the run, or at `from`. The one
/// exception is a terminator at `from` itself: `[^\\]` takes it as the character before a
/// later terminator right after it, where there is one (`''` from the first quote).
pub(super) fn slurp_search(s: &[u8], from: usize, quoting: Quoting) -> Option<(usize, usize, Term)> {
    let rest = s.get(from..)?;
    let candidates: Box<dyn Iterator<Item = usize>> = match quoting {
        Quoting::Single => Box::new(memchr::memchr_iter(b'\'', rest)),
        Quoting::Double => Box::new(memchr::memchr2_iter(b'"', b'$', rest)),
        Quoting::Unquoted => Box::new(memchr::memchr_iter(b'$', rest).chain(std::iter::once(rest.len()))),
    };
    for t in candidates.map(|i| from + i) {
        let run = s[from..t].iter().rev().take_while(|&&b| b == b'\\').count();
        if run % 2 != 0 {
            continue;
        }
        let term = term_at(s, t, quoting)?;
        let run_start = t - run;
        if run_start > from {
            return Some((char_start_before(s, from, run_start), t, term));
        }
        if t == from && t < s.len() {
            let q = from + char_len_at(s, from);
            let k = backslashes(s, q);
            if k.is_multiple_of(2) {
                if let Some(later) = term_at(s, q + k, quoting) {
                    return Some((from, q + k, later));
                }
            }
        }
        return Some((from, t, term));
    }
    None
}

/// The terminator at `t`, if there is one for `quoting` (the end of the text for an
/// unquoted heredoc).
fn term_at(s: &[u8], t: usize, quoting: Quoting) -> Option<Term> {
    match (s.get(t), quoting) {
        (Some(b'\''), Quoting::Single) => Some(Term::Quote),
        (Some(b'"'), Quoting::Double) => Some(Term::Quote),
        (Some(b'$'), Quoting::Double | Quoting::Unquoted) => {
            Some(if s.get(t + 1) == Some(&b'{') { Term::DollarBrace } else { Term::Dollar })
        }
        (None, Quoting::Unquoted) if t == s.len() => Some(Term::End),
        _ => None,
    }
}

/// How many backslashes there are from `i` on.
fn backslashes(s: &[u8], i: usize) -> usize {
    s.get(i..).map_or(0, |rest| rest.iter().take_while(|&&b| b == b'\\').count())
}

/// Where the character ending at `end` starts, as Ruby walks the characters from `from`: a
/// valid UTF-8 sequence is one character, any other byte one by itself.
fn char_start_before(s: &[u8], from: usize, end: usize) -> usize {
    (2..=4).find(|&n| end >= from + n && char_len_at(s, end - n) == n).map_or(end - 1, |n| end - n)
}

/// The escapes a string kind processes (`SQ_ESCAPES`, `DQ_ESCAPES`, `UQ_ESCAPES`, a
/// heredoc's `/escapes`), as a set.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Escapes(pub(super) u16);

impl Escapes {
    pub(super) const BACKSLASH: u16 = 1;
    pub(super) const DOLLAR: u16 = 2;
    pub(super) const SQUOTE: u16 = 4;
    pub(super) const DQUOTE: u16 = 8;
    pub(super) const R: u16 = 16;
    pub(super) const N: u16 = 32;
    pub(super) const T: u16 = 64;
    pub(super) const S: u16 = 128;
    pub(super) const U: u16 = 256;
    pub(super) const NL: u16 = 512;
    pub(super) const CRNL: u16 = 1024;
    pub(super) const DQ: Escapes = Escapes(2047);
    pub(super) const UQ: Escapes = Escapes(2047 & !(Self::SQUOTE | Self::DQUOTE));

    pub(super) fn has(self, flag: u16) -> bool {
        self.0 & flag != 0
    }
}

/// Something Puppet's `slurp` does besides returning the string.
pub(super) enum SlurpProblem {
    /// A `\u` escape made a character that is not UTF-8 (a surrogate, past U+10FFFF): the
    /// next regular expression on the string raises `invalid byte sequence in UTF-8`.
    InvalidByteSequence,
}

/// slurp_support.rb's escape processing of one slurped piece (terminator included).
/// `escapes == None` is single-quoted processing. Returns the processed bytes and the
/// warnings logged (`lex_warning`), in order.
pub(super) fn process_escapes(
    raw: &[u8],
    escapes: Option<Escapes>,
    ignore_invalid: bool,
) -> Result<(Vec<u8>, Vec<String>), SlurpProblem> {
    if !raw.contains(&b'\\') {
        return Ok((raw.to_vec(), Vec::new()));
    }
    let Some(escapes) = escapes else {
        // str.gsub!(/\\(\\|')/m, '\1')
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'\\' && matches!(raw.get(i + 1), Some(b'\\') | Some(b'\'')) {
                out.push(raw[i + 1]);
                i += 2;
            } else {
                out.push(raw[i]);
                i += 1;
            }
        }
        return Ok((out, Vec::new()));
    };
    let mut text = raw.to_vec();
    if escapes.has(Escapes::U) {
        // while (str.gsub!(UNICODE_ESCAPE) { ... }) — each pass replaces at least one `u`.
        while let Some(next) = unicode_pass(&text)? {
            text = next;
        }
    }
    // str.gsub!(/\\([^\r\n]|(?:\r?\n))/m) { ... }
    let mut out = Vec::with_capacity(text.len());
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\\' && i + 1 < text.len() {
            let c = text[i + 1];
            let (len, flag) = match c {
                b'\r' if text.get(i + 2) == Some(&b'\n') => (2, Escapes::CRNL),
                b'\r' => (0, 0),
                b'\n' => (1, Escapes::NL),
                b'\\' => (1, Escapes::BACKSLASH),
                b'$' => (1, Escapes::DOLLAR),
                b'\'' => (1, Escapes::SQUOTE),
                b'"' => (1, Escapes::DQUOTE),
                b'r' => (1, Escapes::R),
                b'n' => (1, Escapes::N),
                b't' => (1, Escapes::T),
                b's' => (1, Escapes::S),
                b'u' => (1, Escapes::U),
                _ => (char_len_at(&text, i + 1), 0),
            };
            if len > 0 {
                if flag != 0 && escapes.has(flag) {
                    match flag {
                        Escapes::R => out.push(b'\r'),
                        Escapes::N => out.push(b'\n'),
                        Escapes::T => out.push(b'\t'),
                        Escapes::S => out.push(b' '),
                        Escapes::U => {
                            warnings.push(ILLEGAL_UNICODE_ESCAPE.to_owned());
                            out.extend_from_slice(b"\\u");
                        }
                        Escapes::NL | Escapes::CRNL => {}
                        _ => out.push(c),
                    }
                } else {
                    if !ignore_invalid {
                        let ch = String::from_utf8_lossy(&text[i + 1..i + 1 + len]);
                        warnings.push(format!("Unrecognized escape sequence '\\{ch}'"));
                    }
                    out.extend_from_slice(&text[i..i + 1 + len]);
                }
                i += 1 + len;
                continue;
            }
        }
        out.push(text[i]);
        i += 1;
    }
    Ok((out, warnings))
}

/// Puppet's `ILLEGAL_UNICODE_ESCAPE` warning.
const ILLEGAL_UNICODE_ESCAPE: &str =
    "Unicode escape '\\u' was not followed by 4 hex digits or 1-6 hex digits in {} or was > 10ffff";

/// One `gsub!` pass of
/// `((?:[^\\]|^)(?:[\\]{2})*)\\u(?:([\da-fA-F]{4})|\{([\da-fA-F]{1,6})\})`; `None` when
/// nothing matched.
fn unicode_pass(s: &[u8]) -> Result<Option<Vec<u8>>, SlurpProblem> {
    // The escape after `prefix_end` (an odd run of backslashes ending in `\u`): its end and
    // code point.
    let escape = |run_start: usize| -> Option<(usize, usize, u32)> {
        let k = s[run_start..].iter().take_while(|&&b| b == b'\\').count();
        if k % 2 == 0 || s.get(run_start + k) != Some(&b'u') {
            return None;
        }
        let h = run_start + k + 1;
        let hex4 = s.get(h..h + 4).filter(|d| d.iter().all(u8::is_ascii_hexdigit));
        if let Some(d) = hex4 {
            return Some((run_start + k - 1, h + 4, u32::from_str_radix(std::str::from_utf8(d).ok()?, 16).ok()?));
        }
        if s.get(h) == Some(&b'{') {
            let n = s[h + 1..].iter().take(6).take_while(|b| b.is_ascii_hexdigit()).count();
            if n >= 1 && s.get(h + 1 + n) == Some(&b'}') {
                let d = std::str::from_utf8(&s[h + 1..h + 1 + n]).ok()?;
                return Some((run_start + k - 1, h + 2 + n, u32::from_str_radix(d, 16).ok()?));
            }
        }
        None
    };
    let mut out = Vec::new();
    let mut copied = 0;
    let mut changed = false;
    let mut p = 0;
    while p < s.len() {
        let mut found = None;
        if s[p] != b'\\' {
            found = escape(p + char_len_at(s, p));
        }
        if found.is_none() && (p == 0 || s[p - 1] == b'\n') {
            found = escape(p);
        }
        if let Some((prefix_end, end, cp)) = found {
            out.extend_from_slice(&s[copied..prefix_end]);
            let c = char::from_u32(cp).ok_or(SlurpProblem::InvalidByteSequence)?;
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            copied = end;
            p = end;
            changed = true;
        } else {
            p += char_len_at(s, p);
        }
    }
    if !changed {
        return Ok(None);
    }
    out.extend_from_slice(&s[copied..]);
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search as the regexp runs: each character from `from` tried as the one before
    /// the backslashes (`[^\\]`), then as a line start (`^`).
    fn by_walk(s: &[u8], from: usize, quoting: Quoting) -> Option<(usize, usize, Term)> {
        let mut p = from;
        while p <= s.len() {
            if p < s.len() && s[p] != b'\\' {
                let q = p + char_len_at(s, p);
                let k = backslashes(s, q);
                if k.is_multiple_of(2) {
                    if let Some(term) = term_at(s, q + k, quoting) {
                        return Some((p, q + k, term));
                    }
                }
            }
            if p == from || s[p - 1] == b'\n' {
                let k = backslashes(s, p);
                if k.is_multiple_of(2) {
                    if let Some(term) = term_at(s, p + k, quoting) {
                        return Some((p, p + k, term));
                    }
                }
            }
            p += if p < s.len() { char_len_at(s, p) } else { 1 };
        }
        None
    }

    #[test]
    fn the_search_finds_what_the_walk_finds() {
        // every text of up to five pieces, from every position
        let pieces: [&[u8]; 9] = [b"a", b"\\", b"'", b"\"", b"$", b"{", b"\n", "\u{e9}".as_bytes(), b"\xff"];
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        let mut all = texts.clone();
        for _ in 0..5 {
            texts = texts.iter().flat_map(|t| pieces.iter().map(move |p| [t.as_slice(), p].concat())).collect();
            all.extend(texts.iter().cloned());
        }
        for text in &all {
            for from in 0..=text.len() {
                for quoting in [Quoting::Single, Quoting::Double, Quoting::Unquoted] {
                    assert_eq!(
                        slurp_search(text, from, quoting),
                        by_walk(text, from, quoting),
                        "{:?} from {from}",
                        String::from_utf8_lossy(text)
                    );
                }
            }
        }
    }
}
