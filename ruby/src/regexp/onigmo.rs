//! Onigmo, Ruby 3.1's regexp engine, as `Regexp.new(source)` sees a regular expression's
//! text (Puppet's lexer makes one of every `/…/`, `Regexp.new` one of every string): the
//! errors Ruby raises (its escape preprocessing, then Onigmo's parser and the checks its
//! compiler makes), with Ruby's messages, and `Regexp#to_s`, the REGEX token's value.
//!
//! Known gaps: subexpression calls (`\g<…>`) are not checked for `never ending recursion`;
//! look-behind lengths ignore case folding and calls; parse depth and other resource limits
//! are approximations.

const MAX_REPEAT: u64 = 100_000;
const MAX_NESTING: usize = 4096;

/// `Regexp.new(source)`: `Err` holds Ruby's message, `MESSAGE: /SOURCE/`.
pub fn check(src: &str) -> Result<(), String> {
    validate(src, false).map_err(|m| format!("{m}: /{}/", expr_str(src, true)))
}

fn validate(src: &str, extended: bool) -> Result<(), String> {
    let pattern = preprocess(src.as_bytes()).map_err(str::to_string)?;
    Onig::new(&pattern, extended).parse()
}

/// Ruby's `Regexp#to_s` for a regexp made by `Regexp.new(source)` (no options).
pub fn to_s(src: &str) -> String {
    const I: u8 = 1;
    const X: u8 = 2;
    const M: u8 = 4;
    let s = src.as_bytes();
    let char_to_option = |c: u8| match c {
        b'm' => M,
        b'i' => I,
        b'x' => X,
        _ => 0,
    };
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut options = 0u8;
    let mut p = 0usize;
    let mut len = s.len();
    loop {
        if len >= 4 && at(p) == b'(' && at(p + 1) == b'?' {
            let mut err = true;
            p += 2;
            len -= 2;
            while len > 0 {
                let opt = char_to_option(at(p));
                if opt == 0 {
                    break;
                }
                options |= opt;
                p += 1;
                len -= 1;
            }
            if len > 1 && at(p) == b'-' {
                p += 1;
                len -= 1;
                while len > 0 {
                    let opt = char_to_option(at(p));
                    if opt == 0 {
                        break;
                    }
                    options &= !opt;
                    p += 1;
                    len -= 1;
                }
            }
            if at(p) == b')' {
                len -= 1;
                p += 1;
                continue;
            }
            if at(p) == b':' && len >= 2 && at(p + len - 1) == b')' {
                p += 1;
                len -= 2;
                err = std::str::from_utf8(&s[p..p + len])
                    .map_or(true, |inner| validate(inner, options & X != 0).is_err());
            }
            if err {
                options = 0;
                p = 0;
                len = s.len();
            }
        }
        break;
    }
    let flags = |o: u8| {
        let mut f = String::new();
        if o & M != 0 {
            f.push('m');
        }
        if o & I != 0 {
            f.push('i');
        }
        if o & X != 0 {
            f.push('x');
        }
        f
    };
    let mut out = format!("(?{}", flags(options));
    if options != I | X | M {
        out.push('-');
        out.push_str(&flags(!options & (I | X | M)));
    }
    out.push(':');
    out.push_str(&expr_str(&String::from_utf8_lossy(&s[p..p + len]), false));
    out.push(')');
    out
}

/// Ruby's `rb_reg_expr_str` with `/` as the terminator; `in_error` for an error's
/// description (which escapes non-ASCII characters once anything needs escaping),
/// otherwise for `Regexp#to_s`.
pub fn expr_str(s: &str, in_error: bool) -> String {
    let need_escape = s.chars().any(|c| c == '/' || (c.is_ascii() && !(' '..='~').contains(&c)));
    if !need_escape {
        return s.to_string();
    }
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some() {
            out.push(c);
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else if !c.is_ascii() {
            if in_error {
                let cp = c as u32;
                if cp < 0x10000 {
                    out.push_str(&format!("\\u{cp:04X}"));
                } else {
                    out.push_str(&format!("\\u{{{cp:X}}}"));
                }
            } else {
                out.push(c);
            }
        } else if (' '..='~').contains(&c) && c != '/' {
            out.push(c);
        } else if c == '/' {
            out.push_str("\\/");
        } else if matches!(c, '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r') {
            out.push(c);
        } else {
            out.push_str(&format!("\\x{:02X}", c as u32));
        }
    }
    out
}

fn hex_value(s: &[u8]) -> u32 {
    s.iter().fold(0u32, |v, &b| v.saturating_mul(16).saturating_add((b as char).to_digit(16).unwrap_or(0)))
}

/// Ruby's `unescape_nonascii` (re.c): the escapes Ruby handles before Onigmo sees the
/// pattern. Returns the pattern Onigmo parses: escaped non-ASCII characters written out,
/// escaped ASCII bytes as `\xHH`, the rest as it was.
fn preprocess(s: &[u8]) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(s.len());
    let mut p = 0;
    while p < s.len() {
        let c = s[p];
        if c >= 0x80 {
            let n = crate::string::char_len_at(s, p);
            out.extend_from_slice(&s[p..p + n]);
            p += n;
            continue;
        }
        p += 1;
        if c != b'\\' {
            out.push(c);
            continue;
        }
        if p == s.len() {
            return Err("too short escape sequence");
        }
        if s[p] >= 0x80 {
            let n = crate::string::char_len_at(s, p);
            out.push(b'\\');
            out.extend_from_slice(&s[p..p + n]);
            p += n;
            continue;
        }
        let c = s[p];
        p += 1;
        match c {
            b'1'..=b'7'
                if {
                    let n = s[p - 1..].iter().take(3).take_while(|b| (b'0'..=b'7').contains(b)).count();
                    s[p - 1..p - 1 + n].iter().fold(0u32, |v, b| v * 8 + u32::from(b - b'0')) <= 0o177
                } =>
            {
                out.push(b'\\');
                out.push(c);
            }
            b'0'..=b'7' | b'x' | b'c' | b'C' | b'M' => {
                p -= 2;
                escaped_nonascii(s, &mut p, &mut out)?;
            }
            b'u' => {
                if p == s.len() {
                    return Err("too short escape sequence");
                }
                if s[p] == b'{' {
                    p += 1;
                    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r');
                    while p < s.len() && is_space(s[p]) {
                        p += 1;
                    }
                    let mut any = false;
                    loop {
                        let n = s[p..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
                        if n == 0 {
                            break;
                        }
                        if n > 6 {
                            return Err("invalid Unicode range");
                        }
                        append_utf8(hex_value(&s[p..p + n]), &mut out)?;
                        p += n;
                        any = true;
                        while p < s.len() && is_space(s[p]) {
                            p += 1;
                        }
                    }
                    if !any {
                        return Err("invalid Unicode list");
                    }
                    if p == s.len() || s[p] != b'}' {
                        return Err("invalid Unicode list");
                    }
                    p += 1;
                } else {
                    if p + 4 > s.len() || !s[p..p + 4].iter().all(u8::is_ascii_hexdigit) {
                        return Err("invalid Unicode escape");
                    }
                    append_utf8(hex_value(&s[p..p + 4]), &mut out)?;
                    p += 4;
                }
            }
            _ => {
                out.push(b'\\');
                out.push(c);
            }
        }
    }
    Ok(out)
}

