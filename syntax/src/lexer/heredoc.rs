//! Heredocs, as Puppet's `heredoc_support.rb` lexes them: the `@(TAG:syntax/flags)` header,
//! the text up to the end line (any line *ending* with the tag, `|` margins and `-` trims),
//! several heredocs on one line (`newline_jump`), escapes per the flags, and the text lexed
//! again for interpolation (`@("TAG")`), its tokens placed by `SubLocator#to_global`. The
//! SUBLOCATE token's value is Ruby's `Array#to_s` of the text's lines.

use super::*;

/// PATTERN_HEREDOC's groups in a header `@(…)` (which ends at its only `)`).
struct HeredocHeader {
    tag: (usize, usize),
    syntax: Option<(usize, usize)>,
    escapes: Option<(usize, usize)>,
}

/// `str.match(PATTERN_HEREDOC)` where PATTERN_HEREDOC =
/// `@\(([^:/\r\n\)]+)(?::[[:blank:]]*([a-z][a-zA-Z0-9_+]+)[[:blank:]]*)?(?:/((?:\w|[$])*)[[:blank:]]*)?\)`
fn match_heredoc_header(h: &[u8]) -> Option<HeredocHeader> {
    let blanks = |mut i: usize| loop {
        let n = blank_len(h, i);
        if n == 0 {
            return i;
        }
        i += n;
    };
    // The tag runs to the first of `:/\r\n)`, whatever `@(` it starts at, and what follows
    // the tag decides the match: once that fails, every start before the tag's end fails too.
    let mut i = 0;
    while i + 1 < h.len() {
        if h[i] != b'@' || h[i + 1] != b'(' {
            i += 1;
            continue;
        }
        let t0 = i + 2;
        let mut p = t0;
        while p < h.len() && !matches!(h[p], b':' | b'/' | b'\r' | b'\n' | b')') {
            p += 1;
        }
        let tag = (t0, p);
        i = if p == t0 { i + 1 } else { p };
        if p == t0 {
            continue;
        }
        let mut syntax = None;
        if h.get(p) == Some(&b':') {
            let q = blanks(p + 1);
            if h.get(q).is_some_and(u8::is_ascii_lowercase) {
                let mut r = q + 1;
                while r < h.len() && (h[r].is_ascii_alphanumeric() || h[r] == b'_' || h[r] == b'+') {
                    r += 1;
                }
                if r > q + 1 {
                    syntax = Some((q, r));
                    p = blanks(r);
                }
            }
        }
        let mut escapes = None;
        if h.get(p) == Some(&b'/') {
            let mut q = p + 1;
            while q < h.len() && (is_word(h[q]) || h[q] == b'$') {
                q += 1;
            }
            escapes = Some((p + 1, q));
            p = blanks(q);
        }
        if p + 1 == h.len() && h[p] == b')' {
            return Some(HeredocHeader { tag, syntax, escapes });
        }
    }
    None
}

