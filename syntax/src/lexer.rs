//! A port of Puppet 7.23's lexer (`pops/parser/lexer2.rb` with `lexer_support.rb`,
//! `slurp_support.rb`, `interpolation_support.rb` and `heredoc_support.rb`). Its tokens
//! are Puppet's on the whole corpus (`cargo xtask dump tokens` prints them to compare), and
//! `lr.rs` runs Puppet's parser over them, which builds the AST from them (`build.rs`).
//! It also does two jobs the tree-sitter grammar cannot do:
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
//!   hex digits`) are kept in [`Lexed::warnings`], except where logging one crashes Puppet
//!   (in a heredoc's text), which is an error here too.
//! * `Illegal name or bare word` cannot happen: lexer2.rb raises it only when its bare word
//!   pattern fails on a letter or `_`, where it always matches.
//! * An unrecognised character is an `OTHER` token of one byte, as in Puppet (a multibyte
//!   character makes several); its value is empty (`Syntax error at ''`).
//! * A `SUBLOCATE` token (a heredoc's lines) spans those lines' bytes; Puppet's length counts
//!   their characters.
//! * Regular expressions are checked by [`poppet_ruby::regexp::check`], which names the few
//!   checks of Ruby's `Regexp.new` that are not reproduced (`never ending recursion` of
//!   `\g<…>` calls).

use std::borrow::Cow;

use poppet_ruby::string::char_len_at;

use crate::{Diagnostic, Span};

mod heredoc;
mod slurp;

use slurp::{process_escapes, slurp_search, Escapes, Quoting, SlurpProblem, Term};

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
    /// `plan` and `apply`: keywords in tasks mode only.
    Plan,
    Apply,
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
            Plan => "PLAN",
            Apply => "APPLY",
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
                | Plan
                | Apply
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
    /// Puppet's warnings (`Unrecognized escape sequence '\q'`), in the order it logs them,
    /// up to the error if there is one.
    pub warnings: Vec<Diagnostic>,
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
    lex_with(source, false)
}

/// [`lex`], with Puppet's `tasks` setting: `plan` and `apply` are then keywords.
pub fn lex_with(source: &str, tasks: bool) -> Lexed {
    let mut lexed = Lexed::default();
    if let Some(message) = bom_error(source.as_bytes()) {
        lexed.error = Some(no_position(message, 0));
        return lexed;
    }
    let mut lexer = Lexer::new(source.as_bytes(), None, 0);
    lexer.tasks = tasks;
    // real manifests have a token for every 8 to 29 bytes (16 for half of them, comments
    // and indentation counted): the list seldom grows
    lexer.out.reserve(source.len() / 16);
    let result = lexer.scan();
    let Lexer { out, warnings, .. } = lexer;
    lexed.warnings = warnings
        .into_iter()
        .map(|(pos, message)| {
            let (line, column) = locate(source.as_bytes(), pos);
            Diagnostic::warning(message, Span { start: pos, end: pos, line, column })
        })
        .collect();
    let delivered = match &result {
        Ok(()) => out.len(),
        Err((_, delivered)) => *delivered,
    };
    lexed.tokens.reserve_exact(delivered);
    for (i, tok) in out.into_iter().take(delivered).enumerate() {
        lexed.tokens.push(Token { kind: tok.kind, start: tok.start, end: tok.start + tok.len });
        if let Some(value) = tok.value {
            lexed.values.push((i, value));
        }
    }
    if let Err((err, _)) = result {
        lexed.error = Some(match err.pos {
            Some(pos) => {
                let (line, column) = locate(source.as_bytes(), pos);
                Diagnostic::error(err.message, Span { start: pos, end: pos, line, column })
            }
            None => no_position(err.message, err.at),
        });
    }
    lexed
}

/// A template lexed as Puppet's EPP lexer lexes it: one scanner over the whole text,
/// starting in text, where `<%` (`<%-`, `<%=`) starts code and `%>` (`-%>`) ends it, so that
/// a string opened in a tag runs on through the text after it and a heredoc's lines are the
/// template's next lines.
pub struct EppLexed {
    /// Where each tag's code ended: the offset of its `%>`, or of the `-` of `-%>` (`true`).
    pub closes: Vec<(usize, bool)>,
    /// The lexical error that stopped the lexer.
    pub error: Option<Diagnostic>,
}

/// Lexes a template (see [`EppLexed`]).
pub fn lex_epp(template: &str) -> EppLexed {
    let mut lexer = Lexer::new(template.as_bytes(), None, 0);
    lexer.epp = true;
    let result = lexer.epp_text().map_err(|e| (e, 0)).and_then(|()| lexer.scan());
    let error = result.err().map(|(err, _)| match err.pos {
        Some(pos) => {
            let (line, column) = locate(template.as_bytes(), pos);
            Diagnostic::error(err.message, Span { start: pos, end: pos, line, column })
        }
        None => no_position(err.message, err.at),
    });
    EppLexed { closes: lexer.epp_closes, error }
}