/// `append_utf8`: a code point from `\u`, as a character, or `\xHH` for ASCII.
fn append_utf8(code: u32, out: &mut Vec<u8>) -> Result<(), &'static str> {
    if (0xD800..=0xDFFF).contains(&code) || code > 0x10FFFF {
        return Err("invalid Unicode range");
    }
    if code < 0x80 {
        out.extend_from_slice(format!("\\x{code:02X}").as_bytes());
    } else if let Some(c) = char::from_u32(code) {
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    Ok(())
}

/// `unescape_escaped_nonascii`: one escaped byte, or the escaped bytes of one character.
fn escaped_nonascii(s: &[u8], p: &mut usize, out: &mut Vec<u8>) -> Result<(), &'static str> {
    let mut bytes = vec![read_escaped_byte(s, p)? as u8];
    while bytes.len() < 4 {
        match std::str::from_utf8(&bytes) {
            Err(e) if e.error_len().is_none() => bytes.push(read_escaped_byte(s, p)? as u8),
            _ => break,
        }
    }
    if std::str::from_utf8(&bytes).is_err() {
        return Err("invalid multibyte escape");
    }
    if bytes.len() > 1 || bytes[0] >= 0x80 {
        out.extend_from_slice(&bytes);
    } else {
        out.extend_from_slice(format!("\\x{:02X}", bytes[0]).as_bytes());
    }
    Ok(())
}

/// `read_escaped_byte`.
fn read_escaped_byte(s: &[u8], p: &mut usize) -> Result<u32, &'static str> {
    if *p >= s.len() || s[*p] != b'\\' {
        return Err("too short escaped multibyte character");
    }
    *p += 1;
    let mut meta = false;
    let mut ctrl = false;
    let mut code: u32;
    loop {
        if *p >= s.len() {
            return Err("too short escape sequence");
        }
        let c = s[*p];
        *p += 1;
        match c {
            b'\\' => code = 0x5C,
            b'n' => code = 0x0A,
            b't' => code = 0x09,
            b'r' => code = 0x0D,
            b'f' => code = 0x0C,
            b'v' => code = 0x0B,
            b'a' => code = 0x07,
            b'e' => code = 0x1B,
            b'0'..=b'7' => {
                *p -= 1;
                let n = s[*p..].iter().take(3).take_while(|b| (b'0'..=b'7').contains(b)).count();
                code = s[*p..*p + n].iter().fold(0u32, |v, b| v * 8 + u32::from(b - b'0'));
                *p += n;
            }
            b'x' => {
                let n = s[*p..].iter().take(2).take_while(|b| b.is_ascii_hexdigit()).count();
                if n < 1 {
                    return Err("invalid hex escape");
                }
                code = hex_value(&s[*p..*p + n]);
                *p += n;
            }
            b'M' => {
                if meta {
                    return Err("duplicate meta escape");
                }
                meta = true;
                if *p + 1 < s.len() {
                    let dash = s[*p] == b'-';
                    *p += 1;
                    if dash && s[*p] & 0x80 == 0 {
                        if s[*p] == b'\\' {
                            *p += 1;
                            continue;
                        }
                        code = u32::from(s[*p]);
                        *p += 1;
                        break;
                    }
                }
                return Err("too short meta escape");
            }
            b'C' | b'c' => {
                if c == b'C' {
                    if *p >= s.len() || s[*p] != b'-' {
                        return Err("too short control escape");
                    }
                    *p += 1;
                }
                if ctrl {
                    return Err("duplicate control escape");
                }
                ctrl = true;
                if *p < s.len() && s[*p] & 0x80 == 0 {
                    if s[*p] == b'\\' {
                        *p += 1;
                        continue;
                    }
                    code = u32::from(s[*p]);
                    *p += 1;
                    break;
                }
                return Err("too short control escape");
            }
            _ => return Err("unexpected escape sequence"),
        }
        break;
    }
    if code > 0xFF {
        return Err("invalid escape code");
    }
    if ctrl {
        code &= 0x1F;
    }
    if meta {
        code |= 0x80;
    }
    Ok(code)
}

// ----------------------------------------------------------------------------------
// Onigmo's parser (Ruby syntax), reduced to what decides errors

/// A node's length in characters, for look-behind: fixed, an alternation of different
/// fixed lengths (allowed only as a look-behind's whole body), or variable.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Len {
    Fixed(u64),
    TopAlt,
    Var,
}

