//! Tab completion for the shell: what may stand at the cursor, from the text before it.
//!
//! [`complete`] is a pure function of the input buffer, the cursor and a [`World`] that names
//! the session's variables, functions, types, classes and commands; only `:load` and `:edit`
//! look at the file system. The context comes from a scan of the text before the cursor with
//! Puppet's lexical rules (`pops/parser/lexer2.rb`): comments, single- and double-quoted
//! strings with their interpolations, heredocs (whose text starts on the line after their
//! header), regexps (a `/` starts one where Puppet's lexer accepts one), and brackets, each
//! `{` read as a resource body, a block or a hash from what comes before it. (The grammar's
//! tree of an unfinished input is mostly an `ERROR` node, which says less than this scan.)
//!
//! | before the cursor | candidates |
//! | --- | --- |
//! | `$fa`, `"… $fa`, `"${fa` | variables |
//! | `$facts[`, `$facts['o`, `$facts['os']['`, `$h['` | the keys of the hash, quoted and closed: `'os']` |
//! | `[1].ma` | functions (as methods) |
//! | `include ap`, `contain 'ap`, `inherits ap`, `class { 'ap`, `Class['ap` | classes |
//! | `file { '/x': en`, `File { en`, `File['/x'] { en` | the type's attributes (not the read-only ones) and metaparameters, as `ensure => ` |
//! | `file { '/x': ensure => ` | that attribute's documented values (`present`, …) |
//! | `no` (a word) | functions and keywords, and resource types (core and defined) where a statement starts |
//! | `In` (a capitalised word) | data types and resource type references (`File`) |
//! | `:he`, `:help `, `:set `, `:doc ` | commands and their words |
//! | `:load `, `:edit ` | paths |
//! | a comment, string text, regexp, heredoc text | nothing |
//!
//! Resource types' attributes and their documented values come from
//! `puppet_eval::resource_types`: the core types' schemas generated from Puppet 7.23 by
//! `cargo xtask gen resource-types` (`xtask/ruby/resource_types.rb`), which the catalog
//! checks parameters with too.
//!
//! A word left empty (the cursor after a space) completes only where the context is narrow:
//! attributes, attribute values, hash keys, class names, methods, commands and paths.

use std::collections::BTreeMap;
use std::path::PathBuf;

use puppet_eval::resource_types;

/// What completion needs to know about the session.
pub trait World {
    /// Variable names in scope, without `$` (`x`, `facts`, `settings::environment`).
    fn variables(&self) -> Vec<String>;
    /// The string keys of the hash a variable holds (`facts`, `h`), or of the hash found by
    /// following `path` into it (`facts` `["os"]`: the keys of `$facts['os']`).
    fn keys(&self, variable: &str, path: &[String]) -> Vec<String>;
    /// Callable function names, built-in and defined in the session (`notice`, `mymod::f`).
    fn functions(&self) -> Vec<String>;
    /// Data type names, built-in (`Integer`, `String`) and aliases.
    fn types(&self) -> Vec<String>;
    /// Class names known to the session (defined, loaded or on the module path).
    fn classes(&self) -> Vec<String>;
    /// Defined type names known to the session (defined, loaded or on the module path).
    fn defined_types(&self) -> Vec<String>;
    /// Meta-command names, without `:` (`help`, `quit`, `load`, `set`).
    fn commands(&self) -> Vec<String>;
    /// The fixed words the next argument of a command takes, given the command's name as
    /// typed (possibly abbreviated) and the arguments before the one completed: `set` →
    /// `format`, `color`, ...; `set color` → `on`, `off`; `help` → command names.
    fn command_arguments(&self, words: &str) -> Vec<String>;
}

/// One completion: the text that replaces the word before the cursor, and what the list shows.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub replacement: String,
    pub display: String,
}

/// Completions for the text before `pos` in `line` (the whole multi-line buffer): the byte
/// offset where the replaced word starts, and the candidates sorted (by replacement) and
/// deduplicated. A `pos` past the end or inside a character counts from the character
/// boundary before it.
pub fn complete(line: &str, pos: usize, world: &dyn World) -> (usize, Vec<Candidate>) {
    let mut pos = pos.min(line.len());
    while !line.is_char_boundary(pos) {
        pos -= 1;
    }
    let (before, after) = line.split_at(pos);
    let mut out = Candidates::default();
    let start = match before.find(|c: char| !c.is_whitespace()) {
        // As the shell reads its input: a buffer starting with `:` is a meta-command.
        Some(colon) if before[colon..].starts_with(':') => command(before, after, colon, world, &mut out),
        _ => code(before, after, 0, world, &mut out),
    };
    (start, out.into_sorted())
}

/// Puppet's keywords (lexer2.rb's `KEYWORDS`). `attr` and `private` are reserved there too,
/// but no part of Puppet 7.23's grammar uses them, so they complete nothing useful; `plan`
/// and `apply` are keywords only in Bolt's tasks mode.
pub const KEYWORDS: &[&str] = &[
    "and", "case", "class", "default", "define", "else", "elsif", "false", "function", "if", "in", "inherits", "node",
    "or", "true", "type", "undef", "unless",
];

