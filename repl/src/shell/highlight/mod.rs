//! Syntax highlighting of the shell's input: the grammar's `queries/highlights.scm` run by
//! tree-sitter-highlight, turned into ranges of capture names ([`Highlighter::spans`], pure and
//! testable) and painted with ANSI colours ([`Highlighter::paint`]) without changing what the
//! terminal shows, only its colours; and the partner of the bracket at the cursor
//! ([`matching_bracket`]).
//!
//! ```
//! use poppet::shell::highlight::{matching_bracket, Highlighter, Theme};
//!
//! let highlighter = Highlighter::new();
//! let spans = highlighter.spans("$x = 'a'");
//! assert_eq!(spans, [(0..2, "variable"), (3..4, "operator"), (5..8, "string")]);
//!
//! let painted = highlighter.paint("$x = 'a'", &Theme::dark(), None);
//! assert!(painted.contains("\x1b["));
//! assert_eq!(highlighter.paint("$x = 'a'", &Theme::none(), None), "$x = 'a'");
//!
//! // The cursor after `]`: the array's brackets; `(` inside a string is text.
//! assert_eq!(matching_bracket("['(', 1]", 8), Some((7, 0)));
//! ```
//!
//! [`Highlighter::paint`] parses the whole input at every call (tree-sitter-highlight takes
//! no previous tree). The line editor calls [`Highlighter::paint_statements`], which gives the
//! same text in time proportional to the change: the input is parsed from the previous key's
//! tree and only the statements whose text changed are highlighted again, and in a long
//! statement (a class) only its frame and the statement in it that changed (the `pieces`
//! plan; `bench/shell`: under 1 ms a key on 1,000 lines, whether the line typed is a
//! statement of its own or inside one 1,000-line class). [`matching_bracket`] parses from the
//! same tree, so it costs little after a keystroke and nothing after a cursor move.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use nu_ansi_term::{Color, Style};
use tree_sitter::{InputEdit, Parser, Point, Tree};
use tree_sitter_highlight::{HighlightConfiguration, HighlightEvent};

mod pieces;

/// The capture names a highlights query may use: tree-sitter-highlight's standard list, which
/// `queries/highlights.scm` keeps to (tree-sitter-puppet's tests check it). Captures of other
/// names are not highlighted.
const CAPTURE_NAMES: &[&str] = &[
    "attribute",
    "boolean",
    "carriage-return",
    "comment",
    "comment.documentation",
    "constant",
    "constant.builtin",
    "constructor",
    "constructor.builtin",
    "embedded",
    "error",
    "escape",
    "function",
    "function.builtin",
    "keyword",
    "markup",
    "markup.bold",
    "markup.heading",
    "markup.italic",
    "markup.link",
    "markup.link.url",
    "markup.list",
    "markup.list.checked",
    "markup.list.numbered",
    "markup.list.unchecked",
    "markup.list.unnumbered",
    "markup.quote",
    "markup.raw",
    "markup.raw.block",
    "markup.raw.inline",
    "markup.strikethrough",
    "module",
    "number",
    "operator",
    "property",
    "property.builtin",
    "punctuation",
    "punctuation.bracket",
    "punctuation.delimiter",
    "punctuation.special",
    "string",
    "string.escape",
    "string.regexp",
    "string.special",
    "string.special.symbol",
    "tag",
    "type",
    "type.builtin",
    "variable",
    "variable.builtin",
    "variable.member",
    "variable.parameter",
];

/// Highlights Puppet source. Made once per shell: it holds the compiled query and a reusable
/// tree-sitter parser and query cursors, so highlighting again allocates little.
///
/// It runs the highlights and locals queries: with the locals, a reference to a parameter is
/// coloured as the parameter (`variable.parameter`). The injections query is left out: it names
/// languages the shell cannot highlight (regular expressions, JSON, EPP …), and running it
/// alone would double the time per keystroke.
pub struct Highlighter {
    config: HighlightConfiguration,
    /// The capture name of each highlight index the configuration reports.
    names: Vec<&'static str>,
    engine: RefCell<tree_sitter_highlight::Highlighter>,
    /// What [`paint_statements`](Self::paint_statements) highlighted, by pieces.
    pieces: RefCell<pieces::Kept>,
}

impl Default for Highlighter {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlighter").field("captures", &self.names).finish_non_exhaustive()
    }
}