impl Len {
    fn add(self, other: Len) -> Len {
        match (self, other) {
            (Len::Fixed(a), Len::Fixed(b)) => Len::Fixed(a.saturating_add(b)),
            _ => Len::Var,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Root,
    Capture,
    /// `(?:…)`: no node of its own.
    Plain,
    /// `(?i:…)`, `(?>…)`, conditionals: an enclosing node.
    Enclose,
    /// What follows `(?i)` up to the end of the enclosing group.
    OptionScope,
    LookAhead,
    LookBehind,
    Absent,
}

struct Frame {
    kind: Kind,
    extended: bool,
    branches: Vec<Len>,
    cur: Len,
    atoms: usize,
    single: Len,
    before_last: Len,
    last: Option<Len>,
    start: usize,
    negative: bool,
}

struct Onig<'a> {
    s: &'a [u8],
    p: usize,
    frames: Vec<Frame>,
    groups: usize,
    names: std::collections::HashSet<&'a [u8]>,
    /// Numbered backrefs (position, number), checked at the end.
    backrefs: Vec<(usize, i64)>,
    /// `\g` calls: by name, or by number.
    calls: Vec<(Option<&'a [u8]>, i64)>,
    numbered_refs: bool,
    /// The first invalid look-behind (its start).
    bad_look_behind: Option<usize>,
    /// The open look-behinds: start, negative.
    look_behinds: Vec<(usize, bool)>,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl<'a> Onig<'a> {
    fn new(s: &'a [u8], extended: bool) -> Self {
        let mut onig = Onig {
            s,
            p: 0,
            frames: Vec::new(),
            groups: 0,
            names: std::collections::HashSet::new(),
            backrefs: Vec::new(),
            calls: Vec::new(),
            numbered_refs: false,
            bad_look_behind: None,
            look_behinds: Vec::new(),
        };
        onig.open(Kind::Root, extended, 0, false);
        onig
    }

    fn open(&mut self, kind: Kind, extended: bool, start: usize, negative: bool) {
        if kind == Kind::LookBehind {
            self.look_behinds.push((start, negative));
        }
        self.frames.push(Frame {
            kind,
            extended,
            branches: Vec::new(),
            cur: Len::Fixed(0),
            atoms: 0,
            single: Len::Fixed(0),
            before_last: Len::Fixed(0),
            last: None,
            start,
            negative,
        });
    }

    fn top(&mut self) -> &mut Frame {
        let n = self.frames.len() - 1;
        &mut self.frames[n]
    }

    fn in_look_behind(&self) -> Option<(usize, bool)> {
        self.look_behinds.last().copied()
    }

    /// A construct Onigmo does not allow in a look-behind.
    fn not_in_look_behind(&mut self) {
        if let Some((start, _)) = self.in_look_behind() {
            self.bad_look_behind.get_or_insert(start);
        }
    }

    fn atom(&mut self, len: Len) {
        let f = self.top();
        f.before_last = f.cur;
        f.cur = f.cur.add(len);
        f.atoms += 1;
        f.single = len;
        f.last = Some(len);
    }

    fn char_at(&self, i: usize) -> Option<char> {
        let n = crate::string::char_len_at(self.s, i);
        std::str::from_utf8(self.s.get(i..i + n)?).ok()?.chars().next()
    }

    /// Fetches one character (PFETCH).
    fn fetch(&mut self) -> Option<char> {
        if self.p >= self.s.len() {
            return None;
        }
        let c = self.char_at(self.p).unwrap_or('\u{FFFD}');
        self.p += crate::string::char_len_at(self.s, self.p);
        Some(c)
    }

    fn peek_is(&self, b: u8) -> bool {
        self.s.get(self.p) == Some(&b)
    }

    fn scan_number(&self, from: usize) -> (u64, usize) {
        let n = self.s[from.min(self.s.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
        let v = self.s[from..from + n].iter().fold(0u64, |v, b| v.saturating_mul(10).saturating_add((b - b'0') as u64));
        (v, n)
    }

    fn text(&self, a: usize, b: usize) -> String {
        String::from_utf8_lossy(&self.s[a.min(self.s.len())..b.min(self.s.len())]).into_owned()
    }

    fn parse(mut self) -> Result<(), String> {
        while self.p < self.s.len() {
            let extended = self.top().extended;
            let c = self.s[self.p];
            match c {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0C if extended => self.p += 1,
                b'#' if extended => {
                    while let Some(c) = self.fetch() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                b'\\' => {
                    self.p += 1;
                    self.escape()?;
                }
                b'.' => {
                    self.p += 1;
                    self.atom(Len::Fixed(1));
                }
                b'^' | b'$' => {
                    self.p += 1;
                    self.atom(Len::Fixed(0));
                }
                b'*' | b'+' | b'?' => {
                    self.p += 1;
                    let (lo, hi) = match c {
                        b'*' => (0, None),
                        b'+' => (1, None),
                        _ => (0, Some(1)),
                    };
                    self.quantifier(lo, hi)?;
                    if self.peek_is(b'?') || self.peek_is(b'+') {
                        self.p += 1;
                    }
                }
                b'{' => match self.interval()? {
                    Some((lo, hi)) => {
                        self.quantifier(lo, hi)?;
                        if hi != Some(lo) && self.peek_is(b'?') {
                            self.p += 1;
                        }
                    }
                    None => {
                        self.p += 1;
                        self.atom(Len::Fixed(1));
                    }
                },
                b'|' => {
                    self.p += 1;
                    // an option scope ends its branch with the enclosing group's
                    let f = self.top();
                    let branch = branch_len(f);
                    f.branches.push(branch);
                    f.cur = Len::Fixed(0);
                    f.atoms = 0;
                    f.single = Len::Fixed(0);
                    f.last = None;
                }
                b'(' => {
                    self.p += 1;
                    if self.frames.len() + 1 > MAX_NESTING {
                        return Err("parse depth limit over".to_string());
                    }
                    self.group()?;
                }
                b')' => {
                    self.p += 1;
                    while self.top().kind == Kind::OptionScope {
                        self.close();
                    }
                    if self.top().kind == Kind::Root {
                        return Err("unmatched close parenthesis".to_string());
                    }
                    self.close();
                }
                b'[' => {
                    self.p += 1;
                    self.char_class()?;
                    self.atom(Len::Fixed(1));
                }
                _ => {
                    self.p += crate::string::char_len_at(self.s, self.p);
                    self.atom(Len::Fixed(1));
                }
            }
        }
        while self.top().kind == Kind::OptionScope {
            self.close();
        }
        if self.top().kind != Kind::Root {
            return Err("end pattern with unmatched parenthesis".to_string());
        }
        // onig_compile's checks, in its order
        if !self.names.is_empty() && self.numbered_refs {
            return Err("numbered backref/call is not allowed. (use name)".to_string());
        }
        for (name, num) in &self.calls {
            match name {
                Some(name) => {
                    if !self.names.contains(name) {
                        return Err(format!("undefined name <{}> reference", String::from_utf8_lossy(name)));
                    }
                }
                None => {
                    if *num < 0 {
                        return Err("invalid backref number/name".to_string());
                    }
                    if *num as usize > self.groups {
                        return Err(format!("undefined group <{num}> reference"));
                    }
                }
            }
        }
        let bad_backref = self.backrefs.iter().find(|(_, n)| *n <= 0 || *n as usize > self.groups).map(|(at, _)| *at);
        match (bad_backref, self.bad_look_behind) {
            (Some(b), Some(l)) if l < b => Err("invalid pattern in look-behind".to_string()),
            (Some(_), _) => Err("invalid backref number/name".to_string()),
            (None, Some(_)) => Err("invalid pattern in look-behind".to_string()),
            (None, None) => Ok(()),
        }
    }

    fn quantifier(&mut self, lo: u64, hi: Option<u64>) -> Result<(), String> {
        let f = self.top();
        let Some(last) = f.last else {
            return Err("target of repeat operator is not specified".to_string());
        };
        let len = match (hi, last) {
            (Some(h), l) if h == lo && lo == 1 => l,
            (Some(h), Len::Fixed(n)) if h == lo => Len::Fixed(n.saturating_mul(lo)),
            _ => Len::Var,
        };
        f.cur = f.before_last.add(len);
        f.single = len;
        f.last = Some(len);
        Ok(())
    }

    /// fetch_range_quantifier, after `{`: `None` when the brace is a literal.
    fn interval(&mut self) -> Result<Option<(u64, Option<u64>)>, String> {
        let too_big = || Err("too big number for repeat range".to_string());
        let start = self.p + 1;
        let mut p = start;
        if p >= self.s.len() {
            return Ok(None);
        }
        let (mut low, n) = self.scan_number(p);
        if low > MAX_REPEAT {
            return too_big();
        }
        let mut non_low = false;
        if n == 0 {
            low = 0;
            non_low = true;
        }
        p += n;
        if p >= self.s.len() {
            return Ok(None);
        }
        let up;
        if self.s[p] == b',' {
            p += 1;
            let (u, m) = self.scan_number(p);
            if u > MAX_REPEAT {
                return too_big();
            }
            if m == 0 {
                if non_low {
                    return Ok(None);
                }
                up = None;
            } else {
                up = Some(u);
            }
            p += m;
        } else {
            if non_low {
                return Ok(None);
            }
            up = Some(low);
        }
        if p >= self.s.len() || self.s[p] != b'}' {
            return Ok(None);
        }
        p += 1;
        if let Some(u) = up {
            if low > u {
                return Err("upper is smaller than lower in repeat range".to_string());
            }
        }
        self.p = p;
        Ok(Some((low, up)))
    }

    /// After a `\` outside a character class.
    fn escape(&mut self) -> Result<(), String> {
        let esc_start = self.p - 1;
        let Some(c) = self.fetch() else {
            return Err("end pattern at escape".to_string());
        };
        match c {
            'w' | 'W' | 's' | 'S' | 'd' | 'D' | 'h' | 'H' => self.atom(Len::Fixed(1)),
            'b' | 'B' | 'A' | 'G' | 'K' => self.atom(Len::Fixed(0)),
            'z' | 'Z' | 'y' | 'Y' => {
                self.not_in_look_behind();
                self.atom(Len::Fixed(0));
            }
            'X' => {
                self.not_in_look_behind();
                self.atom(Len::Var);
            }
            'R' => self.atom(Len::Var),
            '1'..='9' => {
                let (num, n) = self.scan_number(self.p - 1);
                if num <= 1000 && (num as usize <= self.groups || num <= 9) {
                    self.p = self.p - 1 + n;
                    self.numbered_refs = true;
                    self.backrefs.push((esc_start, num as i64));
                    self.not_in_look_behind();
                    self.atom(Len::Var);
                } else {
                    if c != '8' && c != '9' {
                        let m = self.s[self.p - 1..].iter().take(3).take_while(|b| (b'0'..=b'7').contains(b)).count();
                        self.p = self.p - 1 + m;
                    }
                    self.atom(Len::Fixed(1));
                }
            }
            '0' => {
                let m = self.s[self.p..].iter().take(2).take_while(|b| (b'0'..=b'7').contains(b)).count();
                self.p += m;
                self.atom(Len::Fixed(1));
            }
            'k' if self.peek_is(b'<') || self.peek_is(b'\'') => {
                let open = self.s[self.p];
                self.p += 1;
                self.named_backref(open, esc_start)?;
                self.not_in_look_behind();
                self.atom(Len::Var);
            }
            'g' if self.peek_is(b'<') || self.peek_is(b'\'') => {
                let open = self.s[self.p];
                self.p += 1;
                self.call(open)?;
                self.atom(Len::Var);
            }
            'p' | 'P' if self.peek_is(b'{') => {
                self.p += 1;
                if self.peek_is(b'^') {
                    self.p += 1;
                }
                self.property()?;
                self.atom(Len::Fixed(1));
            }
            'x' => {
                let m = self.s[self.p..].iter().take(2).take_while(|b| b.is_ascii_hexdigit()).count();
                self.p += m;
                self.atom(Len::Fixed(1));
            }
            _ => self.atom(Len::Fixed(1)),
        }
        Ok(())
    }

    /// fetch_char_property_to_ctype, after `\p{` (and `^`).
    fn property(&mut self) -> Result<(), String> {
        let start = self.p;
        let mut prev = self.p;
        while self.p < self.s.len() {
            prev = self.p;
            match self.fetch() {
                Some('}') => {
                    if is_property_name(&self.s[start..prev]) {
                        return Ok(());
                    }
                    break;
                }
                Some('(' | ')' | '{' | '|') => break,
                _ => {}
            }
        }
        Err(format!("invalid character property name {{{}}}", self.text(start, prev)))
    }

    /// `\k<…>` (Ruby's fetch_name_with_level and fetch_named_backref_token).
    fn named_backref(&mut self, open: u8, at: usize) -> Result<(), String> {
        let end_code = if open == b'<' { '>' } else { '\'' };
        let start = self.p;
        let mut name_end = self.s.len();
        let Some(first) = self.fetch() else {
            return Err("group name is empty".to_string());
        };
        if first == end_code {
            return Err("group name is empty".to_string());
        }
        let mut is_num = 0;
        let mut sign = 1i64;
        let mut num_head = start;
        let mut bad = false;
        if first.is_ascii_digit() {
            is_num = 1;
        } else if first == '-' {
            is_num = 2;
            sign = -1;
            num_head = self.p;
        }
        let mut c = first;
        while self.p < self.s.len() {
            name_end = self.p;
            c = self.fetch().unwrap_or('\0');
            if c == end_code || c == ')' || c == '+' || c == '-' {
                if is_num == 2 {
                    bad = true;
                }
                break;
            }
            if is_num != 0 {
                if c.is_ascii_digit() {
                    is_num = 1;
                } else {
                    bad = true;
                    is_num = 0;
                }
            }
        }
        if !bad && c != end_code {
            let mut ok = false;
            if (c == '+' || c == '-') && self.s.get(self.p).is_some_and(u8::is_ascii_digit) {
                let (_, n) = self.scan_number(self.p);
                self.p += n;
                ok = self.fetch() == Some(end_code);
            }
            if !ok {
                bad = true;
                name_end = self.s.len();
            }
        }
        if bad {
            return Err(format!("invalid group name <{}>", self.text(start, name_end)));
        }
        if is_num != 0 {
            let (n, _) = self.scan_number(num_head);
            if n == 0 {
                return Err(format!("invalid group name <{}>", self.text(start, self.s.len())));
            }
            let mut n = n as i64 * sign;
            if n < 0 {
                n += self.groups as i64 + 1;
                if n <= 0 {
                    return Err("invalid backref number/name".to_string());
                }
            }
            self.numbered_refs = true;
            self.backrefs.push((at, n));
        } else {
            let name = &self.s[start..name_end];
            if !self.names.contains(&name) {
                return Err(format!("undefined name <{}> reference", String::from_utf8_lossy(name)));
            }
        }
        Ok(())
    }

    /// `\g<…>`, a subexpression call.
    fn call(&mut self, open: u8) -> Result<(), String> {
        let end_code = if open == b'<' { b'>' } else { b'\'' };
        if self.peek_is(b'0') && self.s.get(self.p + 1) == Some(&end_code) {
            self.p += 2;
            return Ok(());
        }
        let mut rel = false;
        if self.peek_is(b'+') {
            self.p += 1;
            rel = true;
        }
        let (start, end, num) = self.fetch_name(open, true)?;
        match num {
            Some(mut n) => {
                self.numbered_refs = true;
                if n < 0 || rel {
                    if n > 0 {
                        n -= 1;
                    }
                    n += self.groups as i64 + 1;
                    if n <= 0 {
                        return Err("invalid backref number/name".to_string());
                    }
                }
                self.calls.push((None, n));
            }
            None => {
                let name = &self.s[start..end];
                self.calls.push((Some(name), 0));
            }
        }
        Ok(())
    }

    /// Ruby's fetch_name: a group name (a definition, or a reference when `is_ref`, which
    /// may be a number); returns its range and the number. Any character goes in a name.
    fn fetch_name(&mut self, open: u8, is_ref: bool) -> Result<(usize, usize, Option<i64>), String> {
        let end_code = match open {
            b'<' => '>',
            b'\'' => '\'',
            _ => ')',
        };
        let start = self.p;
        let mut name_end = self.s.len();
        let Some(first) = self.fetch() else {
            return Err("group name is empty".to_string());
        };
        if first == end_code {
            return Err("group name is empty".to_string());
        }
        let mut is_num = 0;
        let mut sign = 1i64;
        let mut num_head = start;
        let mut err: Option<&str> = None;
        if first.is_ascii_digit() {
            if is_ref {
                is_num = 1;
            } else {
                err = Some("invalid group name");
            }
        } else if first == '-' {
            if is_ref {
                is_num = 2;
                sign = -1;
                num_head = self.p;
            } else {
                err = Some("invalid group name");
            }
        }
        if err.is_none() {
            let mut c = first;
            while self.p < self.s.len() {
                name_end = self.p;
                c = self.fetch().unwrap_or('\0');
                if c == end_code || c == ')' {
                    if is_num == 2 {
                        err = Some("invalid group name");
                    }
                    break;
                }
                if is_num != 0 {
                    if c.is_ascii_digit() {
                        is_num = 1;
                    } else {
                        err = Some(if is_word_char(c) { "invalid group name" } else { "invalid char in group name" });
                        break;
                    }
                }
            }
            if err.is_none() {
                if c != end_code {
                    return Err(format!("invalid group name <{}>", self.text(start, self.s.len())));
                }
                if is_num != 0 {
                    let (n, _) = self.scan_number(num_head);
                    if n == 0 {
                        return Err(format!("invalid group name <{}>", self.text(start, name_end)));
                    }
                    return Ok((start, name_end, Some(n as i64 * sign)));
                }
                return Ok((start, name_end, None));
            }
            if c == end_code || c == ')' {
                // `-` alone: the name's end was reached, no teardown
                return Err(format!("{} <{}>", err.unwrap_or("invalid group name"), self.text(start, name_end)));
            }
        }
        // teardown
        while self.p < self.s.len() {
            name_end = self.p;
            let c = self.fetch();
            if c == Some(end_code) || c == Some(')') {
                break;
            }
        }
        if self.p >= self.s.len() {
            name_end = self.s.len();
        }
        Err(format!("{} <{}>", err.unwrap_or("invalid group name"), self.text(start, name_end)))
    }

    /// After `(`: parse_enclose.
    fn group(&mut self) -> Result<(), String> {
        let start = self.p - 1;
        let extended = self.top().extended;
        if !self.peek_is(b'?') {
            self.groups += 1;
            self.open(Kind::Capture, extended, start, false);
            return Ok(());
        }
        self.p += 1;
        if self.peek_is(b'#') {
            // a comment, skipped by the tokenizer
            self.p += 1;
            loop {
                match self.fetch() {
                    None => return Err("end pattern in group".to_string()),
                    Some('\\') => {
                        self.fetch();
                    }
                    Some(')') => return Ok(()),
                    Some(_) => {}
                }
            }
        }
        let Some(c) = self.fetch() else {
            return Err("end pattern in group".to_string());
        };
        match c {
            ':' => self.open(Kind::Plain, extended, start, false),
            '=' | '!' => {
                self.not_in_look_behind();
                self.open(Kind::LookAhead, extended, start, false);
            }
            '>' => {
                self.not_in_look_behind();
                self.open(Kind::Enclose, extended, start, false);
            }
            '~' => {
                self.not_in_look_behind();
                self.open(Kind::Absent, extended, start, false);
            }
            '\'' => self.named_group(b'\'', start)?,
            '<' => match self.fetch() {
                Some('=') => self.open(Kind::LookBehind, extended, start, false),
                Some('!') => self.open(Kind::LookBehind, extended, start, true),
                _ => {
                    self.p -= 1;
                    self.named_group(b'<', start)?;
                }
            },
            '(' => {
                self.not_in_look_behind();
                match self.fetch() {
                    Some(d) if d.is_ascii_digit() => {
                        self.p -= 1;
                        let (_, _, num) = self.fetch_name(b'(', true)?;
                        // checked with the backrefs, once the pattern is parsed
                        self.backrefs.push((start, num.unwrap_or(0)));
                    }
                    Some(q @ ('<' | '\'')) => {
                        let (a, b, num) = self.fetch_name(q as u8, true)?;
                        if self.fetch() != Some(')') {
                            return Err("undefined group option".to_string());
                        }
                        let name = &self.s[a..b];
                        if num.is_none() && !self.names.contains(&name) {
                            return Err(format!("undefined name <{}> reference", String::from_utf8_lossy(name)));
                        }
                    }
                    _ => return Err("invalid conditional pattern".to_string()),
                }
                self.open(Kind::Enclose, extended, start, false);
            }
            '-' | 'i' | 'm' | 'x' | 'a' | 'd' | 'u' => {
                let mut c = c;
                let mut neg = false;
                let mut ext = extended;
                loop {
                    match c {
                        ':' | ')' => {}
                        '-' => neg = true,
                        'x' => ext = !neg,
                        'i' | 'm' => {}
                        'a' | 'd' | 'u' if !neg => {}
                        _ => return Err("undefined group option".to_string()),
                    }
                    if c == ')' {
                        // the rest of the enclosing group is the option's scope
                        self.open(Kind::OptionScope, ext, start, false);
                        return Ok(());
                    }
                    if c == ':' {
                        self.open(Kind::Enclose, ext, start, false);
                        return Ok(());
                    }
                    match self.fetch() {
                        Some(next) => c = next,
                        None => return Err("end pattern in group".to_string()),
                    }
                }
            }
            _ => return Err("undefined group option".to_string()),
        }
        Ok(())
    }

    fn named_group(&mut self, open: u8, start: usize) -> Result<(), String> {
        let (a, b, _) = self.fetch_name(open, false)?;
        self.groups += 1;
        self.names.insert(&self.s[a..b]);
        let extended = self.top().extended;
        let negative = self.in_look_behind().is_some_and(|(_, neg)| neg);
        if negative {
            self.not_in_look_behind();
        }
        self.open(Kind::Capture, extended, start, false);
        Ok(())
    }

    /// Closes the innermost group: its node's length becomes an atom of the enclosing one.
    fn close(&mut self) {
        let Some(mut f) = self.frames.pop() else {
            return;
        };
        if f.kind == Kind::LookBehind {
            self.look_behinds.pop();
        }
        let branch = branch_len(&f);
        f.branches.push(branch);
        let len = if f.branches.len() == 1 {
            f.branches[0]
        } else if f.branches.iter().all(|l| matches!(l, Len::Fixed(_))) {
            if f.branches.windows(2).all(|w| w[0] == w[1]) {
                f.branches[0]
            } else {
                Len::TopAlt
            }
        } else {
            Len::Var
        };
        if f.kind == Kind::Capture && f.negative {
            self.not_in_look_behind();
        }
        if f.kind == Kind::Capture {
            // a capture in a negative look-behind
            if let Some((_, true)) = self.in_look_behind() {
                self.not_in_look_behind();
            }
        }
        let atom = match f.kind {
            Kind::Plain => len,
            Kind::LookAhead | Kind::LookBehind => {
                if f.kind == Kind::LookBehind && len == Len::Var {
                    self.bad_look_behind.get_or_insert(f.start);
                }
                Len::Fixed(0)
            }
            Kind::Absent => Len::Var,
            _ => {
                if len == Len::TopAlt {
                    Len::Var
                } else {
                    len
                }
            }
        };
        if self.frames.is_empty() {
            self.frames.push(f);
            return;
        }
        self.atom(atom);
    }

    /// After `[`: parse_char_class (nested classes iteratively).
    fn char_class(&mut self) -> Result<(), String> {
        // One entry per open class: Onigmo's state, the pending value, whether it is a
        // class (`\d`, `[:alpha:]`) rather than a character.
        let mut stack: Vec<(CcState, u32, bool)> = Vec::new();
        if self.frames.len() + 1 > MAX_NESTING {
            return Err("parse depth limit over".to_string());
        }
        self.open_class(&mut stack)?;
        loop {
            let t = self.cc_token()?;
            let Some(top) = stack.last_mut() else {
                return Ok(());
            };
            let (state, vs, vs_class) = *top;
            match t {
                CcTok::End => return Err("premature end of char-class".to_string()),
                CcTok::Close => {
                    // a nested class is ORed into its parent, whose state stays as it was
                    stack.pop();
                    if stack.is_empty() {
                        return Ok(());
                    }
                }
                CcTok::Open => {
                    if self.frames.len() + stack.len() + 1 > MAX_NESTING {
                        return Err("parse depth limit over".to_string());
                    }
                    self.open_class(&mut stack)?;
                }
                CcTok::Class => {
                    if state == CcState::Range {
                        return Err("char-class value at end of range".to_string());
                    }
                    *top = (CcState::Value, 0, true);
                }
                CcTok::Char(v) => {
                    if state == CcState::Range {
                        if vs > v {
                            return Err("empty range in char class".to_string());
                        }
                        *top = (CcState::Complete, v, false);
                    } else {
                        *top = (CcState::Value, v, false);
                    }
                }
                CcTok::And => *top = (CcState::Start, 0, false),
                CcTok::Range => match state {
                    CcState::Value => {
                        let save = self.p;
                        let next = self.cc_token()?;
                        self.p = save;
                        if next == CcTok::Close || next == CcTok::And {
                            *top = (CcState::Value, u32::from(b'-'), false);
                        } else if vs_class {
                            return Err("unmatched range specifier in char-class".to_string());
                        } else {
                            *top = (CcState::Range, vs, false);
                        }
                    }
                    CcState::Range => {
                        if vs > u32::from(b'-') {
                            return Err("empty range in char class".to_string());
                        }
                        *top = (CcState::Complete, u32::from(b'-'), false);
                    }
                    CcState::Start | CcState::Complete => *top = (CcState::Value, u32::from(b'-'), false),
                },
            }
        }
    }

    /// The start of a class, after its `[`: `^`, and `]` first (literal if another `]`
    /// follows, else an empty class).
    fn open_class(&mut self, stack: &mut Vec<(CcState, u32, bool)>) -> Result<(), String> {
        let save = self.p;
        let mut t = self.cc_token()?;
        if t == CcTok::Char(u32::from(b'^')) && self.s.get(save) == Some(&b'^') {
            t = self.cc_token()?;
        }
        if t == CcTok::Close {
            if !self.s[self.p..].contains(&b']') {
                return Err("empty char-class".to_string());
            }
            stack.push((CcState::Value, u32::from(b']'), false));
            return Ok(());
        }
        // not consumed: back to before the token (after a `^`)
        self.p = if self.s.get(save) == Some(&b'^') { save + 1 } else { save };
        stack.push((CcState::Start, 0, false));
        Ok(())
    }

    /// fetch_token_in_cc (Ruby syntax), with posix brackets parsed.
    fn cc_token(&mut self) -> Result<CcTok, String> {
        let Some(c) = self.fetch() else {
            return Ok(CcTok::End);
        };
        Ok(match c {
            ']' => CcTok::Close,
            '-' => CcTok::Range,
            '&' if self.peek_is(b'&') => {
                self.p += 1;
                CcTok::And
            }
            '[' => {
                if self.peek_is(b':') && str_exist_check_with_esc(self.s, self.p + 1) {
                    let back = self.p;
                    self.p += 1;
                    match self.posix_bracket()? {
                        true => CcTok::Class,
                        false => {
                            // not a posix bracket: '[' is a character
                            self.p = back;
                            CcTok::Char(u32::from(b'['))
                        }
                    }
                } else {
                    CcTok::Open
                }
            }
            '\\' => {
                let Some(e) = self.fetch() else {
                    return Err("end pattern at escape".to_string());
                };
                match e {
                    'w' | 'W' | 'd' | 'D' | 's' | 'S' | 'h' | 'H' => CcTok::Class,
                    'p' | 'P' if self.peek_is(b'{') => {
                        self.p += 1;
                        if self.peek_is(b'^') {
                            self.p += 1;
                        }
                        self.property()?;
                        CcTok::Class
                    }
                    'x' => {
                        let m = self.s[self.p..].iter().take(2).take_while(|b| b.is_ascii_hexdigit()).count();
                        let v = hex_value(&self.s[self.p..self.p + m]);
                        self.p += m;
                        CcTok::Char(v)
                    }
                    '0'..='7' => {
                        self.p -= 1;
                        let m = self.s[self.p..].iter().take(3).take_while(|b| (b'0'..=b'7').contains(b)).count();
                        let v = self.s[self.p..self.p + m].iter().fold(0u32, |v, b| v * 8 + u32::from(b - b'0'));
                        self.p += m;
                        CcTok::Char(v)
                    }
                    'n' => CcTok::Char(0x0A),
                    't' => CcTok::Char(0x09),
                    'r' => CcTok::Char(0x0D),
                    'f' => CcTok::Char(0x0C),
                    'v' => CcTok::Char(0x0B),
                    'a' => CcTok::Char(0x07),
                    'e' => CcTok::Char(0x1B),
                    'b' => CcTok::Char(0x08),
                    other => CcTok::Char(other as u32),
                }
            }
            other => CcTok::Char(other as u32),
        })
    }

    /// parse_posix_bracket, after `[:`: `true` for a class, `false` when it is not one.
    fn posix_bracket(&mut self) -> Result<bool, String> {
        const NAMES: [&str; 14] = [
            "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper",
            "xdigit", "ascii", "word",
        ];
        if self.peek_is(b'^') {
            self.p += 1;
        }
        let rest = &self.s[self.p..];
        let chars = String::from_utf8_lossy(rest).chars().count();
        if chars >= 7 {
            for name in NAMES {
                if rest.starts_with(name.as_bytes()) {
                    if !rest[name.len()..].starts_with(b":]") {
                        return Err("invalid POSIX bracket type".to_string());
                    }
                    self.p += name.len() + 2;
                    return Ok(true);
                }
            }
        }
        let mut i = 0;
        let mut c = 0u8;
        while self.p < self.s.len() {
            c = self.s[self.p];
            if c == b':' || c == b']' {
                break;
            }
            self.p += crate::string::char_len_at(self.s, self.p);
            i += 1;
            if i > 20 {
                break;
            }
        }
        if c == b':' && self.p < self.s.len() {
            self.p += 1;
            if self.p < self.s.len() && self.s[self.p] == b']' {
                return Err("invalid POSIX bracket type".to_string());
            }
        }
        Ok(false)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CcState {
    Value,
    Range,
    Complete,
    Start,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CcTok {
    Char(u32),
    Class,
    Range,
    Close,
    And,
    Open,
    End,
}

/// str_exist_check_with_esc(":]", from, end, bad = ']')
fn str_exist_check_with_esc(s: &[u8], from: usize) -> bool {
    let mut in_esc = false;
    let mut p = from;
    while p < s.len() {
        if in_esc {
            in_esc = false;
        } else if s[p] == b':' {
            if s.get(p + 1) == Some(&b']') {
                return true;
            }
        } else if s[p] == b']' {
            return false;
        } else if s[p] == b'\\' {
            in_esc = true;
        }
        p += crate::string::char_len_at(s, p);
    }
    false
}

/// The Unicode property names Ruby 3.1's Onigmo knows (gperf keys: lower case, without
/// spaces, `-` or `_`), taken from libruby and checked one by one with `Regexp.new`.
const PROPERTY_NAMES: &str = "\
    adlam adlm age=1.1 age=10.0 age=11.0 age=12.0 age=12.1 age=13.0 age=2.0 age=2.1 age=3.0 \
    age=3.1 age=3.2 age=4.0 age=4.1 age=5.0 age=5.1 age=5.2 age=6.0 age=6.1 age=6.2 age=6.3 \
    age=7.0 age=8.0 age=9.0 aghb ahex ahom alnum alpha alphabetic anatolianhieroglyphs any arab \
    arabic armenian armi armn ascii asciihexdigit assigned avestan avst bali balinese bamu bamum \
    bass bassavah batak batk beng bengali bhaiksuki bhks bidic bidicontrol blank bopo bopomofo \
    brah brahmi brai braille bugi buginese buhd buhid c cakm canadianaboriginal cans cari carian \
    cased casedletter caseignorable caucasianalbanian cc cf chakma cham changeswhencasefolded \
    changeswhencasemapped changeswhenlowercased changeswhentitlecased changeswhenuppercased cher \
    cherokee chorasmian chrs ci closepunctuation cn cntrl co combiningmark common \
    connectorpunctuation control copt coptic cprt cs cuneiform currencysymbol cwcf cwcm cwl cwt \
    cwu cypriot cyrillic cyrl dash dashpunctuation decimalnumber defaultignorablecodepoint dep \
    deprecated deseret deva devanagari di dia diacritic diak digit divesakuru dogr dogra dsrt \
    dupl duployan ebase ecomp egyp egyptianhieroglyphs elba elbasan elym elymaic emod emoji \
    emojicomponent emojimodifier emojimodifierbase emojipresentation enclosingmark epres ethi \
    ethiopic ext extendedpictographic extender extpict finalpunctuation format geor georgian \
    glag glagolitic gong gonm goth gothic gran grantha graph graphemebase \
    graphemeclusterbreak=control graphemeclusterbreak=cr graphemeclusterbreak=extend \
    graphemeclusterbreak=l graphemeclusterbreak=lf graphemeclusterbreak=lv \
    graphemeclusterbreak=lvt graphemeclusterbreak=prepend graphemeclusterbreak=regionalindicator \
    graphemeclusterbreak=spacingmark graphemeclusterbreak=t graphemeclusterbreak=v \
    graphemeclusterbreak=zwj graphemeextend graphemelink grbase greek grek grext grlink gujarati \
    gujr gunjalagondi gurmukhi guru han hang hangul hani hanifirohingya hano hanunoo hatr hatran \
    hebr hebrew hex hexdigit hira hiragana hluw hmng hmnp hung hyphen idc idcontinue ideo \
    ideographic ids idsb idsbinaryoperator idst idstart idstrinaryoperator imperialaramaic \
    inadlam inaegeannumbers inahom inalchemicalsymbols inalphabeticpresentationforms \
    inanatolianhieroglyphs inancientgreekmusicalnotation inancientgreeknumbers inancientsymbols \
    inarabic inarabicextendeda inarabicmathematicalalphabeticsymbols inarabicpresentationformsa \
    inarabicpresentationformsb inarabicsupplement inarmenian inarrows inavestan inbalinese \
    inbamum inbamumsupplement inbasiclatin inbassavah inbatak inbengali inbhaiksuki \
    inblockelements inbopomofo inbopomofoextended inboxdrawing inbrahmi inbraillepatterns \
    inbuginese inbuhid inbyzantinemusicalsymbols incarian incaucasianalbanian inchakma incham \
    incherokee incherokeesupplement inchesssymbols inchorasmian incjkcompatibility \
    incjkcompatibilityforms incjkcompatibilityideographs incjkcompatibilityideographssupplement \
    incjkradicalssupplement incjkstrokes incjksymbolsandpunctuation incjkunifiedideographs \
    incjkunifiedideographsextensiona incjkunifiedideographsextensionb \
    incjkunifiedideographsextensionc incjkunifiedideographsextensiond \
    incjkunifiedideographsextensione incjkunifiedideographsextensionf \
    incjkunifiedideographsextensiong incombiningdiacriticalmarks \
    incombiningdiacriticalmarksextended incombiningdiacriticalmarksforsymbols \
    incombiningdiacriticalmarkssupplement incombininghalfmarks incommonindicnumberforms \
    incontrolpictures incoptic incopticepactnumbers incountingrodnumerals incuneiform \
    incuneiformnumbersandpunctuation incurrencysymbols incypriotsyllabary incyrillic \
    incyrillicextendeda incyrillicextendedb incyrillicextendedc incyrillicsupplement indeseret \
    indevanagari indevanagariextended indingbats indivesakuru indogra indominotiles induployan \
    inearlydynasticcuneiform inegyptianhieroglyphformatcontrols inegyptianhieroglyphs inelbasan \
    inelymaic inemoticons inenclosedalphanumerics inenclosedalphanumericsupplement \
    inenclosedcjklettersandmonths inenclosedideographicsupplement inethiopic inethiopicextended \
    inethiopicextendeda inethiopicsupplement ingeneralpunctuation ingeometricshapes \
    ingeometricshapesextended ingeorgian ingeorgianextended ingeorgiansupplement inglagolitic \
    inglagoliticsupplement ingothic ingrantha ingreekandcoptic ingreekextended ingujarati \
    ingunjalagondi ingurmukhi inhalfwidthandfullwidthforms inhangulcompatibilityjamo \
    inhanguljamo inhanguljamoextendeda inhanguljamoextendedb inhangulsyllables inhanifirohingya \
    inhanunoo inhatran inhebrew inherited inhighprivateusesurrogates inhighsurrogates inhiragana \
    inideographicdescriptioncharacters inideographicsymbolsandpunctuation inimperialaramaic \
    inindicsiyaqnumbers ininscriptionalpahlavi ininscriptionalparthian inipaextensions \
    initialpunctuation injavanese inkaithi inkanaextendeda inkanasupplement inkanbun \
    inkangxiradicals inkannada inkatakana inkatakanaphoneticextensions inkayahli inkharoshthi \
    inkhitansmallscript inkhmer inkhmersymbols inkhojki inkhudawadi inlao inlatin1supplement \
    inlatinextendeda inlatinextendedadditional inlatinextendedb inlatinextendedc \
    inlatinextendedd inlatinextendede inlepcha inletterlikesymbols inlimbu inlineara \
    inlinearbideograms inlinearbsyllabary inlisu inlisusupplement inlowsurrogates inlycian \
    inlydian inmahajani inmahjongtiles inmakasar inmalayalam inmandaic inmanichaean inmarchen \
    inmasaramgondi inmathematicalalphanumericsymbols inmathematicaloperators inmayannumerals \
    inmedefaidrin inmeeteimayek inmeeteimayekextensions inmendekikakui inmeroiticcursive \
    inmeroitichieroglyphs inmiao inmiscellaneousmathematicalsymbolsa \
    inmiscellaneousmathematicalsymbolsb inmiscellaneoussymbols inmiscellaneoussymbolsandarrows \
    inmiscellaneoussymbolsandpictographs inmiscellaneoustechnical inmodi inmodifiertoneletters \
    inmongolian inmongoliansupplement inmro inmultani inmusicalsymbols inmyanmar \
    inmyanmarextendeda inmyanmarextendedb innabataean innandinagari innewa innewtailue innko \
    innoblock innumberforms innushu innyiakengpuachuehmong inogham inolchiki inoldhungarian \
    inolditalic inoldnortharabian inoldpermic inoldpersian inoldsogdian inoldsoutharabian \
    inoldturkic inopticalcharacterrecognition inoriya inornamentaldingbats inosage inosmanya \
    inottomansiyaqnumbers inpahawhhmong inpalmyrene inpaucinhau inphagspa inphaistosdisc \
    inphoenician inphoneticextensions inphoneticextensionssupplement inplayingcards \
    inprivateusearea inpsalterpahlavi inrejang inruminumeralsymbols inrunic insamaritan \
    insaurashtra inscriptionalpahlavi inscriptionalparthian insharada inshavian \
    inshorthandformatcontrols insiddham insinhala insinhalaarchaicnumbers insmallformvariants \
    insmallkanaextension insogdian insorasompeng insoyombo inspacingmodifierletters inspecials \
    insundanese insundanesesupplement insuperscriptsandsubscripts insupplementalarrowsa \
    insupplementalarrowsb insupplementalarrowsc insupplementalmathematicaloperators \
    insupplementalpunctuation insupplementalsymbolsandpictographs insupplementaryprivateuseareaa \
    insupplementaryprivateuseareab insuttonsignwriting insylotinagri \
    insymbolsandpictographsextendeda insymbolsforlegacycomputing insyriac insyriacsupplement \
    intagalog intagbanwa intags intaile intaitham intaiviet intaixuanjingsymbols intakri intamil \
    intamilsupplement intangut intangutcomponents intangutsupplement intelugu inthaana inthai \
    intibetan intifinagh intirhuta intransportandmapsymbols inugaritic \
    inunifiedcanadianaboriginalsyllabics inunifiedcanadianaboriginalsyllabicsextended invai \
    invariationselectors invariationselectorssupplement invedicextensions inverticalforms \
    inwancho inwarangciti inyezidi inyijinghexagramsymbols inyiradicals inyisyllables \
    inzanabazarsquare ital java javanese joinc joincontrol kaithi kali kana kannada katakana \
    kayahli khar kharoshthi khitansmallscript khmer khmr khoj khojki khudawadi kits knda kthi l \
    lana lao laoo latin latn lc lepc lepcha letter letternumber limb limbu lina linb lineara \
    linearb lineseparator lisu ll lm lo loe logicalorderexception lower lowercase \
    lowercaseletter lt lu lyci lycian lydi lydian m mahajani mahj maka makasar malayalam mand \
    mandaic mani manichaean marc marchen mark masaramgondi math mathsymbol mc me medefaidrin \
    medf meeteimayek mend mendekikakui merc mero meroiticcursive meroitichieroglyphs miao mlym \
    mn modi modifierletter modifiersymbol mong mongolian mro mroo mtei mult multani myanmar mymr \
    n nabataean nand nandinagari narb nbat nchar nd newa newtailue nko nkoo nl no \
    noncharactercodepoint nonspacingmark nshu number nushu nyiakengpuachuehmong oalpha odi ogam \
    ogham ogrext oidc oids olchiki olck oldhungarian olditalic oldnortharabian oldpermic \
    oldpersian oldsogdian oldsoutharabian oldturkic olower omath openpunctuation oriya orkh orya \
    osage osge osma osmanya other otheralphabetic otherdefaultignorablecodepoint \
    othergraphemeextend otheridcontinue otheridstart otherletter otherlowercase othermath \
    othernumber otherpunctuation othersymbol otheruppercase oupper p pahawhhmong palm palmyrene \
    paragraphseparator patsyn patternsyntax patternwhitespace patws pauc paucinhau pc pcm pd pe \
    perm pf phag phagspa phli phlp phnx phoenician pi plrd po prependedconcatenationmark print \
    privateuse prti ps psalterpahlavi punct punctuation qaac qaai qmark quotationmark radical \
    regionalindicator rejang ri rjng rohg runic runr s samaritan samr sarb saur saurashtra sc sd \
    sentenceterminal separator sgnw sharada shavian shaw shrd sidd siddham signwriting sind sinh \
    sinhala sk sm so softdotted sogd sogdian sogo sora sorasompeng soyo soyombo space \
    spaceseparator spacingmark sterm sund sundanese surrogate sylo sylotinagri symbol syrc \
    syriac tagalog tagb tagbanwa taile taitham taiviet takr takri tale talu tamil taml tang \
    tangut tavt telu telugu term terminalpunctuation tfng tglg thaa thaana thai tibetan tibt \
    tifinagh tirh tirhuta titlecaseletter ugar ugaritic uideo unassigned unifiedideograph \
    unknown upper uppercase uppercaseletter vai vaii variationselector vs wancho wara warangciti \
    wcho whitespace word wspace xdigit xidc xidcontinue xids xidstart xpeo xposixpunct xsux yezi \
    yezidi yi yiii z zanabazarsquare zanb zinh zl zp zs zyyy zzzz";

/// onigenc_unicode_property_name_to_ctype: case, spaces, `-` and `_` do not count.
fn is_property_name(name: &[u8]) -> bool {
    let mut key = Vec::new();
    for &b in name {
        match b {
            b' ' | b'-' | b'_' => {}
            0x80.. => return false,
            _ => key.push(b.to_ascii_lowercase()),
        }
    }
    !key.is_empty() && PROPERTY_NAMES.split(' ').any(|n| n.as_bytes() == key.as_slice())
}

fn branch_len(f: &Frame) -> Len {
    if f.atoms == 1 && f.single == Len::TopAlt {
        Len::TopAlt
    } else {
        f.cur
    }
}