/// The functions whose arguments name classes (`include apache, nginx`).
const CLASS_FUNCTIONS: &[&str] = &["include", "require", "contain"];

/// Meta-commands whose argument is a file.
const PATH_COMMANDS: &[&str] = &["load", "edit"];

/// Meta-commands whose argument is Puppet code (`:type $x`, `:time [1].map …`).
const CODE_COMMANDS: &[&str] = &["type", "time"];

/// Candidates keyed by replacement: sorted and deduplicated as they are added.
#[derive(Default)]
struct Candidates(BTreeMap<String, String>);

impl Candidates {
    fn add(&mut self, replacement: String, display: String) {
        self.0.entry(replacement).or_insert(display);
    }

    /// `name` (and the same text shown) when it starts with `prefix`.
    fn word(&mut self, name: &str, prefix: &str) {
        if name.starts_with(prefix) {
            self.add(name.to_owned(), name.to_owned());
        }
    }

    fn into_sorted(self) -> Vec<Candidate> {
        self.0.into_iter().map(|(replacement, display)| Candidate { replacement, display }).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Meta-commands

/// `:cmd args` before the cursor, the `:` at `colon`.
fn command(before: &str, after: &str, colon: usize, world: &dyn World, out: &mut Candidates) -> usize {
    let text = &before[colon + 1..];
    let Some(space) = text.find(char::is_whitespace) else {
        for name in world.commands() {
            if name.starts_with(text) {
                out.add(format!(":{name}"), format!(":{name}"));
            }
        }
        return colon;
    };
    let typed = &text[..space];
    let args_at = colon + 1 + space;
    let args = &before[args_at..];
    let word_at = args.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let (prefix, start) = (&args[word_at..], args_at + word_at);
    let first = args[..word_at].trim().is_empty();
    let name = resolve(typed, &world.commands());
    let name = name.as_deref().unwrap_or(typed);
    if PATH_COMMANDS.contains(&name) {
        let arg = args.trim_start();
        paths(arg, out);
        return before.len() - arg.len();
    }
    if CODE_COMMANDS.contains(&name) && !(first && prefix.starts_with('-')) {
        return code(args, after, args_at, world, out);
    }
    let words = format!("{typed} {}", args[..word_at].trim());
    for word in world.command_arguments(words.trim_end()) {
        out.word(&word, prefix);
    }
    if !first {
        return start;
    }
    match name {
        "help" => world.commands().iter().for_each(|c| out.word(c, prefix)),
        "doc" => {
            let words = world.functions().into_iter().chain(world.types());
            words.chain(KEYWORDS.iter().map(|k| (*k).to_owned())).for_each(|w| out.word(&w, prefix));
        }
        _ => {}
    }
    start
}

/// The command `typed` names: itself, or the first command (in the shell's order) it begins,
/// as the shell reads it.
fn resolve(typed: &str, commands: &[String]) -> Option<String> {
    if commands.iter().any(|c| c == typed) {
        return Some(typed.to_owned());
    }
    commands.iter().find(|c| !typed.is_empty() && c.starts_with(typed)).cloned()
}

/// Files and directories (ending in `/`) whose path starts with `arg`, relative to the current
/// directory, `~` standing for the home directory. Hidden entries only for a prefix with `.`.
fn paths(arg: &str, out: &mut Candidates) {
    if arg == "~" {
        out.add("~/".to_owned(), "~/".to_owned());
        return;
    }
    let (dir, file) = match arg.rfind('/') {
        Some(slash) => arg.split_at(slash + 1),
        None => ("", arg),
    };
    let directory = if dir.is_empty() {
        PathBuf::from(".")
    } else if let Some(rest) = dir.strip_prefix("~/") {
        match dirs::home_dir() {
            Some(home) => home.join(rest),
            None => return,
        }
    } else {
        PathBuf::from(dir)
    };
    let Ok(entries) = std::fs::read_dir(&directory) else { return };
    for entry in entries.flatten() {
        let Ok(name) = entry.file_name().into_string() else { continue };
        if !name.starts_with(file) || (name.starts_with('.') && !file.starts_with('.')) {
            continue;
        }
        // Follows symbolic links: a link to a directory completes as one.
        let slash = if std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()) { "/" } else { "" };
        out.add(format!("{dir}{name}{slash}"), format!("{name}{slash}"));
    }
}

// ---------------------------------------------------------------------------------------------
// Puppet code: the scan

/// A token of Puppet code, as far as completion cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    /// A lowercase name or keyword, possibly qualified (`notice`, `mymod::f`, `::x`).
    Word(&'a str),
    /// A capitalised name (`File`, `Foo::Bar`).
    Ref(&'a str),
    /// A variable, without `$`.
    Var(&'a str),
    Str,
    Number,
    Regex,
    Heredoc,
    /// An operator or punctuation (`=>`, `,`, `:`, `.`, `@`).
    Punct(&'a str),
    /// The end of a group: `)`, `]` or `}`, with what preceded its opener.
    Close(u8, Head<'a>),
}

#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    start: usize,
    end: usize,
}

/// What stands right before an opening `(` or `[`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Head<'a> {
    None,
    /// A variable or an access of one, by where its text is in the scanned text: `$facts[`,
    /// `${facts[` in a string, `$facts['os'][`.
    Index(usize, usize),
    /// `Class[`, `File[`.
    Ref(&'a str),
    /// `include(`.
    Word(&'a str),
}

/// What a `{` opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Brace<'a> {
    Block,
    Hash,
    /// A resource body of the named type (as written): `file {` and `class {` take titles;
    /// defaults (`File {`) and overrides (`File['x'] {`) take attributes only.
    Resource {
        type_name: &'a str,
        titled: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opener<'a> {
    /// The program.
    Root,
    /// `${` in a string or heredoc.
    Interp,
    Paren(Head<'a>),
    Bracket(Head<'a>),
    Brace(Brace<'a>),
}

/// The tokens between an opener and the cursor (or its closer), those of nested groups left
/// out (a nested group is its `Close` token).
struct Level<'a> {
    opener: Opener<'a>,
    tokens: Vec<Token<'a>>,
}

/// Text of a double-quoted string (`quoted`) or of an interpolating heredoc.
struct Text {
    quoted: bool,
    /// Where the text starts.
    content: usize,
    /// No interpolation yet.
    plain: bool,
}

enum Frame<'a> {
    Code(Level<'a>),
    Text(Text),
}

/// Where the scan stopped short of a token's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// In a comment, a regexp, a heredoc's header or the text of a heredoc that does not
    /// interpolate.
    Opaque,
    /// In a single-quoted string whose text starts here.
    Quoted(usize),
}

struct PendingHeredoc<'a> {
    tag: &'a str,
    interpolate: bool,
}

struct Scanner<'a> {
    src: &'a str,
    i: usize,
    /// The program's level first; never empty.
    frames: Vec<Frame<'a>>,
    /// Heredocs whose header is on the current line: their text starts on the next one.
    heredocs: Vec<PendingHeredoc<'a>>,
    /// The last `$name` in string text: (start, name).
    text_var: Option<(usize, &'a str)>,
}

/// The state at the end of `src`.
struct Scan<'a> {
    frames: Vec<Frame<'a>>,
    stop: Option<Stop>,
    text_var: Option<(usize, &'a str)>,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Operators longer than one character, longest first.
const OPERATORS: &[&str] =
    &["<<|", "|>>", "=>", "+>", "->", "~>", "<-", "<~", "==", "!=", "=~", "!~", "<=", ">=", "<<", ">>", "<|", "|>"];

impl<'a> Scanner<'a> {
    fn scan(src: &'a str) -> Scan<'a> {
        let root = Frame::Code(Level { opener: Opener::Root, tokens: Vec::new() });
        let mut s = Scanner { src, i: 0, frames: vec![root], heredocs: Vec::new(), text_var: None };
        let mut stop = None;
        while s.i < src.len() && stop.is_none() {
            stop = match s.frames.last() {
                Some(Frame::Text(_)) => s.text_step(),
                _ => s.code_step(),
            };
        }
        Scan { frames: s.frames, stop, text_var: s.text_var }
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.src.as_bytes().get(at).copied()
    }

    fn rest(&self) -> &'a str {
        &self.src[self.i..]
    }

    /// The innermost code level (the program's when text is on top).
    fn level(&mut self) -> &mut Level<'a> {
        let level = self.frames.iter_mut().rev().find_map(|f| match f {
            Frame::Code(level) => Some(level),
            Frame::Text(_) => None,
        });
        level.expect("the program's level is never popped")
    }

    fn push(&mut self, tok: Tok<'a>, start: usize, end: usize) {
        self.level().tokens.push(Token { tok, start, end });
        self.i = end;
    }

    fn code_step(&mut self) -> Option<Stop> {
        let (src, i) = (self.src, self.i);
        let b = src.as_bytes()[i];
        let next = self.byte(i + 1);
        match b {
            b' ' | b'\t' | b'\r' => self.i += 1,
            b'\n' => {
                self.i += 1;
                if !self.heredocs.is_empty() {
                    return self.heredoc_texts();
                }
            }
            b'#' => match self.rest().find('\n') {
                Some(n) => self.i += n,
                None => return Some(Stop::Opaque),
            },
            b'/' if next == Some(b'*') => match src[i + 2..].find("*/") {
                Some(n) => self.i = i + 2 + n + 2,
                None => return Some(Stop::Opaque),
            },
            b'/' if self.regex_acceptable() => return self.regex(),
            b'\'' => return self.single_quoted(),
            b'"' => {
                self.frames.push(Frame::Text(Text { quoted: true, content: i + 1, plain: true }));
                self.i += 1;
            }
            b'$' => {
                let end = variable_end(src, i + 1);
                self.push(Tok::Var(&src[i + 1..end]), i, end);
            }
            b'@' if next == Some(b'(') => return self.heredoc_header(),
            b'@' => {
                let end = if next == Some(b'@') { i + 2 } else { i + 1 };
                self.push(Tok::Punct(&src[i..end]), i, end);
            }
            b'(' | b'[' | b'{' => self.open(b),
            b')' | b']' | b'}' => self.close(b),
            b'0'..=b'9' => {
                let mut end = i;
                let bytes = src.as_bytes();
                while end < bytes.len()
                    && (is_word_byte(bytes[end])
                        || bytes[end] == b'.' && bytes.get(end + 1).is_some_and(u8::is_ascii_digit))
                {
                    end += 1;
                }
                self.push(Tok::Number, i, end);
            }
            _ if b.is_ascii_alphabetic() || b == b'_' || (b == b':' && next == Some(b':')) => {
                let end = word_end(src, i);
                if end == i {
                    // `::` followed by no name.
                    self.push(Tok::Punct("::"), i, i + 2);
                } else {
                    let word = &src[i..end];
                    let first = word.trim_start_matches(':').bytes().next();
                    let tok =
                        if first.is_some_and(|c| c.is_ascii_uppercase()) { Tok::Ref(word) } else { Tok::Word(word) };
                    self.push(tok, i, end);
                }
            }
            _ => {
                let rest = self.rest();
                let len = OPERATORS
                    .iter()
                    .find(|op| rest.starts_with(*op))
                    .map_or_else(|| rest.chars().next().map_or(1, char::len_utf8), |op| op.len());
                self.push(Tok::Punct(&src[i..i + len]), i, i + len);
            }
        }
        None
    }

    /// Puppet's `regexp_acceptable?`: a `/` after an operand is a division.
    fn regex_acceptable(&mut self) -> bool {
        match self.level().tokens.last().map(|t| t.tok) {
            Some(Tok::Close(b')' | b']', _) | Tok::Punct("|>" | "|>>")) => false,
            Some(Tok::Word(w)) => KEYWORDS.contains(&w) && w != "true" && w != "false",
            Some(Tok::Ref(_) | Tok::Var(_) | Tok::Number | Tok::Str | Tok::Heredoc | Tok::Regex) => false,
            _ => true,
        }
    }

    /// `/…/` (PATTERN_REGEX, across lines, `\/` not ending it).
    fn regex(&mut self) -> Option<Stop> {
        let bytes = self.src.as_bytes();
        let mut j = self.i + 1;
        loop {
            let Some(n) = self.src[j..].find('/') else { return Some(Stop::Opaque) };
            let slash = j + n;
            let backslashes = bytes[..slash].iter().rev().take_while(|&&c| c == b'\\').count();
            if backslashes % 2 == 0 {
                self.push(Tok::Regex, self.i, slash + 1);
                return None;
            }
            j = slash + 1;
        }
    }

    fn single_quoted(&mut self) -> Option<Stop> {
        let bytes = self.src.as_bytes();
        let mut j = self.i + 1;
        while j < bytes.len() {
            match bytes[j] {
                b'\\' => j += 2,
                b'\'' => {
                    self.push(Tok::Str, self.i, j + 1);
                    return None;
                }
                _ => j += 1,
            }
        }
        Some(Stop::Quoted(self.i + 1))
    }

    /// `@(TAG:syntax/escapes)`: a `"TAG"` interpolates.
    fn heredoc_header(&mut self) -> Option<Stop> {
        let i = self.i;
        let rest = &self.src[i + 2..];
        let Some(close) = rest.find([')', '\n']) else { return Some(Stop::Opaque) };
        if rest.as_bytes()[close] == b'\n' {
            self.push(Tok::Punct("@"), i, i + 1);
            return None;
        }
        let spec = &rest[..close];
        let tag = spec[..spec.find([':', '/']).unwrap_or(spec.len())].trim();
        let (tag, interpolate) = match tag.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(inner) => (inner.trim(), true),
            None => (tag, false),
        };
        if !tag.is_empty() {
            self.heredocs.push(PendingHeredoc { tag, interpolate });
        }
        self.push(Tok::Heredoc, i, i + 2 + close + 1);
        None
    }

    /// After the newline that ends a line with heredoc headers: skips their texts, each up
    /// to a line that ends with its tag, or stops inside one.
    fn heredoc_texts(&mut self) -> Option<Stop> {
        for heredoc in std::mem::take(&mut self.heredocs) {
            let text_start = self.i;
            loop {
                let (line_end, next) = match self.rest().find('\n') {
                    Some(n) => (self.i + n, Some(self.i + n + 1)),
                    None => (self.src.len(), None),
                };
                if ends_heredoc(&self.src[self.i..line_end], heredoc.tag) {
                    self.i = next.unwrap_or(line_end);
                    break;
                }
                match next {
                    Some(next) => self.i = next,
                    None if heredoc.interpolate => {
                        self.frames.push(Frame::Text(Text { quoted: false, content: text_start, plain: true }));
                        self.i = text_start;
                        return None;
                    }
                    None => return Some(Stop::Opaque),
                }
            }
        }
        None
    }

    fn open(&mut self, b: u8) {
        let i = self.i;
        let level = self.level();
        let opener = match b {
            b'{' => Opener::Brace(classify_brace(level)),
            b'(' => Opener::Paren(head(level, i)),
            _ => Opener::Bracket(head(level, i)),
        };
        self.frames.push(Frame::Code(Level { opener, tokens: Vec::new() }));
        self.i += 1;
    }

    fn close(&mut self, b: u8) {
        let i = self.i;
        let popped = match self.frames.last() {
            Some(Frame::Code(Level { opener: Opener::Root, .. })) => None,
            Some(Frame::Code(Level { opener: Opener::Interp, .. })) if b != b'}' => None,
            _ => self.frames.pop(),
        };
        let head = match popped {
            Some(Frame::Code(Level { opener: Opener::Interp, .. })) => {
                // Back in the string's text.
                self.i += 1;
                return;
            }
            Some(Frame::Code(Level { opener: Opener::Paren(h) | Opener::Bracket(h), .. })) => h,
            _ => Head::None,
        };
        self.push(Tok::Close(b, head), i, i + 1);
    }

    fn text_step(&mut self) -> Option<Stop> {
        let (src, i) = (self.src, self.i);
        let next = self.byte(i + 1);
        let Some(Frame::Text(text)) = self.frames.last_mut() else { return None };
        match src.as_bytes()[i] {
            b'\\' => self.i += 1 + src[i + 1..].chars().next().map_or(0, char::len_utf8),
            b'"' if text.quoted => {
                let start = text.content - 1;
                self.frames.pop();
                self.push(Tok::Str, start, i + 1);
            }
            b'$' if next == Some(b'{') => {
                text.plain = false;
                self.frames.push(Frame::Code(Level { opener: Opener::Interp, tokens: Vec::new() }));
                self.i += 2;
            }
            b'$' => {
                let end = variable_end(src, i + 1);
                if end > i + 1 || end == src.len() {
                    text.plain = false;
                    self.text_var = Some((i, &src[i + 1..end]));
                }
                self.i = end.max(i + 1);
            }
            // Other bytes, including those inside multi-byte characters, are text.
            _ => self.i += 1,
        }
        None
    }
}

/// The end of a variable's name starting at `from` (PATTERN_DOLLAR_VAR: `(::)?(\w+::)*\w+`),
/// a `::` at the very end of the text included (a name being typed).
fn variable_end(src: &str, from: usize) -> usize {
    name_end(src, from, false)
}

/// The end of the name at `from` (`(::)?\w+(::\w+)*`, a `-` inside a lowercase word as in
/// PATTERN_BARE_WORD), a trailing `::` at the very end of the text included.
fn word_end(src: &str, from: usize) -> usize {
    name_end(src, from, true)
}

/// The end of `(::)?\w+(::\w+)*` at `from`; with `dashes`, a `-` between word characters of
/// a lowercase name belongs to it. A `::` with nothing after is part of the name only at the
/// very end of the text.
fn name_end(src: &str, from: usize, dashes: bool) -> usize {
    let bytes = src.as_bytes();
    let mut j = from;
    if src[j..].starts_with("::") {
        j += 2;
    }
    let dashes = dashes && bytes.get(j).is_some_and(|b| !b.is_ascii_uppercase());
    loop {
        let segment = j;
        while j < bytes.len()
            && (is_word_byte(bytes[j])
                || dashes && j > segment && bytes[j] == b'-' && bytes.get(j + 1).is_some_and(|&b| is_word_byte(b)))
        {
            j += 1;
        }
        if j == segment {
            return if j == bytes.len() {
                j
            } else if segment == from {
                from
            } else {
                segment - 2
            };
        }
        if src[j..].starts_with("::") {
            j += 2;
        } else {
            return j;
        }
    }
}

/// Whether a heredoc text's `line` ends it: Puppet's end-line pattern
/// (`[|]? [-]? TAG [[:blank:]]* \r? $`) is not anchored at the line's start.
fn ends_heredoc(line: &str, tag: &str) -> bool {
    let line = line.strip_suffix('\r').unwrap_or(line);
    line.trim_end_matches([' ', '\t']).ends_with(tag)
}

/// What precedes a `(` or `[` at `at`, when it is attached (`$facts[`, not `$facts [`, which
/// Puppet reads as a new array).
fn head<'a>(level: &Level<'a>, at: usize) -> Head<'a> {
    let Some(last) = level.tokens.last().filter(|t| t.end == at) else { return Head::None };
    match last.tok {
        Tok::Var(_) => Head::Index(last.start, last.end),
        // `"${facts['os']}"`: a name first in an interpolation is a variable.
        Tok::Word(_) if level.opener == Opener::Interp && level.tokens.len() == 1 => Head::Index(last.start, last.end),
        // `$facts['os'][`
        Tok::Close(b']', Head::Index(start, _)) => Head::Index(start, last.end),
        Tok::Ref(name) => Head::Ref(name),
        Tok::Word(name) => Head::Word(name),
        _ => Head::None,
    }
}

/// Whether a statement may start after `tokens` in `level`: at the start of the program or a
/// block, or after `;`, a closed group, a value, `=` or a relationship arrow (Puppet needs no
/// separator between statements). `@` and `@@` (virtual, exported) are looked through.
fn statement_start(level: &Level<'_>, tokens: &[Token<'_>]) -> bool {
    if !matches!(level.opener, Opener::Root | Opener::Brace(Brace::Block)) {
        return false;
    }
    let mut tokens = tokens;
    while let [rest @ .., Token { tok: Tok::Punct("@" | "@@"), .. }] = tokens {
        tokens = rest;
    }
    match tokens.last().map(|t| t.tok) {
        None => true,
        Some(Tok::Punct(p)) => matches!(p, ";" | "=" | "->" | "~>" | "<-" | "<~"),
        Some(Tok::Close(..) | Tok::Var(_) | Tok::Str | Tok::Number | Tok::Regex | Tok::Heredoc) => true,
        Some(Tok::Word(_) | Tok::Ref(_)) => false,
    }
}

/// What a `{` opens, from what precedes it: a resource body after a type name where a
/// statement starts (`file {`, `class {`, `File {`), after a reference (`File['x'] {`) or a
/// collector (`File <| |> {`); a hash after an operator or at the start of a group (`= {`,
/// `? {`, `({`); a block otherwise (`if $x {`, `) {`, `| {`, `else {`, `'a': {`).
fn classify_brace<'a>(level: &Level<'a>) -> Brace<'a> {
    let tokens = level.tokens.as_slice();
    let Some((last, before)) = tokens.split_last() else { return Brace::Hash };
    match last.tok {
        Tok::Word(w) if (w == "class" || !KEYWORDS.contains(&w)) && statement_start(level, before) => {
            Brace::Resource { type_name: w, titled: true }
        }
        Tok::Ref(r) if statement_start(level, before) => Brace::Resource { type_name: r, titled: false },
        Tok::Close(b']', Head::Ref(r)) => Brace::Resource { type_name: r, titled: false },
        Tok::Punct("|>" | "|>>") => {
            let query = before.iter().rposition(|t| matches!(t.tok, Tok::Punct("<|" | "<<|")));
            match query.and_then(|q| q.checked_sub(1)).map(|q| before[q].tok) {
                Some(Tok::Ref(r)) => Brace::Resource { type_name: r, titled: false },
                _ => Brace::Block,
            }
        }
        Tok::Punct("|" | ":") => Brace::Block,
        Tok::Punct(_) => Brace::Hash,
        _ => Brace::Block,
    }
}

