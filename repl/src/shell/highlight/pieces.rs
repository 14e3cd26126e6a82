//! What [`Highlighter::paint_statements`](super::Highlighter::paint_statements) highlights by
//! itself, so that painting after a key costs in proportion to what the key changed.
//!
//! The source is cut along its tree into pieces. A top-level statement (with the comments
//! before it and the heredoc bodies after it) is one piece; its highlights are kept by its
//! text (and context, below), so that the next call finds them when the statement did not
//! change. A changed statement of more than [`SPLIT_BYTES`] with bodies (a class, an `if`, a
//! lambda) is not highlighted whole: it is cut into its *frame* (its own text with the
//! statements of its bodies left out) and each statement of its bodies, which are pieces in
//! the same way. A key typed in a 1,000-line class thus highlights again that line's
//! statement and the class's frame.
//!
//! A piece highlighted alone must be highlighted as it is in the source. Two things can tell
//! them apart, and both are accounted for:
//! - **The variables defined before it**: `locals.scm` colours a reference as its definition
//!   (a parameter, or an assignment: then `variable` even as a resource title), so a piece
//!   is highlighted inside a wrapper that defines, as they are defined where the piece is,
//!   the variables it refers to that are defined in scope there (its *context*): the
//!   parameters of the enclosing classes, defined types, functions and lambdas, and the
//!   variables assigned before it in those scopes and at the top.
//! - **The parse**: a statement without errors parses alone as it does in its body; a piece
//!   with a syntax error may not (error recovery looks around), so its tree alone is compared
//!   with its tree in the source, node for node, and the whole source is highlighted at once
//!   when they differ or when the error lets parameters out of their scope. Such a piece is
//!   not kept.

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use tree_sitter::{Node, Parser, Tree};

use super::Highlighter;

/// Statements longer than this (in bytes) are cut into their frame and their bodies'
/// statements when they changed and have bodies; shorter ones are highlighted whole.
pub(super) const SPLIT_BYTES: usize = 1024;

/// Statements are cut this many levels deep at most (the plan recurses through the bodies).
const MAX_DEPTH: usize = 16;

/// The nodes that open a scope in `locals.scm`, other than the program.
const SCOPES: &[&str] = &["class_definition", "define_definition", "function_definition", "node_definition", "lambda"];

/// Nodes in which no body is looked for: parameter lists (a lambda in a default value sees
/// only the parameters before it) and strings (whose interpolations are highlighted with
/// their string).
const OPAQUE: &[&str] = &["parameter_list", "double_quoted_string", "heredoc", "heredoc_body", "interpolation"];

/// A highlighted part: its byte range and its highlight index.
type Span = (Range<usize>, usize);

/// How the variables a piece refers to are defined where it is, by name (`$x`), sorted.
type Context = Vec<(String, Definition)>;

/// What defines a variable in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Definition {
    Parameter,
    Assignment,
}

/// The definitions in scope at a point: the last one of each name.
type Visible = Rc<HashMap<String, Definition>>;

/// What is kept from one call to the next: by the text of each statement, the variables it
/// assigns and refers to and its highlights in the contexts met; the highlights of frames
/// by their text and context; and the parser that reads a piece alone. What the last call
/// did not use is dropped.
#[derive(Default)]
pub(super) struct Kept {
    last: HashMap<String, Entry>,
    now: HashMap<String, Entry>,
    frames_last: HashMap<String, Rc<[Span]>>,
    frames_now: HashMap<String, Rc<[Span]>>,
    parser: Option<Parser>,
}

/// What is kept of a statement's text: its variables, and its highlights (offsets in the
/// text) in each context it was met in, by the context's key.
#[derive(Clone)]
struct Entry {
    variables: Variables,
    highlights: Vec<(Rc<str>, Rc<[Span]>)>,
}

