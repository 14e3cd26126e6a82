//! A port of Puppet 7.23's lexer (`pops/parser/lexer2.rb` with `lexer_support.rb`,
//! `slurp_support.rb`, `interpolation_support.rb` and `heredoc_support.rb`), kept for two
//! jobs the tree-sitter grammar cannot do:
//!
//! * report Puppet's *lexical* errors with Puppet's message and position ([`lex`],
//!   [`check_encoding`]);
//! * say which Puppet token starts at a byte offset and what Puppet prints for it in
//!   `Syntax error at '…'` ([`token_at`], [`token_index_at`], [`syntax_error_message`],
//!   [`error_at`]).
//!
//! # How closely it follows Puppet
//!
//! The code follows lexer2.rb selector by selector, including the scanner state that leaks
//! into messages (`Unclosed quote after 'x'` quotes the scanner's last match), the
//! regex-versus-division rule (the previous token, as Puppet tracks it inside and outside
//! interpolations), heredocs (several per line, `newline_jump`, an end line that is any line
//! *ending* with the tag, margins, the text lexed again for `@("TAG")`), and Ruby's regular
//! expressions are reproduced by hand (leftmost match, backtracking order), so the `regex`
//! crate is not needed. Every loop moves forward; the only recursion is string nesting
//! (`"${"${…}"}"`), bounded as Ruby's stack bounds Puppet's (see `STACK_BUDGET`: Puppet
//! gives up with `stack level too deep` past about 1,480 nested strings).
//!
//! # Positions
//!
//! [`Token::start`] and [`Token::end`] are byte offsets in the source. Tokens lexed from a
//! heredoc's text are placed as Puppet's `SubLocator#to_global` places them (the offset 0 of
//! a text with a margin is the start of the margin, as in Puppet). Tokens are listed in
//! Puppet's order, which is not source order around heredocs: the tokens of a heredoc's text
//! follow its `@(…)` header.
//!
//! A diagnostic's `span.line` and `span.column` are Puppet's (line from 1, column in
//! characters from 1, a cut multibyte character counting one per byte as Ruby counts it).
//! **A diagnostic whose `span.line` is 0 is one Puppet prints without a position**: the byte
//! order mark errors, `invalid byte sequence in UTF-8`, regular expression errors (`end
//! pattern with unmatched parenthesis: /(/`), and the Ruby exceptions Puppet 7.23 lets
//! through (`index out of range`, ``undefined method `+' for nil:NilClass`` for any error
//! inside a heredoc's text, `stack level too deep`); their `span.start` still says where the
//! lexer was. [`puppet_text`] renders a diagnostic as Puppet does. (For `stack level too
//! deep`, `puppet parser validate` itself prints nothing and exits with status 1.)
//!
//! # What is left out
//!
//! * Warnings (`Unrecognized escape sequence`, `Unicode escape '\u' was not followed by 4
//!   hex digits`) are not reported, except where logging one crashes Puppet (in a heredoc's
//!   text), which is an error here too.
//! * `Illegal name or bare word` cannot happen: lexer2.rb raises it only when its bare word
//!   pattern fails on a letter or `_`, where it always matches.
//! * An unrecognised character is an `OTHER` token of one byte, as in Puppet (a multibyte
//!   character makes several); its value is empty (`Syntax error at ''`).
//! * A `SUBLOCATE` token (a heredoc's lines) spans those lines' bytes; Puppet's length counts
//!   their characters.
//! * Regular expressions: see the `regex` module for the few checks of Ruby's `Regexp.new`
//!   that are not reproduced (`never ending recursion` of `\g<…>` calls).

use crate::{Diagnostic, Span};
use std::borrow::Cow;

/// Puppet's token names (the symbols of lexer2.rb). `name()` gives Puppet's spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    LBrack,
    ListStart,
    RBrack,
    LBrace,
    SelBrace,
    RBrace,
    LParen,
    WsLParen,
    RParen,
    Equals,
    Appends,
    Deletes,
    IsEqual,
    NotEqual,
    Match,
    NoMatch,
    GreaterEqual,
    GreaterThan,
    LessEqual,
    LessThan,
    FArrow,
    PArrow,
    LShift,
    LLCollect,
    LCollect,
    RShift,
    RRCollect,
    RCollect,
    Plus,
    Minus,
    Div,
    Times,
    Modulo,
    Not,
    Dot,
    Pipe,
    At,
    AtAt,
    Colon,
    Comma,
    Semic,
    QMark,
    Tilde,
    InEdge,
    InEdgeSub,
    OutEdge,
    OutEdgeSub,
    Regex,
    String,
    Word,
    DqPre,
    DqMid,
    DqPost,
    Number,
    Variable,
    Heredoc,
    Sublocate,
    Name,
    ClassRef,
    Other,
    Case,
    Class,
    Default,
    Define,
    If,
    Elsif,
    Else,
    Inherits,
    Node,
    And,
    Or,
    Undef,
    Boolean,
    In,
    Unless,
    Function,
    Type,
    Attr,
    Private,
}

impl TokenKind {
    /// Puppet's name for the token (`:LISTSTART` is `"LISTSTART"`).
    pub fn name(self) -> &'static str {
        use TokenKind::*;
        match self {
            LBrack => "LBRACK",
            ListStart => "LISTSTART",
            RBrack => "RBRACK",
            LBrace => "LBRACE",
            SelBrace => "SELBRACE",
            RBrace => "RBRACE",
            LParen => "LPAREN",
            WsLParen => "WSLPAREN",
            RParen => "RPAREN",
            Equals => "EQUALS",
            Appends => "APPENDS",
            Deletes => "DELETES",
            IsEqual => "ISEQUAL",
            NotEqual => "NOTEQUAL",
            Match => "MATCH",
            NoMatch => "NOMATCH",
            GreaterEqual => "GREATEREQUAL",
            GreaterThan => "GREATERTHAN",
            LessEqual => "LESSEQUAL",
            LessThan => "LESSTHAN",
            FArrow => "FARROW",
            PArrow => "PARROW",
            LShift => "LSHIFT",
            LLCollect => "LLCOLLECT",
            LCollect => "LCOLLECT",
            RShift => "RSHIFT",
            RRCollect => "RRCOLLECT",
            RCollect => "RCOLLECT",
            Plus => "PLUS",
            Minus => "MINUS",
            Div => "DIV",
            Times => "TIMES",
            Modulo => "MODULO",
            Not => "NOT",
            Dot => "DOT",
            Pipe => "PIPE",
            At => "AT",
            AtAt => "ATAT",
            Colon => "COLON",
            Comma => "COMMA",
            Semic => "SEMIC",
            QMark => "QMARK",
            Tilde => "TILDE",
            InEdge => "IN_EDGE",
            InEdgeSub => "IN_EDGE_SUB",
            OutEdge => "OUT_EDGE",
            OutEdgeSub => "OUT_EDGE_SUB",
            Regex => "REGEX",
            String => "STRING",
            Word => "WORD",
            DqPre => "DQPRE",
            DqMid => "DQMID",
            DqPost => "DQPOST",
            Number => "NUMBER",
            Variable => "VARIABLE",
            Heredoc => "HEREDOC",
            Sublocate => "SUBLOCATE",
            Name => "NAME",
            ClassRef => "CLASSREF",
            Other => "OTHER",
            Case => "CASE",
            Class => "CLASS",
            Default => "DEFAULT",
            Define => "DEFINE",
            If => "IF",
            Elsif => "ELSIF",
            Else => "ELSE",
            Inherits => "INHERITS",
            Node => "NODE",
            And => "AND",
            Or => "OR",
            Undef => "UNDEF",
            Boolean => "BOOLEAN",
            In => "IN",
            Unless => "UNLESS",
            Function => "FUNCTION",
            Type => "TYPE",
            Attr => "ATTR",
            Private => "PRIVATE",
        }
    }

    /// A keyword of lexer2.rb's `KEYWORDS` (`true` and `false` are `BOOLEAN`).
    pub fn is_keyword(self) -> bool {
        use TokenKind::*;
        matches!(
            self,
            Case | Class
                | Default
                | Define
                | If
                | Elsif
                | Else
                | Inherits
                | Node
                | And
                | Or
                | Undef
                | Boolean
                | In
                | Unless
                | Function
                | Type
                | Attr
                | Private
        )
    }
}

fn keyword(word: &[u8]) -> Option<TokenKind> {
    use TokenKind::*;
    Some(match word {
        b"case" => Case,
        b"class" => Class,
        b"default" => Default,
        b"define" => Define,
        b"if" => If,
        b"elsif" => Elsif,
        b"else" => Else,
        b"inherits" => Inherits,
        b"node" => Node,
        b"and" => And,
        b"or" => Or,
        b"undef" => Undef,
        b"false" | b"true" => Boolean,
        b"in" => In,
        b"unless" => Unless,
        b"function" => Function,
        b"type" => Type,
        b"attr" => Attr,
        b"private" => Private,
        _ => return None,
    })
}

/// One Puppet token: its kind and its byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

