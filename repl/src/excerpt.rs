//! Source excerpts of errors: the line a failure points at, with a caret under its column,
//! shown by the runner (on a terminal) and the shell. The failure's position may be in
//! another text than the program's (a module's manifest, an earlier input of the shell):
//! the caller says where to find the text a file name stands for.

use unicode_width::UnicodeWidthChar;

use puppet_eval::Failure;

/// The line `line` of `source` indented by two spaces and, when `column` (1-based, in
/// characters) is known, a caret under it. The caret is placed by display width (a CJK
/// character or an emoji takes two columns; tabs are kept as tabs), and a column past the
/// end of the line points just after it. `None` when the text has no such line.
pub fn excerpt(source: &str, line: u32, column: u32, colour: bool) -> Option<String> {
    let text = source.lines().nth((line as usize).checked_sub(1)?)?;
    let mut out = format!("  {text}");
    if column > 0 {
        let mut pad = String::new();
        for c in text.chars().take(column as usize - 1) {
            match c {
                '\t' => pad.push('\t'),
                c => pad.extend(std::iter::repeat_n(' ', c.width().unwrap_or(0))),
            }
        }
        let (on, off) = if colour { ("\x1b[1;31m", "\x1b[0m") } else { ("", "") };
        out.push_str(&format!("\n  {pad}{on}^{off}"));
    }
    Some(out)
}

/// The lines of `text` around line `line` (1-based), `context` each side, numbered, `line`
/// marked `=>`; all of them when `line` is 0. Each line's code goes through `paint`.
pub fn numbered_lines(text: &str, line: usize, context: usize, paint: &dyn Fn(&str) -> String) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let (first, last) = if line == 0 {
        (1, lines.len())
    } else {
        (line.saturating_sub(context).max(1), (line + context).min(lines.len()))
    };
    let width = last.to_string().len();
    let mut out = String::new();
    for n in first..=last {
        let marker = if n == line { "=>" } else { "  " };
        let code = lines.get(n - 1).copied().unwrap_or_default();
        out.push_str(&format!("{marker} {n:>width$}: {}\n", paint(code)));
    }
    out
}

/// The excerpt of `failure`: from `program` (the text that ran) when the failure names no
/// file, else from what `text_of` finds for its file (an earlier input, a manifest).
pub fn of_failure(
    failure: &Failure,
    program: &str,
    text_of: impl FnOnce(&str) -> Option<String>,
    colour: bool,
) -> Option<String> {
    match &failure.file {
        None => excerpt(program, failure.line, failure.column, colour),
        Some(file) => excerpt(&text_of(file)?, failure.line, failure.column, colour),
    }
}

/// The text of a manifest an error names, when it can be read.
pub fn read_manifest(file: &str) -> Option<String> {
    std::fs::read_to_string(file).ok()
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn carets_count_display_columns() {
        assert_eq!(excerpt("$x = 1", 1, 1, false).as_deref(), Some("  $x = 1\n  ^"));
        assert_eq!(excerpt("'日本' + 1", 1, 6, false).as_deref(), Some("  '日本' + 1\n         ^"));
        assert_eq!(excerpt("\t$y", 1, 2, false).as_deref(), Some("  \t$y\n  \t^"));
        assert_eq!(excerpt("ab", 1, 9, false).as_deref(), Some("  ab\n    ^"));
        assert_eq!(excerpt("ab", 2, 1, false), None);
        assert_eq!(excerpt("ab", 1, 0, false).as_deref(), Some("  ab"));
    }
}
