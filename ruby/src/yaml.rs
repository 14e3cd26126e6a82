//! Ruby's `to_yaml` (`Psych.dump`, Psych 4.0 over libyaml 0.2.5), as stdlib's `to_yaml`
//! shows it: Psych's `YAMLTree` decides what each value becomes and which style it asks for,
//! libyaml's emitter decides which style is allowed and writes it.
//!
//! | value | YAML |
//! |-------|------|
//! | a string a plain scalar would read back as, starting with a word character | plain (`abc`), folded at spaces past 80 columns |
//! | a string that would read as something else (`'true'`, `'1'`, `'2001-12-14'`, `':a'`), or starts `0` and has an `8` or `9` | single-quoted |
//! | a string starting a line with a non-word character and no `"` after it (`"/etc"`), `y`, `n` | double-quoted, with escapes |
//! | a string with a line break before its last character | literal block (`\|-`, `\|`, `\|+`, with an indentation digit where it starts with a space or break) |
//! | `nil`, `true`, an integer, a float (`1.0e+20`, `.inf`), a Symbol (`:default`) | plain |
//! | an array, a hash | a block sequence (`- ` at its key's indent in a mapping) or mapping; empty: `[]`, `{}` |
//! | the same array or hash again | an alias (`*1`) of the first, which gets the anchor (`&1`) |
//!
//! What libyaml allows: plain needs no leading or trailing space, no line break, no
//! indicator (`- `, `? `, `: `, ` #`, a leading `#,[]{}&*!|>'"%@\``); single quotes need no
//! space next to a line break and no special character (a control character, a tab, a
//! character beyond the BMP, a BOM); block scalars no trailing space. A style not allowed
//! falls back to the next: plain, single-quoted, double-quoted.
//!
//! ```
//! use poppet_ruby::yaml::{dump, Node, Options};
//! let doc = Node::Map(None, vec![(Node::Str("a".into()), Node::Seq(None, vec![Node::Int("1".into())]))]);
//! assert_eq!(dump(&doc, &Options::default(), &|_| true).unwrap(), "---\na:\n- 1\n");
//! assert_eq!(dump(&Node::Str("true".into()), &Options::default(), &|s| s != "true").unwrap(), "--- 'true'\n");
//! ```

/// A value as Psych dumps it. Collections carry the anchor Psych gives them when they are
/// dumped again ([`Node::Alias`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// An integer's digits.
    Int(String),
    Float(f64),
    Str(String),
    /// A Ruby Symbol's name (`:name`).
    Symbol(String),
    /// A Ruby Regexp's `inspect` (`/a+/`).
    Regexp(String),
    Seq(Option<u32>, Vec<Node>),
    Map(Option<u32>, Vec<(Node, Node)>),
    /// A Ruby object: its class and its instance variables.
    Object(Option<u32>, String, Vec<(String, Node)>),
    Alias(u32),
}

/// The options `to_yaml` gives Psych (`indentation`, `line_width`, `canonical`, `header`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub indentation: Option<i64>,
    pub line_width: Option<i64>,
    pub canonical: bool,
    pub header: bool,
}

/// `Psych.dump(node, options)`: the YAML document. `reads_as_string` says whether a plain
/// scalar reads back as that very string (Psych's `ScalarScanner#tokenize`, which the caller
/// has); it is asked only where libyaml would allow a plain scalar. An error is Psych's
/// message for a bad option.
pub fn dump(node: &Node, options: &Options, reads_as_string: &dyn Fn(&str) -> bool) -> Result<String, String> {
    let line_width = match options.line_width {
        Some(-1) => None,
        Some(w) if w < 0 => return Err(format!("Invalid line_width {w}, must be non-negative or -1 for unlimited.")),
        w => w,
    };
    let to_int = |v: i64| i32::try_from(v).map_err(|_| format!("integer {v} too big to convert to 'int'"));
    let mut best_indent = options.indentation.map(to_int).transpose()?.unwrap_or(2);
    if !(2..=9).contains(&best_indent) {
        best_indent = 2;
    }
    let mut best_width = options.line_width.map(to_int).transpose()?.unwrap_or(0);
    if best_width >= 0 && best_width <= best_indent * 2 {
        best_width = 80;
    }
    if best_width < 0 {
        best_width = i32::MAX;
    }
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        indent: -1,
        indents: Vec::new(),
        whitespace: true,
        indention: true,
        open_ended: 0,
        flow_level: 0,
        best_indent,
        best_width: usize::try_from(best_width).unwrap_or(usize::MAX),
        canonical: options.canonical,
        simple_key_context: false,
        mapping_context: false,
        line_width: line_width.and_then(|w| usize::try_from(w).ok()),
        reads_as_string,
    };
    if options.header {
        e.indicator("%YAML", true, false, false);
        e.indicator("1.1", true, false, false);
        e.write_indent();
    }
    e.write_indent();
    e.indicator("---", true, false, false);
    if e.canonical {
        e.write_indent();
    }
    e.node(node, false);
    e.write_indent();
    if e.open_ended == 2 {
        e.indicator("...", true, false, false);
        e.write_indent();
    }
    Ok(e.out)
}