/// What [`lex`] found: the tokens Puppet's parser receives before the first lexical error,
/// and that error.
///
/// Puppet's parser pulls tokens one at a time, and the lexer reads a whole double-quoted
/// string or heredoc when the parser asks for its first token. So `tokens` holds what the
/// parser received before the failing request: a syntax error Puppet finds at
/// `tokens[i]` is reported instead of `error`, and a parser that needs a token after the last
/// one gets `error` (see [`error_at`]).
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub error: Option<Diagnostic>,
    /// Puppet's value of the tokens whose value is not their source text (sorted by index).
    values: Vec<(usize, Box<str>)>,
}

impl Lexed {
    /// Puppet's value of `tokens[index]` (`token[:value]`), as the parser prints it: the
    /// text of a name, a keyword or an operator, a variable's name without `$`, a string's
    /// value with its escapes processed, a regular expression as Ruby's `Regexp#to_s`, a
    /// heredoc's syntax, `""` for an unrecognised character (`OTHER`).
    pub fn value<'a>(&'a self, source: &'a str, index: usize) -> Cow<'a, str> {
        if let Ok(i) = self.values.binary_search_by_key(&index, |(i, _)| *i) {
            return Cow::Borrowed(&self.values[i].1);
        }
        let Some(token) = self.tokens.get(index) else {
            return Cow::Borrowed("");
        };
        let bytes = source.as_bytes();
        let start = token.start.min(bytes.len());
        let end = token.end.clamp(start, bytes.len());
        let text = &bytes[start..end];
        match token.kind {
            TokenKind::Other => Cow::Borrowed(""),
            TokenKind::Variable => {
                let text = text.strip_prefix(b"$").unwrap_or(text);
                String::from_utf8_lossy(text)
            }
            _ => String::from_utf8_lossy(text),
        }
    }
}

/// Ruby's stack, as Puppet's lexer uses it. Nested strings (`"${"${…}"}"`) and the pieces
/// of a string (`"$a $b …"`, one recursive `interpolate_tail_dq` call each) both cost stack,
/// and past a point Ruby raises `stack level too deep`, which `puppet parser validate`
/// reports by exiting with status 1 *without printing anything*; this lexer reports a
/// positionless `stack level too deep`. Measured with Puppet 7.23 on Ruby 3.1 (`puppet parser
/// validate`): 6,862 pieces in one string with a lexical error after them, 6,871 without;
/// 1,482 nested strings; and in between, a nested string costs 4.631 pieces. Costs are in
/// thousandths of a piece.
const STRING_FRAME: u64 = 4_631;
const PIECE_FRAME: u64 = 1_000;
/// How deep the lexer may go.
const STACK_BUDGET: u64 = 6_876_000;
/// How deep it may go and still report a lexical error (raising one takes stack too).
const STACK_BUDGET_FOR_ERRORS: u64 = 6_867_000;
const STACK_TOO_DEEP: &str = "stack level too deep";

/// Lexes Puppet source as `puppet parser validate` does. Never panics.
pub fn lex(source: &str) -> Lexed {
    let mut lexed = Lexed::default();
    if let Some(message) = bom_error(source.as_bytes()) {
        lexed.error = Some(no_position(message, 0));
        return lexed;
    }
    let mut lexer = Lexer::new(source.as_bytes(), None, 0);
    let result = lexer.scan();
    let Lexer { out, .. } = lexer;
    let delivered = match &result {
        Ok(()) => out.len(),
        Err((_, delivered)) => *delivered,
    };
    for (i, tok) in out.into_iter().take(delivered).enumerate() {
        lexed.tokens.push(Token {
            kind: tok.kind,
            start: tok.start,
            end: tok.start + tok.len,
        });
        if let Some(value) = tok.value {
            lexed.values.push((i, value));
        }
    }
    if let Err((err, _)) = result {
        lexed.error = Some(match err.pos {
            Some(pos) => {
                let (line, column) = locate(source.as_bytes(), pos);
                Diagnostic::error(
                    err.message,
                    Span {
                        start: pos,
                        end: pos,
                        line,
                        column,
                    },
                )
            }
            None => no_position(err.message, err.at),
        });
    }
    lexed
}

/// Checks a file's bytes as Puppet does before lexing: a byte order mark (of any of the
/// encodings lexer_support.rb's `assert_not_bom` knows) is an error, then bytes that are not
/// UTF-8 (`invalid byte sequence in UTF-8`). Both are reported without a position.
pub fn check_encoding(bytes: &[u8]) -> Result<&str, Diagnostic> {
    if let Some(message) = bom_error(bytes) {
        return Err(no_position(message, 0));
    }
    std::str::from_utf8(bytes)
        .map_err(|e| no_position("invalid byte sequence in UTF-8", e.valid_up_to()))
}

/// The first token (in source order) that starts at or after `offset`; among tokens starting
/// at the same offset, the first in Puppet's order.
pub fn token_at(tokens: &[Token], offset: usize) -> Option<&Token> {
    token_index_at(tokens, offset).map(|i| &tokens[i])
}

/// The index of [`token_at`]'s token.
pub fn token_index_at(tokens: &[Token], offset: usize) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, t) in tokens.iter().enumerate() {
        if t.start >= offset && best.is_none_or(|b| t.start < tokens[b].start) {
            best = Some(i);
        }
    }
    best
}

/// Puppet's message for a syntax error found at `lexed.tokens[index]`, as parser_support.rb's
/// `on_error` writes it: `Syntax error at 'VALUE'` with the token's value (see
/// [`Lexed::value`]), or `Syntax error at end of input` when `index` is past the last token.
pub fn syntax_error_message(source: &str, lexed: &Lexed, index: usize) -> String {
    if index >= lexed.tokens.len() {
        return "Syntax error at end of input".to_string();
    }
    format!("Syntax error at '{}'", lexed.value(source, index))
}

/// What Puppet reports when its parser fails on, or asks for, `lexed.tokens[index]`: the
/// syntax error at that token (positioned at the token's start, as `on_error` positions it),
/// or, past the last token, the lexical error if there is one, else `Syntax error at end of
/// input`, which Puppet prints without a position.
pub fn error_at(source: &str, lexed: &Lexed, index: usize) -> Diagnostic {
    let message = syntax_error_message(source, lexed, index);
    match lexed.tokens.get(index) {
        Some(token) => {
            let (line, column) = locate(source.as_bytes(), token.start);
            Diagnostic::error(
                message,
                Span {
                    start: token.start,
                    end: token.end,
                    line,
                    column,
                },
            )
        }
        None => match &lexed.error {
            Some(error) => error.clone(),
            None => no_position(message, source.len()),
        },
    }
}

/// A diagnostic as Puppet prints it after `Could not parse for environment production: `,
/// without the file: `MESSAGE (line: L, column: C)`, or `MESSAGE` alone when Puppet gives no
/// position (`span.line == 0`).
pub fn puppet_text(diagnostic: &Diagnostic) -> String {
    if diagnostic.span.line == 0 {
        diagnostic.message.clone()
    } else {
        format!(
            "{} (line: {}, column: {})",
            diagnostic.message, diagnostic.span.line, diagnostic.span.column
        )
    }
}

fn no_position(message: impl Into<String>, at: usize) -> Diagnostic {
    Diagnostic::error(
        message,
        Span {
            start: at,
            end: at,
            line: 0,
            column: 0,
        },
    )
}

/// Puppet's line and column for a byte offset (Locator19: the line is the number of line
/// starts at or before the offset; the column counts the characters of the line up to the
/// offset, plus one, a cut character counting one per byte as Ruby's `String#length` does).
pub fn locate(source: &[u8], offset: usize) -> (u32, u32) {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = ruby_char_len(&source[line_start..offset]) + 1;
    (line as u32, column as u32)
}

/// Ruby's `String#length` of UTF-8 bytes: a valid character counts one, an invalid or cut
/// sequence one per byte.
fn ruby_char_len(bytes: &[u8]) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        let n = utf8_len(bytes[i]);
        if n > 1 && i + n <= bytes.len() && std::str::from_utf8(&bytes[i..i + n]).is_ok() {
            i += n;
        } else {
            i += 1;
        }
        count += 1;
    }
    count
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

// ---------------------------------------------------------------------------------------
// Byte order marks (lexer_support.rb, assert_not_bom)

fn bom_error(bytes: &[u8]) -> Option<String> {
    // get_bom: four bytes, missing ones replaced by ' ' (which only MM_ANY matches).
    let b = |i: usize| bytes.get(i).map(|&b| b as i32).unwrap_or(-1);
    let is = |i: usize, v: i32| b(i) == v;
    let (name, size) = if (is(0, 0x00) && is(1, 0x00) && is(2, 0xFE) && is(3, 0xFF))
        || (is(0, 0xFF) && is(1, 0xFE) && is(2, 0x00) && is(3, 0x00))
    {
        ("UTF-32", 4)
    } else if is(0, 0x84) && is(1, 0x31) && is(2, 0x95) && is(3, 0x33) {
        ("GB-18030", 4)
    } else if is(0, 0xDD) && is(1, 0x73) && is(2, 0x66) && is(3, 0x73) {
        ("UTF-EBCDIC", 4)
    } else if is(0, 0x0E) && is(1, 0xFE) && is(2, 0xFF) {
        ("SCSU", 3)
    } else if is(0, 0xEF) && is(1, 0xBB) && is(2, 0xBF) {
        ("UTF-8", 3)
    } else if is(0, 0xF7) && is(1, 0x64) && is(2, 0x4C) {
        ("UTF-1", 3)
    } else if is(0, 0xFB) && is(1, 0xEE) && is(2, 0x28) {
        ("BOCU", 3)
    } else if (is(0, 0xFE) && is(1, 0xFF)) || (is(0, 0xFF) && is(1, 0xFE)) {
        ("UTF-16", 2)
    } else {
        return None;
    };
    let hex: Vec<String> = bytes[..size].iter().map(|b| format!("{b:X}")).collect();
    Some(format!(
        "Illegal {name} Byte Order mark at beginning of input: [{}] - remove these from the puppet source",
        hex.join(" ")
    ))
}