/// The highlights of `src` (whose tree is `tree`) piece by piece, in order and merged as
/// [`Highlighter::highlights`] gives them for the whole; `None` when it must be highlighted
/// whole.
pub(super) fn highlights(highlighter: &Highlighter, kept: &mut Kept, tree: &Tree, src: &str) -> Option<Vec<Span>> {
    kept.last = std::mem::take(&mut kept.now);
    kept.frames_last = std::mem::take(&mut kept.frames_now);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let groups = groups(root.children(&mut cursor), src)?;
    // An error no top-level node shows.
    if root.is_missing() || (root.has_error() && !groups.iter().flat_map(|g| &g.nodes).any(|n| erroneous(*n))) {
        if std::env::var("HL_TRACE").is_ok() {
            eprintln!("root error");
        }
        return None;
    }
    let mut pieces = Pieces { highlighter, kept, src, depth: 0 };
    let spans = pieces.level(&groups, Visible::default())?.spans;
    // Neighbouring parts with the same capture are one, as in a highlight of the whole.
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for (range, index) in spans {
        match merged.last_mut() {
            Some((last, last_index)) if last.end == range.start && *last_index == index => last.end = range.end,
            Some((last, _)) if range.start < last.end => return None,
            _ => merged.push((range, index)),
        }
    }
    Some(merged)
}

/// Sibling nodes highlighted together: a statement (`main`) with the comments before it and
/// the heredoc bodies after it (the parser places a heredoc's text after its statement).
struct Group<'t> {
    range: Range<usize>,
    nodes: Vec<Node<'t>>,
    main: Option<Node<'t>>,
}

impl Group<'_> {
    /// Whether it has a syntax error: then its highlights are not kept.
    fn erroneous(&self) -> bool {
        self.nodes.iter().any(|n| erroneous(*n))
    }
}

struct Pieces<'h, 'k, 's> {
    highlighter: &'h Highlighter,
    kept: &'k mut Kept,
    src: &'s str,
    /// How many statements being cut enclose the current one.
    depth: usize,
}

/// The highlights of a statement list (offsets in the source), whether they may be kept,
/// and the variables its statements assign and refer to.
#[derive(Default)]
struct Level {
    spans: Vec<Span>,
    keep: bool,
    assigned: Vec<String>,
    referred: Vec<String>,
}