/// libyaml's scalar styles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
    Folded,
}

/// A scalar as Psych hands it to libyaml: its text, its tag, whether it may be read back
/// untagged when plain (`plain_implicit`) or quoted (`quoted_implicit`), the style asked.
struct Scalar<'a> {
    text: std::borrow::Cow<'a, str>,
    tag: Option<String>,
    plain_implicit: bool,
    quoted_implicit: bool,
    style: Option<Style>,
}

/// libyaml's `yaml_emitter_analyze_scalar`: which styles a scalar allows.
#[derive(Clone, Copy)]
struct Analysis {
    multiline: bool,
    flow_plain: bool,
    block_plain: bool,
    single_quoted: bool,
    block: bool,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank_or_end(c: Option<char>) -> bool {
    c.is_none_or(|c| c == ' ' || c == '\t' || is_break(c) || c == '\0')
}

/// libyaml's `IS_PRINTABLE` (of UTF-8): a line feed, ASCII's printable characters, and the
/// BMP from U+00A0 but for surrogates, U+FEFF, U+FFFE and U+FFFF.
fn is_printable(c: char) -> bool {
    let c = c as u32;
    c == 0x0A
        || (0x20..=0x7E).contains(&c)
        || (0xA0..=0xD7FF).contains(&c)
        || ((0xE000..=0xFFFD).contains(&c) && c != 0xFEFF)
}

fn analyze(s: &str) -> Analysis {
    if s.is_empty() {
        return Analysis { multiline: false, flow_plain: false, block_plain: true, single_quoted: true, block: false };
    }
    let chars: Vec<char> = s.chars().collect();
    let (mut block_ind, mut flow_ind) = (false, false);
    if s.starts_with("---") || s.starts_with("...") {
        block_ind = true;
        flow_ind = true;
    }
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) = (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_ws = true;
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_ws = is_blank_or_end(chars.get(i + 1).copied());
        let last = i + 1 == chars.len();
        if i == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(c) {
                flow_ind = true;
                block_ind = true;
            }
            if c == '?' || c == ':' {
                flow_ind = true;
                block_ind |= followed_by_ws;
            }
            if c == '-' && followed_by_ws {
                flow_ind = true;
                block_ind = true;
            }
        } else {
            if ",?[]{}".contains(c) {
                flow_ind = true;
            }
            if c == ':' {
                flow_ind = true;
                block_ind |= followed_by_ws;
            }
            if c == '#' && preceded_by_ws {
                flow_ind = true;
                block_ind = true;
            }
        }
        if !is_printable(c) {
            special = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            leading_break |= i == 0;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_ws = is_blank_or_end(Some(c));
    }
    let mut a =
        Analysis { multiline: line_breaks, flow_plain: true, block_plain: true, single_quoted: true, block: true };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain = false;
        a.block_plain = false;
    }
    if trailing_space {
        a.block = false;
    }
    if break_space {
        a.flow_plain = false;
        a.block_plain = false;
        a.single_quoted = false;
    }
    if space_break || special {
        a = Analysis {
            multiline: line_breaks,
            flow_plain: false,
            block_plain: false,
            single_quoted: false,
            block: false,
        };
    }
    if line_breaks {
        a.flow_plain = false;
        a.block_plain = false;
    }
    if flow_ind {
        a.flow_plain = false;
    }
    if block_ind {
        a.block_plain = false;
    }
    a
}