// ---------------------------------------------------------------------------------------------
// Puppet code: the candidates

/// Where the cursor is in a resource body.
#[derive(Debug, PartialEq, Eq)]
enum BodyPosition<'a> {
    Title,
    AttributeName,
    /// Right after `name =>`.
    AttributeValue(&'a str),
    Elsewhere,
}

fn body_position<'a>(tokens: &[Token<'a>], titled: bool) -> BodyPosition<'a> {
    let since_title = tokens.iter().rposition(|t| t.tok == Tok::Punct(";")).map_or(tokens, |s| &tokens[s + 1..]);
    let has_colon = since_title.iter().any(|t| t.tok == Tok::Punct(":"));
    match tokens {
        [] => {
            if titled {
                BodyPosition::Title
            } else {
                BodyPosition::AttributeName
            }
        }
        [.., Token { tok: Tok::Punct(";"), .. }] if titled => BodyPosition::Title,
        [.., Token { tok: Tok::Punct(":"), .. }] if titled => BodyPosition::AttributeName,
        [.., Token { tok: Tok::Punct(","), .. }] if has_colon || !titled => BodyPosition::AttributeName,
        [.., Token { tok: Tok::Word(name), .. }, Token { tok: Tok::Punct("=>" | "+>"), .. }] => {
            BodyPosition::AttributeValue(name)
        }
        _ => BodyPosition::Elsewhere,
    }
}

