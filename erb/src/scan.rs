//! ERB's compiler as Puppet runs it (`ERB.new(text, trim_mode: '-')`, Ruby 3.1's
//! `ERB::Compiler::ExplicitScanner`): a template becomes text to write, code to run and
//! expressions to write, in order.
//!
//! Outside a tag the scanner looks for `<%%`, `<%=`, `<%#`, `<%-` (which drops the spaces
//! and tabs before it when they begin the line) and `<%`; inside a tag for `-%>` (which
//! also swallows the newline after it), `%%>` and `%>`. `<%%` writes `<%`; `%%>` inside a
//! tag is code `%>`.

/// One part of a compiled template. Offsets are byte offsets into the template, so errors
/// can name its lines.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    /// Text written as it is.
    Text(String),
    /// `<% code %>`: Ruby code run for its effects.
    Code { src: String, at: usize },
    /// `<%= expr %>`: Ruby code whose value's `to_s` is written.
    Insert { src: String, at: usize },
}

/// What a tag opened with.
#[derive(Clone, Copy, PartialEq)]
enum Stag {
    Code,
    Insert,
    Comment,
}

/// The pieces of `template`. What follows a tag left open at the end is text, as ERB has
/// it.
pub fn scan(template: &str) -> Vec<Piece> {
    let b = template.as_bytes();
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < b.len() {
        // outside a tag: find the next start tag
        let Some((start, tag_len, stag)) = next_stag(b, i) else {
            text.push_str(&template[i..]);
            break;
        };
        match stag {
            StartTag::Escaped => {
                text.push_str(&template[i..start]);
                text.push_str("<%");
                i = start + tag_len;
                continue;
            }
            StartTag::Open(kind, trim_indent) => {
                let text_end = if trim_indent { line_indent_start(b, start) } else { start };
                text.push_str(&template[i..text_end]);
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                let code_at = start + tag_len;
                let Some((code, after)) = scan_tag(template, code_at) else {
                    // ERB writes what follows a tag that never closes as text
                    text.push_str(&template[code_at..]);
                    break;
                };
                match kind {
                    Stag::Code => pieces.push(Piece::Code { src: code, at: code_at }),
                    Stag::Insert => pieces.push(Piece::Insert { src: code, at: code_at }),
                    Stag::Comment => {}
                }
                i = after;
            }
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    pieces
}

enum StartTag {
    /// `<%%`
    Escaped,
    /// `<%`, `<%=`, `<%#`, `<%-`; whether the line's indentation before it is dropped.
    Open(Stag, bool),
}

/// The first start tag at or after `from`: its offset, length and kind. `<%-` preceded on
/// its line by spaces and tabs only is found at the line's start (ERB's `^[ \t]*<%-`).
fn next_stag(b: &[u8], from: usize) -> Option<(usize, usize, StartTag)> {
    let mut i = from;
    while i + 1 < b.len() {
        if b[i] == b'<' && b[i + 1] == b'%' {
            return Some(match b.get(i + 2) {
                Some(b'-') => (i, 3, StartTag::Open(Stag::Code, at_line_start(b, i, from))),
                Some(b'%') => (i, 3, StartTag::Escaped),
                Some(b'=') => (i, 3, StartTag::Open(Stag::Insert, false)),
                Some(b'#') => (i, 3, StartTag::Open(Stag::Comment, false)),
                _ => (i, 2, StartTag::Open(Stag::Code, false)),
            });
        }
        i += 1;
    }
    None
}

/// Whether only spaces and tabs stand between the line's start and `at` (and that line
/// start is not before `from`, where the scan resumed: ERB's regexp only sees the rest).
fn at_line_start(b: &[u8], at: usize, from: usize) -> bool {
    let start = line_indent_start(b, at);
    let line_start = start == 0 || b[start - 1] == b'\n';
    line_start && (start > from || start == from && (from == 0 || b[from - 1] == b'\n'))
}

/// Where the run of spaces and tabs ending at `at` begins.
fn line_indent_start(b: &[u8], at: usize) -> usize {
    let mut s = at;
    while s > 0 && matches!(b[s - 1], b' ' | b'\t') {
        s -= 1;
    }
    s
}

/// The code of a tag whose content starts at `from`, and where scanning resumes after its
/// end tag (after the newline a `-%>` swallows). `None` when the tag is never closed.
fn scan_tag(template: &str, from: usize) -> Option<(String, usize)> {
    let b = template.as_bytes();
    let mut code = String::new();
    let mut i = from;
    let mut chunk = from;
    while i < b.len() {
        if b[i] == b'-' && b[i + 1..].starts_with(b"%>") {
            code.push_str(&template[chunk..i]);
            let mut after = i + 3;
            if b[after..].starts_with(b"\r\n") {
                after += 2;
            } else if b.get(after) == Some(&b'\n') {
                after += 1;
            }
            return Some((code, after));
        }
        if b[i] == b'%' && b[i + 1..].starts_with(b"%>") {
            code.push_str(&template[chunk..i]);
            code.push_str("%>");
            i += 3;
            chunk = i;
            continue;
        }
        if b[i] == b'%' && b.get(i + 1) == Some(&b'>') {
            code.push_str(&template[chunk..i]);
            return Some((code, i + 2));
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(t: &str) -> String {
        scan(t)
            .iter()
            .map(|p| match p {
                Piece::Text(s) => format!("T{s:?}"),
                Piece::Code { src, .. } => format!("C{src:?}"),
                Piece::Insert { src, .. } => format!("I{src:?}"),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn tags_and_trimming() {
        assert_eq!(shown("a<%= x %>b"), r#"T"a" I" x " T"b""#);
        assert_eq!(shown("a\n  <%- x -%>\nb"), r#"T"a\n" C" x " T"b""#);
        assert_eq!(shown("a  <%- x %>"), r#"T"a  " C" x ""#);
        assert_eq!(shown("<%% x %%> <%# c %>y"), r#"T"<% x %%> " T"y""#);
        assert_eq!(shown("<% a %%> b %>"), r#"C" a %> b ""#);
        assert_eq!(shown("a <%= x"), r#"T"a " T" x""#);
    }
}