impl Highlighter {
    /// The highlighter of `queries/highlights.scm` and `locals.scm`, recognising every
    /// capture name of the highlights.
    pub fn new() -> Self {
        let mut config = HighlightConfiguration::new(
            tree_sitter_puppet::LANGUAGE.into(),
            "puppet",
            tree_sitter_puppet::HIGHLIGHTS_QUERY,
            "",
            tree_sitter_puppet::LOCALS_QUERY,
        )
        // The queries are part of this program, and tree-sitter-puppet's tests compile them.
        .expect("queries/highlights.scm and locals.scm compile");
        let names: Vec<&'static str> = config
            .names()
            .iter()
            .filter_map(|name| CAPTURE_NAMES.iter().copied().find(|known| known == name))
            .collect();
        config.configure(&names);
        Highlighter {
            config,
            names,
            engine: RefCell::new(tree_sitter_highlight::Highlighter::new()),
            pieces: RefCell::default(),
        }
    }

    /// The highlighted parts of `src`: byte ranges in order, never overlapping, each with the
    /// name of its innermost capture (`(0..2, "variable")` for `$x`). Text no pattern captures
    /// is not listed; neighbouring parts with the same capture are one range. Errors in the
    /// source leave what parses highlighted; if highlighting fails, there are no spans.
    pub fn spans(&self, src: &str) -> Vec<(Range<usize>, &'static str)> {
        self.highlights(src).into_iter().map(|(range, index)| (range, self.names[index])).collect()
    }

    /// `src` with ANSI colours by `theme` for each captured part, and the bracket pair at
    /// `brackets` (two byte offsets, as [`matching_bracket`] gives them) emphasised with the
    /// theme's bracket style. Only escape sequences are added, and none spans a line feed, so
    /// the text shown keeps its width and lines; with [`Theme::none`] the result is `src`.
    pub fn paint(&self, src: &str, theme: &Theme, brackets: Option<(usize, usize)>) -> String {
        if theme.is_empty() {
            return src.to_owned();
        }
        self.paint_spans(src, &self.highlights(src), theme, brackets)
    }

    /// `src` painted by `theme` with `spans` (in order, apart), the bracket marks emphasised.
    fn paint_spans(
        &self,
        src: &str,
        spans: &[(Range<usize>, usize)],
        theme: &Theme,
        brackets: Option<(usize, usize)>,
    ) -> String {
        let styles: Vec<Option<Style>> = self.names.iter().map(|name| theme.style(name)).collect();
        let mut marks: Vec<usize> = match (brackets, theme.brackets) {
            (Some((a, b)), Some(_)) => {
                [a, b].into_iter().filter(|&at| at < src.len() && src.is_char_boundary(at)).collect()
            }
            _ => Vec::new(),
        };
        marks.sort_unstable();
        marks.dedup();
        let mut painter = Painter {
            src,
            out: String::with_capacity(src.len() * 2),
            marks: &marks,
            emphasis: theme.brackets.unwrap_or_default(),
        };
        let mut at = 0;
        for (range, index) in spans {
            painter.write(at..range.start, None);
            painter.write(range.clone(), styles.get(*index).copied().flatten());
            at = range.end;
        }
        painter.write(at..src.len(), None);
        painter.out
    }

    /// The same as [`paint`](Self::paint), in time proportional to what changed since the
    /// last call: the source is parsed from the previous call's tree (shared with
    /// [`matching_bracket`]) and cut into pieces (the `pieces` plan: top-level statements,
    /// and the frames and body statements of long ones), each highlighted alone, as it is in
    /// the source, and kept, so that the next call highlights again only the pieces whose
    /// text (or the parameters in scope) changed. The result is what `paint` gives for the
    /// whole source (`tests/highlight.rs` compares them over every key of typing manifests,
    /// and edits in the middle); when the plan cannot promise that, `paint` does the whole.
    pub fn paint_statements(&self, src: &str, theme: &Theme, brackets: Option<(usize, usize)>) -> String {
        if theme.is_empty() {
            return src.to_owned();
        }
        let spans = parse(src).and_then(|tree| {
            let mut kept = self.pieces.try_borrow_mut().ok()?;
            pieces::highlights(self, &mut kept, &tree, src)
        });
        match spans {
            Some(spans) => self.paint_spans(src, &spans, theme, brackets),
            None => self.paint(src, theme, brackets),
        }
    }

    /// The capture names this highlighter reports, as [`spans`](Self::spans) gives them: a
    /// theme that names each of them (or a dotted prefix) colours everything.
    pub fn capture_names(&self) -> &[&'static str] {
        &self.names
    }

