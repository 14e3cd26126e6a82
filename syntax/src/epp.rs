//! EPP templates (Embedded Puppet): text with Puppet code in tags.
//!
//! | tag            | meaning                                                           |
//! |----------------|-------------------------------------------------------------------|
//! | `<% code %>`   | code, evaluated for its effect                                    |
//! | `<%= expr %>`  | the value of the expression, rendered into the text               |
//! | `<%# text %>`  | a comment                                                         |
//! | `<%- ...`      | also removes the spaces and tabs before the tag on its line       |
//! | `... -%>`      | also removes the line break right after the tag                   |
//! | `<%%`, `%%>`   | a literal `<%` / `%>` in the text                                 |
//! | `<%- \|$a, $b = 1\| -%>` | the template's parameters: the first tag, before any text |
//!
//! Puppet lexes a template as one token stream, so a tag may open a block that a later tag
//! closes (`<% $xs.each |$x| { %>…<% } %>`). The template is read here the same way: it is
//! rewritten as one Puppet function whose body is the code with the text and rendered
//! expressions as calls of [`TEXT`] and [`RENDER`], and that function is parsed with the
//! Puppet parser. Code keeps its lines; `Template::template_offset` maps a position in the
//! rewritten source back to the template for messages.

use crate::ast::{ExprKind, Parameter, Span};
use crate::{Diagnostic, Expr};

/// The function a text part becomes: it appends its one argument, a string, to the output.
pub const TEXT: &str = "epp_text__";
/// The function a `<%= expr %>` becomes: it appends the value, rendered as interpolation
/// renders it.
pub const RENDER: &str = "epp_render__";
const FUNCTION: &str = "epp_template__";

/// A parsed template: its parameters (`None` when it declares none) and its body.
#[derive(Clone, Debug)]
pub struct Template {
    pub parameters: Option<Vec<Parameter>>,
    pub body: Option<Expr>,
    /// Pieces of code copied from the template: (offset in the rewritten source, offset in
    /// the template, length).
    pieces: Vec<(usize, usize, usize)>,
    /// What the rewritten source has in place of Puppet's template tokens (see [`Synthetic`]).
    synthetic: Vec<Synthetic>,
    /// The closing tag (in `synthetic`) of the first `<%= %>` whose expression leaves a
    /// bracket open: Puppet's parser fails there, at the `%>` it meets inside the
    /// expression, where the rewritten source would go on.
    incomplete: Option<usize>,
    template: String,
    /// What validation found on the way, placed in the template (see [`Checked`]).
    warnings: Vec<Diagnostic>,
    logged: Vec<Diagnostic>,
    /// Whether the parsed code is validated.
    validate: bool,
}

/// Rewritten source standing for one of the tokens Puppet's lexer makes of a template (a
/// text's `RENDER_STRING`, the `RENDER_EXPR` of `<%=`, its closing `EPPEND`): a syntax
/// error there is Puppet's at that token, `Syntax error at 'VALUE'`, placed where it is.
#[derive(Clone, Debug)]
struct Synthetic {
    /// The range of the rewritten source.
    range: std::ops::Range<usize>,
    /// The token's value, as the message shows it.
    value: String,
    /// Its offset in the template.
    at: usize,
}

/// Where the positions of a template's rewritten source are in the template (see
/// [`Template::positions`]).
#[derive(Clone, Debug, Default)]
pub struct Positions {
    pieces: Vec<(usize, usize, usize)>,
    template: String,
}

impl Positions {
    /// The line and column in the template of a position of the rewritten source.
    pub fn position(&self, span: Span) -> (u32, u32) {
        position_of(&self.template, offset_in(&self.pieces, span.start))
    }
}

impl Template {
    /// The line and column in the template of a position of the rewritten source (what the
    /// evaluator's spans are in). A position in generated text is placed at the start of
    /// the nearest piece of code before it.
    pub fn template_position(&self, span: Span) -> (u32, u32) {
        let offset = self.template_offset(span.start);
        position_of(&self.template, offset)
    }