impl Pieces<'_, '_, '_> {
    /// The highlights of one statement list, where `visible` are defined.
    fn level(&mut self, groups: &[Group<'_>], mut visible: Visible) -> Option<Level> {
        let mut level = Level { keep: true, ..Level::default() };
        for group in groups {
            let (found, keep, variables) = self.group(group, &visible)?;
            level.keep &= keep;
            let at = group.range.start;
            level.spans.extend(found.iter().map(|(r, i)| (r.start + at..r.end + at, *i)));
            level.referred.extend(variables.referred.iter().cloned());
            // After it, what it assigns is defined.
            if !variables.assigned.is_empty() {
                level.assigned.extend(variables.assigned.iter().cloned());
                let map = Rc::make_mut(&mut visible);
                for name in variables.assigned.iter() {
                    map.insert(name.clone(), Definition::Assignment);
                }
            }
        }
        level.referred.sort_unstable();
        level.referred.dedup();
        Some(level)
    }

    /// The highlights of one group (offsets in the group), kept or found, whether they may
    /// be kept, and its variables.
    fn group(&mut self, group: &Group<'_>, visible: &Visible) -> Option<(Rc<[Span]>, bool, Variables)> {
        let text = &self.src[group.range.clone()];
        let erroneous = group.erroneous();
        let known = if erroneous { None } else { self.known(text) };
        let variables = known.as_ref().map(|entry| entry.variables.clone());
        if let Some(entry) = &known {
            let key = wrapper(&context(visible, &entry.variables.referred)).0;
            if let Some((_, found)) = entry.highlights.iter().find(|(k, _)| **k == *key) {
                return Some((found.clone(), true, entry.variables.clone()));
            }
        }
        let (found, keep, variables) = self.highlight(group, visible, variables)?;
        if keep && !erroneous {
            let key: Rc<str> = wrapper(&context(visible, &variables.referred)).0.into();
            let mut entry = known.unwrap_or_else(|| Entry { variables: variables.clone(), highlights: Vec::new() });
            entry.highlights.push((key, found.clone()));
            self.kept.now.insert(text.to_owned(), entry);
        } else if known.is_none() && !erroneous {
            let entry = Entry { variables: variables.clone(), highlights: Vec::new() };
            self.kept.now.insert(text.to_owned(), entry);
        }
        Some((found, keep, variables))
    }

    /// Highlights a group: a long one by its frame and its bodies' statements, else whole
    /// (checked when it has an error); with its variables (`known`, or found).
    fn highlight(
        &mut self,
        group: &Group<'_>,
        visible: &Visible,
        known: Option<Variables>,
    ) -> Option<(Rc<[Span]>, bool, Variables)> {
        // A statement whose bodies cannot be highlighted by their statements (one of them
        // reads differently alone) is highlighted whole.
        if let Some((spans, keep, variables)) = self.split(group, visible).flatten() {
            return Some((spans.into(), keep, known.unwrap_or(variables)));
        }
        let variables = known.unwrap_or_else(|| Variables::of(group, self.src));
        let context = context(visible, &variables.referred);
        let text = &self.src[group.range.clone()];
        if !group.erroneous() {
            return Some((self.highlighter.highlights_in(text, &context).into(), true, variables));
        }
        if group.nodes.iter().any(|n| leaks_parameters(*n)) {
            return None;
        }
        Some((self.checked(group, &context)?.into(), false, variables))
    }

    /// A long group cut into its frame and its bodies' statements: their highlights, offsets
    /// in the group, whether they may be kept, and the group's variables; `Some(None)` when
    /// it is not to be cut.
    #[allow(clippy::type_complexity)]
    fn split(&mut self, group: &Group<'_>, visible: &Visible) -> Option<Option<(Vec<Span>, bool, Variables)>> {
        let long = group.range.len() > SPLIT_BYTES && self.depth < MAX_DEPTH;
        let Some(main) = group.main.filter(|_| long) else { return Some(None) };
        let Some(frame_of) = frame(main, self.src) else { return Some(None) };
        self.depth += 1;
        let cut = self.cut(group, main, frame_of, visible);
        self.depth -= 1;
        cut.map(Some)
    }

    /// [`split`](Self::split) once it is known that `main` has bodies.
    fn cut(
        &mut self,
        group: &Group<'_>,
        main: Node<'_>,
        frame_of: FrameOf<'_>,
        visible: &Visible,
    ) -> Option<(Vec<Span>, bool, Variables)> {
        let (mut assigned, mut referred) = (frame_of.assigned, frame_of.referred);
        let mut holes = Vec::with_capacity(frame_of.bodies.len());
        let mut spans = Vec::new();
        let mut keep = true;
        for body in frame_of.bodies {
            let count = body.child_count();
            let groups = groups((1..count.saturating_sub(1)).filter_map(|i| body.child(i)), self.src)?;
            let (Some(first), Some(last)) = (groups.first(), groups.last()) else { continue };
            holes.push(first.range.start..last.range.end);
            let (inside, scope) = scoped(visible, body, main, self.src);
            let level = self.level(&groups, inside)?;
            spans.extend(level.spans);
            keep &= level.keep;
            referred.extend(level.referred);
            // What a body's statements assign is the statement's when the body is in its scope.
            if !scope {
                assigned.extend(level.assigned);
            }
        }
        referred.sort_unstable();
        referred.dedup();
        let frame = Frame::new(self.src, group.range.clone(), &holes);
        let context = context(visible, &frame_of.frame_referred);
        let key = format!("{}\0{}", wrapper(&context).0, frame.text);
        let found = match self.kept.frames_now.get(&key).or_else(|| self.kept.frames_last.get(&key)).cloned() {
            Some(found) => found,
            None => self.highlighter.highlights_in(&frame.text, &context).into(),
        };
        frame.place(&found, &mut spans);
        self.kept.frames_now.insert(key, found);
        let at = group.range.start;
        let mut spans: Vec<Span> = spans.into_iter().map(|(r, i)| (r.start - at..r.end - at, i)).collect();
        spans.sort_by_key(|(range, _)| range.start);
        Some((spans, keep, Variables { assigned: assigned.into(), referred: referred.into() }))
    }

    /// The highlights of a group with a syntax error, highlighted alone in `context`, when
    /// its tree alone is its tree in the source; else `None`.
    fn checked(&mut self, group: &Group<'_>, context: &Context) -> Option<Vec<Span>> {
        if self.kept.parser.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&tree_sitter_puppet::LANGUAGE.into()).ok()?;
            self.kept.parser = Some(parser);
        }
        let text = &self.src[group.range.clone()];
        let (before, after) = wrapper(context);
        let tree = self.kept.parser.as_mut()?.parse(format!("{before}{text}{after}"), None)?;
        let alone = alone_nodes(&tree, before.len())?;
        if !same_tree(&group.nodes, group.range.start, &alone, before.len()) {
            return None;
        }
        Some(self.highlighter.highlights_in(text, context))
    }

    /// What is kept of a text, moved to what this call keeps.
    fn known(&mut self, text: &str) -> Option<Entry> {
        if let Some(entry) = self.kept.now.get(text) {
            return Some(entry.clone());
        }
        let entry = self.kept.last.remove(text)?;
        self.kept.now.insert(text.to_owned(), entry.clone());
        Some(entry)
    }
}