// ---------------------------------------------------------------------------------------
// Character classes, as Ruby's regular expressions see them in UTF-8 strings

/// `\w` (ASCII in Ruby).
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The byte length of a `[[:blank:]]` character at `i` (Unicode Space_Separator and tab),
/// or 0.
fn blank_len(s: &[u8], i: usize) -> usize {
    match s.get(i) {
        Some(b' ') | Some(b'\t') => 1,
        Some(0xC2) if s.get(i + 1) == Some(&0xA0) => 2,
        Some(0xE1) if s.get(i + 1) == Some(&0x9A) && s.get(i + 2) == Some(&0x80) => 3,
        Some(0xE2) => match (s.get(i + 1), s.get(i + 2)) {
            (Some(0x80), Some(&c)) if (0x80..=0x8A).contains(&c) || c == 0xAF => 3,
            (Some(0x81), Some(0x9F)) => 3,
            _ => 0,
        },
        Some(0xE3) if s.get(i + 1) == Some(&0x80) && s.get(i + 2) == Some(&0x80) => 3,
        _ => 0,
    }
}

/// The character starting at `i`.
fn next_char(s: &[u8], i: usize) -> Option<char> {
    let n = utf8_len(*s.get(i)?);
    std::str::from_utf8(s.get(i..i + n)?).ok()?.chars().next()
}

/// A word character for Ruby's `\b` (Onigmo's Unicode `Word`: letters, marks, decimal
/// numbers, connector punctuation), approximated with Rust's classification.
fn is_unicode_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    c.is_alphabetic()
        || (c.is_numeric() && !matches!(c, '\u{B2}' | '\u{B3}' | '\u{B9}' | '\u{BC}'..='\u{BE}'))
        || matches!(
            c,
            '\u{203F}' | '\u{2040}' | '\u{2054}' | '\u{FE33}' | '\u{FE34}' | '\u{FE4D}'
                ..='\u{FE4F}' | '\u{FF3F}'
        )
        || matches!(c, '\u{300}'..='\u{36F}' | '\u{483}'..='\u{489}' | '\u{591}'..='\u{5BD}' | '\u{610}'..='\u{61A}' | '\u{64B}'..='\u{65F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

fn is_blank_char(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// `[[:blank:]\r]+` from `i`: the end of the run.
fn ws_end(s: &[u8], mut i: usize) -> usize {
    loop {
        if s.get(i) == Some(&b'\r') {
            i += 1;
            continue;
        }
        let n = blank_len(s, i);
        if n == 0 {
            return i;
        }
        i += n;
    }
}

/// The byte length of the character starting at `i` (1 for a byte that starts none).
fn char_len_at(s: &[u8], i: usize) -> usize {
    let n = utf8_len(s[i]);
    if n > 1 && i + n <= s.len() && std::str::from_utf8(&s[i..i + n]).is_ok() {
        n
    } else {
        1
    }
}

fn word_end(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && is_word(s[i]) {
        i += 1;
    }
    i
}

fn digits_end(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    i
}

// ---------------------------------------------------------------------------------------
// The patterns of lexer2.rb, anchored at a position (StringScanner#scan)

/// `((::){0,1}[A-Z][\w]*)+`
fn match_classref(s: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    let mut matched = false;
    loop {
        let mut j = i;
        if s[j..].starts_with(b"::") && s.get(j + 2).is_some_and(u8::is_ascii_uppercase) {
            j += 2;
        }
        if !s.get(j).is_some_and(u8::is_ascii_uppercase) {
            break;
        }
        i = word_end(s, j + 1);
        matched = true;
    }
    matched.then_some(i)
}

/// `((?:::){0,1}(?:[a-z_](?:[\w-]*[\w])?))+`
fn match_bare_word(s: &[u8], start: usize) -> Option<usize> {
    let first = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_lowercase() || b == b'_');
    let mut i = start;
    let mut matched = false;
    loop {
        let mut j = i;
        if s[j..].starts_with(b"::") && first(s.get(j + 2)) {
            j += 2;
        }
        if !first(s.get(j)) {
            break;
        }
        j += 1;
        let mut k = j;
        while k < s.len() && (is_word(s[k]) || s[k] == b'-') {
            k += 1;
        }
        while k > j && s[k - 1] == b'-' {
            k -= 1;
        }
        i = k;
        matched = true;
    }
    matched.then_some(i)
}

/// `^((::)?[a-z][\w]*)(::[a-z][\w]*)*$` on a whole bare word.
fn is_name(word: &[u8]) -> bool {
    let mut rest = word.strip_prefix(b"::").unwrap_or(word);
    loop {
        if !rest.first().is_some_and(u8::is_ascii_lowercase) {
            return false;
        }
        rest = &rest[word_end(rest, 1)..];
        if rest.is_empty() {
            return true;
        }
        match rest.strip_prefix(b"::") {
            Some(r) => rest = r,
            None => return false,
        }
    }
}

/// `(::)?(\w+::)*\w+` from `start`.
fn match_variable_name(s: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    if s[i..].starts_with(b"::") {
        i += 2;
    }
    let mut end = word_end(s, i);
    if end == i {
        return None;
    }
    loop {
        if s[end..].starts_with(b"::") {
            let next = word_end(s, end + 2);
            if next > end + 2 {
                end = next;
                continue;
            }
        }
        return Some(end);
    }
}

/// `\b(?:0[xX][0-9A-Fa-f]+|0?\d+(?:\.\d+)?(?:[eE]-?\d+)?)\b` at a digit. The leading
/// `\b` always holds (StringScanner matches as if the string started at its position); the
/// trailing one sees Unicode word characters (Ruby's `\b` does, though `\w` is ASCII).
fn match_number(s: &[u8], start: usize) -> Option<usize> {
    let boundary = |i: usize| !next_char(s, i).is_some_and(is_unicode_word);
    if s[start] == b'0' && matches!(s.get(start + 1), Some(b'x') | Some(b'X')) {
        let mut i = start + 2;
        while i < s.len() && s[i].is_ascii_hexdigit() {
            i += 1;
        }
        if i > start + 2 && boundary(i) {
            return Some(i);
        }
    }
    let exponent = |q: usize| -> Option<usize> {
        if !matches!(s.get(q), Some(b'e') | Some(b'E')) {
            return None;
        }
        let mut r = q + 1;
        if s.get(r) == Some(&b'-') {
            r += 1;
        }
        let end = digits_end(s, r);
        (end > r && boundary(end)).then_some(end)
    };
    let p = digits_end(s, start);
    if s.get(p) == Some(&b'.') && s.get(p + 1).is_some_and(u8::is_ascii_digit) {
        let q = digits_end(s, p + 1);
        if let Some(end) = exponent(q) {
            return Some(end);
        }
        if boundary(q) {
            return Some(q);
        }
    }
    if let Some(end) = exponent(p) {
        return Some(end);
    }
    boundary(p).then_some(p)
}

/// lexer_support.rb's `assert_numeric`: the message for a malformed number.
fn numeric_error(value: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(value);
    let all = |from: usize, f: fn(&u8) -> bool| value.len() > from && value[from..].iter().all(f);
    let digits = digits_end(value, 0);
    let decimal_like =
        digits > 0 && matches!(value.get(digits), Some(b'e') | Some(b'E') | Some(b'.'));
    if value.len() >= 2 && value[0] == b'0' && (value[1] == b'x' || value[1] == b'X') {
        (!all(2, u8::is_ascii_hexdigit)).then(|| format!("Not a valid hex number {text}"))
    } else if value.len() >= 2 && value[0] == b'0' && value[1] != b'.' {
        (!all(1, |b| (b'0'..=b'7').contains(b))).then(|| format!("Not a valid octal number {text}"))
    } else if decimal_like {
        (!is_decimal(value)).then(|| format!("Not a valid decimal number {text}"))
    } else {
        (!all(0, u8::is_ascii_digit)).then(|| format!("Illegal number '{text}'"))
    }
}

/// `^\d+(?:\.\d+)?(?:[eE]-?\d+)?$`
fn is_decimal(v: &[u8]) -> bool {
    let mut i = digits_end(v, 0);
    if i == 0 {
        return false;
    }
    if v.get(i) == Some(&b'.') {
        let j = digits_end(v, i + 1);
        if j == i + 1 {
            return false;
        }
        i = j;
    }
    if matches!(v.get(i), Some(b'e') | Some(b'E')) {
        let mut r = i + 1;
        if v.get(r) == Some(&b'-') {
            r += 1;
        }
        let j = digits_end(v, r);
        if j == r {
            return false;
        }
        i = j;
    }
    i == v.len()
}

// ---------------------------------------------------------------------------------------
// Strings (slurp_support.rb)

/// What ended a slurped piece of string: `SLURP_*_PATTERN`'s group 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    Quote,
    Dollar,
    DollarBrace,
    End,
}