/// Onigmo's `[[:word:]]` of a character (letters, marks, digits, connector punctuation).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || ('\u{300}'..='\u{36f}').contains(&c) || c == '\u{203f}' || c == '\u{2040}'
}

/// Ruby's `s =~ /^[^[:word:]][^"]*$/` (`^` and `$` at any line's start and end): some line
/// starts with a non-word character and no `"` comes before the end of a line.
fn starts_a_line_unworded(s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    (0..chars.len()).filter(|&p| p == 0 || chars[p - 1] == '\n').any(|p| {
        !is_word(chars[p])
            && chars[p + 1..].iter().position(|&c| c == '"' || c == '\n').is_none_or(|i| chars[p + 1 + i] == '\n')
    })
}

/// The tag of `tag:yaml.org,2002:` types written `!!`.
const YAML_TAG_PREFIX: &str = "tag:yaml.org,2002:";

struct Emitter<'a> {
    out: String,
    column: usize,
    indent: i32,
    indents: Vec<i32>,
    whitespace: bool,
    indention: bool,
    open_ended: u8,
    flow_level: usize,
    best_indent: i32,
    best_width: usize,
    canonical: bool,
    simple_key_context: bool,
    mapping_context: bool,
    /// Psych's own `line_width` (asks for folded scalars past it).
    line_width: Option<usize>,
    reads_as_string: &'a dyn Fn(&str) -> bool,
}

