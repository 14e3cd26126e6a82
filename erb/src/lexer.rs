//! Ruby's tokens, for the code of a template's tags. Ruby's lexer depends on what came
//! before: whether `/` starts a regexp or divides, whether `%w[` is a literal or a modulo,
//! whether a newline ends the statement. [`Lexer`] keeps that state the way Ruby does for
//! the code templates contain, and marks each token with the space before it (the parser
//! needs it for `foo [1]` against `foo[1]` and `foo -1` against `foo - 1`).

use std::rc::Rc;

use crate::error::{Error, Result};

/// A token and where it starts (a byte offset into the template).
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub at: usize,
    /// Whether spaces (not newlines) come right before it.
    pub space_before: bool,
}

/// A part of a string literal: text, or code interpolated with `#{...}` (or `#@var`).
#[derive(Debug, Clone, PartialEq)]
pub enum StrPart {
    Lit(String),
    Code(Vec<Token>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Int(i64),
    Float(f64),
    /// A string literal (parts, for interpolation); `"..."`, `'...'`, `%q`, `%Q`, `%()`.
    Str(Vec<StrPart>),
    /// `:name`, `:"name"`.
    Sym(Vec<StrPart>),
    /// `/source/flags`, `%r{source}flags`.
    Regexp(Vec<StrPart>, String),
    /// `%w[...]` (strings) and `%i[...]` (symbols).
    Words(Vec<String>, bool),
    /// A name: a local variable or a method (`empty?`, `sort!` included).
    Ident(Rc<str>),
    /// A name with a capital first letter.
    Const(Rc<str>),
    /// `@name`.
    IVar(Rc<str>),
    /// `$name`, `$~`, `$1`.
    GVar(Rc<str>),
    /// `name:` in a hash or an argument list.
    Label(Rc<str>),
    Kw(&'static str),
    /// Operators and punctuation.
    Op(&'static str),
    /// A statement's end: a newline or `;`.
    Term,
    /// ERB: text to write.
    Text(Rc<str>),
    /// ERB: `<%=` and its `%>`.
    InsertOpen,
    InsertClose,
    Eof,
}

const KEYWORDS: &[&str] = &[
    "BEGIN",
    "END",
    "__ENCODING__",
    "__FILE__",
    "__LINE__",
    "alias",
    "and",
    "begin",
    "break",
    "case",
    "class",
    "def",
    "defined?",
    "do",
    "else",
    "elsif",
    "end",
    "ensure",
    "false",
    "for",
    "if",
    "in",
    "module",
    "next",
    "nil",
    "not",
    "or",
    "redo",
    "rescue",
    "retry",
    "return",
    "self",
    "super",
    "then",
    "true",
    "undef",
    "unless",
    "until",
    "when",
    "while",
    "yield",
];

/// Operators, longest first.
const OPS: &[&str] = &[
    "**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=", "&.", "**", "==", "!=", ">=", "<=", "&&", "||", "<<", ">>",
    "=~", "!~", "..", "::", "=>", "->", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "+", "-", "*", "/", "%", "=",
    "<", ">", "!", "&", "|", "^", "~", "?", ":", ",", ".", "(", ")", "[", "]", "{", "}",
];

/// The lexer over one tag's code (`text[pos..end]`), or a string's interpolation.
pub struct Lexer<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    end: usize,
    out: Vec<Token>,
    /// Nesting of `{` in an interpolation: its `}` ends it at depth 0.
    brace_depth: usize,
    /// A heredoc's body follows the line it starts on: at that line's end, lexing resumes
    /// after the body (the newline's offset, where to resume).
    heredoc_skip: Option<(usize, usize)>,
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str, pos: usize, end: usize) -> Lexer<'a> {
        Lexer { text, b: text.as_bytes(), pos, end, out: Vec::new(), brace_depth: 0, heredoc_skip: None }
    }

    /// The tokens of the code (without a final `Eof`).
    pub fn tokens(mut self) -> Result<Vec<Token>> {
        self.run(false)?;
        Ok(self.out)
    }

    fn peek(&self, k: usize) -> u8 {
        if self.pos + k < self.end {
            self.b[self.pos + k]
        } else {
            0
        }
    }