/// The variables of a statement.
#[derive(Clone)]
struct Variables {
    /// Those it assigns in its scope (not in the scopes inside it).
    assigned: Rc<[String]>,
    /// Those it refers to, sorted.
    referred: Rc<[String]>,
}

impl Variables {
    fn of(group: &Group<'_>, src: &str) -> Variables {
        let (mut assigned, mut referred) = (Vec::new(), Vec::new());
        for node in &group.nodes {
            assignments(*node, src, &mut assigned);
            references(*node, src, &mut referred);
        }
        referred.sort_unstable();
        referred.dedup();
        Variables { assigned: assigned.into(), referred: referred.into() }
    }
}

/// The context of a piece that refers to `referred` (sorted) where `visible` are defined.
fn context(visible: &Visible, referred: &[String]) -> Context {
    referred.iter().filter_map(|name| visible.get(name).map(|d| (name.clone(), *d))).collect()
}

/// The wrapper that defines `context` around a piece: the text before it (a function with
/// its parameters, whose body assigns its variables; nothing when it is empty) and after it.
/// The text before is also the context's key.
fn wrapper(context: &[(String, Definition)]) -> (String, &'static str) {
    if context.is_empty() {
        return (String::new(), "");
    }
    let of = |kind: Definition| context.iter().filter(move |(_, d)| *d == kind).map(|(name, _)| name.as_str());
    let parameters: Vec<&str> = of(Definition::Parameter).collect();
    let mut before = format!("function f({}) {{\n", parameters.join(", "));
    for name in of(Definition::Assignment) {
        before.push_str(name);
        before.push_str(" = undef\n");
    }
    (before, "\n}")
}

impl Highlighter {
    /// The highlights of `text` where the variables of `context` are defined as it says:
    /// highlighted inside its wrapper.
    fn highlights_in(&self, text: &str, context: &[(String, Definition)]) -> Vec<Span> {
        if context.is_empty() {
            return self.highlights(text);
        }
        let (before, after) = wrapper(context);
        let end = before.len() + text.len();
        self.highlights(&format!("{before}{text}{after}"))
            .into_iter()
            .filter_map(|(range, index)| {
                let (start, stop) = (range.start.max(before.len()), range.end.min(end));
                (start < stop).then(|| (start - before.len()..stop - before.len(), index))
            })
            .collect()
    }
}

/// A statement's frame: its text with each hole (its bodies' statements) cut down to a line
/// break or a space, and where its parts are in the source.
struct Frame {
    text: String,
    /// Each part kept: its offset in `text`, its offset in the source, its length.
    parts: Vec<(usize, usize, usize)>,
}

impl Frame {
    fn new(src: &str, range: Range<usize>, holes: &[Range<usize>]) -> Frame {
        let mut frame = Frame { text: String::new(), parts: Vec::with_capacity(holes.len() + 1) };
        let mut at = range.start;
        for hole in holes {
            frame.keep(src, at..hole.start);
            frame.text.push(if src[hole.clone()].contains('\n') { '\n' } else { ' ' });
            at = hole.end;
        }
        frame.keep(src, at..range.end);
        frame
    }

    fn keep(&mut self, src: &str, range: Range<usize>) {
        self.parts.push((self.text.len(), range.start, range.len()));
        self.text.push_str(&src[range]);
    }

    /// Adds the frame's highlights `found` (offsets in `text`) to `spans`, at their places in
    /// the source.
    fn place(&self, found: &[Span], spans: &mut Vec<Span>) {
        for (range, index) in found {
            let first = self.parts.partition_point(|&(at, _, len)| at + len <= range.start);
            for &(at, source_at, len) in &self.parts[first..] {
                if at >= range.end {
                    break;
                }
                let (start, end) = (range.start.max(at), range.end.min(at + len));
                if start < end {
                    spans.push((start - at + source_at..end - at + source_at, *index));
                }
            }
        }
    }
}