/// What a string or a word at the cursor names, from its place: fact keys, classes or an
/// attribute's values (`None`: nothing in particular).
#[derive(Debug, PartialEq, Eq)]
enum Slot<'a> {
    /// A key of the hash the text at this span stands for.
    Key(usize, usize),
    Class,
    Value {
        type_name: &'a str,
        attribute: &'a str,
    },
}

fn slot<'a>(level: &Level<'a>, tokens: &[Token<'a>]) -> Option<Slot<'a>> {
    match level.opener {
        Opener::Bracket(Head::Index(start, end)) if tokens.is_empty() => return Some(Slot::Key(start, end)),
        Opener::Bracket(Head::Ref("Class")) if matches!(tokens.last().map(|t| t.tok), None | Some(Tok::Punct(","))) => {
            return Some(Slot::Class)
        }
        Opener::Brace(Brace::Resource { type_name, titled }) => {
            return match body_position(tokens, titled) {
                BodyPosition::Title if type_name == "class" => Some(Slot::Class),
                BodyPosition::AttributeValue(attribute) => Some(Slot::Value { type_name, attribute }),
                _ => None,
            };
        }
        _ => {}
    }
    class_argument(level, tokens).then_some(Slot::Class)
}

/// Whether the cursor is at an argument of `include`/`require`/`contain` (with or without
/// parentheses, after commas) or after `inherits`.
fn class_argument(level: &Level<'_>, tokens: &[Token<'_>]) -> bool {
    let mut k = tokens.len();
    loop {
        match k.checked_sub(1).map(|last| tokens[last].tok) {
            None => return matches!(level.opener, Opener::Paren(Head::Word(w)) if CLASS_FUNCTIONS.contains(&w)),
            Some(Tok::Word(w)) if CLASS_FUNCTIONS.contains(&w) || w == "inherits" => return true,
            Some(Tok::Punct(",")) if k >= 2 && matches!(tokens[k - 2].tok, Tok::Word(_) | Tok::Str) => k -= 2,
            _ => return false,
        }
    }
}

