//! Painting the input on the terminal in proportion to the change: a frame is the input's
//! lines as painted (prompt, colours, hint), and [`Renderer::render`] compares the new frame
//! with the one on the screen and rewrites only the lines whose painted text changed or
//! moved, reaching them with relative cursor moves (`CSI n A`/`B`, carriage return, `CSI n
//! C`), clearing what is left of a rewritten line (`CSI K`) and, when the frame got shorter,
//! what is below it (`CSI J`).
//!
//! Lines longer than the terminal wraps take more rows: a line of display width `w` takes
//! `w / columns + 1` rows (a line that fills its last row exactly is followed by a line
//! break, so that the cursor may stand after it). A line whose first row moved (a line above
//! it was inserted, removed or grew a row) is rewritten; a line whose text and row are the
//! same is not touched.
//!
//! The renderer knows only where it left the cursor, relative to the frame's first row: it
//! never asks the terminal, and output written in between (a list of completions) calls for
//! [`Renderer::forget`], after which the next frame is drawn whole from the cursor's row.
//!
//! A frame taller than the terminal is shown through a window of lines that fits it and
//! holds the cursor's line, moved only as far as the cursor leaves it: rows that scrolled off
//! the top cannot be reached by cursor moves. When the terminal's width changes, the
//! terminal is taken to have reflowed the frame's lines to the new width (as tmux, VTE,
//! kitty and recent xterm do): the cursor is found on the row reflowing puts it on, and the
//! frame is drawn again from its first row.

use std::fmt::Write as _;
use std::ops::Range;

/// One line of a frame: the bytes to write (escape sequences included) and the columns it
/// takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub painted: String,
    pub width: usize,
}

/// Draws frames on a terminal of a given width, each as a difference from the last.
#[derive(Debug)]
pub struct Renderer {
    columns: usize,
    /// The frame on the screen.
    shown: Vec<Line>,
    /// The row (from the frame's first) the terminal cursor is on.
    row: usize,
    /// How many rows from the frame's first exist on the screen (moving down within them
    /// needs no new line).
    extent: usize,
    /// Draw the next frame whole.
    dirty: bool,
    /// The terminal's height in rows (0: not known, no window).
    height: usize,
    /// The first line of the frame shown (the window's).
    first: usize,
    /// Where the cursor was left: a line of the frame shown and a column.
    cursor: (usize, usize),
}

impl Renderer {
    pub fn new(columns: usize) -> Renderer {
        Renderer {
            columns: columns.max(1),
            shown: Vec::new(),
            row: 0,
            extent: 1,
            dirty: true,
            height: 0,
            first: 0,
            cursor: (0, 0),
        }
    }

    /// Draws for a terminal of `height` rows (0: not known): frames taller are shown through
    /// a window.
    pub fn set_height(&mut self, height: usize) {
        self.height = height;
    }

    /// The width it draws for.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The rows a line of `width` columns takes.
    fn rows(&self, width: usize) -> usize {
        width / self.columns + 1
    }

    /// The first row of each line, and the rows of all.
    fn starts(&self, lines: &[Line]) -> (Vec<usize>, usize) {
        let mut starts = Vec::with_capacity(lines.len());
        let mut row = 0;
        for line in lines {
            starts.push(row);
            row += self.rows(line.width);
        }
        (starts, row)
    }

    /// A new terminal size: after a new width the next frame is drawn whole, from the first
    /// row of this one, found as the terminal reflowed it.
    pub fn resize(&mut self, columns: usize, height: usize, out: &mut String) {
        let columns = columns.max(1);
        self.height = height;
        if columns == self.columns {
            self.dirty = true;
            return;
        }
        self.columns = columns;
        // The cursor's row in the reflowed frame: the rows of the lines above it at the new
        // width, and the rows of its own line before it.
        let (line, column) = self.cursor;
        let above: usize = self.shown.iter().take(line).map(|l| self.rows(l.width)).sum();
        let row = if self.shown.is_empty() { 0 } else { above + column / columns };
        if row > 0 {
            let _ = write!(out, "\x1b[{row}A");
        }
        out.push_str("\r\x1b[J");
        self.row = 0;
        self.dirty = true;
        self.extent = 1;
    }