/// Cuts a statement list into groups; `None` when the nodes are out of order or cut a
/// character.
fn groups<'t>(children: impl Iterator<Item = Node<'t>>, src: &str) -> Option<Vec<Group<'t>>> {
    let mut out: Vec<Group<'t>> = Vec::new();
    let mut comments: Vec<Node<'t>> = Vec::new();
    let mut at = 0;
    for child in children {
        let (start, end) = (child.start_byte(), child.end_byte());
        if start < at || end < start || end > src.len() || !src.is_char_boundary(start) || !src.is_char_boundary(end) {
            return None;
        }
        at = end;
        match child.kind() {
            // Comments go with the statement after them (documentation comments).
            "comment" => comments.push(child),
            "heredoc_body" if comments.is_empty() && !out.is_empty() => {
                let last = out.last_mut()?;
                last.range.end = end;
                last.nodes.push(child);
            }
            _ => {
                let first = comments.first().map_or(start, Node::start_byte);
                let mut nodes = std::mem::take(&mut comments);
                nodes.push(child);
                out.push(Group { range: first..end, nodes, main: Some(child) });
            }
        }
    }
    if let (Some(first), Some(last)) = (comments.first(), comments.last()) {
        let range = first.start_byte()..last.end_byte();
        out.push(Group { range, nodes: comments, main: None });
    }
    Some(out)
}

/// Whether a node is or holds a syntax error, or is a token alone where a statement belongs
/// (but `;`).
fn erroneous(node: Node<'_>) -> bool {
    node.has_error() || node.is_missing() || (!node.is_named() && node.kind() != ";")
}

/// A statement's bodies (its blocks, outermost, in order; none inside strings or parameter
/// lists) and its variables: those its frame (its text outside the bodies) refers to, and
/// those it assigns in its scope there.
struct FrameOf<'t> {
    bodies: Vec<Node<'t>>,
    /// What the frame refers to, sorted.
    frame_referred: Vec<String>,
    /// The same, to which the bodies' are added.
    referred: Vec<String>,
    assigned: Vec<String>,
}

/// What [`FrameOf`] says of the statement `main`; `None` when it has no bodies or its frame
/// has a syntax error.
fn frame<'t>(main: Node<'t>, src: &str) -> Option<FrameOf<'t>> {
    let (mut bodies, mut referred, mut assigned) = (Vec::new(), Vec::new(), Vec::new());
    let mut stack = vec![(main, false)];
    while let Some((node, scoped)) = stack.pop() {
        if node.is_error() || node.is_missing() {
            return None;
        }
        if node.kind() == "block" && node.id() != main.id() {
            let brace = |i: u32, kind: &str| node.child(i).is_some_and(|c| c.kind() == kind && !c.is_missing());
            if !brace(0, "{") || !brace(node.child_count().checked_sub(1)?, "}") {
                return None;
            }
            bodies.push(node);
            continue;
        }
        if OPAQUE.contains(&node.kind()) {
            if node.has_error() {
                return None;
            }
            references(node, src, &mut referred);
            continue;
        }
        match node.kind() {
            "variable" => referred.extend(src.get(node.byte_range()).map(str::to_owned)),
            "assignment" if !scoped => left_side(node, src, &mut assigned),
            _ => {}
        }
        let scoped = scoped || SCOPES.contains(&node.kind());
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev().map(|child| (child, scoped)));
    }
    if bodies.is_empty() {
        return None;
    }
    referred.sort_unstable();
    referred.dedup();
    Some(FrameOf { bodies, frame_referred: referred.clone(), referred, assigned })
}

/// What is defined in a body's statements: `visible`, and the parameters of the scopes from
/// the body out to the statement `main`, the inner over the outer; and whether there is such
/// a scope (then what the body's statements assign is not the statement's).
fn scoped(visible: &Visible, body: Node<'_>, main: Node<'_>, src: &str) -> (Visible, bool) {
    let mut scopes = Vec::new();
    let mut node = body.parent();
    while let Some(scope) = node {
        if SCOPES.contains(&scope.kind()) {
            scopes.push(scope);
        }
        if scope.id() == main.id() {
            break;
        }
        node = scope.parent();
    }
    let mut visible = visible.clone();
    for scope in scopes.iter().rev() {
        let Some(list) = scope.child_by_field_name("parameters") else { continue };
        let mut cursor = list.walk();
        for parameter in list.named_children(&mut cursor).filter(|p| p.kind() == "parameter") {
            if let Some(name) = parameter.child_by_field_name("name").and_then(|n| src.get(n.byte_range())) {
                Rc::make_mut(&mut visible).insert(name.to_owned(), Definition::Parameter);
            }
        }
    }
    (visible, !scopes.is_empty())
}