    fn push(&mut self, tok: Tok, at: usize, space_before: bool) {
        self.out.push(Token { tok, at, space_before });
    }

    /// Whether the last token ends a value, so that what follows is an operator (`a / b`)
    /// rather than the start of an operand (`(/a/`).
    fn after_value(&self) -> bool {
        match self.out.last().map(|t| &t.tok) {
            None | Some(Tok::Term) => false,
            Some(Tok::Op(op)) => matches!(*op, ")" | "]" | "}"),
            Some(Tok::Kw(k)) => matches!(*k, "end" | "self" | "true" | "false" | "nil"),
            Some(Tok::Label(_)) => false,
            _ => true,
        }
    }

    /// Whether the last token is a name that may be a method taking a command argument:
    /// `puts /x/` and `foo -1` read the operator as the argument's start when a space comes
    /// before it and none after.
    fn after_command_name(&self, space_before: bool) -> bool {
        space_before && matches!(self.out.last().map(|t| &t.tok), Some(Tok::Ident(_)))
    }

    /// Lexes until the end, or (in an interpolation) until the `}` closing it.
    fn run(&mut self, interpolation: bool) -> Result<()> {
        loop {
            let mut space = false;
            // spaces, comments, line continuations
            loop {
                match self.peek(0) {
                    b' ' | b'\t' | b'\r' => {
                        self.pos += 1;
                        space = true;
                    }
                    b'\\' if self.peek(1) == b'\n' => {
                        self.pos += 2;
                        space = true;
                    }
                    b'#' => {
                        while self.pos < self.end && self.b[self.pos] != b'\n' {
                            self.pos += 1;
                        }
                    }
                    _ => break,
                }
            }
            if self.pos >= self.end {
                if interpolation {
                    return Err(Error::syntax("unterminated string meets end of file", self.pos));
                }
                return Ok(());
            }
            let at = self.pos;
            let c = self.b[self.pos];
            if c == b'\n' || c == b';' {
                self.pos += 1;
                self.newline(at);
                if let Some((line_end, resume)) = self.heredoc_skip {
                    if c == b'\n' && at == line_end {
                        self.pos = resume;
                        self.heredoc_skip = None;
                    }
                }
                continue;
            }
            if interpolation && c == b'}' && self.brace_depth == 0 {
                self.pos += 1;
                return Ok(());
            }
            self.token(c, at, space)?;
        }
    }

    /// A newline or `;`: a statement's end, unless the statement cannot end here (after an
    /// operator or a comma) or the next line continues it (`.method`).
    fn newline(&mut self, at: usize) {
        let continues = match self.out.last().map(|t| &t.tok) {
            None | Some(Tok::Term) => true,
            Some(Tok::Op(op)) => !matches!(*op, ")" | "]" | "}"),
            Some(Tok::Kw(k)) => matches!(*k, "and" | "or" | "not"),
            _ => false,
        };
        if continues || self.next_line_continues() {
            return;
        }
        self.push(Tok::Term, at, false);
    }

    /// Whether the next non-blank line starts with `.` or `&.` (a method chain).
    fn next_line_continues(&self) -> bool {
        let mut i = self.pos;
        while i < self.end {
            match self.b[i] {
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b'.' => return self.b.get(i + 1) != Some(&b'.'),
                b'&' => return self.b.get(i + 1) == Some(&b'.'),
                _ => return false,
            }
        }
        false
    }