    /// The lines of a frame to show: all when they fit the terminal, else a window of them
    /// that fits and holds the cursor's line, moved as little as it takes.
    fn window(&mut self, lines: &[Line], cursor: usize) -> Range<usize> {
        let rows: Vec<usize> = lines.iter().map(|l| self.rows(l.width)).collect();
        if self.height == 0 || rows.iter().sum::<usize>() <= self.height {
            self.first = 0;
            return 0..lines.len();
        }
        let cursor = cursor.min(lines.len().saturating_sub(1));
        // The end of the window that starts at `first`: as many lines as fit (one at least).
        let end_from = |first: usize| {
            let (mut used, mut end) = (0, first);
            while end < lines.len() && used + rows[end] <= self.height {
                used += rows[end];
                end += 1;
            }
            end.max(first + 1)
        };
        let mut first = self.first.min(cursor);
        if end_from(first) <= cursor {
            // The cursor went below: the window ends with its line.
            let mut used = rows[cursor];
            first = cursor;
            while first > 0 && used + rows[first - 1] <= self.height {
                first -= 1;
                used += rows[first];
            }
        }
        // A window that reaches the end keeps the screen full.
        let mut end = end_from(first);
        while end == lines.len() && first > 0 && end_from(first - 1) == lines.len() {
            first -= 1;
            end = end_from(first);
        }
        self.first = first;
        first..end
    }

    /// Forgets the frame on the screen: the next one is drawn whole, starting on the row the
    /// cursor is on (which the caller left at column 0).
    pub fn forget(&mut self) {
        self.shown.clear();
        self.row = 0;
        self.extent = 1;
        self.dirty = true;
        self.cursor = (0, 0);
    }

    /// Redraws everything on the next frame (after the screen was cleared).
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// Moves the cursor to the start of `target`'s row (carriage return not included).
    fn move_to(&mut self, target: usize, out: &mut String) {
        if target < self.row {
            let _ = write!(out, "\x1b[{}A", self.row - target);
        } else if target > self.row {
            let within = target.min(self.extent.saturating_sub(1));
            if within > self.row {
                let _ = write!(out, "\x1b[{}B", within - self.row);
            }
            for _ in within.max(self.row)..target {
                out.push_str("\r\n");
            }
        }
        self.row = target;
        self.extent = self.extent.max(target + 1);
    }

    /// Writes to `out` what turns the frame on the screen into `lines`, with the cursor left
    /// at `cursor`: a line index and a column in it.
    pub fn render(&mut self, mut lines: Vec<Line>, cursor: (usize, usize), out: &mut String) {
        let window = self.window(&lines, cursor.0);
        if window.len() < lines.len() {
            lines = lines.drain(window.clone()).collect();
        }
        let cursor = (cursor.0.saturating_sub(window.start), cursor.1);
        let (old_starts, old_total) = self.starts(&self.shown);
        let (starts, total) = self.starts(&lines);
        for (i, line) in lines.iter().enumerate() {
            let same = !self.dirty && self.shown.get(i) == Some(line) && old_starts.get(i) == Some(&starts[i]);
            if same {
                continue;
            }
            self.move_to(starts[i], out);
            out.push_str("\r\x1b[K");
            out.push_str(&line.painted);
            let rows = self.rows(line.width);
            self.row = starts[i] + rows - 1;
            if line.width > 0 && line.width % self.columns == 0 {
                // The line filled its last row: the terminal waits to wrap; make the row.
                out.push_str("\r\n\x1b[K");
            } else if rows > 1 {
                out.push_str("\x1b[K");
            }
            self.extent = self.extent.max(self.row + 1);
        }
        if total < old_total {
            self.move_to(total, out);
            out.push_str("\r\x1b[J");
        }
        let (line, column) = cursor;
        let line = line.min(lines.len().saturating_sub(1));
        let start = starts.get(line).copied().unwrap_or(0);
        self.move_to(start + column / self.columns, out);
        out.push('\r');
        if column % self.columns > 0 {
            let _ = write!(out, "\x1b[{}C", column % self.columns);
        }
        self.shown = lines;
        self.cursor = (line, column);
        self.dirty = false;
    }