impl Term {
    fn len(self) -> usize {
        match self {
            Term::Quote | Term::Dollar => 1,
            Term::DollarBrace => 2,
            Term::End => 0,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quoting {
    Single,
    Double,
    Unquoted,
}

/// `scan_until` with `SLURP_SQ_PATTERN`, `SLURP_DQ_PATTERN` or `SLURP_UQ_PATTERN`:
/// `(?:[^\\]|^)(?:[\\]{2})*(TERM)`, searched from `from` (where `^` matches, the scanner's
/// position being the start of the string for Ruby's StringScanner). Returns the start of
/// the match, the start of the terminator and the terminator.
fn slurp_search(s: &[u8], from: usize, quoting: Quoting) -> Option<(usize, usize, Term)> {
    let term_at = |t: usize| -> Option<Term> {
        match (s.get(t), quoting) {
            (Some(b'\''), Quoting::Single) => Some(Term::Quote),
            (Some(b'"'), Quoting::Double) => Some(Term::Quote),
            (Some(b'$'), Quoting::Double | Quoting::Unquoted) => {
                Some(if s.get(t + 1) == Some(&b'{') {
                    Term::DollarBrace
                } else {
                    Term::Dollar
                })
            }
            (None, Quoting::Unquoted) if t == s.len() => Some(Term::End),
            _ => None,
        }
    };
    let backslashes = |i: usize| {
        s[i.min(s.len())..]
            .iter()
            .take_while(|&&b| b == b'\\')
            .count()
    };
    let mut p = from;
    while p <= s.len() {
        if p < s.len() && s[p] != b'\\' {
            let q = p + char_len_at(s, p);
            let k = backslashes(q);
            if k % 2 == 0 {
                if let Some(term) = term_at(q + k) {
                    return Some((p, q + k, term));
                }
            }
        }
        if p == from || s[p - 1] == b'\n' {
            let k = backslashes(p);
            if k % 2 == 0 {
                if let Some(term) = term_at(p + k) {
                    return Some((p, p + k, term));
                }
            }
        }
        p += if p < s.len() { char_len_at(s, p) } else { 1 };
    }
    None
}

/// The escapes a string kind processes (`SQ_ESCAPES`, `DQ_ESCAPES`, `UQ_ESCAPES`, a
/// heredoc's `/escapes`), as a set.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Escapes(u16);

impl Escapes {
    const BACKSLASH: u16 = 1;
    const DOLLAR: u16 = 2;
    const SQUOTE: u16 = 4;
    const DQUOTE: u16 = 8;
    const R: u16 = 16;
    const N: u16 = 32;
    const T: u16 = 64;
    const S: u16 = 128;
    const U: u16 = 256;
    const NL: u16 = 512;
    const CRNL: u16 = 1024;
    const DQ: Escapes = Escapes(2047);
    const UQ: Escapes = Escapes(2047 & !(Self::SQUOTE | Self::DQUOTE));

    fn has(self, flag: u16) -> bool {
        self.0 & flag != 0
    }
}

/// Something Puppet's `slurp` does besides returning the string.
enum SlurpProblem {
    /// A `\u` escape made a character that is not UTF-8 (a surrogate, past U+10FFFF): the
    /// next regular expression on the string raises `invalid byte sequence in UTF-8`.
    InvalidByteSequence,
}

/// slurp_support.rb's escape processing of one slurped piece (terminator included).
/// `escapes == None` is single-quoted processing. Returns the processed bytes and whether a
/// warning was logged.
fn process_escapes(
    raw: &[u8],
    escapes: Option<Escapes>,
    ignore_invalid: bool,
) -> Result<(Vec<u8>, bool), SlurpProblem> {
    if !raw.contains(&b'\\') {
        return Ok((raw.to_vec(), false));
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
        return Ok((out, false));
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
    let mut warned = false;
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
                            warned = true; // ILLEGAL_UNICODE_ESCAPE
                            out.extend_from_slice(b"\\u");
                        }
                        Escapes::NL | Escapes::CRNL => {}
                        _ => out.push(c),
                    }
                } else {
                    if !ignore_invalid {
                        warned = true; // UNRECOGNIZED_ESCAPE
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
    Ok((out, warned))
}

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
        let hex4 = s
            .get(h..h + 4)
            .filter(|d| d.iter().all(u8::is_ascii_hexdigit));
        if let Some(d) = hex4 {
            return Some((
                run_start + k - 1,
                h + 4,
                u32::from_str_radix(std::str::from_utf8(d).ok()?, 16).ok()?,
            ));
        }
        if s.get(h) == Some(&b'{') {
            let n = s[h + 1..]
                .iter()
                .take(6)
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            if n >= 1 && s.get(h + 1 + n) == Some(&b'}') {
                let d = std::str::from_utf8(&s[h + 1..h + 1 + n]).ok()?;
                return Some((
                    run_start + k - 1,
                    h + 2 + n,
                    u32::from_str_radix(d, 16).ok()?,
                ));
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

// ---------------------------------------------------------------------------------------
// The lexer

const NIL_PLUS: &str = "undefined method `+' for nil:NilClass";

struct Tok {
    kind: TokenKind,
    start: usize,
    len: usize,
    value: Option<Box<str>>,
}

/// What a selector gives the loop that called it.
enum Step {
    /// Nothing (whitespace, a comment, a heredoc whose tokens are queued).
    Nothing,
    /// A token, returned directly.
    Direct(Tok),
    /// A string with interpolation, whose tokens are queued (`@token_queue.shift`).
    Queued,
}

struct LexErr {
    message: String,
    /// Where Puppet reports it; `None` when Puppet gives no position.
    pos: Option<usize>,
    /// Where the lexer was, for a positionless error.
    at: usize,
}

type LexResult<T> = Result<T, LexErr>;

#[derive(Clone, Copy)]
enum UqPattern {
    /// `SLURP_UQ_PATTERN`: interpolation with `$` escapable.
    Uq,
    /// `SLURP_UQNE_PATTERN`: interpolation, `$` not escapable.
    UqNe,
    /// `SLURP_ALL_PATTERN`: no interpolation.
    All,
}

/// A heredoc's text being lexed by a second lexer (`lex_unquoted_string`).
#[derive(Clone, Copy)]
struct SubMode {
    escapes: Escapes,
    pattern: UqPattern,
}

struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
    /// StringScanner#matched: the range of the last successful match, `None` after a failed
    /// one.
    matched: Option<(usize, usize)>,
    out: Vec<Tok>,
    after: Option<TokenKind>,
    brace_count: i64,
    line_lexical_start: usize,
    newline_jump: Option<usize>,
    sub: Option<SubMode>,
    /// Ruby stack in use (see STACK_BUDGET).
    stack: u64,
    /// The last search for a regex's end: from where, and what it found.
    slash_cache: Option<(usize, Option<usize>)>,
    /// The end of the blanks starting a line (for WSLPAREN): the line start, and the end.
    blank_cache: Option<(usize, usize)>,
}

fn positionless(message: impl Into<String>, at: usize) -> LexErr {
    LexErr {
        message: message.into(),
        pos: None,
        at,
    }
}

impl<'a> Lexer<'a> {
    fn new(s: &'a [u8], sub: Option<SubMode>, stack: u64) -> Self {
        Lexer {
            s,
            pos: 0,
            matched: None,
            out: Vec::new(),
            after: None,
            brace_count: 0,
            line_lexical_start: 0,
            newline_jump: None,
            sub,
            stack,
            slash_cache: None,
            blank_cache: None,
        }
    }

    /// `lex_error`: positioned, except in a heredoc's text, where Puppet's SubLocator cannot
    /// compute a column and Ruby raises NoMethodError instead.
    fn error(&self, message: impl Into<String>, pos: usize) -> LexErr {
        if self.stack > STACK_BUDGET_FOR_ERRORS {
            positionless(STACK_TOO_DEEP, pos)
        } else if self.sub.is_some() {
            positionless(NIL_PLUS, pos)
        } else {
            LexErr {
                message: message.into(),
                pos: Some(pos),
                at: pos,
            }
        }
    }

    /// `lex_warning`: ignored, except in a heredoc's text (see `error`).
    fn warning(&self) -> LexResult<()> {
        if self.sub.is_some() {
            Err(positionless(NIL_PLUS, self.pos))
        } else {
            Ok(())
        }
    }

    fn peek(&self, i: usize) -> Option<u8> {
        self.s.get(self.pos + i).copied()
    }

    fn eos(&self) -> bool {
        self.pos >= self.s.len()
    }

    fn emit(&mut self, kind: TokenKind, len: usize) -> Step {
        let start = self.pos;
        self.pos = start + len;
        Step::Direct(Tok {
            kind,
            start,
            len,
            value: None,
        })
    }

    /// `scn.skip(PATTERN_WS)`: whether anything was skipped.
    fn skip_ws(&mut self) -> bool {
        let end = ws_end(self.s, self.pos);
        if end > self.pos {
            self.matched = Some((self.pos, end));
            self.pos = end;
            true
        } else {
            self.matched = None;
            false
        }
    }

    /// `pos=`, which raises RangeError past the end.
    fn set_pos(&mut self, pos: usize) -> LexResult<()> {
        if pos > self.s.len() {
            return Err(positionless("index out of range", self.pos));
        }
        self.pos = pos;
        Ok(())
    }

    /// lexer_support.rb's `followed_by`.
    fn followed_by(&self) -> String {
        if self.eos() {
            return "<eof>".to_string();
        }
        let mut end = self.pos;
        for _ in 0..5 {
            if end >= self.s.len() {
                break;
            }
            end += char_len_at(self.s, end);
        }
        let rest = String::from_utf8_lossy(&self.s[self.pos..end]);
        format!("{rest}...")
            .replace('\t', "\\t")
            .replace('\n', "\\n")
            .replace('\r', "\\r")
    }

    /// lexer_support.rb's `format_quote` of the scanner's last match.
    fn format_last_match(&self) -> String {
        let q = self.matched.map_or(Cow::Borrowed(""), |(a, b)| {
            String::from_utf8_lossy(&self.s[a..b])
        });
        if q == "'" {
            "\"'\"".to_string()
        } else {
            format!("'{q}'")
        }
    }

    fn regexp_acceptable(&self) -> bool {
        use TokenKind::*;
        !matches!(
            self.after,
            Some(
                RParen
                    | RBrack
                    | RRCollect
                    | RCollect
                    | Name
                    | ClassRef
                    | Number
                    | String
                    | Boolean
                    | DqPre
                    | DqMid
                    | DqPost
                    | Heredoc
                    | Regex
                    | Variable
                    | Word
            )
        )
    }

    /// `Lexer2#scan`'s loop, for the main lexer. On error, returns how many tokens the parser
    /// had received.
    fn scan(&mut self) -> Result<(), (LexErr, usize)> {
        self.skip_ws();
        while !self.eos() {
            self.after = self.out.last().map(|t| t.kind);
            let delivered = self.out.len();
            match self.lex_token() {
                Ok(Step::Direct(tok)) => self.out.push(tok),
                Ok(_) => {}
                Err(e) => return Err((e, delivered)),
            }
        }
        Ok(())
    }

    /// The selector: one token (or nothing) at the current position.
    fn lex_token(&mut self) -> LexResult<Step> {
        use TokenKind::*;
        let Some(c) = self.peek(0) else {
            return Ok(Step::Nothing);
        };
        let la1 = self.peek(1);
        let la2 = self.peek(2);
        Ok(match c {
            b'.' => self.emit(Dot, 1),
            b',' => self.emit(Comma, 1),
            b'[' => {
                let before = self.pos;
                let ws = before == 0
                    || last_char(self.s, before)
                        .is_some_and(|c| is_blank_char(c) || c == '\r' || c == '\n');
                self.emit(if ws { ListStart } else { LBrack }, 1)
            }
            b']' => self.emit(RBrack, 1),
            b'(' => {
                // `before == line_start || byteslice(line_start, before - line_start) =~
                // /\A[[:blank:]\r]+\Z/`, with the blanks' end remembered per line start
                let before = self.pos;
                let ls = self.line_lexical_start;
                let ws = before == ls
                    || (before > ls && {
                        let end = if self.s[before - 1] == b'\n' {
                            before - 1
                        } else {
                            before
                        };
                        let blanks_end = match self.blank_cache {
                            Some((start, end)) if start == ls => end,
                            _ => {
                                let end = ws_end(self.s, ls);
                                self.blank_cache = Some((ls, end));
                                end
                            }
                        };
                        end > ls && blanks_end >= end
                    });
                self.emit(if ws { WsLParen } else { LParen }, 1)
            }
            b')' => self.emit(RParen, 1),
            b';' => self.emit(Semic, 1),
            b'?' => self.emit(QMark, 1),
            b'*' => self.emit(Times, 1),
            b'%' => self.emit(Modulo, 1),
            b'{' => {
                self.brace_count += 1;
                let kind = if self.after == Some(QMark) {
                    SelBrace
                } else {
                    LBrace
                };
                self.emit(kind, 1)
            }
            b'}' => {
                self.brace_count -= 1;
                self.emit(RBrace, 1)
            }
            b'@' => match la1 {
                Some(b'@') => self.emit(AtAt, 2),
                Some(b'(') => self.heredoc()?,
                _ => self.emit(At, 1),
            },
            b'|' => match (la1, la2) {
                (Some(b'>'), Some(b'>')) => self.emit(RRCollect, 3),
                (Some(b'>'), _) => self.emit(RCollect, 2),
                _ => self.emit(Pipe, 1),
            },
            b'=' => match la1 {
                Some(b'=') => self.emit(IsEqual, 2),
                Some(b'>') => self.emit(FArrow, 2),
                Some(b'~') => self.emit(Match, 2),
                _ => self.emit(Equals, 1),
            },
            b'+' => match la1 {
                Some(b'=') => self.emit(Appends, 2),
                Some(b'>') => self.emit(PArrow, 2),
                _ => self.emit(Plus, 1),
            },
            b'-' => match la1 {
                Some(b'>') => self.emit(InEdge, 2),
                Some(b'=') => self.emit(Deletes, 2),
                _ => self.emit(Minus, 1),
            },
            b'!' => match la1 {
                Some(b'=') => self.emit(NotEqual, 2),
                Some(b'~') => self.emit(NoMatch, 2),
                _ => self.emit(Not, 1),
            },
            b'~' => match la1 {
                Some(b'>') => self.emit(InEdgeSub, 2),
                _ => self.emit(Tilde, 1),
            },
            b'#' => {
                // PATTERN_COMMENT = %r{#.*\r?}
                let end = self.s[self.pos..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(self.s.len(), |i| self.pos + i);
                self.matched = Some((self.pos, end));
                self.pos = end;
                Step::Nothing
            }
            b'/' => self.slash()?,
            b'<' => match (la1, la2) {
                (Some(b'<'), Some(b'|')) => self.emit(LLCollect, 3),
                (Some(b'<'), _) => self.emit(LShift, 2),
                (Some(b'='), _) => self.emit(LessEqual, 2),
                (Some(b'|'), _) => self.emit(LCollect, 2),
                (Some(b'-'), _) => self.emit(OutEdge, 2),
                (Some(b'~'), _) => self.emit(OutEdgeSub, 2),
                _ => self.emit(LessThan, 1),
            },
            b'>' => match la1 {
                Some(b'>') => self.emit(RShift, 2),
                Some(b'=') => self.emit(GreaterEqual, 2),
                _ => self.emit(GreaterThan, 1),
            },
            b':' => self.colon()?,
            b'$' => {
                let before = self.pos;
                match match_variable_name(self.s, before + 1) {
                    Some(end) => {
                        self.matched = Some((before, end));
                        self.pos = end;
                        Step::Direct(Tok {
                            kind: Variable,
                            start: before,
                            len: end - before,
                            value: None,
                        })
                    }
                    None => {
                        self.matched = None;
                        self.emit(Variable, 1)
                    }
                }
            }
            b'"' => self.interpolate_dq()?,
            b'\'' => {
                let before = self.pos;
                self.pos += 1;
                let Some((match_start, term_start, _)) =
                    slurp_search(self.s, self.pos, Quoting::Single)
                else {
                    self.matched = None;
                    let message = format!(
                        "Unclosed quote after \"'\" followed by '{}'",
                        self.followed_by()
                    );
                    return Err(self.error(message, self.pos));
                };
                let end = term_start + 1;
                self.matched = Some((match_start, end));
                let raw = &self.s[self.pos..end];
                self.pos = end;
                let (mut value, _) = process_escapes(raw, None, true).unwrap_or_default();
                value.pop(); // the closing quote
                Step::Direct(Tok {
                    kind: String,
                    start: before,
                    len: end - before,
                    value: Some(boxed(value)),
                })
            }
            b'\n' => {
                match self.newline_jump.take() {
                    Some(jump) => self.pos = jump,
                    None => self.pos += 1,
                }
                self.line_lexical_start = self.pos;
                Step::Nothing
            }
            b' ' | b'\t' | b'\r' => {
                self.skip_ws();
                Step::Nothing
            }
            b'0'..=b'9' => self.number()?,
            b'a'..=b'z' | b'_' => {
                let before = self.pos;
                // PATTERN_BARE_WORD always matches here.
                let end = match_bare_word(self.s, before).unwrap_or(before + 1);
                self.matched = Some((before, end));
                self.pos = end;
                let word = &self.s[before..end];
                let kind = if is_name(word) {
                    keyword(word).unwrap_or(Name)
                } else {
                    Word
                };
                Step::Direct(Tok {
                    kind,
                    start: before,
                    len: end - before,
                    value: None,
                })
            }
            b'A'..=b'Z' => {
                let before = self.pos;
                let end = match_classref(self.s, before).unwrap_or(before + 1);
                self.matched = Some((before, end));
                self.pos = end;
                if self.s[end..].starts_with(b"::") {
                    self.pos = end + 1;
                    return Err(self.error("Illegal class reference", self.pos));
                }
                Step::Direct(Tok {
                    kind: ClassRef,
                    start: before,
                    len: end - before,
                    value: None,
                })
            }
            _ => {
                if self.skip_ws() {
                    Step::Nothing
                } else {
                    // "unrecognized char": one byte
                    self.emit(Other, 1)
                }
            }
        })
    }

    fn colon(&mut self) -> LexResult<Step> {
        use TokenKind::*;
        let before = self.pos;
        if self.peek(1) != Some(b':') {
            return Ok(self.emit(Colon, 1));
        }
        match self.peek(2) {
            None => Err(positionless(
                "undefined method `>=' for nil:NilClass",
                before,
            )),
            Some(b'A'..=b'Z') => {
                let end = match_classref(self.s, before).unwrap_or(before + 3);
                self.matched = Some((before, end));
                self.pos = end;
                if self.s[end..].starts_with(b"::") {
                    self.set_pos(end + 3)?;
                    return Err(self.error("Illegal fully qualified class reference", self.pos));
                }
                Ok(Step::Direct(Tok {
                    kind: ClassRef,
                    start: before,
                    len: end - before,
                    value: None,
                }))
            }
            Some(_) => match match_bare_word(self.s, before) {
                Some(end) => {
                    self.matched = Some((before, end));
                    self.pos = end;
                    let kind = if is_name(&self.s[before..end]) {
                        Name
                    } else {
                        Word
                    };
                    Ok(Step::Direct(Tok {
                        kind,
                        start: before,
                        len: end - before,
                        value: None,
                    }))
                }
                None => {
                    self.matched = None;
                    self.pos = before + 2;
                    Err(self.error("Illegal fully qualified name", self.pos))
                }
            },
        }
    }

    fn number(&mut self) -> LexResult<Step> {
        let mut before = self.pos;
        if let Some(end) = match_number(self.s, before) {
            self.matched = Some((before, end));
            self.pos = end;
            if let Some(message) = numeric_error(&self.s[before..end]) {
                return Err(self.error(message, before));
            }
            return Ok(Step::Direct(Tok {
                kind: TokenKind::Number,
                start: before,
                len: end - before,
                value: None,
            }));
        }
        // invalid_number = scn.scan_until(PATTERN_NON_WS)
        let run_end = word_end(self.s, before);
        self.matched = Some((before, run_end));
        self.pos = run_end;
        let mut invalid: Option<(usize, usize)> = Some((before, run_end));
        if before > 1 {
            let after = self.pos;
            self.pos = before - 1;
            if self.peek(0) == Some(b'.') {
                self.pos = before - 2;
                loop {
                    // `scn.peek(1) =~ /^\d$/`: a regular expression on one byte of a
                    // multibyte character raises
                    match self.peek(0) {
                        Some(b) if b >= 0x80 => {
                            return Err(positionless("invalid byte sequence in UTF-8", self.pos));
                        }
                        Some(b) if b.is_ascii_digit() => {}
                        _ => break,
                    }
                    invalid = None;
                    before = self.pos;
                    if before == 0 {
                        break;
                    }
                    self.pos -= 1;
                }
            }
            self.pos = before;
            if invalid.is_none() {
                invalid = Some((before, after.max(before)));
            }
        }
        let (a, b) = invalid.unwrap_or((before, before));
        let value = &self.s[a..b];
        if let Some(message) = numeric_error(value) {
            return Err(self.error(message, before));
        }
        self.pos = before + 1;
        Err(self.error(
            format!("Illegal number '{}'", String::from_utf8_lossy(value)),
            self.pos,
        ))
    }

    fn slash(&mut self) -> LexResult<Step> {
        let before = self.pos;
        if self.peek(1) == Some(b'*') {
            // PATTERN_MLCOMMENT = %r{/\*(.*?)\*/}m
            return match find(self.s, b"*/", before + 2) {
                Some(i) => {
                    self.matched = Some((before, i + 2));
                    self.pos = i + 2;
                    Ok(Step::Nothing)
                }
                None => {
                    self.matched = None;
                    Err(self.error("Unclosed multiline comment", before))
                }
            };
        }
        if !self.regexp_acceptable() {
            return Ok(self.emit(TokenKind::Div, 1));
        }
        // PATTERN_REGEX = %r{/[^/]*/}, extended while `escaped_end` (a `/` after an odd run
        // of backslashes) up to the next `/`; with no such end, a division
        let Some(end) = self.unescaped_slash_after(before) else {
            self.matched = None;
            return Ok(self.emit(TokenKind::Div, 1));
        };
        let first = find(self.s, b"/", before + 1).unwrap_or(end);
        self.matched = Some(if first == end {
            (before, end + 1)
        } else {
            (end, end + 1)
        });
        self.pos = end + 1;
        let value = &self.s[before..self.pos];
        let body = regex_source(value);
        let body = String::from_utf8_lossy(&body).into_owned();
        if let Err(message) = regex::check(&body) {
            return Err(positionless(message, before));
        }
        let text = regex::to_s(&body);
        Ok(Step::Direct(Tok {
            kind: TokenKind::Regex,
            start: before,
            len: self.pos - before,
            value: Some(text.into()),
        }))
    }

    /// The first `/` after the `/` at `from` that does not end an odd run of backslashes.
    /// The answer holds for any later `/` before it, which keeps `/\/\/\…` linear.
    fn unescaped_slash_after(&mut self, from: usize) -> Option<usize> {
        if let Some((searched, found)) = self.slash_cache {
            if from >= searched && found.is_none_or(|f| from < f) {
                return found;
            }
        }
        let mut i = from + 1;
        let found = loop {
            let Some(q) = find(self.s, b"/", i) else {
                break None;
            };
            let run = self.s[..q]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if run % 2 == 0 {
                break Some(q);
            }
            i = q + 1;
        };
        self.slash_cache = Some((from, found));
        found
    }

    // -----------------------------------------------------------------------------------
    // Interpolation (interpolation_support.rb)

    /// `slurp_dqstring`: the processed piece up to the terminator, and the terminator.
    fn slurp_dq(&mut self) -> LexResult<(Vec<u8>, Term)> {
        let Some((match_start, term_start, term)) = slurp_search(self.s, self.pos, Quoting::Double)
        else {
            // `last = scn.matched`, taken before the failed search cleared it
            let last = self.format_last_match();
            self.matched = None;
            let message = format!(
                "Unclosed quote after {last} followed by '{}'",
                self.followed_by()
            );
            return Err(self.error(message, self.pos));
        };
        let end = term_start + term.len();
        self.matched = Some((match_start, end));
        let raw = &self.s[self.pos..end];
        self.pos = end;
        self.processed(raw, Some(Escapes::DQ), false, term)
    }

    /// `slurp_uqstring`, for a heredoc's text.
    fn slurp_uq(&mut self) -> LexResult<(Vec<u8>, Term)> {
        let mode = self.sub.unwrap_or(SubMode {
            escapes: Escapes::UQ,
            pattern: UqPattern::All,
        });
        let s = self.s;
        let (match_start, term_start, term) = match mode.pattern {
            UqPattern::All => (self.pos, s.len(), Term::End),
            UqPattern::UqNe => match s[self.pos..].iter().position(|&b| b == b'$') {
                Some(i) => {
                    let t = self.pos + i;
                    (
                        t,
                        t,
                        if s.get(t + 1) == Some(&b'{') {
                            Term::DollarBrace
                        } else {
                            Term::Dollar
                        },
                    )
                }
                None => (s.len(), s.len(), Term::End),
            },
            UqPattern::Uq => match slurp_search(s, self.pos, Quoting::Unquoted) {
                Some(found) => found,
                // slurp returns nil, and `terminator.length` raises on nil
                None => {
                    return Err(positionless(
                        "undefined method `length' for nil:NilClass",
                        self.pos,
                    ))
                }
            },
        };
        let end = term_start + term.len();
        self.matched = Some((match_start, end));
        let raw = &s[self.pos..end];
        self.pos = end;
        self.processed(raw, Some(mode.escapes), true, term)
    }

    fn processed(
        &self,
        raw: &[u8],
        escapes: Option<Escapes>,
        ignore_invalid: bool,
        term: Term,
    ) -> LexResult<(Vec<u8>, Term)> {
        match process_escapes(raw, escapes, ignore_invalid) {
            Ok((mut text, warned)) => {
                if warned {
                    self.warning()?;
                }
                text.truncate(text.len().saturating_sub(term.len()));
                Ok((text, term))
            }
            Err(SlurpProblem::InvalidByteSequence) => {
                Err(positionless("invalid byte sequence in UTF-8", self.pos))
            }
        }
    }

    fn push(&mut self, kind: TokenKind, start: usize, len: usize, value: Option<Box<str>>) {
        self.out.push(Tok {
            kind,
            start,
            len,
            value,
        });
    }

    /// `interpolate_dq`, at a `"`.
    fn interpolate_dq(&mut self) -> LexResult<Step> {
        self.stack += STRING_FRAME;
        let result = if self.stack > STACK_BUDGET {
            Err(positionless(STACK_TOO_DEEP, self.pos))
        } else {
            self.interpolate(Quoting::Double)
        };
        self.stack -= STRING_FRAME;
        result
    }

    /// `interpolate_dq` (at a `"`) or `interpolate_uq` (a heredoc's text), with their tails.
    fn interpolate(&mut self, quoting: Quoting) -> LexResult<Step> {
        let before = self.pos;
        if quoting == Quoting::Double {
            self.matched = Some((self.pos, self.pos + 1)); // scn.scan(/"/)
            self.pos += 1;
        }
        let slurp = |lexer: &mut Self| {
            if quoting == Quoting::Double {
                lexer.slurp_dq()
            } else {
                lexer.slurp_uq()
            }
        };
        let (mut text, mut term) = slurp(self)?;
        let mut after = self.pos;
        loop {
            match term {
                Term::Quote | Term::End => {
                    let tok = Tok {
                        kind: TokenKind::String,
                        start: before,
                        len: self.pos - before,
                        value: Some(boxed(text)),
                    };
                    if quoting == Quoting::Double {
                        return Ok(Step::Direct(tok));
                    }
                    self.out.push(tok);
                    return Ok(Step::Nothing);
                }
                Term::DollarBrace => {
                    let count = self.brace_count;
                    self.brace_count += 1;
                    self.push(
                        TokenKind::DqPre,
                        before,
                        self.pos - before,
                        Some(boxed(text)),
                    );
                    self.enqueue_until(count)?;
                    break;
                }
                Term::Dollar => {
                    if let Some(end) = match_variable_name(self.s, self.pos) {
                        self.matched = Some((self.pos, end));
                        self.push(
                            TokenKind::DqPre,
                            before,
                            after - before - 1,
                            Some(boxed(text)),
                        );
                        let name = boxed(self.s[self.pos..end].to_vec());
                        self.push(TokenKind::Variable, after - 1, end - after + 1, Some(name));
                        self.pos = end;
                        break;
                    }
                    self.matched = None;
                    text.push(b'$');
                    let (more, next) = slurp(self)?;
                    text.extend_from_slice(&more);
                    term = next;
                    after = self.pos;
                }
            }
        }
        self.interpolate_tail(quoting)?;
        Ok(Step::Queued)
    }

    /// `interpolate_tail_dq` / `interpolate_tail_uq` (recursive in Puppet, a loop here).
    fn interpolate_tail(&mut self, quoting: Quoting) -> LexResult<()> {
        let base = self.stack;
        let result = self.interpolate_tail_pieces(quoting);
        self.stack = base;
        result
    }

    fn interpolate_tail_pieces(&mut self, quoting: Quoting) -> LexResult<()> {
        let slurp = |lexer: &mut Self| {
            if quoting == Quoting::Double {
                lexer.slurp_dq()
            } else {
                lexer.slurp_uq()
            }
        };
        loop {
            // each piece is one more recursive call in Puppet
            self.stack += PIECE_FRAME;
            if self.stack > STACK_BUDGET {
                return Err(positionless(STACK_TOO_DEEP, self.pos));
            }
            let before = self.pos;
            let (mut text, mut term) = slurp(self)?;
            let mut after = self.pos;
            loop {
                match term {
                    Term::Quote | Term::End => {
                        self.push(
                            TokenKind::DqPost,
                            before,
                            self.pos - before,
                            Some(boxed(text)),
                        );
                        return Ok(());
                    }
                    Term::DollarBrace => {
                        let count = self.brace_count;
                        self.brace_count += 1;
                        self.push(
                            TokenKind::DqMid,
                            before,
                            self.pos - before,
                            Some(boxed(text)),
                        );
                        self.enqueue_until(count)?;
                        break;
                    }
                    Term::Dollar => {
                        if let Some(end) = match_variable_name(self.s, self.pos) {
                            self.matched = Some((self.pos, end));
                            self.push(
                                TokenKind::DqMid,
                                before,
                                after - before - 1,
                                Some(boxed(text)),
                            );
                            let name = boxed(self.s[self.pos..end].to_vec());
                            self.push(TokenKind::Variable, after - 1, end - after + 1, Some(name));
                            self.pos = end;
                            break;
                        }
                        self.matched = None;
                        text.push(b'$');
                        let (more, next) = slurp(self)?;
                        text.extend_from_slice(&more);
                        term = next;
                        after = self.pos;
                    }
                }
            }
        }
    }

    /// `enqueue_until`: lexes an interpolation's expression up to its closing brace.
    fn enqueue_until(&mut self, brace_count: i64) -> LexResult<()> {
        use TokenKind::*;
        self.skip_ws();
        let queue_size = self.out.len();
        while !self.eos() {
            match self.lex_token()? {
                Step::Direct(tok) => {
                    self.after = Some(tok.kind);
                    if tok.kind == RBrace && self.brace_count == brace_count {
                        // a single token, or a first token followed by `.` or `[`, is a
                        // variable's name (`${x}`, `${x[0]}`, `${x.y}`)
                        let qlength = self.out.len() - queue_size;
                        if qlength == 1
                            || (qlength > 1
                                && matches!(self.out[queue_size + 1].kind, Dot | LBrack))
                        {
                            transform_to_variable(&mut self.out[queue_size]);
                        }
                        return Ok(());
                    }
                    self.out.push(tok);
                }
                Step::Queued => {}
                Step::Nothing => {
                    self.skip_ws();
                }
            }
        }
        Ok(())
    }
}

fn transform_to_variable(tok: &mut Tok) {
    if matches!(
        tok.kind,
        TokenKind::Number | TokenKind::Name | TokenKind::Word
    ) || tok.kind.is_keyword()
    {
        tok.kind = TokenKind::Variable;
    }
}

fn boxed(bytes: Vec<u8>) -> Box<str> {
    match String::from_utf8(bytes) {
        Ok(s) => s.into_boxed_str(),
        Err(e) => String::from_utf8_lossy(e.as_bytes())
            .into_owned()
            .into_boxed_str(),
    }
}

fn find(s: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > s.len() {
        return None;
    }
    s[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

/// The last character of `s[..end]`.
fn last_char(s: &[u8], end: usize) -> Option<char> {
    let mut start = end.checked_sub(1)?;
    while start > 0 && end - start < 4 && (s[start] & 0xC0) == 0x80 {
        start -= 1;
    }
    std::str::from_utf8(&s[start..end]).ok()?.chars().next()
}

/// `value.sub(PATTERN_REGEX_A, '').sub(PATTERN_REGEX_Z, '').gsub(PATTERN_REGEX_ESC, '/')`
fn regex_source(value: &[u8]) -> Vec<u8> {
    let inner = &value[1..value.len() - 1];
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == b'\\' && inner.get(i + 1) == Some(&b'/') {
            out.push(b'/');
            i += 2;
        } else {
            out.push(inner[i]);
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Heredocs (heredoc_support.rb)

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
                while r < h.len() && (h[r].is_ascii_alphanumeric() || h[r] == b'_' || h[r] == b'+')
                {
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
            return Some(HeredocHeader {
                tag,
                syntax,
                escapes,
            });
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
            let found = EndLine {
                leading: (start, lead_end),
                margin: bar,
                remove_break: dash,
            };
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
        let acc = |line: usize| {
            self.accumulated
                .get(line)
                .or(self.accumulated.last())
                .copied()
                .unwrap_or(0)
        };
        let start_line = self.line_for_offset(offset);
        let end_line = self.line_for_offset(offset + length);
        let start = if offset == 0 {
            self.leading_offset
        } else {
            offset + self.leading_offset + acc(start_line)
        };
        (
            start,
            (length + acc(end_line)).saturating_sub(acc(start_line)),
        )
    }
}

impl<'a> Lexer<'a> {
    /// `heredoc`, at `@(`.
    fn heredoc(&mut self) -> LexResult<Step> {
        let before = self.pos;
        if self.sub.is_some() {
            // Every path of `heredoc` computes a lex error's position (`eof_error` is created
            // up front), which a SubLocator cannot do.
            return Err(positionless(NIL_PLUS, before));
        }
        let Some(close) = self.s[before..]
            .iter()
            .position(|&b| b == b')')
            .map(|i| before + i)
        else {
            self.matched = None;
            let message = format!(
                "Unclosed parenthesis after '@(' followed by '{}'",
                self.followed_by()
            );
            return Err(self.error(message, before));
        };
        self.matched = Some((close, close + 1));
        self.pos = close + 1;
        let pos_after_heredoc = self.pos;
        let header = &self.s[before..pos_after_heredoc];
        let Some(m) = match_heredoc_header(header) else {
            return Err(self.error(
                "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])",
                self.pos,
            ));
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
            if given
                .iter()
                .any(|&c| std::mem::replace(&mut seen[c as usize], true))
            {
                let list: Vec<std::string::String> =
                    given.iter().map(|&c| (c as char).to_string()).collect();
                return Err(self.error(
                    format!(
                        "An escape char for @() may only appear once. Got '{}'",
                        list.join(", ")
                    ),
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
        let syntax = m.syntax.map_or(std::string::String::new(), |(a, b)| {
            std::string::String::from_utf8_lossy(&header[a..b]).into_owned()
        });
        self.push(
            TokenKind::Heredoc,
            before,
            pos_after_heredoc - before,
            Some(syntax.into()),
        );

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
                    margins.push(ruby_char_len(leading));
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
            self.push(
                TokenKind::Sublocate,
                heredoc_offset,
                lines_len,
                Some(inspect.into()),
            );

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
            let mut sub = Lexer::new(
                &text,
                Some(SubMode { escapes, pattern }),
                self.stack + STRING_FRAME,
            );
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
            line_index.extend(
                text.iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            );
            let locator = SubLocator {
                leading_offset: heredoc_offset,
                has_margin: end_line.margin,
                line_index,
                accumulated,
            };
            for tok in sub.out {
                let (start, len) = locator.to_global(tok.start, tok.len);
                let value = tok.value.unwrap_or_else(|| {
                    let a = tok.start.min(text.len());
                    let b = (tok.start + tok.len).clamp(a, text.len());
                    plain_value(tok.kind, &text[a..b])
                });
                self.out.push(Tok {
                    kind: tok.kind,
                    start,
                    len,
                    value: Some(value),
                });
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
fn ruby_inspect_lines(s: &[u8], lines: &[(usize, usize)]) -> std::string::String {
    let mut out = std::string::String::from("[");
    for (i, &(a, b)) in lines.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&poppet_ruby::string::inspect(&std::string::String::from_utf8_lossy(
            &s[a..b],
        )));
    }
    out.push(']');
    out
}

// ---------------------------------------------------------------------------------------
// Regular expressions

/// What `Regexp.new(source)` does with a regular expression's text in Puppet's lexer: the
/// errors Ruby 3.1 raises (its escape preprocessing, then Onigmo's parser and the checks its
/// compiler makes), with Ruby's messages, and `Regexp#to_s`, the REGEX token's value.
///
/// Known gaps: subexpression calls (`\g<…>`) are not checked for `never ending recursion`;
/// look-behind lengths ignore case folding and calls; parse depth and other resource limits
/// are approximations.
mod regex {
    const MAX_REPEAT: u64 = 100_000;
    const MAX_NESTING: usize = 4096;

    /// `Regexp.new(source)`: `Err` holds Ruby's message, `MESSAGE: /SOURCE/`.
    pub(super) fn check(src: &str) -> Result<(), String> {
        validate(src, false).map_err(|m| format!("{m}: /{}/", expr_str(src, true)))
    }

    fn validate(src: &str, extended: bool) -> Result<(), String> {
        let pattern = preprocess(src.as_bytes()).map_err(str::to_string)?;
        Onig::new(&pattern, extended).parse()
    }

    /// Ruby's `Regexp#to_s` for a regexp made by `Regexp.new(source)` (no options).
    pub(super) fn to_s(src: &str) -> String {
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
    fn expr_str(s: &str, in_error: bool) -> String {
        let need_escape = s
            .chars()
            .any(|c| c == '/' || (c.is_ascii() && !(' '..='~').contains(&c)));
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
        s.iter().fold(0u32, |v, &b| {
            v.saturating_mul(16)
                .saturating_add((b as char).to_digit(16).unwrap_or(0))
        })
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
                let n = super::char_len_at(s, p);
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
                let n = super::char_len_at(s, p);
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
                        let n = s[p - 1..]
                            .iter()
                            .take(3)
                            .take_while(|b| (b'0'..=b'7').contains(b))
                            .count();
                        s[p - 1..p - 1 + n]
                            .iter()
                            .fold(0u32, |v, b| v * 8 + u32::from(b - b'0'))
                            <= 0o177
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
                        let is_space =
                            |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r');
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
                    let n = s[*p..]
                        .iter()
                        .take(3)
                        .take_while(|b| (b'0'..=b'7').contains(b))
                        .count();
                    code = s[*p..*p + n]
                        .iter()
                        .fold(0u32, |v, b| v * 8 + u32::from(b - b'0'));
                    *p += n;
                }
                b'x' => {
                    let n = s[*p..]
                        .iter()
                        .take(2)
                        .take_while(|b| b.is_ascii_hexdigit())
                        .count();
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
            let n = super::char_len_at(self.s, i);
            std::str::from_utf8(self.s.get(i..i + n)?)
                .ok()?
                .chars()
                .next()
        }

        /// Fetches one character (PFETCH).
        fn fetch(&mut self) -> Option<char> {
            if self.p >= self.s.len() {
                return None;
            }
            let c = self.char_at(self.p).unwrap_or('\u{FFFD}');
            self.p += super::char_len_at(self.s, self.p);
            Some(c)
        }

        fn peek_is(&self, b: u8) -> bool {
            self.s.get(self.p) == Some(&b)
        }

        fn scan_number(&self, from: usize) -> (u64, usize) {
            let n = self.s[from.min(self.s.len())..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let v = self.s[from..from + n].iter().fold(0u64, |v, b| {
                v.saturating_mul(10).saturating_add((b - b'0') as u64)
            });
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
                        self.p += super::char_len_at(self.s, self.p);
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
                            return Err(format!(
                                "undefined name <{}> reference",
                                String::from_utf8_lossy(name)
                            ));
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
            let bad_backref = self
                .backrefs
                .iter()
                .find(|(_, n)| *n <= 0 || *n as usize > self.groups)
                .map(|(at, _)| *at);
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
                            let m = self.s[self.p - 1..]
                                .iter()
                                .take(3)
                                .take_while(|b| (b'0'..=b'7').contains(b))
                                .count();
                            self.p = self.p - 1 + m;
                        }
                        self.atom(Len::Fixed(1));
                    }
                }
                '0' => {
                    let m = self.s[self.p..]
                        .iter()
                        .take(2)
                        .take_while(|b| (b'0'..=b'7').contains(b))
                        .count();
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
                    let m = self.s[self.p..]
                        .iter()
                        .take(2)
                        .take_while(|b| b.is_ascii_hexdigit())
                        .count();
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
            Err(format!(
                "invalid character property name {{{}}}",
                self.text(start, prev)
            ))
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
                return Err(format!(
                    "invalid group name <{}>",
                    self.text(start, name_end)
                ));
            }
            if is_num != 0 {
                let (n, _) = self.scan_number(num_head);
                if n == 0 {
                    return Err(format!(
                        "invalid group name <{}>",
                        self.text(start, self.s.len())
                    ));
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
                    return Err(format!(
                        "undefined name <{}> reference",
                        String::from_utf8_lossy(name)
                    ));
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
        fn fetch_name(
            &mut self,
            open: u8,
            is_ref: bool,
        ) -> Result<(usize, usize, Option<i64>), String> {
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
                            err = Some(if is_word_char(c) {
                                "invalid group name"
                            } else {
                                "invalid char in group name"
                            });
                            break;
                        }
                    }
                }
                if err.is_none() {
                    if c != end_code {
                        return Err(format!(
                            "invalid group name <{}>",
                            self.text(start, self.s.len())
                        ));
                    }
                    if is_num != 0 {
                        let (n, _) = self.scan_number(num_head);
                        if n == 0 {
                            return Err(format!(
                                "invalid group name <{}>",
                                self.text(start, name_end)
                            ));
                        }
                        return Ok((start, name_end, Some(n as i64 * sign)));
                    }
                    return Ok((start, name_end, None));
                }
                if c == end_code || c == ')' {
                    // `-` alone: the name's end was reached, no teardown
                    return Err(format!(
                        "{} <{}>",
                        err.unwrap_or("invalid group name"),
                        self.text(start, name_end)
                    ));
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
            Err(format!(
                "{} <{}>",
                err.unwrap_or("invalid group name"),
                self.text(start, name_end)
            ))
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
                                return Err(format!(
                                    "undefined name <{}> reference",
                                    String::from_utf8_lossy(name)
                                ));
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
                        CcState::Start | CcState::Complete => {
                            *top = (CcState::Value, u32::from(b'-'), false)
                        }
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
            self.p = if self.s.get(save) == Some(&b'^') {
                save + 1
            } else {
                save
            };
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
                            let m = self.s[self.p..]
                                .iter()
                                .take(2)
                                .take_while(|b| b.is_ascii_hexdigit())
                                .count();
                            let v = hex_value(&self.s[self.p..self.p + m]);
                            self.p += m;
                            CcTok::Char(v)
                        }
                        '0'..='7' => {
                            self.p -= 1;
                            let m = self.s[self.p..]
                                .iter()
                                .take(3)
                                .take_while(|b| (b'0'..=b'7').contains(b))
                                .count();
                            let v = self.s[self.p..self.p + m]
                                .iter()
                                .fold(0u32, |v, b| v * 8 + u32::from(b - b'0'));
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
                "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
                "space", "upper", "xdigit", "ascii", "word",
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
                self.p += super::char_len_at(self.s, self.p);
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
            p += super::char_len_at(s, p);
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
        !key.is_empty()
            && PROPERTY_NAMES
                .split(' ')
                .any(|n| n.as_bytes() == key.as_slice())
    }

    fn branch_len(f: &Frame) -> Len {
        if f.atoms == 1 && f.single == Len::TopAlt {
            Len::TopAlt
        } else {
            f.cur
        }
    }
}