    fn token(&mut self, c: u8, at: usize, space: bool) -> Result<()> {
        let value_before = self.after_value();
        let command_arg = self.after_command_name(space) && !matches!(self.peek(1), b' ' | b'=' | b'\n');
        match c {
            b'0'..=b'9' => {
                let tok = self.number()?;
                self.push(tok, at, space);
            }
            b'"' | b'`' => {
                self.pos += 1;
                let parts = self.string_body(c, c, Body::Double)?;
                self.push(Tok::Str(parts), at, space);
            }
            b'\'' => {
                self.pos += 1;
                let parts = self.string_body(b'\'', b'\'', Body::Single)?;
                self.push(Tok::Str(parts), at, space);
            }
            b'@' => {
                if self.peek(1) == b'@' {
                    return Err(Error::unsupported("class variables (`@@name`)", at));
                }
                self.pos += 1;
                let name = self.name();
                if name.is_empty() {
                    return Err(Error::syntax(
                        "`@' without identifiers is not allowed as an instance variable name",
                        at,
                    ));
                }
                self.push(Tok::IVar(name.into()), at, space);
            }
            b'$' => {
                self.pos += 1;
                let name = match self.peek(0) {
                    b'~' | b'!' | b'&' | b'`' | b'\'' | b'+' | b'0' | b'/' | b'\\' | b';' | b',' | b'.' | b'<'
                    | b'>' | b'_' | b'*' | b'$' | b'?' | b':' | b'"'
                        if !self.peek(1).is_ascii_alphanumeric() || self.peek(0) != b'_' =>
                    {
                        self.pos += 1;
                        self.text[at + 1..self.pos].to_string()
                    }
                    b'1'..=b'9' => {
                        while self.peek(0).is_ascii_digit() {
                            self.pos += 1;
                        }
                        self.text[at + 1..self.pos].to_string()
                    }
                    _ => self.name(),
                };
                self.push(Tok::GVar(name.into()), at, space);
            }
            b':' if self.peek(1) == b'"' => {
                self.pos += 2;
                let parts = self.string_body(b'"', b'"', Body::Double)?;
                self.push(Tok::Sym(parts), at, space);
            }
            b':' if self.peek(1) == b'\'' => {
                self.pos += 2;
                let parts = self.string_body(b'\'', b'\'', Body::Single)?;
                self.push(Tok::Sym(parts), at, space);
            }
            b':' if self.peek(1) == b'@' && (self.peek(2).is_ascii_alphabetic() || self.peek(2) == b'_') => {
                // `:@name`
                self.pos += 2;
                let name = format!("@{}", self.name());
                self.push(Tok::Sym(vec![StrPart::Lit(name)]), at, space);
            }
            b':' if self.peek(1) != b':'
                && (self.peek(1).is_ascii_alphabetic() || self.peek(1) == b'_' || self.peek(1) >= 0x80)
                && (!value_before || space) =>
            {
                self.pos += 1;
                let mut name = self.name();
                if matches!(self.peek(0), b'?' | b'!' | b'=') && self.peek(1) != b'=' {
                    name.push(self.peek(0) as char);
                    self.pos += 1;
                }
                self.push(Tok::Sym(vec![StrPart::Lit(name)]), at, space);
            }
            b':' if !value_before
                || self.peek(1) == b'['
                || (self.peek(1) != b':' && self.peek(1) != b' ' && self.operator_symbol().is_some()) =>
            {
                // an operator's symbol: `:+`, `:<=>`, `:[]`
                if let Some(op) = self.operator_symbol() {
                    self.pos += 1 + op.len();
                    self.push(Tok::Sym(vec![StrPart::Lit(op.into())]), at, space);
                } else {
                    self.op(at, space)?;
                }
            }
            b'/' if !value_before || command_arg => {
                self.pos += 1;
                let parts = self.string_body(b'/', b'/', Body::Regexp)?;
                let flags = self.regexp_flags();
                self.push(Tok::Regexp(parts, flags), at, space);
            }
            b'%' if (!value_before || command_arg) && self.percent_literal(at, space)? => {}
            b'?' if !value_before && self.peek(1).is_ascii_graphic() && !self.peek(2).is_ascii_alphanumeric() => {
                // a character literal: `?a`
                let ch = self.text[at + 1..at + 2].to_string();
                self.pos += 2;
                self.push(Tok::Str(vec![StrPart::Lit(ch)]), at, space);
            }
            b'<' if self.peek(1) == b'<'
                && matches!(self.peek(2), b'~' | b'-' | b'A'..=b'Z' | b'"' | b'\'')
                && (!value_before || command_arg) =>
            {
                let tok = self.heredoc(at)?;
                self.push(tok, at, space);
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => self.word(at, space, value_before),
            _ => self.op(at, space)?,
        }
        Ok(())
    }

    /// A heredoc (`<<~NAME`, `<<-NAME`, `<<NAME`, the name quoted to say how the body
    /// reads): its body is the lines after this one up to the name's line, `~` removing
    /// their common indentation.
    fn heredoc(&mut self, at: usize) -> Result<Tok> {
        self.pos += 2;
        let kind = match self.peek(0) {
            k @ (b'~' | b'-') => {
                self.pos += 1;
                k
            }
            _ => b' ',
        };
        let quote = match self.peek(0) {
            q @ (b'\'' | b'"') => {
                self.pos += 1;
                Some(q)
            }
            _ => None,
        };
        let name_start = self.pos;
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        let name = self.text[name_start..self.pos].to_string();
        if name.is_empty() {
            return Err(Error::syntax("syntax error, unexpected <<", at));
        }
        if let Some(q) = quote {
            if self.peek(0) != q {
                return Err(Error::syntax("unterminated here document identifier", at));
            }
            self.pos += 1;
        }
        if self.heredoc_skip.is_some() {
            return Err(Error::unsupported("two heredocs starting on one line", at));
        }
        // the body: the lines after this one, to the line holding only the name
        let line_end = self.text[self.pos..self.end].find('\n').map(|i| self.pos + i);
        let Some(line_end) = line_end else {
            return Err(Error::syntax(format!("can't find string \"{name}\" anywhere before EOF"), at));
        };
        let mut line_start = line_end + 1;
        let mut body_lines: Vec<&str> = Vec::new();
        let resume = loop {
            if line_start > self.end {
                return Err(Error::syntax(format!("can't find string \"{name}\" anywhere before EOF"), at));
            }
            let next = self.text[line_start..self.end].find('\n').map_or(self.end, |i| line_start + i);
            let line = &self.text[line_start..next];
            let content = line.trim_end_matches('\r');
            let is_end = if kind == b' ' { content == name } else { content.trim_start() == name };
            if is_end {
                break next;
            }
            body_lines.push(&self.text[line_start..(next + 1).min(self.end)]);
            line_start = next + 1;
        };
        self.heredoc_skip = Some((line_end, resume));
        let mut body: String = body_lines.concat();
        if kind == b'~' {
            body = dedent(&body);
        }
        if quote == Some(b'\'') {
            return Ok(Tok::Str(vec![StrPart::Lit(body)]));
        }
        let mut inner = Lexer::new(&body, 0, body.len());
        let parts = inner.string_body(0, 0, Body::Double)?;
        Ok(Tok::Str(parts))
    }

    fn op(&mut self, at: usize, space: bool) -> Result<()> {
        let rest = &self.b[self.pos..self.end];
        let Some(op) = OPS.iter().find(|op| rest.starts_with(op.as_bytes())) else {
            let ch = self.text[self.pos..].chars().next().unwrap_or('?');
            return Err(Error::syntax(format!("Invalid char `{ch}' in expression"), at));
        };
        self.pos += op.len();
        match *op {
            "{" => self.brace_depth += 1,
            "}" => self.brace_depth = self.brace_depth.saturating_sub(1),
            _ => {}
        }
        self.push(Tok::Op(op), at, space);
        Ok(())
    }

    /// The operator after a `:` that makes a symbol of it (`:+`, `:[]`, `:<=>`).
    fn operator_symbol(&self) -> Option<&'static str> {
        const SYMBOL_OPS: &[&str] = &[
            "[]=", "[]", "<=>", "===", "==", "=~", "!=", "!~", "<=", ">=", "<<", ">>", "**", "+", "-", "*", "/", "%",
            "<", ">", "!", "&", "|", "^", "~",
        ];
        let rest = &self.b[self.pos + 1..self.end];
        SYMBOL_OPS.iter().find(|op| rest.starts_with(op.as_bytes())).copied()
    }