/// Adds the variables `node` refers to: every `$x` in it (as `locals.scm` captures them).
fn references(node: Node<'_>, src: &str, names: &mut Vec<String>) {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        if node.kind() == "variable" {
            names.extend(src.get(node.byte_range()).map(str::to_owned));
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
}

/// Adds the variables `node` assigns in its own scope: the left sides of assignments, not
/// inside scopes or strings.
fn assignments(node: Node<'_>, src: &str, names: &mut Vec<String>) {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        if SCOPES.contains(&node.kind()) || OPAQUE.contains(&node.kind()) {
            continue;
        }
        if node.kind() == "assignment" {
            left_side(node, src, names);
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
}

/// Adds the variables an assignment assigns: `$x`, or each of `[$a, $b]`.
fn left_side(assignment: Node<'_>, src: &str, names: &mut Vec<String>) {
    let Some(left) = assignment.child_by_field_name("left") else { return };
    let mut cursor = left.walk();
    let variables: Vec<Node<'_>> = match left.kind() {
        "variable" => vec![left],
        "array" => left.named_children(&mut cursor).filter(|n| n.kind() == "variable").collect(),
        _ => Vec::new(),
    };
    names.extend(variables.iter().filter_map(|v| src.get(v.byte_range())).map(str::to_owned));
}

/// Whether a node with an error holds a parameter outside any scope within it: the parser
/// lost the definition that owns it, and `locals.scm` then defines it in the enclosing
/// scope, where the statements after it see it.
fn leaks_parameters(node: Node<'_>) -> bool {
    let mut stack = vec![(node, false)];
    while let Some((node, scoped)) = stack.pop() {
        if node.kind() == "parameter" && !scoped {
            return true;
        }
        let scoped = scoped || SCOPES.contains(&node.kind());
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor).map(|child| (child, scoped)));
    }
    false
}

/// Whether the tree of a piece parsed alone is its tree in the source: `alone`, the nodes
/// of the piece alone (from [`alone_nodes`]), starting `alone_at`, and `nodes`, its nodes in
/// the source, starting `at`: node for node the same kinds, positions and shapes.
fn same_tree(nodes: &[Node<'_>], at: usize, alone: &[Node<'_>], alone_at: usize) -> bool {
    if nodes.len() != alone.len() {
        return false;
    }
    let mut pairs: Vec<(Node<'_>, Node<'_>)> = nodes.iter().copied().zip(alone.iter().copied()).collect();
    while let Some((a, b)) = pairs.pop() {
        let same = a.kind_id() == b.kind_id()
            && a.is_missing() == b.is_missing()
            && a.is_extra() == b.is_extra()
            && a.start_byte().checked_sub(at) == b.start_byte().checked_sub(alone_at)
            && a.end_byte().checked_sub(at) == b.end_byte().checked_sub(alone_at)
            && a.child_count() == b.child_count();
        if !same {
            return false;
        }
        let (mut ca, mut cb) = (a.walk(), b.walk());
        pairs.extend(a.children(&mut ca).zip(b.children(&mut cb)));
    }
    true
}

/// The nodes of a piece parsed alone in `tree`: the program's nodes, or, when the piece was
/// wrapped (its text starting at `at`), the statements of the wrapper's body after the
/// wrapper's own.
fn alone_nodes(tree: &Tree, at: usize) -> Option<Vec<Node<'_>>> {
    let root = tree.root_node();
    let mut cursor = root.walk();
    let top: Vec<Node<'_>> = root.children(&mut cursor).collect();
    if at == 0 {
        return Some(top);
    }
    let [function] = top.as_slice() else { return None };
    let body = function.child_by_field_name("body")?;
    let count = body.child_count();
    let inner: Vec<Node<'_>> = (1..count.saturating_sub(1)).filter_map(|i| body.child(i)).collect();
    // The wrapper's statements end before the piece; one that runs into it is a wrong reading.
    let first = inner.iter().position(|n| n.start_byte() >= at).unwrap_or(inner.len());
    if inner[..first].iter().any(|n| n.end_byte() > at) {
        return None;
    }
    Some(inner[first..].to_vec())
}