/// The values an attribute documents (and `provider`'s providers).
fn attribute_values(type_name: &str, attribute: &str) -> Vec<String> {
    let resource_type = resource_types::get(type_name);
    let declared =
        resource_type.and_then(|t| t.attribute(attribute)).or_else(|| resource_types::metaparameter(attribute));
    let mut values: Vec<String> = declared.map(|a| a.words().map(str::to_owned).collect()).unwrap_or_default();
    if attribute == "provider" {
        values.extend(resource_type.map(|t| t.providers.clone()).unwrap_or_default());
    }
    values
}

/// The attributes of a resource body: the type's (when it is a core type), and the
/// metaparameters; followed by ` => ` unless an `=>` follows the cursor already.
fn attribute_names(type_name: &str, prefix: &str, after: &str, out: &mut Candidates) {
    let own = resource_types::get(type_name).map(|t| t.attributes.as_slice()).unwrap_or_default();
    let own = own.iter().filter(|a| !a.read_only).map(|a| a.name.as_str());
    let names = own.chain(resource_types::metaparameters().iter().map(String::as_str));
    let arrow = if after.trim_start().starts_with("=>") { "" } else { " => " };
    for name in names.filter(|n| n.starts_with(prefix)) {
        out.add(format!("{name}{arrow}"), name.to_owned());
    }
}