    /// A value the shell prints, coloured: its text (`[1, 'a', undef]`) is a Puppet literal,
    /// so it is painted as source, without brackets emphasised. The same as
    /// `self.paint(literal, theme, None)`.
    pub fn highlight_value(&self, literal: &str, theme: &Theme) -> String {
        self.paint(literal, theme, None)
    }

    /// [`spans`](Self::spans) with highlight indexes (into `self.names`) instead of names.
    fn highlights(&self, src: &str) -> Vec<(Range<usize>, usize)> {
        let mut spans: Vec<(Range<usize>, usize)> = Vec::new();
        // Only a call from inside a call could find the engine in use; it gets no spans.
        let Ok(mut engine) = self.engine.try_borrow_mut() else {
            return spans;
        };
        let Ok(events) = engine.highlight(&self.config, src.as_bytes(), None, None, |_| None) else {
            return spans;
        };
        let mut stack: Vec<usize> = Vec::new();
        for event in events {
            match event {
                Ok(HighlightEvent::HighlightStart(highlight)) => stack.push(highlight.0),
                Ok(HighlightEvent::HighlightEnd) => {
                    stack.pop();
                }
                Ok(HighlightEvent::Source { start, end }) => {
                    let Some(&index) = stack.last() else { continue };
                    // Tokens end on characters; a piece that did not would stay plain.
                    if start >= end || !src.is_char_boundary(start) || !src.is_char_boundary(end) {
                        continue;
                    }
                    match spans.last_mut() {
                        Some((last, last_index)) if last.end == start && *last_index == index => {
                            last.end = end;
                        }
                        _ => spans.push((start..end, index)),
                    }
                }
                Err(_) => return Vec::new(),
            }
        }
        spans
    }
}

/// Writes the painted text: each piece in its style, the bracket marks emphasised, and every
/// line's part of a style closed before its line feed.
struct Painter<'a> {
    src: &'a str,
    out: String,
    /// Byte offsets of the brackets to emphasise, sorted.
    marks: &'a [usize],
    emphasis: Style,
}

impl Painter<'_> {
    /// `src[range]` in `style` (plain when `None`), with the marks inside it emphasised.
    fn write(&mut self, range: Range<usize>, style: Option<Style>) {
        let style = style.unwrap_or_default();
        let mut at = range.start;
        let first = self.marks.partition_point(|&mark| mark < range.start);
        for &mark in &self.marks[first..] {
            if mark >= range.end {
                break;
            }
            let end = self.src[mark..].chars().next().map_or(mark + 1, |c| mark + c.len_utf8());
            self.styled(at..mark, style);
            self.styled(mark..end.min(range.end), overlay(style, self.emphasis));
            at = end.min(range.end);
        }
        self.styled(at..range.end, style);
    }

    /// `src[range]` in `style`, line by line.
    fn styled(&mut self, range: Range<usize>, style: Style) {
        let Some(text) = self.src.get(range) else {
            return;
        };
        if style.is_plain() {
            self.out.push_str(text);
            return;
        }
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
            }
            if !line.is_empty() {
                // Writing to a String cannot fail.
                let _ = write!(self.out, "{}{line}{}", style.prefix(), style.suffix());
            }
        }
    }
}

/// `base` with what `top` adds: its colours where it has them, and its attributes.
fn overlay(base: Style, top: Style) -> Style {
    Style {
        foreground: top.foreground.or(base.foreground),
        background: top.background.or(base.background),
        is_bold: base.is_bold || top.is_bold,
        is_dimmed: base.is_dimmed || top.is_dimmed,
        is_italic: base.is_italic || top.is_italic,
        is_underline: base.is_underline || top.is_underline,
        is_blink: base.is_blink || top.is_blink,
        is_reverse: base.is_reverse || top.is_reverse,
        is_hidden: base.is_hidden || top.is_hidden,
        is_strikethrough: base.is_strikethrough || top.is_strikethrough,
        prefix_with_reset: base.prefix_with_reset || top.prefix_with_reset,
    }
}

/// The colours of capture names, and the emphasis of a matching bracket pair.
///
/// A capture takes the style of its longest dotted prefix the theme names:
/// `string.special.symbol` falls back to `string.special`, then to `string`, and stays plain
/// if none is named.
///
/// ```
/// use nu_ansi_term::{Color, Style};
/// use poppet::shell::highlight::Theme;
///
/// let theme = Theme::none().with("string", Color::Green.normal());
/// assert_eq!(theme.style("string.special.symbol"), Some(Color::Green.normal()));
/// assert_eq!(theme.style("strings"), None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    styles: HashMap<String, Style>,
    brackets: Option<Style>,
}