    /// The lines of the last frame shown: all, or the window on it.
    pub fn shown_lines(&self) -> Range<usize> {
        self.first..self.first + self.shown.len()
    }

    /// Leaves the frame: the cursor goes to the start of the row below it, and the next
    /// frame is drawn whole from there.
    pub fn finish(&mut self, out: &mut String) {
        let (_, total) = self.starts(&self.shown);
        self.move_to(total.max(1) - 1, out);
        out.push_str("\r\n");
        self.forget();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line { painted: text.to_owned(), width: text.chars().count() }
    }

    fn frame(texts: &[&str]) -> Vec<Line> {
        texts.iter().map(|t| line(t)).collect()
    }

    #[test]
    fn the_first_frame_is_drawn_whole() {
        let mut r = Renderer::new(80);
        let mut out = String::new();
        r.render(frame(&["p> a", "   b"]), (1, 4), &mut out);
        assert_eq!(out, "\r\x1b[Kp> a\r\n\r\x1b[K   b\r\x1b[4C");
    }

    #[test]
    fn only_changed_lines_are_written() {
        let mut r = Renderer::new(80);
        let mut out = String::new();
        r.render(frame(&["p> one", "   two", "   three"]), (2, 8), &mut out);
        out.clear();
        r.render(frame(&["p> one", "   two", "   threes"]), (2, 9), &mut out);
        assert_eq!(out, "\r\x1b[K   threes\r\x1b[9C");
        out.clear();
        // A change on the first line: up two rows, rewrite it, back down to the cursor.
        r.render(frame(&["p> once", "   two", "   threes"]), (0, 7), &mut out);
        assert_eq!(out, "\x1b[2A\r\x1b[Kp> once\r\x1b[7C");
        assert!(!out.contains("two"));
        out.clear();
        // Nothing changed: the cursor moves only.
        r.render(frame(&["p> once", "   two", "   threes"]), (1, 3), &mut out);
        assert_eq!(out, "\x1b[1B\r\x1b[3C");
    }

    #[test]
    fn inserted_and_removed_lines_move_those_below() {
        let mut r = Renderer::new(80);
        let mut out = String::new();
        r.render(frame(&["p> a", "   c"]), (0, 4), &mut out);
        out.clear();
        r.render(frame(&["p> a", "   b", "   c"]), (1, 4), &mut out);
        // `b` takes `c`'s row; `c` goes on a new row below.
        assert_eq!(out, "\x1b[1B\r\x1b[K   b\r\n\r\x1b[K   c\x1b[1A\r\x1b[4C");
        out.clear();
        r.render(frame(&["p> a", "   c"]), (1, 4), &mut out);
        assert_eq!(out, "\r\x1b[K   c\x1b[1B\r\x1b[J\x1b[1A\r\x1b[4C");
    }

    #[test]
    fn wrapped_lines_take_rows() {
        let mut r = Renderer::new(10);
        let mut out = String::new();
        r.render(frame(&["p> 1234567", "   x"]), (1, 4), &mut out);
        // The first line fills its row exactly: a line break follows it.
        assert_eq!(out, "\r\x1b[Kp> 1234567\r\n\x1b[K\r\n\r\x1b[K   x\r\x1b[4C");
        out.clear();
        r.render(frame(&["p> 123456", "   x"]), (0, 9), &mut out);
        // One row fewer: `x` moves up, and the row below is cleared.
        assert_eq!(out, "\x1b[2A\r\x1b[Kp> 123456\x1b[1B\r\x1b[K   x\x1b[1B\r\x1b[J\x1b[2A\r\x1b[9C");
    }

    #[test]
    fn finish_leaves_the_cursor_below() {
        let mut r = Renderer::new(80);
        let mut out = String::new();
        r.render(frame(&["p> a", "   b"]), (0, 3), &mut out);
        out.clear();
        r.finish(&mut out);
        assert_eq!(out, "\x1b[1B\r\n");
    }