/// Puppet code before the cursor (`before`; `after` is the rest of the buffer, `base` the
/// offset of `before` in it). Returns where the replaced word starts.
fn code(before: &str, after: &str, base: usize, world: &dyn World, out: &mut Candidates) -> usize {
    let end = base + before.len();
    let scan = Scanner::scan(before);
    let frames = &scan.frames;
    let Some(top) = frames.last() else { return end };
    let Some(level) = frames.iter().rev().find_map(|f| match f {
        Frame::Code(level) => Some(level),
        Frame::Text(_) => None,
    }) else {
        return end;
    };
    match (scan.stop, top) {
        (Some(Stop::Opaque), _) => end,
        (Some(Stop::Quoted(content)), _) => {
            let text = &before[content..];
            if string_slot(before, level, text, '\'', after, world, out) {
                base + content
            } else {
                end
            }
        }
        (None, Frame::Text(text)) => match scan.text_var {
            // `"… $fa`
            Some((at, name)) if at + 1 + name.len() == before.len() => {
                variables(name, "$", world, out);
                base + at
            }
            _ if text.quoted && text.plain => {
                let typed = &before[text.content..];
                if string_slot(before, level, typed, '"', after, world, out) {
                    base + text.content
                } else {
                    end
                }
            }
            _ => end,
        },
        (None, Frame::Code(_)) => {
            let tokens = level.tokens.as_slice();
            let (word, earlier) = match tokens.split_last() {
                Some((last, earlier))
                    if last.end == before.len() && matches!(last.tok, Tok::Word(_) | Tok::Ref(_) | Tok::Var(_)) =>
                {
                    (Some(last), earlier)
                }
                _ => (None, tokens),
            };
            let start = word.map_or(before.len(), |w| w.start);
            code_word(before, level, earlier, word.map(|w| w.tok), after, world, out);
            base + start
        }
    }
}