    /// An identifier's characters (letters, digits, `_`, any non-ASCII character).
    fn name(&mut self) -> String {
        let start = self.pos;
        while self.pos < self.end {
            let c = self.b[self.pos];
            if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.text[start..self.pos].to_string()
    }

    fn word(&mut self, at: usize, space: bool, value_before: bool) {
        let mut name = self.name();
        let after_dot = matches!(self.out.last().map(|t| &t.tok), Some(Tok::Op("." | "&." | "::")))
            && !matches!(self.out.last().map(|t| &t.tok), Some(Tok::Op("::")) if name.starts_with(char::is_uppercase));
        // `empty?`, `sort!` (not `a!=b`, `x ? y : z` after a value with a space)
        if matches!(self.peek(0), b'?' | b'!')
            && !(self.peek(1) == b'=' && self.peek(2) != b'=' && self.peek(2) != b'~')
        {
            let question = self.peek(0) == b'?';
            if !question || after_dot || !matches!(self.peek(1), b' ' | b'\n' | b'\t') {
                name.push(self.peek(0) as char);
                self.pos += 1;
            }
        }
        // a label: `key: value` (not `a ? b : c`, not `A::B`)
        if self.peek(0) == b':' && self.peek(1) != b':' && !name.ends_with('?') && !after_dot {
            let ternary_branch =
                self.out.iter().rev().take_while(|t| t.tok != Tok::Term).any(|t| t.tok == Tok::Op("?"));
            if !ternary_branch {
                self.pos += 1;
                self.push(Tok::Label(name.into()), at, space);
                return;
            }
        }
        if name == "defined" && self.peek(0) == b'?' {
            self.pos += 1;
            name.push('?');
        }
        let keyword = !after_dot && KEYWORDS.contains(&name.as_str());
        let _ = value_before;
        if keyword {
            let kw = KEYWORDS.iter().find(|k| **k == name).copied().unwrap_or("nil");
            self.push(Tok::Kw(kw), at, space);
        } else if name.starts_with(|c: char| c.is_ascii_uppercase()) && !after_dot {
            self.push(Tok::Const(name.into()), at, space);
        } else {
            self.push(Tok::Ident(name.into()), at, space);
        }
    }

    fn number(&mut self) -> Result<Tok> {
        let start = self.pos;
        let radix = if self.peek(0) == b'0' {
            match self.peek(1) {
                b'x' | b'X' => 16,
                b'b' | b'B' => 2,
                b'o' | b'O' => 8,
                b'd' | b'D' => 10,
                b'0'..=b'9' | b'_' => 8,
                _ => 10,
            }
        } else {
            10
        };
        if radix != 10 || matches!(self.peek(1), b'd' | b'D') && self.peek(0) == b'0' {
            self.pos += if matches!(self.peek(1), b'0'..=b'9' | b'_') { 1 } else { 2 };
            let digits_at = self.pos;
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            let digits: String = self.text[digits_at..self.pos].chars().filter(|c| *c != '_').collect();
            return i64::from_str_radix(&digits, radix)
                .map(Tok::Int)
                .map_err(|_| Error::unsupported_or_syntax(&digits, start));
        }
        while self.peek(0).is_ascii_digit() || self.peek(0) == b'_' && self.peek(1).is_ascii_digit() {
            self.pos += 1;
        }
        let mut float = false;
        if self.peek(0) == b'.' && self.peek(1).is_ascii_digit() {
            float = true;
            self.pos += 1;
            while self.peek(0).is_ascii_digit() || self.peek(0) == b'_' && self.peek(1).is_ascii_digit() {
                self.pos += 1;
            }
        }
        if matches!(self.peek(0), b'e' | b'E')
            && (self.peek(1).is_ascii_digit() || matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit())
        {
            float = true;
            self.pos += 2;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        let src: String = self.text[start..self.pos].chars().filter(|c| *c != '_').collect();
        if self.peek(0).is_ascii_alphabetic() && !float && matches!(self.peek(0), b'r' | b'i') {
            return Err(Error::unsupported("rational and imaginary numbers", start));
        }
        if float {
            return src.parse().map(Tok::Float).map_err(|_| Error::syntax("invalid number", start));
        }
        src.parse().map(Tok::Int).map_err(|_| Error::unsupported("integers beyond 64 bits", start))
    }

    fn regexp_flags(&mut self) -> String {
        let start = self.pos;
        while matches!(self.peek(0), b'i' | b'm' | b'x' | b'o' | b'n' | b'e' | b's' | b'u') {
            self.pos += 1;
        }
        self.text[start..self.pos].to_string()
    }

    /// `%w[]`, `%i[]`, `%q()`, `%Q{}`, `%()`, `%r{}`: whether one starts here (it is lexed).
    fn percent_literal(&mut self, at: usize, space: bool) -> Result<bool> {
        let (kind, open) = match self.peek(1) {
            k @ (b'w' | b'W' | b'i' | b'I' | b'q' | b'Q' | b'r') if is_delimiter(self.peek(2)) => (k, self.peek(2)),
            d if is_delimiter(d) && d != b'=' => (b'Q', d),
            _ => return Ok(false),
        };
        self.pos += if self.peek(1) == open && kind == b'Q' && !self.peek(1).is_ascii_alphabetic() { 2 } else { 3 };
        let close = match open {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            b'<' => b'>',
            d => d,
        };
        let tok = match kind {
            b'w' | b'W' | b'i' | b'I' => {
                let body = if matches!(kind, b'W' | b'I') { Body::Double } else { Body::Single };
                let parts = self.string_body(open, close, body)?;
                if parts.iter().any(|p| matches!(p, StrPart::Code(_))) {
                    return Err(Error::unsupported("interpolation in `%W[]` and `%I[]`", at));
                }
                let text: String = parts
                    .into_iter()
                    .map(|p| match p {
                        StrPart::Lit(s) => s,
                        StrPart::Code(_) => String::new(),
                    })
                    .collect();
                Tok::Words(text.split_whitespace().map(str::to_string).collect(), matches!(kind, b'i' | b'I'))
            }
            b'q' => Tok::Str(self.string_body(open, close, Body::Single)?),
            b'r' => {
                let parts = self.string_body(open, close, Body::Regexp)?;
                Tok::Regexp(parts, self.regexp_flags())
            }
            _ => Tok::Str(self.string_body(open, close, Body::Double)?),
        };
        self.push(tok, at, space);
        Ok(true)
    }

    /// A string's body up to its closing delimiter (the position is after the opening one):
    /// its text with escapes applied and, unless single-quoted, its `#{...}` code. A
    /// regexp's body keeps its escapes for the regexp engine.
    fn string_body(&mut self, open: u8, close: u8, body: Body) -> Result<Vec<StrPart>> {
        let start = self.pos;
        let regexp = body == Body::Regexp;
        let interpolate = body != Body::Single;
        let mut parts = Vec::new();
        let mut lit = String::new();
        let mut depth = 0usize;
        loop {
            if self.pos >= self.end {
                // a heredoc's body ends where its text does
                if close == 0 {
                    break;
                }
                return Err(Error::syntax("unterminated string meets end of file", start));
            }
            let c = self.b[self.pos];
            if c == close && depth == 0 && close != 0 {
                self.pos += 1;
                break;
            }
            if open != close {
                if c == open {
                    depth += 1;
                } else if c == close {
                    depth -= 1;
                }
            }
            if c == b'\\' {
                let next = self.peek(1);
                if regexp {
                    // a regexp keeps its escapes, except of its delimiter
                    if next == close && close == b'/' {
                        lit.push('/');
                        self.pos += 1;
                    } else {
                        lit.push('\\');
                        if let Some(ch) = self.text[self.pos + 1..].chars().next() {
                            lit.push(ch);
                            self.pos += ch.len_utf8();
                        }
                    }
                    self.pos += 1;
                    continue;
                }
                if !interpolate {
                    // '...': only \\ and \' (or the delimiters) are escapes
                    if next == b'\\' || next == close || next == open {
                        lit.push(next as char);
                        self.pos += 2;
                    } else {
                        lit.push('\\');
                        self.pos += 1;
                    }
                    continue;
                }
                self.pos += 1;
                self.escape(&mut lit, start)?;
                continue;
            }
            if interpolate && c == b'#' {
                match self.peek(1) {
                    b'{' => {
                        if !lit.is_empty() {
                            parts.push(StrPart::Lit(std::mem::take(&mut lit)));
                        }
                        let mut inner = Lexer::new(self.text, self.pos + 2, self.end);
                        inner.run(true)?;
                        self.pos = inner.pos;
                        parts.push(StrPart::Code(inner.out));
                        continue;
                    }
                    b'@' | b'$' if self.peek(2).is_ascii_alphabetic() || self.peek(2) == b'_' => {
                        if !lit.is_empty() {
                            parts.push(StrPart::Lit(std::mem::take(&mut lit)));
                        }
                        let at = self.pos + 1;
                        self.pos += 2;
                        let name = self.name();
                        let tok = if self.b[at] == b'@' { Tok::IVar(name.into()) } else { Tok::GVar(name.into()) };
                        parts.push(StrPart::Code(vec![Token { tok, at, space_before: false }]));
                        continue;
                    }
                    _ => {}
                }
            }
            let ch = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
            lit.push(ch);
            self.pos += ch.len_utf8();
        }
        if !lit.is_empty() || parts.is_empty() {
            parts.push(StrPart::Lit(lit));
        }
        Ok(parts)
    }

    /// A backslash escape of a double-quoted string (the position is after the backslash).
    fn escape(&mut self, lit: &mut String, start: usize) -> Result<()> {
        let c = self.peek(0);
        self.pos += 1;
        let simple = match c {
            b'n' => Some('\n'),
            b't' => Some('\t'),
            b's' => Some(' '),
            b'r' => Some('\r'),
            b'0' if !self.peek(0).is_ascii_digit() => Some('\0'),
            b'e' => Some('\u{1b}'),
            b'a' => Some('\u{7}'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'v' => Some('\u{b}'),
            b'\n' => return Ok(()),
            _ => None,
        };
        if let Some(ch) = simple {
            lit.push(ch);
            return Ok(());
        }
        match c {
            b'u' => {
                let digits: Vec<String> = if self.peek(0) == b'{' {
                    let close = self.text[self.pos..self.end]
                        .find('}')
                        .ok_or_else(|| Error::syntax("unterminated Unicode escape", start))?;
                    let inner =
                        self.text[self.pos + 1..self.pos + close].split_whitespace().map(str::to_string).collect();
                    self.pos += close + 1;
                    inner
                } else {
                    let hex =
                        self.text.get(self.pos..self.pos + 4).filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
                    let hex = hex.ok_or_else(|| Error::syntax("invalid Unicode escape", start))?.to_string();
                    self.pos += 4;
                    vec![hex]
                };
                for d in digits {
                    let ch = u32::from_str_radix(&d, 16).ok().and_then(char::from_u32);
                    lit.push(ch.ok_or_else(|| Error::syntax("invalid Unicode codepoint", start))?);
                }
            }
            b'x' => {
                let mut n = 0u32;
                let mut k = 0;
                while k < 2 && self.peek(0).is_ascii_hexdigit() {
                    n = n * 16 + (self.peek(0) as char).to_digit(16).unwrap_or(0);
                    self.pos += 1;
                    k += 1;
                }
                if k == 0 {
                    return Err(Error::syntax("invalid hex escape", start));
                }
                if n >= 0x80 {
                    return Err(Error::unsupported("byte escapes beyond ASCII (`\\x80`..)", start));
                }
                lit.push(char::from_u32(n).unwrap_or('\0'));
            }
            b'0'..=b'7' => {
                let mut n = u32::from(c - b'0');
                let mut k = 1;
                while k < 3 && matches!(self.peek(0), b'0'..=b'7') {
                    n = n * 8 + u32::from(self.peek(0) - b'0');
                    self.pos += 1;
                    k += 1;
                }
                if n >= 0x80 {
                    return Err(Error::unsupported("byte escapes beyond ASCII", start));
                }
                lit.push(char::from_u32(n).unwrap_or('\0'));
            }
            _ => {
                // any other character stands for itself
                self.pos -= 1;
                let ch = self.text[self.pos..].chars().next().unwrap_or('\\');
                self.pos += ch.len_utf8();
                lit.push(ch);
            }
        }
        Ok(())
    }
}

/// `<<~`: the lines without the indentation of the least indented one (blank lines aside).
fn dedent(body: &str) -> String {
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let min = body.split_inclusive('\n').filter(|l| !l.trim().is_empty()).map(indent).min().unwrap_or(0);
    body.split_inclusive('\n')
        .map(|l| if l.trim().is_empty() { l.trim_start_matches([' ', '\t']) } else { &l[min.min(indent(l))..] })
        .collect()
}

/// How a literal's body is read.
#[derive(Clone, Copy, PartialEq)]
enum Body {
    /// `'...'`, `%q()`, `%w[]`: only the delimiters and `\\` are escaped.
    Single,
    /// `"..."`: escapes and interpolation.
    Double,
    /// `/.../`: interpolation; escapes are the regexp engine's.
    Regexp,
}

fn is_delimiter(c: u8) -> bool {
    c.is_ascii_punctuation() && !matches!(c, b'_')
}