impl Default for Theme {
    /// [`Theme::dark`].
    fn default() -> Self {
        Self::dark()
    }
}

impl Theme {
    /// No colours at all: painting gives back the source.
    pub fn none() -> Self {
        Theme { styles: HashMap::new(), brackets: None }
    }

    /// The shell's palette, in the terminal's own sixteen colours so that it follows the
    /// terminal's dark or light scheme: keywords magenta and bold, strings green (bare words
    /// too: they are strings), numbers, booleans, `undef`/`default` and regular expressions
    /// yellow, types, classes and escapes cyan, functions and attribute names blue,
    /// variables red, comments grey, operators and punctuation plain; a matching bracket pair
    /// bold and underlined.
    pub fn dark() -> Self {
        Theme::none()
            .with("attribute", Color::Cyan.normal())
            .with("boolean", Color::Yellow.normal())
            .with("comment", Color::DarkGray.normal())
            .with("constant", Color::Yellow.normal())
            .with("constructor", Color::Cyan.normal())
            .with("function", Color::Blue.normal())
            .with("keyword", Color::Magenta.bold())
            .with("module", Color::Cyan.normal())
            .with("number", Color::Yellow.normal())
            .with("property", Color::Blue.normal())
            .with("punctuation.special", Color::Magenta.normal())
            .with("string", Color::Green.normal())
            .with("string.escape", Color::Cyan.normal())
            .with("string.regexp", Color::Yellow.normal())
            .with("string.special", Color::Green.bold())
            .with("string.special.symbol", Color::Green.normal())
            .with("type", Color::Cyan.normal())
            .with("variable", Color::Red.normal())
            .with_brackets(Some(Style::new().bold().underline()))
    }

    /// This theme with `capture` (a capture name or a dotted prefix of some) in `style`.
    #[must_use]
    pub fn with(mut self, capture: &str, style: Style) -> Self {
        self.styles.insert(capture.to_owned(), style);
        self
    }

    /// This theme with a matching bracket pair emphasised by `style` (added to the brackets'
    /// own style), or not at all.
    #[must_use]
    pub fn with_brackets(mut self, style: Option<Style>) -> Self {
        self.brackets = style;
        self
    }

    /// The style of a capture: that of its longest dotted prefix the theme names.
    pub fn style(&self, capture: &str) -> Option<Style> {
        let mut name = capture;
        loop {
            if let Some(style) = self.styles.get(name) {
                return Some(*style);
            }
            name = name.rsplit_once('.')?.0;
        }
    }

    /// The emphasis of a matching bracket pair, if any.
    pub fn brackets(&self) -> Option<Style> {
        self.brackets
    }

    /// No colours and no bracket emphasis.
    fn is_empty(&self) -> bool {
        self.brackets.is_none() && self.styles.values().all(|style| style.is_plain())
    }
}

/// The bracket pair at the cursor: when the byte at `pos`, or else the one before it (the
/// cursor just after a bracket), is one of `()[]{}` in the code, its offset and its partner's.
/// Brackets are the grammar's tokens, so those inside strings, comments and regular
/// expressions are text; `${` opens with its `{` and a heredoc's `@(` with its `(`. The
/// partner is the nearest bracket of the same kind at the same depth, counting only that
/// kind, so `(` finds its `)` in `([)`. `None` when there is no bracket there or it has no
/// partner.
///
/// Each thread keeps the last source and its tree, and parses the next source from them:
/// only the edit between the two is parsed again.
///
/// ```
/// use poppet::shell::highlight::matching_bracket;
///
/// assert_eq!(matching_bracket("f([1], 2)", 1), Some((1, 8)));
/// assert_eq!(matching_bracket("f([1], 2)", 9), Some((8, 1)));
/// assert_eq!(matching_bracket("'('", 1), None);
/// assert_eq!(matching_bracket("if $x {", 6), None);
/// ```
pub fn matching_bracket(src: &str, pos: usize) -> Option<(usize, usize)> {
    let candidates = [Some(pos), pos.checked_sub(1)];
    let is_bracket = |at: usize| src.as_bytes().get(at).is_some_and(|b| b"()[]{}".contains(b));
    if !candidates.iter().flatten().any(|&at| is_bracket(at)) {
        return None;
    }
    let tree = parse(src)?;
    let brackets = bracket_tokens(&tree, src.as_bytes());
    // The first candidate that is a bracket in the code decides.
    let (index, at) = candidates
        .into_iter()
        .flatten()
        .find_map(|at| brackets.binary_search_by_key(&at, |&(offset, _)| offset).ok().map(|i| (i, at)))?;
    partner(&brackets, index).map(|other| (at, brackets[other].0))
}

