//! The text being edited and the cursor in it (a byte offset, always on a character
//! boundary), with the moves and edits the keys ask for. Lines are separated by `\n`; a
//! "word" is a run of letters, digits and `_` (Alt-B/F/D), a "big word" a run of anything
//! but white space (Ctrl-W).

/// The input and its cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Buffer {
    text: String,
    cursor: usize,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Buffer {
    /// A buffer holding `text`, the cursor at its end.
    pub fn with_text(text: &str) -> Buffer {
        Buffer { text: text.to_owned(), cursor: text.len() }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Moves the cursor to `at` (clamped, and back to a character boundary).
    pub fn set_cursor(&mut self, at: usize) {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        self.cursor = at;
    }

    /// Replaces the whole text, the cursor at its end.
    pub fn replace_all(&mut self, text: &str) {
        self.text.clear();
        self.text.push_str(text);
        self.cursor = self.text.len();
    }

    pub fn insert(&mut self, s: &str) {
        self.text.insert_str(self.cursor, s);
        self.cursor += s.len();
    }

    /// Replaces `range` (byte offsets) with `s`, the cursor after it.
    pub fn replace(&mut self, range: std::ops::Range<usize>, s: &str) {
        let start = range.start.min(self.text.len());
        let end = range.end.clamp(start, self.text.len());
        if !self.text.is_char_boundary(start) || !self.text.is_char_boundary(end) {
            return;
        }
        self.text.replace_range(start..end, s);
        self.cursor = start + s.len();
    }

    /// Removes `range` and returns it, the cursor at its start.
    pub fn remove(&mut self, range: std::ops::Range<usize>) -> String {
        let (start, end) = (range.start.min(self.text.len()), range.end.min(self.text.len()));
        if start >= end || !self.text.is_char_boundary(start) || !self.text.is_char_boundary(end) {
            return String::new();
        }
        let removed = self.text[start..end].to_owned();
        self.text.replace_range(start..end, "");
        self.cursor = start;
        removed
    }

    fn prev_char(&self, at: usize) -> Option<usize> {
        self.text[..at].char_indices().next_back().map(|(i, _)| i)
    }

    fn next_char(&self, at: usize) -> Option<usize> {
        self.text[at..].chars().next().map(|c| at + c.len_utf8())
    }

    pub fn left(&mut self) {
        if let Some(at) = self.prev_char(self.cursor) {
            self.cursor = at;
        }
    }

    pub fn right(&mut self) {
        if let Some(at) = self.next_char(self.cursor) {
            self.cursor = at;
        }
    }

    /// The start of the line the cursor is on.
    pub fn line_start(&self) -> usize {
        self.text[..self.cursor].rfind('\n').map_or(0, |i| i + 1)
    }

    /// The end of the line the cursor is on (before its `\n`).
    pub fn line_end(&self) -> usize {
        self.text[self.cursor..].find('\n').map_or(self.text.len(), |i| self.cursor + i)
    }

    pub fn home(&mut self) {
        self.cursor = self.line_start();
    }

    pub fn end(&mut self) {
        self.cursor = self.line_end();
    }

    /// Whether the cursor is on the first line.
    pub fn on_first_line(&self) -> bool {
        !self.text[..self.cursor].contains('\n')
    }

    /// Whether the cursor is on the last line.
    pub fn on_last_line(&self) -> bool {
        !self.text[self.cursor..].contains('\n')
    }

    /// Moves to the line above (`up`) or below, at the same character column or the end
    /// of a shorter line. Returns false when there is no such line.
    pub fn vertical(&mut self, up: bool) -> bool {
        let start = self.line_start();
        let column = self.text[start..self.cursor].chars().count();
        let target_start = if up {
            if start == 0 {
                return false;
            }
            self.text[..start - 1].rfind('\n').map_or(0, |i| i + 1)
        } else {
            let end = self.line_end();
            if end == self.text.len() {
                return false;
            }
            end + 1
        };
        let target_end = self.text[target_start..].find('\n').map_or(self.text.len(), |i| target_start + i);
        let line = &self.text[target_start..target_end];
        self.cursor = target_start + line.char_indices().nth(column).map_or(line.len(), |(i, _)| i);
        true
    }

    /// Where the word before the cursor starts (Alt-B).
    pub fn word_left(&self) -> usize {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end_matches(|c: char| !is_word(c));
        trimmed.trim_end_matches(is_word).len()
    }

    /// Where the word after the cursor ends (Alt-F).
    pub fn word_right(&self) -> usize {
        let after = &self.text[self.cursor..];
        let skipped = after.trim_start_matches(|c: char| !is_word(c));
        let rest = skipped.trim_start_matches(is_word);
        self.text.len() - rest.len()
    }

    /// Where the big word before the cursor starts (Ctrl-W).
    pub fn big_word_left(&self) -> usize {
        let before = &self.text[..self.cursor];
        before.trim_end_matches(char::is_whitespace).trim_end_matches(|c: char| !c.is_whitespace()).len()
    }

    pub fn backspace(&mut self) -> bool {
        match self.prev_char(self.cursor) {
            Some(at) => {
                self.remove(at..self.cursor);
                true
            }
            None => false,
        }
    }

    pub fn delete(&mut self) -> bool {
        match self.next_char(self.cursor) {
            Some(end) => {
                let at = self.cursor;
                self.remove(at..end);
                true
            }
            None => false,
        }
    }

    /// Swaps the characters before and at the cursor (at the end of a line, the two before
    /// it), moving forward (Ctrl-T).
    pub fn transpose(&mut self) {
        let at_end = self.next_char(self.cursor).is_none() || self.text[self.cursor..].starts_with('\n');
        let right = if at_end { self.cursor } else { self.next_char(self.cursor).unwrap_or(self.cursor) };
        let Some(mid) = self.prev_char(right) else { return };
        let Some(left) = self.prev_char(mid) else { return };
        let (a, b) = (self.text[left..mid].to_owned(), self.text[mid..right].to_owned());
        if a == "\n" || b == "\n" {
            return;
        }
        self.text.replace_range(left..right, &format!("{b}{a}"));
        self.cursor = right;
    }

    /// The text of the line the cursor is on, up to the cursor.
    pub fn line_before_cursor(&self) -> &str {
        &self.text[self.line_start()..self.cursor]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_edits() {
        let mut b = Buffer::with_text("ab漢\ncd");
        b.left();
        assert_eq!(b.cursor(), "ab漢\nc".len());
        assert!(b.vertical(true));
        assert_eq!(b.cursor(), "a".len());
        b.end();
        assert!(b.vertical(false));
        assert_eq!(b.cursor(), b.text().len());
        b.home();
        assert_eq!(b.cursor(), "ab漢\n".len());
        assert!(!b.vertical(false));
        b.end();
        assert!(b.backspace());
        assert_eq!(b.text(), "ab漢\nc");
        b.set_cursor(3);
        assert_eq!(b.cursor(), 2);
    }

    #[test]
    fn words() {
        let mut b = Buffer::with_text("$foo_bar = baz(1)");
        assert_eq!(b.word_left(), "$foo_bar = baz(".len());
        b.set_cursor(0);
        assert_eq!(b.word_right(), "$foo_bar".len());
        let mut b = Buffer::with_text("a = notice('x y')");
        assert_eq!(b.big_word_left(), "a = notice('x ".len());
        b.transpose();
        assert_eq!(b.text(), "a = notice('x y)'");
    }
}