/// Checks a file's bytes as Puppet does before lexing: a byte order mark (of any of the
/// encodings lexer_support.rb's `assert_not_bom` knows) is an error, then bytes that are not
/// UTF-8 (`invalid byte sequence in UTF-8`). Both are reported without a position.
pub fn check_encoding(bytes: &[u8]) -> Result<&str, Diagnostic> {
    if let Some(message) = bom_error(bytes) {
        return Err(no_position(message, 0));
    }
    std::str::from_utf8(bytes).map_err(|e| no_position("invalid byte sequence in UTF-8", e.valid_up_to()))
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
            Diagnostic::error(message, Span { start: token.start, end: token.end, line, column })
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
        format!("{} (line: {}, column: {})", diagnostic.message, diagnostic.span.line, diagnostic.span.column)
    }
}

fn no_position(message: impl Into<String>, at: usize) -> Diagnostic {
    Diagnostic::error(message, Span { start: at, end: at, line: 0, column: 0 })
}

/// Puppet's line and column for a byte offset (Locator19: the line is the number of line
/// starts at or before the offset; the column counts the characters of the line up to the
/// offset, plus one, a cut character counting one per byte as Ruby's `String#length` does).
pub fn locate(source: &[u8], offset: usize) -> (u32, u32) {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = poppet_ruby::string::length(&source[line_start..offset]) + 1;
    (line as u32, column as u32)
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
    let n = poppet_ruby::string::utf8_len(*s.get(i)?);
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
            '\u{203F}' | '\u{2040}' | '\u{2054}' | '\u{FE33}' | '\u{FE34}' | '\u{FE4D}'..='\u{FE4F}' | '\u{FF3F}'
        )
        || matches!(c, '\u{300}'..='\u{36F}' | '\u{483}'..='\u{489}' | '\u{591}'..='\u{5BD}' | '\u{610}'..='\u{61A}' | '\u{64B}'..='\u{65F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

fn is_blank_char(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
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
    let decimal_like = digits > 0 && matches!(value.get(digits), Some(b'e') | Some(b'E') | Some(b'.'));
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
    /// Lexing a template (`epp_mode`): `%>` and `-%>` end the code and start text.
    epp: bool,
    /// Puppet's `tasks` setting: `plan` and `apply` are keywords (`@taskm_keywords`).
    tasks: bool,
    /// Where code ended in a template: each `%>` (or the `-` of `-%>`, then `true`).
    epp_closes: Vec<(usize, bool)>,
    /// The warnings logged (`lex_warning`): where, and the message.
    warnings: Vec<(usize, String)>,
}

fn positionless(message: impl Into<String>, at: usize) -> LexErr {
    LexErr { message: message.into(), pos: None, at }
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
            epp: false,
            tasks: false,
            epp_closes: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The keywords of Puppet's tasks mode (lexer2.rb's `@taskm_keywords`).
    fn tasks_keyword(&self, word: &[u8]) -> Option<TokenKind> {
        match word {
            b"plan" if self.tasks => Some(TokenKind::Plan),
            b"apply" if self.tasks => Some(TokenKind::Apply),
            _ => None,
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
            LexErr { message: message.into(), pos: Some(pos), at: pos }
        }
    }

    /// `lex_warning`, at the scanner's position; in a heredoc's text it raises (see `error`).
    fn warning(&mut self, message: String) -> LexResult<()> {
        if self.sub.is_some() {
            Err(positionless(NIL_PLUS, self.pos))
        } else {
            self.warnings.push((self.pos, message));
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
        Step::Direct(Tok { kind, start, len, value: None })
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
        format!("{rest}...").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r")
    }

    /// lexer_support.rb's `format_quote` of the scanner's last match.
    fn format_last_match(&self) -> String {
        let q = self.matched.map_or(Cow::Borrowed(""), |(a, b)| String::from_utf8_lossy(&self.s[a..b]));
        if q == "'" {
            "\"'\"".to_string()
        } else {
            format!("'{q}'")
        }
    }

    /// epp_support.rb's `EppScanner#scan`: the text up to the next tag that opens code (or
    /// the end), past literal `<%%` and `<%# ... %>` comments; the scanner's last match is
    /// what it leaves.
    fn epp_text(&mut self) -> LexResult<()> {
        // what comes next follows a text token (`/` after it starts a regexp)
        self.out.push(Tok { kind: TokenKind::Other, start: self.pos, len: 0, value: None });
        while !self.eos() {
            // `scan_until(/(<%)|\z/)`
            let Some(k) = find(self.s, b"<%", self.pos) else {
                self.matched = Some((self.s.len(), self.s.len()));
                self.pos = self.s.len();
                return Ok(());
            };
            self.matched = Some((k, k + 2));
            self.pos = k + 2;
            match self.peek(0) {
                None => {
                    return Err(
                        self.error("Unbalanced embedded expression - opening <% and reaching end of input", self.pos)
                    )
                }
                // `getch`: `<%%` is text
                Some(b'%') => {
                    self.matched = Some((self.pos, self.pos + 1));
                    self.pos += 1;
                }
                Some(b'#') => {
                    // `scan_until(/[^%]%>/)`
                    let end = (self.pos..self.s.len().saturating_sub(2))
                        .find(|&m| self.s[m] != b'%' && self.s[m + 1..].starts_with(b"%>"));
                    let Some(m) = end else {
                        return Err(self.error("Reaching end after opening <%# without seeing %>", self.pos));
                    };
                    self.matched = Some((m, m + 3));
                    self.pos = m + 3;
                }
                Some(b'-' | b'=') => {
                    self.matched = Some((self.pos, self.pos + 1));
                    self.pos += 1;
                    return Ok(());
                }
                Some(_) => return Ok(()),
            }
        }
        Ok(())
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
        if !self.epp {
            self.skip_ws();
        }
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
                    || last_char(self.s, before).is_some_and(|c| is_blank_char(c) || c == '\r' || c == '\n');
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
                        let end = if self.s[before - 1] == b'\n' { before - 1 } else { before };
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
            b'%' if self.epp && la1 == Some(b'>') => {
                self.epp_closes.push((self.pos, false));
                self.pos += 2;
                self.epp_text()?;
                Step::Nothing
            }
            b'%' => self.emit(Modulo, 1),
            b'{' => {
                self.brace_count += 1;
                let kind = if self.after == Some(QMark) { SelBrace } else { LBrace };
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
            b'-' if self.epp && la1 == Some(b'%') && la2 == Some(b'>') => {
                self.epp_closes.push((self.pos, true));
                self.pos += 3;
                self.epp_text()?;
                Step::Nothing
            }
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
                let end = self.s[self.pos..].iter().position(|&b| b == b'\n').map_or(self.s.len(), |i| self.pos + i);
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
                        Step::Direct(Tok { kind: Variable, start: before, len: end - before, value: None })
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
                let Some((match_start, term_start, _)) = slurp_search(self.s, self.pos, Quoting::Single) else {
                    self.matched = None;
                    let message = format!("Unclosed quote after \"'\" followed by '{}'", self.followed_by());
                    return Err(self.error(message, self.pos));
                };
                let end = term_start + 1;
                self.matched = Some((match_start, end));
                let raw = &self.s[self.pos..end];
                self.pos = end;
                let (mut value, _) = process_escapes(raw, None, true).unwrap_or_default();
                value.pop(); // the closing quote
                Step::Direct(Tok { kind: String, start: before, len: end - before, value: Some(boxed(value)) })
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
                let kind = match is_name(word) {
                    true => keyword(word).or_else(|| self.tasks_keyword(word)).unwrap_or(Name),
                    false => Word,
                };
                Step::Direct(Tok { kind, start: before, len: end - before, value: None })
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
                Step::Direct(Tok { kind: ClassRef, start: before, len: end - before, value: None })
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
            None => Err(positionless("undefined method `>=' for nil:NilClass", before)),
            Some(b'A'..=b'Z') => {
                let end = match_classref(self.s, before).unwrap_or(before + 3);
                self.matched = Some((before, end));
                self.pos = end;
                if self.s[end..].starts_with(b"::") {
                    self.set_pos(end + 3)?;
                    return Err(self.error("Illegal fully qualified class reference", self.pos));
                }
                Ok(Step::Direct(Tok { kind: ClassRef, start: before, len: end - before, value: None }))
            }
            Some(_) => match match_bare_word(self.s, before) {
                Some(end) => {
                    self.matched = Some((before, end));
                    self.pos = end;
                    let kind = if is_name(&self.s[before..end]) { Name } else { Word };
                    Ok(Step::Direct(Tok { kind, start: before, len: end - before, value: None }))
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
            return Ok(Step::Direct(Tok { kind: TokenKind::Number, start: before, len: end - before, value: None }));
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
        Err(self.error(format!("Illegal number '{}'", String::from_utf8_lossy(value)), self.pos))
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
        self.matched = Some(if first == end { (before, end + 1) } else { (end, end + 1) });
        self.pos = end + 1;
        let value = &self.s[before..self.pos];
        let body = regex_source(value);
        let body = String::from_utf8_lossy(&body).into_owned();
        if let Err(message) = poppet_ruby::regexp::check(&body) {
            return Err(positionless(message, before));
        }
        let text = poppet_ruby::regexp::to_s(&body);
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
            let run = self.s[..q].iter().rev().take_while(|&&b| b == b'\\').count();
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
        let Some((match_start, term_start, term)) = slurp_search(self.s, self.pos, Quoting::Double) else {
            // `last = scn.matched`, taken before the failed search cleared it
            let last = self.format_last_match();
            self.matched = None;
            let message = format!("Unclosed quote after {last} followed by '{}'", self.followed_by());
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
        let mode = self.sub.unwrap_or(SubMode { escapes: Escapes::UQ, pattern: UqPattern::All });
        let s = self.s;
        let (match_start, term_start, term) = match mode.pattern {
            UqPattern::All => (self.pos, s.len(), Term::End),
            UqPattern::UqNe => match s[self.pos..].iter().position(|&b| b == b'$') {
                Some(i) => {
                    let t = self.pos + i;
                    (t, t, if s.get(t + 1) == Some(&b'{') { Term::DollarBrace } else { Term::Dollar })
                }
                None => (s.len(), s.len(), Term::End),
            },
            UqPattern::Uq => match slurp_search(s, self.pos, Quoting::Unquoted) {
                Some(found) => found,
                // slurp returns nil, and `terminator.length` raises on nil
                None => return Err(positionless("undefined method `length' for nil:NilClass", self.pos)),
            },
        };
        let end = term_start + term.len();
        self.matched = Some((match_start, end));
        let raw = &s[self.pos..end];
        self.pos = end;
        self.processed(raw, Some(mode.escapes), true, term)
    }

    fn processed(
        &mut self,
        raw: &[u8],
        escapes: Option<Escapes>,
        ignore_invalid: bool,
        term: Term,
    ) -> LexResult<(Vec<u8>, Term)> {
        match process_escapes(raw, escapes, ignore_invalid) {
            Ok((mut text, warnings)) => {
                for message in warnings {
                    self.warning(message)?;
                }
                text.truncate(text.len().saturating_sub(term.len()));
                Ok((text, term))
            }
            Err(SlurpProblem::InvalidByteSequence) => Err(positionless("invalid byte sequence in UTF-8", self.pos)),
        }
    }

    fn push(&mut self, kind: TokenKind, start: usize, len: usize, value: Option<Box<str>>) {
        self.out.push(Tok { kind, start, len, value });
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
                    self.push(TokenKind::DqPre, before, self.pos - before, Some(boxed(text)));
                    self.enqueue_until(count)?;
                    break;
                }
                Term::Dollar => {
                    if let Some(end) = match_variable_name(self.s, self.pos) {
                        self.matched = Some((self.pos, end));
                        self.push(TokenKind::DqPre, before, after - before - 1, Some(boxed(text)));
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
                        self.push(TokenKind::DqPost, before, self.pos - before, Some(boxed(text)));
                        return Ok(());
                    }
                    Term::DollarBrace => {
                        let count = self.brace_count;
                        self.brace_count += 1;
                        self.push(TokenKind::DqMid, before, self.pos - before, Some(boxed(text)));
                        self.enqueue_until(count)?;
                        break;
                    }
                    Term::Dollar => {
                        if let Some(end) = match_variable_name(self.s, self.pos) {
                            self.matched = Some((self.pos, end));
                            self.push(TokenKind::DqMid, before, after - before - 1, Some(boxed(text)));
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
                        if qlength == 1 || (qlength > 1 && matches!(self.out[queue_size + 1].kind, Dot | LBrack)) {
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
    // not `plan` and `apply` in tasks mode: Puppet looks their token names up in a table
    // keyed by the words (`@taskm_keywords[:PLAN]`), and finds nothing, so `"${plan}"` is a
    // syntax error there
    let tasks_keyword = matches!(tok.kind, TokenKind::Plan | TokenKind::Apply);
    if matches!(tok.kind, TokenKind::Number | TokenKind::Name | TokenKind::Word)
        || tok.kind.is_keyword() && !tasks_keyword
    {
        tok.kind = TokenKind::Variable;
    }
}

fn boxed(bytes: Vec<u8>) -> Box<str> {
    match String::from_utf8(bytes) {
        Ok(s) => s.into_boxed_str(),
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned().into_boxed_str(),
    }
}

fn find(s: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > s.len() {
        return None;
    }
    s[from..].windows(needle.len()).position(|w| w == needle).map(|i| from + i)
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