thread_local! {
    /// The parser of [`matching_bracket`] and the last source it parsed, per thread.
    static PARSED: RefCell<Option<Parsed>> = const { RefCell::new(None) };
}

/// A parser, and the last source it parsed with its tree: the next source is parsed
/// incrementally from it (a keystroke's edit costs a sixth of a fresh parse), or not at all
/// when only the cursor moved.
struct Parsed {
    parser: Parser,
    last: Option<(String, Tree)>,
}

/// The tree of `src`, or `None` if it cannot be parsed.
fn parse(src: &str) -> Option<Tree> {
    PARSED.with(|cell| {
        let mut cell = cell.try_borrow_mut().ok()?;
        if cell.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&tree_sitter_puppet::LANGUAGE.into()).ok()?;
            *cell = Some(Parsed { parser, last: None });
        }
        let parsed = cell.as_mut()?;
        let old = match parsed.last.take() {
            Some((old_src, tree)) if old_src == src => {
                parsed.last = Some((old_src, tree.clone()));
                return Some(tree);
            }
            Some((old_src, mut tree)) => {
                tree.edit(&edit(&old_src, src));
                Some(tree)
            }
            None => None,
        };
        let tree = parsed.parser.parse(src, old.as_ref())?;
        parsed.last = Some((src.to_owned(), tree.clone()));
        Some(tree)
    })
}

/// The edit that turns `old` into `new`: what lies between their common prefix and suffix.
fn edit(old: &str, new: &str) -> InputEdit {
    let prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    let suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(old.len().min(new.len()) - prefix)
        .take_while(|(a, b)| a == b)
        .count();
    InputEdit {
        start_byte: prefix,
        old_end_byte: old.len() - suffix,
        new_end_byte: new.len() - suffix,
        start_position: point(new, prefix),
        old_end_position: point(old, old.len() - suffix),
        new_end_position: point(new, new.len() - suffix),
    }
}

/// The row and byte column of `byte` in `text`, as tree-sitter counts them.
fn point(text: &str, byte: usize) -> Point {
    let before = &text.as_bytes()[..byte];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let column = byte - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    Point::new(row, column)
}

/// The brackets among the tree's tokens, in order: each one's offset and byte.
fn bracket_tokens(tree: &Tree, src: &[u8]) -> Vec<(usize, u8)> {
    let mut brackets = Vec::new();
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if node.child_count() == 0 {
            let start = node.start_byte();
            if !node.is_missing() && node.end_byte() > start {
                let bracket = match node.kind() {
                    "(" | ")" | "[" | "]" | "{" | "}" => Some(start),
                    // `${x}`, and the `@(` of a heredoc's `@(END)`.
                    "${" | "heredoc_start" => Some(start + 1),
                    _ => None,
                };
                if let Some(at) = bracket {
                    if let Some(&byte) = src.get(at).filter(|b| b"()[]{}".contains(b)) {
                        brackets.push((at, byte));
                    }
                }
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    // The walk meets tokens in source order; a heredoc's text is an extra, which the parser
    // places itself, so sort to be sure (the list is short and almost always sorted).
    brackets.sort_unstable_by_key(|&(offset, _)| offset);
    brackets
}

/// The index of the partner of `brackets[index]`: the next bracket of the same kind at the
/// same depth, forwards from an opening one, backwards from a closing one.
fn partner(brackets: &[(usize, u8)], index: usize) -> Option<usize> {
    let (_, byte) = brackets[index];
    let (open, close, forwards) = match byte {
        b'(' => (b'(', b')', true),
        b'[' => (b'[', b']', true),
        b'{' => (b'{', b'}', true),
        b')' => (b'(', b')', false),
        b']' => (b'[', b']', false),
        b'}' => (b'{', b'}', false),
        _ => return None,
    };
    let (same, other) = if forwards { (open, close) } else { (close, open) };
    let mut depth = 0usize;
    let mut step = |i: usize| {
        let b = brackets[i].1;
        if b == same {
            depth += 1;
        } else if b == other {
            if depth == 0 {
                return true;
            }
            depth -= 1;
        }
        false
    };
    if forwards {
        (index + 1..brackets.len()).find(|&i| step(i))
    } else {
        (0..index).rev().find(|&i| step(i))
    }
}