/// A string being typed (its text so far, its quote) in a slot that names something; `false`
/// when it names nothing in particular.
fn string_slot(
    scanned: &str,
    level: &Level<'_>,
    text: &str,
    quote: char,
    after: &str,
    world: &dyn World,
    out: &mut Candidates,
) -> bool {
    let Some(slot) = slot(level, &level.tokens) else { return false };
    let (names, close) = match slot {
        Slot::Key(start, end) => (hash_keys(&scanned[start..end], world), format!("{quote}]")),
        Slot::Class => (world.classes(), quote.to_string()),
        Slot::Value { type_name, attribute } => (attribute_values(type_name, attribute), quote.to_string()),
    };
    let close = if after.starts_with(quote) { "" } else { close.as_str() };
    for name in names.iter().filter(|n| n.starts_with(text)) {
        out.add(format!("{}{close}", escape(name, quote)), name.clone());
    }
    true
}

/// `text` written inside quotes: `\` and the quote escaped (and `$` in double quotes).
fn escape(text: &str, quote: char) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == quote || (quote == '"' && c == '$') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Variables starting with `prefix` (a leading `::`, the top scope, kept), written after `sigil`.
/// The numbered results (`$_3`) only after `_`: there may be hundreds.
fn variables(prefix: &str, sigil: &str, world: &dyn World, out: &mut Candidates) {
    let (top, prefix) = match prefix.strip_prefix("::") {
        Some(rest) => ("::", rest),
        None => ("", prefix),
    };
    let numbered = prefix.starts_with('_');
    for name in
        world.variables().iter().filter(|n| n.starts_with(prefix) && (numbered || super::result_number(n).is_none()))
    {
        let text = format!("{sigil}{top}{name}");
        out.add(text.clone(), text);
    }
}