/// Ruby's `String#strip` (whitespace and NUL at both ends).
fn ruby_strip(s: &[u8]) -> &[u8] {
    let ws = |b: &u8| matches!(b, b'\0' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ');
    let start = s.iter().position(|b| !ws(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !ws(b)).map_or(start, |i| i + 1);
    &s[start..end.max(start)]
}

/// An end line's match of
/// `([[:blank:]]*)(?:([|])[[:blank:]]*)?(?:(\-)[[:blank:]]*)?TAG[[:blank:]]*\r?(?:\n|\z)`
/// (unanchored: any line *ending* with the tag ends the heredoc).
struct EndLine {
    leading: (usize, usize),
    margin: bool,
    remove_break: bool,
}

fn match_end_line(line: &[u8], tag: &[u8]) -> Option<EndLine> {
    let mut end = line.len();
    if line.ends_with(b"\n") {
        end -= 1;
    }
    if end > 0 && line[end - 1] == b'\r' {
        end -= 1;
    }
    // The tag ends where only blanks follow it.
    let mut best: Option<(usize, EndLine)> = None;
    let mut t = end;
    let mut candidates = 0;
    loop {
        if t >= tag.len() && &line[t - tag.len()..t] == tag {
            let ts = t - tag.len();
            // Back over `B* (| B*)? (- B*)?` from the tag: the leftmost start.
            let back_blanks = |mut i: usize| {
                while let Some(c) = last_char(line, i) {
                    if !is_blank_char(c) {
                        break;
                    }
                    i -= c.len_utf8();
                }
                i
            };
            let mut i = back_blanks(ts);
            let mut dash = false;
            let mut bar = false;
            if i > 0 && line[i - 1] == b'-' {
                dash = true;
                i = back_blanks(i - 1);
            }
            if i > 0 && line[i - 1] == b'|' {
                bar = true;
                i = back_blanks(i - 1);
            }
            let start = i;
            // The leading blanks: up to the `|` or `-` or the tag.
            let mut lead_end = start;
            while lead_end < ts {
                let n = blank_len(line, lead_end);
                if n == 0 {
                    break;
                }
                lead_end += n;
            }
            let found = EndLine { leading: (start, lead_end), margin: bar, remove_break: dash };
            if best.as_ref().is_none_or(|(s, _)| start < *s) {
                best = Some((start, found));
            }
        }
        // step back over one trailing blank (a tag ending in a Unicode blank makes several
        // candidates; a few suffice)
        candidates += 1;
        match last_char(line, t) {
            Some(c) if is_blank_char(c) && t > 0 && candidates < 64 => t -= c.len_utf8(),
            _ => break,
        }
    }
    best.map(|(_, m)| m)
}

/// Puppet's SubLocator#to_global for a heredoc's text.
struct SubLocator {
    leading_offset: usize,
    has_margin: bool,
    /// The text's line starts.
    line_index: Vec<usize>,
    /// `@accumulated_margin`: margins (in characters) removed up to each line.
    accumulated: Vec<usize>,
}

impl SubLocator {
    fn line_for_offset(&self, offset: usize) -> usize {
        self.line_index.partition_point(|&start| start <= offset)
    }

    fn to_global(&self, offset: usize, length: usize) -> (usize, usize) {
        if !self.has_margin {
            return (offset + self.leading_offset, length);
        }
        let acc = |line: usize| self.accumulated.get(line).or(self.accumulated.last()).copied().unwrap_or(0);
        let start_line = self.line_for_offset(offset);
        let end_line = self.line_for_offset(offset + length);
        let start = if offset == 0 { self.leading_offset } else { offset + self.leading_offset + acc(start_line) };
        (start, (length + acc(end_line)).saturating_sub(acc(start_line)))
    }
}

impl<'a> Lexer<'a> {
    /// `heredoc`, at `@(`.
    pub(super) fn heredoc(&mut self) -> LexResult<Step> {
        let before = self.pos;
        if self.sub.is_some() {
            // Every path of `heredoc` computes a lex error's position (`eof_error` is created
            // up front), which a SubLocator cannot do.
            return Err(positionless(NIL_PLUS, before));
        }
        let Some(close) = self.s[before..].iter().position(|&b| b == b')').map(|i| before + i) else {
            self.matched = None;
            let message = format!("Unclosed parenthesis after '@(' followed by '{}'", self.followed_by());
            return Err(self.error(message, before));
        };
        self.matched = Some((close, close + 1));
        self.pos = close + 1;
        let pos_after_heredoc = self.pos;
        let header = &self.s[before..pos_after_heredoc];
        let Some(m) = match_heredoc_header(header) else {
            return Err(self.error("Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])", self.pos));
        };
        let mut endtag = ruby_strip(&header[m.tag.0..m.tag.1]);
        let mut dq_style = false;
        if endtag.len() >= 2 && endtag[0] == b'"' && endtag[endtag.len() - 1] == b'"' {
            dq_style = true;
            endtag = ruby_strip(&endtag[1..endtag.len() - 1]);
        }
        if endtag.is_empty() {
            return Err(self.error("Heredoc with an empty endtag", self.pos));
        }
        let mut escapes = Escapes(0);
        if let Some((a, b)) = m.escapes {
            let given: &[u8] = if a == b { b"trnsuL$" } else { &header[a..b] };
            let mut seen = [false; 256];
            if given.iter().any(|&c| std::mem::replace(&mut seen[c as usize], true)) {
                let list: Vec<String> = given.iter().map(|&c| (c as char).to_string()).collect();
                return Err(self.error(
                    format!("An escape char for @() may only appear once. Got '{}'", list.join(", ")),
                    self.pos,
                ));
            }
            escapes.0 |= Escapes::BACKSLASH;
            for &c in given {
                escapes.0 |= match c {
                    b't' => Escapes::T,
                    b'r' => Escapes::R,
                    b'n' => Escapes::N,
                    b's' => Escapes::S,
                    b'u' => Escapes::U,
                    b'$' => Escapes::DOLLAR,
                    b'L' => Escapes::NL | Escapes::CRNL,
                    _ => {
                        return Err(self.error(
                            format!(
                                "Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got '{}'",
                                c as char
                            ),
                            self.pos,
                        ));
                    }
                };
            }
        }
        let syntax = m.syntax.map_or(String::new(), |(a, b)| String::from_utf8_lossy(&header[a..b]).into_owned());
        self.push(TokenKind::Heredoc, before, pos_after_heredoc - before, Some(syntax.into()));

        match self.newline_jump {
            Some(jump) => self.pos = jump,
            None => match self.s[self.pos..].iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.matched = Some((self.pos + i, self.pos + i + 1));
                    self.pos += i + 1;
                }
                None => {
                    self.matched = None;
                    return Err(self.error("Heredoc without any following lines of text", self.pos));
                }
            },
        }
        let heredoc_offset = self.pos;
        let mut lines: Vec<(usize, usize)> = Vec::new();
        while !self.eos() {
            let line_end = match self.s[self.pos..].iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.matched = Some((self.pos + i, self.pos + i + 1));
                    self.pos + i + 1
                }
                None => {
                    self.matched = Some((self.s.len(), self.s.len()));
                    self.s.len()
                }
            };
            let line_start = self.pos;
            self.pos = line_end;
            let line = &self.s[line_start..line_end];
            let Some(end_line) = match_end_line(line, endtag) else {
                lines.push((line_start, line_end));
                continue;
            };
            self.newline_jump = Some(self.pos);
            let leading = &line[end_line.leading.0..end_line.leading.1];
            // heredoc_text
            let mut text = Vec::new();
            let mut margins = Vec::with_capacity(lines.len());
            for &(a, b) in &lines {
                let l = &self.s[a..b];
                if end_line.margin && !leading.is_empty() && l.starts_with(leading) {
                    text.extend_from_slice(&l[leading.len()..]);
                    margins.push(poppet_ruby::string::length(leading));
                } else {
                    text.extend_from_slice(l);
                    margins.push(0);
                }
            }
            if end_line.remove_break && text.ends_with(b"\n") {
                text.pop();
                if text.ends_with(b"\r") {
                    text.pop();
                }
            }
            let lines_len: usize = lines.iter().map(|(a, b)| b - a).sum();
            let inspect = ruby_inspect_lines(self.s, &lines);
            self.push(TokenKind::Sublocate, heredoc_offset, lines_len, Some(inspect.into()));

            if let Some(message) = bom_error(&text) {
                return Err(positionless(message, heredoc_offset));
            }
            let pattern = if !dq_style {
                UqPattern::All
            } else if escapes.has(Escapes::DOLLAR) {
                UqPattern::Uq
            } else {
                UqPattern::UqNe
            };
            let mut sub = Lexer::new(&text, Some(SubMode { escapes, pattern }), self.stack + STRING_FRAME);
            sub.tasks = self.tasks;
            if let Err(mut e) = sub.interpolate(Quoting::Unquoted) {
                e.at = before;
                return Err(e);
            }
            let mut accumulated = Vec::with_capacity(margins.len() + 2);
            accumulated.push(0);
            for m in &margins {
                let last = *accumulated.last().unwrap_or(&0);
                accumulated.push(last + m);
            }
            accumulated.push(*accumulated.last().unwrap_or(&0));
            let mut line_index = vec![0];
            line_index.extend(text.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1));
            let locator =
                SubLocator { leading_offset: heredoc_offset, has_margin: end_line.margin, line_index, accumulated };
            for tok in sub.out {
                let (start, len) = locator.to_global(tok.start, tok.len);
                let value = tok.value.unwrap_or_else(|| {
                    let a = tok.start.min(text.len());
                    let b = (tok.start + tok.len).clamp(a, text.len());
                    plain_value(tok.kind, &text[a..b])
                });
                self.out.push(Tok { kind: tok.kind, start, len, value: Some(value) });
            }
            self.pos = pos_after_heredoc;
            return Ok(Step::Nothing);
        }
        Err(self.error("Heredoc without end-tagged line", heredoc_offset))
    }
}

/// A token's value from its text, for tokens whose value is their text.
fn plain_value(kind: TokenKind, text: &[u8]) -> Box<str> {
    match kind {
        TokenKind::Other => "".into(),
        TokenKind::Variable => boxed(text.strip_prefix(b"$").unwrap_or(text).to_vec()),
        _ => boxed(text.to_vec()),
    }
}

/// Ruby's `Array#to_s` of the heredoc's lines (the SUBLOCATE token's value).
fn ruby_inspect_lines(s: &[u8], lines: &[(usize, usize)]) -> String {
    let mut out = String::from("[");
    for (i, &(a, b)) in lines.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&poppet_ruby::string::inspect(&String::from_utf8_lossy(&s[a..b])));
    }
    out.push(']');
    out
}