    /// The map from the rewritten source's positions to the template's, to keep while the
    /// template is evaluated (for the positions of warnings).
    pub fn positions(&self) -> Positions {
        Positions { pieces: self.pieces.clone(), template: self.template.clone() }
    }

    /// The template offset of a rewritten-source offset.
    fn template_offset(&self, offset: usize) -> usize {
        offset_in(&self.pieces, offset)
    }
}

/// The template offset of a rewritten-source offset, given the pieces of code copied.
fn offset_in(pieces: &[(usize, usize, usize)], offset: usize) -> usize {
    let mut best = 0;
    for &(at, orig, len) in pieces {
        if offset >= at && offset <= at + len {
            return orig + (offset - at);
        }
        if offset > at + len {
            best = orig + len;
        }
    }
    best
}

/// The 1-based line and column (in characters) of a byte offset.
fn position_of(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(column).unwrap_or(u32::MAX))
}

/// A piece of the template.
enum Part<'a> {
    /// Text, and the template offset where Puppet's lexer starts scanning it (right after
    /// the tag before it).
    Text(String, usize),
    /// Code copied as it is, at its template offset.
    Code(&'a str, usize),
    /// A rendered expression: its code at its template offset, where the `RENDER_EXPR`
    /// token is (where the scan of the text before the tag started) and where the tag's
    /// closing `%>` (or `-%>`) is.
    Render { code: &'a str, at: usize, open: usize, close: usize, trim: bool },
}

impl Template {
    /// A template of `template`'s text with nothing read from it yet.
    fn empty(template: &str) -> Template {
        Template {
            parameters: None,
            body: None,
            pieces: Vec::new(),
            synthetic: Vec::new(),
            incomplete: None,
            template: template.to_owned(),
            warnings: Vec::new(),
            logged: Vec::new(),
            validate: true,
        }
    }
}

/// A template as Puppet's `EvaluatingEppParser` reads it: what its validation warned of and,
/// when it gave up after several errors, each of them (Puppet logs both, placed in the
/// template), then the template or the error that stopped it.
#[derive(Debug)]
pub struct Checked {
    pub warnings: Vec<Diagnostic>,
    pub logged: Vec<Diagnostic>,
    pub result: Result<Template, Diagnostic>,
}

/// Parses a template. A malformed one is Puppet's message for it, placed in the template
/// (`Unbalanced epp tag, reached <eof> without closing tag.`, `Syntax error at '}'`).
pub fn parse_template(template: &str) -> Result<Template, Diagnostic> {
    check(template).result
}

/// Parses and validates a template, keeping what validation logged (see [`Checked`]).
pub fn check(template: &str) -> Checked {
    checked(template, true)
}

/// Parses a template without validating it (syntax errors only, as Puppet's parser alone
/// reports them).
pub fn check_syntax(template: &str) -> Checked {
    checked(template, false)
}

fn checked(template: &str, validate: bool) -> Checked {
    let mut out = Template::empty(template);
    out.validate = validate;
    let result = read(template, &mut out);
    let warnings = std::mem::take(&mut out.warnings);
    let logged = std::mem::take(&mut out.logged);
    Checked { warnings, logged, result: result.map(|()| out) }
}

/// Reads the template's parameters and body into `out`.
fn read(template: &str, out: &mut Template) -> Result<(), Diagnostic> {
    let (parts, params) = split(template)?;
    if let Some((params, at)) = params {
        // the parameters, as those of a function
        let head = format!("function {FUNCTION}(");
        let source = format!("{head}{params}) {{}}");
        let pieces = vec![(head.len(), at, params.len())];
        let program = out.parse_mapped(&source, pieces, false)?;
        if let Some(ExprKind::Function { parameters, .. }) = program.body.map(|b| b.kind) {
            out.parameters = Some(parameters);
        }
    }
    let (source, pieces, synthetic) = rewrite(&parts, out);
    out.synthetic = synthetic;
    out.body = out.parse_mapped(&source, pieces, true)?.body;
    out.synthetic = Vec::new();
    out.incomplete = None;
    Ok(())
}

/// The body's rewritten source: text parts and rendered expressions as calls of [`TEXT`] and
/// [`RENDER`], code as it is; with where its pieces of code come from and what stands for
/// Puppet's template tokens (noting in `out` the first rendered expression left open).
#[allow(clippy::type_complexity)]
fn rewrite(parts: &[Part<'_>], out: &mut Template) -> (String, Vec<(usize, usize, usize)>, Vec<Synthetic>) {
    let mut source = String::with_capacity(out.template.len() + 64);
    let mut pieces = Vec::new();
    let mut synthetic = Vec::new();
    for part in parts {
        match part {
            Part::Text(text, at) => {
                let start = source.len();
                source.push_str(TEXT);
                source.push_str("('");
                for c in text.chars() {
                    if c == '\\' || c == '\'' {
                        source.push('\\');
                    }
                    source.push(c);
                }
                source.push_str("')\n");
                synthetic.push(Synthetic { range: start..source.len(), value: text.clone(), at: *at });
            }
            Part::Code(code, at) => {
                pieces.push((source.len(), *at, code.len()));
                source.push_str(code);
                source.push('\n');
            }
            Part::Render { code, at, open, close, trim } => {
                let start = source.len();
                source.push_str(RENDER);
                source.push('(');
                synthetic.push(Synthetic { range: start..source.len(), value: String::new(), at: *open });
                pieces.push((source.len(), *at, code.len()));
                source.push_str(code);
                let start = source.len();
                source.push_str("\n)\n");
                if out.incomplete.is_none() && opens_brackets(code) {
                    out.incomplete = Some(synthetic.len());
                }
                let value = if *trim { "-%>" } else { "%>" };
                synthetic.push(Synthetic { range: start..source.len(), value: value.into(), at: *close });
            }
        }
    }
    (source, pieces, synthetic)
}

impl Template {
    /// Parses rewritten source whose pieces of template code are `pieces`; a syntax error
    /// is placed in the template. The body's pieces are the ones kept for positions. `body`:
    /// the source is the template's body (validated as a lambda's), not its parameters.
    fn parse_mapped(
        &mut self,
        source: &str,
        pieces: Vec<(usize, usize, usize)>,
        body: bool,
    ) -> Result<crate::Program, Diagnostic> {
        self.pieces = pieces;
        let place = |t: &Template, d: Diagnostic| {
            // a lexical error is the one Puppet's lexer meets in the template's one stream
            if !d.message.starts_with("Syntax error") {
                if let Some(lexical) = crate::lexer::lex_epp(&t.template).error {
                    return lexical;
                }
            }
            // past an expression that leaves a bracket open, the error is at its `%>`
            let incomplete = t.incomplete.and_then(|i| t.synthetic.get(i));
            if let Some(token) = incomplete.filter(|_| d.message.starts_with("Syntax error at ")) {
                if d.message.ends_with("at end of input") || d.span.start >= token.range.start {
                    let (line, column) = position_of(&t.template, token.at);
                    let span = Span { start: token.at, end: token.at, line, column };
                    return Diagnostic::error(format!("Syntax error at '{}'", token.value), span);
                }
            }
            // the end of the input has no position (as in Puppet's message for it)
            if d.message.ends_with("at end of input") {
                return Diagnostic::error(d.message, Span::default());
            }
            // a syntax error at rewritten source is Puppet's at the token it stands for
            if d.message.starts_with("Syntax error at '") {
                if let Some(token) = t.synthetic.iter().find(|s| s.range.contains(&d.span.start)) {
                    let (line, column) = position_of(&t.template, token.at);
                    let span = Span { start: token.at, end: token.at, line, column };
                    return Diagnostic::error(format!("Syntax error at '{}'", token.value), span);
                }
            }
            let (line, column) = t.template_position(d.span);
            Diagnostic::error(d.message, Span { line, column, ..d.span })
        };
        let program = crate::parse(source).map_err(|diags| {
            place(self, diags.into_iter().next().unwrap_or_else(|| Diagnostic::error("Syntax error", Span::default())))
        })?;
        // Puppet's validation of what was parsed (as a lambda's body): its error, or how
        // many there were (with no place)
        let diagnostics = match (self.validate, body) {
            (false, _) => Vec::new(),
            (true, true) => crate::validate_template(&program),
            (true, false) => crate::validate(&program),
        };
        let (mut errors, warned): (Vec<Diagnostic>, Vec<Diagnostic>) =
            diagnostics.into_iter().partition(|d| d.severity == crate::Severity::Error);
        let warnings = warned.len();
        for w in warned {
            let (line, column) = self.template_position(w.span);
            self.warnings.push(Diagnostic { span: Span { line, column, ..w.span }, ..w });
        }
        match errors.len() {
            0 => Ok(program),
            1 => Err(place(self, errors.remove(0))),
            // several: Puppet logs each, then counts them (with no place)
            n => {
                let message = match warnings {
                    0 => format!("Language validation logged {n} errors. Giving up"),
                    _ => format!("Language validation logged {n} errors, and {warnings} warnings. Giving up"),
                };
                let mut d = Diagnostic::error(message, Span::default());
                d.logged = errors.iter().map(|e| e.message.clone()).collect();
                self.logged = errors.into_iter().map(|e| place(self, e)).collect();
                Err(d)
            }
        }
    }
}

/// The template's parts, and its parameter list (the text between the pipes, with its
/// offset) when the first tag declares one.
#[allow(clippy::type_complexity)]
fn split(template: &str) -> Result<(Vec<Part<'_>>, Option<(&str, usize)>), Diagnostic> {
    let bytes = template.as_bytes();
    let lexed = crate::lexer::lex_epp(template);
    let mut parts = Vec::new();
    let mut params = None;
    let mut text = String::new();
    let mut i = 0;
    let mut seen_tag = false;
    // where the scan of the current text started: after the tag before it (comments are
    // part of the text's scan)
    let mut text_start = 0;
    // Puppet's `EppScanner#scan` gives no text at all when the template ends right after a
    // comment or a `<%%` (its loop ends before it returns what it scanned)
    let mut lost_at_end = false;
    while i < bytes.len() {
        if template[i..].starts_with("<%%") {
            text.push_str("<%");
            i += 3;
            lost_at_end = i == bytes.len();
            continue;
        }
        lost_at_end = false;
        if template[i..].starts_with("%%>") {
            text.push_str("%>");
            i += 3;
            continue;
        }
        if !template[i..].starts_with("<%") {
            let c = template[i..].chars().next().unwrap_or('\0');
            text.push(c);
            i += c.len_utf8().max(1);
            continue;
        }
        // a tag
        let tag_start = i;
        i += 2;
        let trim_left = bytes.get(i) == Some(&b'-');
        if trim_left {
            i += 1;
            text.truncate(text.trim_end_matches([' ', '\t']).len());
        }
        let kind = match bytes.get(i) {
            Some(b'=') => {
                i += 1;
                b'='
            }
            Some(b'#') => {
                i += 1;
                b'#'
            }
            _ => b' ',
        };
        let (end, close_len, trim_right) = if kind == b'#' {
            // the first `%>` not after a `%` (`/[^%]%>/` from the `#`)
            let close = (i..bytes.len()).find(|&k| bytes[k..].starts_with(b"%>") && bytes[k - 1] != b'%');
            match close {
                Some(end) => {
                    let trim = end > i && bytes[end - 1] == b'-';
                    (if trim { end - 1 } else { end }, if trim { 3 } else { 2 }, trim)
                }
                None => return Err(lexed.error.clone().unwrap_or_else(|| unbalanced(template, tag_start))),
            }
        } else {
            // where Puppet's lexer ends the code (strings and comments in it hold `%>`)
            match lexed.closes.iter().find(|(at, _)| *at >= i) {
                Some(&(end, trim)) => (end, if trim { 3 } else { 2 }, trim),
                None => return Err(lexed.error.clone().unwrap_or_else(|| unbalanced(template, tag_start))),
            }
        };
        let code = &template[i..end];
        if kind == b'#' {
            // the text goes on after a comment (`<%#-` trims the blanks before it)
            if bytes.get(i) == Some(&b'-') {
                text.truncate(text.trim_end_matches([' ', '\t']).len());
            }
            i = end + close_len;
            lost_at_end = i == bytes.len();
            if trim_right {
                i = template.len() - trim_leading(&template[i..]).len();
            }
            continue;
        }
        if !text.is_empty() {
            parts.push(Part::Text(std::mem::take(&mut text), text_start));
        }
        match kind {
            // `<%= %>`: Puppet's parser meets the closing tag where an expression must be
            b'=' if code.trim().is_empty() => {
                let (line, column) = position_of(template, end);
                let message = if trim_right { "Syntax error at '-%>'" } else { "Syntax error at '%>'" };
                return Err(Diagnostic::error(message, Span { start: end, end, line, column }));
            }
            b'=' => parts.push(Part::Render { code, at: i, open: text_start, close: end, trim: trim_right }),
            _ => {
                let trimmed = code.trim_start();
                let first = !seen_tag && parts.is_empty();
                let pipe = i + (code.len() - trimmed.len());
                match (trimmed.strip_prefix('|'), trimmed.trim_end().strip_suffix('|')) {
                    (Some(_), Some(_)) if first && trimmed.trim_end().len() >= 2 => {
                        let inner_end = i + code.trim_end().len() - 1;
                        params = template.get(pipe + 1..inner_end).map(|p| (p, pipe + 1));
                    }
                    // a parameter list that is not closed: Puppet's parser meets the text
                    // after the tag (a `RENDER_STRING`, trimmed), or the end of input
                    (Some(_), _) if first => return Err(unclosed_parameters(template, end + close_len, trim_right)),
                    // a parameter list anywhere else: no statement starts with `|`
                    (Some(_), _) => {
                        let (line, column) = position_of(template, pipe);
                        return Err(Diagnostic::error(
                            "Syntax error at '|'",
                            Span { start: pipe, end: pipe + 1, line, column },
                        ));
                    }
                    _ => parts.push(Part::Code(code, i)),
                }
            }
        }
        seen_tag = true;
        i = end + close_len;
        text_start = i;
        if trim_right {
            i = template.len() - trim_leading(&template[i..]).len();
        }
    }
    // the text after the last tag, even when empty (Puppet's lexer gives a `RENDER_STRING`
    // of what it scans at the end, `(render-s '')` in the old dump)
    if !lost_at_end && (!text.is_empty() || text_start < template.len()) {
        parts.push(Part::Text(text, text_start));
    }
    Ok((parts, params))
}

/// The text after a `-%>` without what it trims: the blanks after the tag and the line
/// break after them (`/^[ \t]*\r?(?:\n|\z)?/`).
fn trim_leading(text: &str) -> &str {
    let rest = text.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix('\r').unwrap_or(rest);
    rest.strip_prefix('\n').unwrap_or(rest)
}

/// Whether the code leaves a bracket (`(`, `[`, `{`, `<|`, `<<|`) open, as Puppet's lexer
/// reads its tokens.
fn opens_brackets(code: &str) -> bool {
    use crate::lexer::TokenKind as K;
    let mut depth = 0i64;
    for token in crate::lexer::lex(code).tokens {
        match token.kind {
            K::LParen
            | K::WsLParen
            | K::LBrack
            | K::ListStart
            | K::LBrace
            | K::SelBrace
            | K::LCollect
            | K::LLCollect => depth += 1,
            K::RParen | K::RBrack | K::RBrace | K::RCollect | K::RRCollect => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

/// Puppet's error for a parameter list whose tag closes before its `|`: at the text after
/// the tag, when there is some, else at the end of input.
fn unclosed_parameters(template: &str, after: usize, trim: bool) -> Diagnostic {
    let raw = template.get(after..).unwrap_or_default();
    let raw = raw.find("<%").map_or(raw, |k| &raw[..k]);
    if raw.is_empty() {
        return Diagnostic::error("Syntax error at end of input", Span::default());
    }
    let value = if trim {
        let rest = raw.trim_start_matches([' ', '\t']);
        rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n')).unwrap_or(rest)
    } else {
        raw
    };
    let (line, column) = position_of(template, after);
    Diagnostic::error(format!("Syntax error at '{value}'"), Span { start: after, end: after, line, column })
}

/// Puppet's error for a tag that is not closed, placed at the end of the template.
fn unbalanced(template: &str, _tag_start: usize) -> Diagnostic {
    let (line, column) = position_of(template, template.len());
    Diagnostic::error(
        "Unbalanced epp tag, reached <eof> without closing tag.",
        Span { start: template.len(), end: template.len(), line, column },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<String> {
        match split(t) {
            Ok((parts, _)) => parts
                .iter()
                .map(|p| match p {
                    Part::Text(s, _) => format!("T:{s}"),
                    Part::Code(c, _) => format!("C:{c}"),
                    Part::Render { code, .. } => format!("R:{code}"),
                })
                .collect(),
            Err(d) => vec![format!("E:{}", d.message)],
        }
    }

    #[test]
    fn tags_and_trimming() {
        assert_eq!(texts("a<%= 1 %>b"), ["T:a", "R: 1 ", "T:b"]);
        assert_eq!(texts("  <%- $a = 1 -%>\nx"), ["C: $a = 1 ", "T:x"]);
        assert_eq!(texts("abc  <%- $a = 1 %>x"), ["T:abc", "C: $a = 1 ", "T:x"]);
        assert_eq!(texts("<%= 1 -%>  \nx"), ["R: 1 ", "T:x"]);
        assert_eq!(texts("x<%# c %>y <%% z %%>"), ["T:xy <% z %>"]);
        // recorded from `puppet epp dump`: the text before a comment that ends the template
        // is lost, the text after a trimming tag is there even when empty
        assert_eq!(texts("x<%# c %>"), Vec::<String>::new());
        assert_eq!(texts("<% $a = 1 -%>\n"), ["C: $a = 1 ", "T:"]);
        assert_eq!(texts("<%# c -%>\n"), ["T:"]);
        assert_eq!(texts("<%= '%>' %>"), ["R: '%>' "]);
        assert_eq!(texts("a<%= 1 "), ["E:Unbalanced epp tag, reached <eof> without closing tag."]);
    }

    #[test]
    fn parameters_come_first() {
        let params = |t| split(t).ok().and_then(|(_, p)| p).map(|p| p.0);
        assert_eq!(params("<%- | $x, $y = 1 | -%>\nhi"), Some(" $x, $y = 1 "));
        assert_eq!(params("x <%| $a |%>"), None);
        assert_eq!(params("  <%| $a |%>"), None);
        assert_eq!(params("<%| -%>"), None);
        assert_eq!(params("<%||%>"), Some(""));
    }

    #[test]
    fn positions_map_back() {
        // `$nope` is at line 2, column 6 of the template
        let t = parse_template("a\nb<%= $nope %>").expect("parses");
        let Some(ExprKind::Block(items)) = t.body.as_ref().map(|b| &b.kind) else { panic!("two statements") };
        let Some(ExprKind::Call { arguments, .. }) = items.get(1).map(|c| &c.kind) else { panic!("a render call") };
        assert_eq!(t.template_position(arguments[0].span), (2, 6));
        assert_eq!(parse_template("a<% } %>").err().map(|d| (d.span.line, d.span.column)), Some((1, 5)));
    }
}