impl Emitter<'_> {
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// libyaml's `WRITE_BREAK`: a line feed as the line break, another break as it is.
    fn write_break(&mut self, c: char) {
        if c != '\n' {
            self.out.push(c);
        }
        if c == '\n' {
            self.out.push('\n');
        }
        self.column = 0;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { self.best_indent } else { 0 };
        } else if !indentless {
            self.indent += self.best_indent;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent.max(0)).unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn indicator(&mut self, text: &str, need_whitespace: bool, is_whitespace: bool, is_indention: bool) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        text.chars().for_each(|c| self.put(c));
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn anchor(&mut self, anchor: Option<u32>, alias: bool) {
        if let Some(a) = anchor {
            self.indicator(if alias { "*" } else { "&" }, true, false, false);
            a.to_string().chars().for_each(|c| self.put(c));
            self.whitespace = false;
            self.indention = false;
        }
    }

    /// A tag as libyaml writes it: `!!` for YAML's types, `!` for the others, characters
    /// outside a URI's as `%XX`.
    fn tag(&mut self, tag: &str) {
        let (handle, suffix) = match tag.strip_prefix(YAML_TAG_PREFIX) {
            Some(rest) if !rest.is_empty() => ("!!", rest),
            _ => match tag.strip_prefix('!') {
                Some(rest) if !rest.is_empty() => ("!", rest),
                _ => ("", tag),
            },
        };
        if !self.whitespace {
            self.put(' ');
        }
        if handle.is_empty() {
            self.indicator("!<", true, false, false);
        } else {
            handle.chars().for_each(|c| self.put(c));
        }
        for c in suffix.chars() {
            if c.is_ascii_alphanumeric() || "-_;/?:@&=+$,.~*'()[]".contains(c) {
                self.put(c);
            } else {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    format!("%{b:02X}").chars().for_each(|c| self.put(c));
                }
            }
        }
        if handle.is_empty() {
            self.indicator(">", false, false, false);
        }
        self.whitespace = false;
        self.indention = false;
    }

    /// The length libyaml counts for a simple key (`yaml_emitter_check_simple_key`), `None`
    /// where the node cannot be one.
    fn simple_key_length(&self, node: &Node) -> Option<usize> {
        let anchor_len = |a: &Option<u32>| a.map_or(0, |a| a.to_string().len());
        let len = match node {
            Node::Alias(a) => a.to_string().len(),
            Node::Seq(a, items) if items.is_empty() => anchor_len(a),
            Node::Map(a, entries) if entries.is_empty() => anchor_len(a),
            Node::Seq(..) | Node::Map(..) | Node::Object(..) => return None,
            scalar => {
                let s = self.scalar(scalar);
                if analyze(&s.text).multiline {
                    return None;
                }
                let tag_len = s.tag.as_deref().filter(|_| self.canonical || (!s.plain_implicit && !s.quoted_implicit));
                let tag_len = tag_len.map_or(0, |t| t.strip_prefix(YAML_TAG_PREFIX).map_or(t.len(), |r| r.len() + 2));
                tag_len + s.text.len()
            }
        };
        (len <= 128).then_some(len)
    }

    /// What Psych's `YAMLTree` makes of a scalar node.
    fn scalar<'n>(&self, node: &'n Node) -> Scalar<'n> {
        let plain = |text: String| Scalar {
            text: text.into(),
            tag: None,
            plain_implicit: true,
            quoted_implicit: false,
            style: None,
        };
        match node {
            Node::Null => Scalar { tag: Some(format!("{YAML_TAG_PREFIX}null")), ..plain(String::new()) },
            Node::Bool(b) => plain(b.to_string()),
            Node::Int(digits) => plain(digits.clone()),
            Node::Float(f) if f.is_nan() => plain(".nan".into()),
            Node::Float(f) if f.is_infinite() => plain(if *f > 0.0 { ".inf" } else { "-.inf" }.into()),
            Node::Float(f) => plain(crate::float::float_to_s(*f)),
            Node::Symbol(name) if name.is_empty() => {
                Scalar { tag: Some("!ruby/symbol".into()), plain_implicit: false, ..plain(String::new()) }
            }
            Node::Symbol(name) => plain(format!(":{name}")),
            Node::Regexp(text) => {
                Scalar { tag: Some("!ruby/regexp".into()), plain_implicit: false, ..plain(text.clone()) }
            }
            Node::Str(s) => self.string(s),
            _ => plain(String::new()),
        }
    }

    /// Psych's `visit_String`: the style it asks for.
    fn string<'n>(&self, s: &'n str) -> Scalar<'n> {
        let line_break_inside = s.char_indices().any(|(i, c)| c == '\n' && !matches!(&s[i + 1..], "" | "\n"));
        let style = if line_break_inside {
            Style::Literal
        } else if s == "<<" {
            return Scalar {
                text: s.into(),
                tag: Some(format!("{YAML_TAG_PREFIX}str")),
                plain_implicit: false,
                quoted_implicit: false,
                style: Some(Style::Single),
            };
        } else if s == "y" || s == "n" {
            Style::Double
        } else if self.line_width.is_some_and(|w| s.chars().count() > w) {
            Style::Folded
        } else if starts_a_line_unworded(s) {
            Style::Double
        } else if s.strip_prefix('0').is_some_and(|r| {
            let r = r.trim_start_matches(|c: char| ('0'..='7').contains(&c));
            r.starts_with(['8', '9'])
        }) {
            Style::Single
        } else {
            // Psych asks for single quotes where the text would read as another value; that
            // only matters where libyaml would allow it plain (else it quotes it anyway).
            let a = analyze(s);
            let plain_allowed = if self.flow_level > 0 { a.flow_plain } else { a.block_plain };
            if plain_allowed && !(self.reads_as_string)(s) {
                Style::Single
            } else {
                Style::Plain
            }
        };
        Scalar { text: s.into(), tag: None, plain_implicit: true, quoted_implicit: true, style: Some(style) }
    }

    /// libyaml's `yaml_emitter_emit_node` (a node in a mapping's key or value, or not).
    fn node(&mut self, node: &Node, mapping: bool) {
        self.node_in(node, mapping, false);
    }

    fn node_in(&mut self, node: &Node, mapping: bool, simple_key: bool) {
        self.mapping_context = mapping;
        self.simple_key_context = simple_key;
        match node {
            Node::Alias(a) => {
                self.anchor(Some(*a), true);
                if self.simple_key_context {
                    self.put(' ');
                }
            }
            Node::Seq(anchor, items) => {
                self.anchor(*anchor, false);
                if self.flow_level > 0 || self.canonical || items.is_empty() {
                    self.flow_sequence(items);
                } else {
                    self.block_sequence(items);
                }
            }
            Node::Map(anchor, entries) => {
                self.anchor(*anchor, false);
                if self.flow_level > 0 || self.canonical || entries.is_empty() {
                    self.flow_mapping(entries.iter().map(|(k, v)| (k, v)));
                } else {
                    self.block_mapping(entries.iter().map(|(k, v)| (k, v)));
                }
            }
            Node::Object(anchor, class, fields) => {
                self.anchor(*anchor, false);
                self.tag(&format!("!ruby/object:{class}"));
                let keys: Vec<Node> = fields.iter().map(|(k, _)| Node::Str(k.clone())).collect();
                let entries = keys.iter().zip(fields.iter().map(|(_, v)| v));
                if self.flow_level > 0 || self.canonical || fields.is_empty() {
                    self.flow_mapping(entries);
                } else {
                    self.block_mapping(entries);
                }
            }
            scalar => self.emit_scalar(scalar),
        }
    }

    fn emit_scalar(&mut self, node: &Node) {
        let s = self.scalar(node);
        let analysis = analyze(&s.text);
        let tag = s.tag.clone().filter(|_| self.canonical || (!s.plain_implicit && !s.quoted_implicit));
        let no_tag = tag.is_none();
        let mut style = s.style.unwrap_or(Style::Plain);
        if self.canonical {
            style = Style::Double;
        }
        if self.simple_key_context && analysis.multiline {
            style = Style::Double;
        }
        if style == Style::Plain {
            let allowed = if self.flow_level > 0 { analysis.flow_plain } else { analysis.block_plain };
            if !allowed
                || (s.text.is_empty() && (self.flow_level > 0 || self.simple_key_context))
                || (no_tag && !s.plain_implicit)
            {
                style = Style::Single;
            }
        }
        if style == Style::Single && !analysis.single_quoted {
            style = Style::Double;
        }
        if matches!(style, Style::Literal | Style::Folded)
            && (!analysis.block || self.flow_level > 0 || self.simple_key_context)
        {
            style = Style::Double;
        }
        match &tag {
            Some(t) => self.tag(t),
            None if !s.quoted_implicit && style != Style::Plain => {
                if !self.whitespace {
                    self.put(' ');
                }
                self.put('!');
                self.whitespace = false;
                self.indention = false;
            }
            None => {}
        }
        self.increase_indent(true, false);
        let allow_breaks = !self.simple_key_context;
        match style {
            Style::Plain => self.plain(&s.text, allow_breaks),
            Style::Single => self.single_quoted(&s.text, allow_breaks),
            Style::Double => self.double_quoted(&s.text, allow_breaks),
            Style::Literal => self.block_scalar(&s.text, false),
            Style::Folded => self.block_scalar(&s.text, true),
        }
        self.pop_indent();
    }

    fn block_sequence(&mut self, items: &[Node]) {
        let indentless = self.mapping_context && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.indicator("-", true, false, true);
            self.node(item, false);
        }
        self.pop_indent();
    }

    fn block_mapping<'n>(&mut self, entries: impl Iterator<Item = (&'n Node, &'n Node)>) {
        self.increase_indent(false, false);
        for (key, value) in entries {
            self.write_indent();
            if self.simple_key_length(key).is_some() {
                self.node_in(key, true, true);
                self.indicator(":", false, false, false);
            } else {
                self.indicator("?", true, false, true);
                self.node(key, true);
                self.write_indent();
                self.indicator(":", true, false, true);
            }
            self.node(value, true);
        }
        self.pop_indent();
    }

    fn flow_sequence(&mut self, items: &[Node]) {
        self.indicator("[", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.indicator(",", false, false, false);
            }
            if self.canonical || self.column > self.best_width {
                self.write_indent();
            }
            self.node(item, false);
        }
        self.flow_level -= 1;
        self.pop_indent();
        if self.canonical && !items.is_empty() {
            self.indicator(",", false, false, false);
            self.write_indent();
        }
        self.indicator("]", false, false, false);
    }

    fn flow_mapping<'n>(&mut self, entries: impl Iterator<Item = (&'n Node, &'n Node)>) {
        self.indicator("{", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        let mut first = true;
        for (key, value) in entries {
            if !first {
                self.indicator(",", false, false, false);
            }
            first = false;
            if self.canonical || self.column > self.best_width {
                self.write_indent();
            }
            if !self.canonical && self.simple_key_length(key).is_some() {
                self.node_in(key, true, true);
                self.indicator(":", false, false, false);
            } else {
                self.indicator("?", true, false, false);
                self.node(key, true);
                if self.canonical || self.column > self.best_width {
                    self.write_indent();
                }
                self.indicator(":", true, false, false);
            }
            self.node(value, true);
        }
        self.flow_level -= 1;
        self.pop_indent();
        if self.canonical && !first {
            self.indicator(",", false, false, false);
            self.write_indent();
        }
        self.indicator("}", false, false, false);
    }

    fn plain(&mut self, s: &str, allow_breaks: bool) {
        if !self.whitespace && (!s.is_empty() || self.flow_level > 0) {
            self.put(' ');
        }
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks && !spaces && self.column > self.best_width && chars.get(i + 1) != Some(&' ') {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                self.indention = false;
                spaces = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn single_quoted(&mut self, s: &str, allow_breaks: bool) {
        self.indicator("'", true, false, false);
        let chars: Vec<char> = s.chars().collect();
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > self.best_width
                    && i != 0
                    && i + 1 != chars.len()
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        if breaks {
            self.write_indent();
        }
        self.indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn double_quoted(&mut self, s: &str, allow_breaks: bool) {
        self.indicator("\"", true, false, false);
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let escape = match c {
                    '\0' => "0",
                    '\u{7}' => "a",
                    '\u{8}' => "b",
                    '\t' => "t",
                    '\n' => "n",
                    '\u{b}' => "v",
                    '\u{c}' => "f",
                    '\r' => "r",
                    '\u{1b}' => "e",
                    '"' => "\"",
                    '\\' => "\\",
                    '\u{85}' => "N",
                    '\u{a0}' => "_",
                    '\u{2028}' => "L",
                    '\u{2029}' => "P",
                    _ => "",
                };
                let text = if !escape.is_empty() {
                    escape.to_owned()
                } else if (c as u32) <= 0xFF {
                    format!("x{:02X}", c as u32)
                } else if (c as u32) <= 0xFFFF {
                    format!("u{:04X}", c as u32)
                } else {
                    format!("U{:08X}", c as u32)
                };
                text.chars().for_each(|c| self.put(c));
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > self.best_width && i != 0 && i + 1 != chars.len() {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The indentation and chomping hints of a block scalar (`|2-`, `>+`).
    fn block_hints(&mut self, s: &str) {
        if s.starts_with(|c: char| c == ' ' || is_break(c)) {
            let hint = self.best_indent.to_string();
            self.indicator(&hint, false, false, false);
        }
        self.open_ended = 0;
        let mut rev = s.chars().rev();
        let chomp = match (rev.next(), rev.next()) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => {
                self.open_ended = 2;
                Some("+")
            }
            (Some(_), Some(before)) if is_break(before) => {
                self.open_ended = 2;
                Some("+")
            }
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.indicator(chomp, false, false, false);
        }
    }

    /// libyaml's literal (`|`) and folded (`>`) scalars.
    fn block_scalar(&mut self, s: &str, folded: bool) {
        self.indicator(if folded { ">" } else { "|" }, true, false, false);
        self.block_hints(s);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let chars: Vec<char> = s.chars().collect();
        let (mut breaks, mut leading_spaces) = (true, true);
        for (i, &c) in chars.iter().enumerate() {
            if is_break(c) {
                if folded && !breaks && !leading_spaces && c == '\n' {
                    let next = chars[i..].iter().position(|&c| !is_break(c)).map(|k| chars[i + k]);
                    if !is_blank_or_end(next) {
                        self.put_break();
                    }
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                    leading_spaces = c == ' ' || c == '\t';
                }
                if folded && !breaks && c == ' ' && chars.get(i + 1) != Some(&' ') && self.column > self.best_width {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                self.indention = false;
                breaks = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(node: &Node) -> String {
        dump(node, &Options::default(), &|_| true).unwrap_or_default()
    }

    #[test]
    fn scalars_and_collections() {
        assert_eq!(yaml(&Node::Null), "---\n");
        assert_eq!(yaml(&Node::Str("line1\nline2".into())), "--- |-\n  line1\n  line2\n");
        assert_eq!(yaml(&Node::Seq(None, vec![Node::Seq(None, vec![Node::Int("1".into())])])), "---\n- - 1\n");
        assert_eq!(yaml(&Node::Str("/etc".into())), "--- \"/etc\"\n");
        assert_eq!(yaml(&Node::Str("a: b".into())), "--- 'a: b'\n");
    }

    #[test]
    fn a_non_word_start_of_any_line() {
        assert!(starts_a_line_unworded("line1\n\n"));
        assert!(!starts_a_line_unworded("line1\n"));
        assert!(!starts_a_line_unworded("/a\"b"));
    }
}