/// A word (or nothing) at the cursor in code, after `tokens` of `level`.
fn code_word(
    scanned: &str,
    level: &Level<'_>,
    tokens: &[Token<'_>],
    word: Option<Tok<'_>>,
    after: &str,
    world: &dyn World,
    out: &mut Candidates,
) {
    let prefix = match word {
        Some(Tok::Var(name)) => return variables(name, "$", world, out),
        Some(Tok::Word(w) | Tok::Ref(w)) => w,
        _ => "",
    };
    let capital = matches!(word, Some(Tok::Ref(_)));
    let last = tokens.last().map(|t| t.tok);
    if !capital {
        // `"${fa`: a name first in an interpolation is a variable.
        if level.opener == Opener::Interp && tokens.is_empty() {
            return variables(prefix, "", world, out);
        }
        if last == Some(Tok::Punct(".")) {
            return world.functions().iter().for_each(|f| out.word(f, prefix));
        }
        match slot(level, tokens) {
            Some(Slot::Key(start, end)) => {
                let close = if after.starts_with('\'') { "" } else { "']" };
                for key in hash_keys(&scanned[start..end], world).iter().filter(|k| k.starts_with(prefix)) {
                    out.add(format!("'{}{close}", escape(key, '\'')), key.clone());
                }
                return;
            }
            Some(Slot::Class) => {
                // `include ::apache` names the class from the top scope.
                let (top, prefix) = prefix.strip_prefix("::").map_or(("", prefix), |rest| ("::", rest));
                for class in world.classes().iter().filter(|c| c.starts_with(prefix)) {
                    out.add(format!("{top}{class}"), format!("{top}{class}"));
                }
                return;
            }
            Some(Slot::Value { type_name, attribute }) => {
                let values = attribute_values(type_name, attribute);
                if !values.is_empty() {
                    return values.iter().for_each(|v| out.word(v, prefix));
                }
            }
            None => {}
        }
        if let Opener::Brace(Brace::Resource { type_name, titled }) = level.opener {
            if body_position(tokens, titled) == BodyPosition::AttributeName {
                return attribute_names(type_name, prefix, after, out);
            }
        }
    }
    if prefix.is_empty() {
        return;
    }
    if capital {
        world.types().iter().for_each(|t| out.word(t, prefix));
        for t in resource_types::all() {
            out.word(&puppet_types::display::capitalize_segments(&t.name), prefix);
        }
        return;
    }
    world.functions().iter().for_each(|f| out.word(f, prefix));
    KEYWORDS.iter().for_each(|k| out.word(k, prefix));
    if statement_start(level, tokens) {
        resource_types::all().iter().for_each(|t| out.word(&t.name, prefix));
        world.defined_types().iter().for_each(|t| out.word(t, prefix));
    }
}

/// The keys of the hash an expression stands for: a variable (`$facts`, `$::h`, `facts` in
/// an interpolation) followed by accesses with literal keys (`['os']`, `["a"]`, `[0]`).
/// Nothing when the expression is anything else.
fn hash_keys(expr: &str, world: &dyn World) -> Vec<String> {
    let expr = expr.trim_start_matches('$').trim_start_matches("::");
    let name_end = expr.find('[').unwrap_or(expr.len());
    let (variable, mut rest) = expr.split_at(name_end);
    let mut path = Vec::new();
    while let Some(inner) = rest.strip_prefix('[') {
        let Some(close) = inner.find(']') else { return Vec::new() };
        let key = inner[..close].trim();
        let unquoted = match key.chars().next() {
            Some(q @ ('\'' | '"')) if key.len() >= 2 && key.ends_with(q) => {
                key[1..key.len() - 1].replace(&format!("\\{q}"), &q.to_string())
            }
            Some(c) if c.is_ascii_digit() => key.to_owned(),
            _ => return Vec::new(),
        };
        path.push(unquoted);
        rest = &inner[close + 1..];
    }
    if !rest.is_empty() {
        return Vec::new();
    }
    world.keys(variable, &path)
}