    /// A terminal that knows what the renderer writes: autowrap with the pending wrap at the
    /// last column, carriage return, line feed, `CSI n A/B/C`, `CSI K`, `CSI J`.
    struct Screen {
        columns: usize,
        /// The rows shown: a line feed on the last scrolls them up.
        height: usize,
        rows: Vec<Vec<char>>,
        row: usize,
        column: usize,
        pending: bool,
    }

    impl Screen {
        fn new(columns: usize) -> Screen {
            Screen { columns, height: usize::MAX, rows: vec![Vec::new()], row: 0, column: 0, pending: false }
        }

        fn ensure(&mut self) {
            while self.rows.len() <= self.row {
                self.rows.push(Vec::new());
            }
            while self.rows.len() > self.height {
                self.rows.remove(0);
                self.row -= 1;
            }
        }

        fn feed(&mut self, bytes: &str) {
            let mut chars = bytes.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\r' => (self.column, self.pending) = (0, false),
                    '\n' => {
                        self.row += 1;
                        self.pending = false;
                        self.ensure();
                    }
                    '\x1b' => {
                        assert_eq!(chars.next(), Some('['));
                        let mut n = String::new();
                        while let Some(d) = chars.next_if(char::is_ascii_digit) {
                            n.push(d);
                        }
                        let n: usize = n.parse().unwrap_or(1);
                        self.pending = false;
                        match chars.next() {
                            Some('A') => self.row = self.row.checked_sub(n).expect("above the frame"),
                            Some('B') => {
                                self.row += n;
                                assert!(self.row < self.rows.len(), "CSI B below the rows drawn");
                            }
                            Some('C') => self.column = (self.column + n).min(self.columns - 1),
                            Some('K') => self.rows[self.row].truncate(self.column),
                            Some('J') => {
                                // The rows below are blank, and still there.
                                self.rows[self.row].truncate(self.column);
                                for row in &mut self.rows[self.row + 1..] {
                                    row.clear();
                                }
                            }
                            other => panic!("unexpected {other:?}"),
                        }
                    }
                    c => {
                        if self.pending {
                            self.row += 1;
                            self.column = 0;
                            self.pending = false;
                            self.ensure();
                        }
                        let line = &mut self.rows[self.row];
                        while line.len() <= self.column {
                            line.push(' ');
                        }
                        line[self.column] = c;
                        if self.column + 1 == self.columns {
                            self.pending = true;
                        } else {
                            self.column += 1;
                        }
                    }
                }
            }
        }

        /// The rows, trailing blanks and blank rows at the end left out.
        fn text(&self) -> Vec<String> {
            let mut rows: Vec<String> =
                self.rows.iter().map(|r| r.iter().collect::<String>().trim_end().to_owned()).collect();
            while rows.last().is_some_and(String::is_empty) {
                rows.pop();
            }
            rows
        }
    }

    /// What a frame looks like drawn on a clean screen.
    fn expected(lines: &[Line], columns: usize) -> Vec<String> {
        let mut rows = Vec::new();
        for line in lines {
            let chars: Vec<char> = line.painted.chars().collect();
            for start in (0..=chars.len()).step_by(columns) {
                rows.push(
                    chars[start..(start + columns).min(chars.len())].iter().collect::<String>().trim_end().to_owned(),
                );
            }
        }
        while rows.last().is_some_and(String::is_empty) {
            rows.pop();
        }
        rows
    }

    /// A new width: the cursor is taken up to the frame's first row as the terminal reflowed
    /// the lines, and the frame is cleared for drawing whole.
    #[test]
    fn a_new_width_goes_up_the_reflowed_rows() {
        for (columns, up) in [(20, "\x1b[1A"), (4, "\x1b[4A"), (10, "")] {
            let mut r = Renderer::new(10);
            let mut out = String::new();
            // At 10 columns the first line takes two rows (it fills the first exactly).
            r.render(frame(&["p> 1234567", "   x"]), (1, 4), &mut out);
            out.clear();
            r.resize(columns, 0, &mut out);
            let expected = if columns == 10 { String::new() } else { format!("{up}\r\x1b[J") };
            assert_eq!(out, expected, "{columns} columns");
        }
    }

    /// A frame taller than the terminal is shown through a window that holds the cursor's
    /// line: over random edits and cursor moves, the screen shows the window's lines as drawn
    /// alone, the cursor on its line, and nothing is ever reached above the screen.
    #[test]
    fn a_frame_taller_than_the_terminal_is_shown_through_a_window() {
        let mut rng = fastrand::Rng::with_seed(11);
        for (columns, height) in [(8, 5), (13, 7)] {
            let mut renderer = Renderer::new(columns);
            renderer.set_height(height);
            let mut screen = Screen::new(columns);
            screen.height = height;
            let mut lines: Vec<String> = vec!["p> ".into()];
            let mut cursor_line = 0;
            for _ in 0..600 {
                match rng.usize(0..4) {
                    0 if lines.len() < 30 => lines.insert(rng.usize(1..=lines.len()), "...".into()),
                    1 if lines.len() > 1 => {
                        lines.remove(rng.usize(1..lines.len()));
                    }
                    2 => cursor_line = rng.usize(0..lines.len()),
                    _ => {
                        let i = rng.usize(0..lines.len());
                        let len = rng.usize(3..columns * 2);
                        let c = char::from(b'a' + rng.u8(0..26));
                        lines[i] = lines[i].chars().take(3).chain(std::iter::repeat_n(c, len - 3)).collect();
                    }
                }
                cursor_line = cursor_line.min(lines.len() - 1);
                let frame: Vec<Line> = lines.iter().map(|t| line(t)).collect();
                let cursor_column = rng.usize(0..=frame[cursor_line].width);
                let mut out = String::new();
                renderer.render(frame.clone(), (cursor_line, cursor_column), &mut out);
                screen.feed(&out);
                let window = renderer.shown_lines();
                assert!(window.contains(&cursor_line), "{window:?} without the cursor's line {cursor_line}");
                let shown = &frame[window.clone()];
                let (starts, total) = renderer.starts(shown);
                assert!(total <= height, "{total} rows");
                assert_eq!(screen.text(), expected(shown, columns), "{columns}x{height}, output {out:?}");
                let line = cursor_line - window.start;
                assert_eq!(
                    (screen.row, screen.column),
                    (starts[line] + cursor_column / columns, cursor_column % columns)
                );
            }
        }
    }

    /// Frames drawn one over another in random order of growth and shrinkage leave the
    /// screen as each drawn alone, and the cursor where it was asked for.
    #[test]
    fn any_sequence_of_frames_leaves_the_screen_right() {
        let mut rng = fastrand::Rng::with_seed(7);
        for columns in [5, 8, 13] {
            let mut renderer = Renderer::new(columns);
            let mut screen = Screen::new(columns);
            let mut lines: Vec<String> = vec!["p> ".into()];
            for _ in 0..400 {
                match rng.usize(0..4) {
                    0 if lines.len() < 6 => {
                        let at = rng.usize(1..=lines.len());
                        lines.insert(at, "...".into());
                    }
                    1 if lines.len() > 1 => {
                        lines.remove(rng.usize(1..lines.len()));
                    }
                    _ => {
                        let i = rng.usize(0..lines.len());
                        let len = rng.usize(3..columns * 3);
                        let c = char::from(b'a' + rng.u8(0..26));
                        lines[i] = lines[i].chars().take(3).chain(std::iter::repeat_n(c, len - 3)).collect();
                    }
                }
                let frame: Vec<Line> = lines.iter().map(|t| line(t)).collect();
                let cursor_line = rng.usize(0..frame.len());
                let cursor_column = rng.usize(0..=frame[cursor_line].width);
                let mut out = String::new();
                renderer.render(frame.clone(), (cursor_line, cursor_column), &mut out);
                screen.feed(&out);
                assert_eq!(screen.text(), expected(&frame, columns), "columns {columns}, output {out:?}");
                let (starts, _) = renderer.starts(&frame);
                assert_eq!(
                    (screen.row, screen.column),
                    (starts[cursor_line] + cursor_column / columns, cursor_column % columns)
                );
            }
        }
    }
}
