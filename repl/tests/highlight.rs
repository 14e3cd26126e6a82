//! The shell's syntax highlighter (`poppet::shell::highlight`) against tables of cases:
//! `tests/shell/highlight.txt`, the spans of each source, and `tests/shell/brackets.txt`, the
//! bracket pair at a cursor (their formats are in their headers); then what must hold for any
//! input: painting adds only escape sequences, and spans are ordered ranges of the source.
//!
//! `HIGHLIGHT_FILTER=text` runs only the table cases whose name contains `text`.

use poppet_tests::cases;

use std::ops::Range;
use std::path::Path;

use nu_ansi_term::{Color, Style};
use poppet::shell::highlight::{matching_bracket, Highlighter, Theme};

/// The cases of `tests/shell/NAME`, those the filter leaves.
fn table(name: &str) -> Vec<cases::Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shell").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = cases::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!file.cases.is_empty(), "{name}: no cases");
    let filter = std::env::var("HIGHLIGHT_FILTER").ok();
    file.cases.into_iter().filter(|case| filter.as_ref().is_none_or(|f| case.name.contains(f.as_str()))).collect()
}

/// Every source of the span table, and the benchmark's 200 lines of real Puppet.
fn sources() -> Vec<String> {
    let mut sources: Vec<String> = table("highlight.txt").iter().map(|case| case.source()).collect();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/shell/input.pp");
    sources.push(std::fs::read_to_string(&input).unwrap_or_else(|e| panic!("{}: {e}", input.display())));
    sources
}

/// Text as the span table writes it.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// `text` without its ANSI SGR sequences (`ESC [ … m`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('\x1b') {
        out.push_str(&rest[..start]);
        let sequence = &rest[start..];
        assert!(sequence.starts_with("\x1b["), "an escape that is no CSI in {text:?}");
        let end = sequence.find('m').unwrap_or_else(|| panic!("an unterminated escape in {text:?}"));
        assert!(
            sequence[2..end].bytes().all(|b| b.is_ascii_digit() || b == b';'),
            "not an SGR sequence: {:?}",
            &sequence[..=end]
        );
        rest = &sequence[end + 1..];
    }
    out.push_str(rest);
    out
}

/// What must hold for the spans of any source: in order, not overlapping, not empty, inside
/// the source and on character boundaries.
fn check_spans(src: &str, spans: &[(Range<usize>, &str)]) {
    let mut end = 0;
    for (range, capture) in spans {
        assert!(range.start >= end, "{range:?} overlaps or is out of order in {src:?}: {spans:?}");
        assert!(range.start < range.end, "empty span {range:?} in {src:?}");
        assert!(src.get(range.clone()).is_some(), "{range:?} is not a slice of {src:?}");
        assert!(!capture.is_empty());
        end = range.end;
    }
}

#[test]
fn spans_match_the_table() {
    let highlighter = Highlighter::new();
    let mut failures = Vec::new();
    let cases = table("highlight.txt");
    for case in &cases {
        let src = case.source();
        let spans = highlighter.spans(&src);
        check_spans(&src, &spans);
        let ours: Vec<String> =
            spans.iter().map(|(range, capture)| format!("{}\t{capture}", escape(&src[range.clone()]))).collect();
        if ours != case.expected {
            failures.push(format!(
                "highlight.txt:{}: {}\n{}  expected:\n    {}\n  ours:\n    {}",
                case.line,
                case.name,
                cases::show_source(&src),
                case.expected.join("\n    "),
                ours.join("\n    ")
            ));
        }
    }
    for failure in &failures {
        eprintln!("{failure}\n");
    }
    assert!(failures.is_empty(), "{} of {} cases differ", failures.len(), cases.len());
}

#[test]
fn brackets_match_the_table() {
    let mut failures = Vec::new();
    let cases = table("brackets.txt");
    for case in &cases {
        let marked = case.source();
        let pos = marked.find('‸').unwrap_or_else(|| panic!("brackets.txt:{}: no ‸ in the source", case.line));
        let src = marked.replacen('‸', "", 1);
        let found = matching_bracket(&src, pos);
        let shown = match found {
            None => "none".to_owned(),
            Some((at, partner)) => {
                assert!(at == pos || at + 1 == pos, "{}: {at} is neither at nor before the cursor {pos}", case.name);
                let mut shown = src.clone();
                for offset in [at.max(partner), at.min(partner)] {
                    shown.insert(offset + 1, '⟩');
                    shown.insert(offset, '⟨');
                }
                shown
            }
        };
        let shown = shown.strip_suffix('\n').unwrap_or(&shown);
        if shown != case.expected.join("\n") {
            failures.push(format!(
                "brackets.txt:{}: {}\n  expected:\n{}\n  ours:\n{shown}",
                case.line,
                case.name,
                case.expected.join("\n")
            ));
        }
    }
    for failure in &failures {
        eprintln!("{failure}\n");
    }
    assert!(failures.is_empty(), "{} of {} cases differ", failures.len(), cases.len());
}

#[test]
fn matching_bracket_outside_the_source_or_inside_a_character() {
    for (src, pos, expected) in [
        ("()", 3, None),
        ("()", usize::MAX, None),
        ("()", 2, Some((1, 0))),
        ("", 0, None),
        ("(é)", 2, None), // inside `é`; the byte before it is no bracket either
        ("(é)", 3, Some((3, 0))),
    ] {
        assert_eq!(matching_bracket(src, pos), expected, "{src:?} at {pos}");
    }
}

#[test]
fn painting_without_a_theme_gives_the_source() {
    let highlighter = Highlighter::new();
    for src in sources() {
        assert_eq!(highlighter.paint(&src, &Theme::none(), None), src);
        assert_eq!(highlighter.paint(&src, &Theme::none(), Some((0, src.len().saturating_sub(1)))), src);
        // Plain styles are no colours either.
        let plain = Theme::none().with("variable", Style::new()).with_brackets(Some(Style::new()));
        assert_eq!(highlighter.paint(&src, &plain, Some((0, 1))), src);
    }
}

#[test]
fn painting_adds_only_escapes_and_closes_them_on_each_line() {
    let highlighter = Highlighter::new();
    let theme = Theme::dark();
    for src in sources() {
        let mut cursors: Vec<usize> = (0..=src.len()).filter(|&at| src.is_char_boundary(at)).collect();
        if cursors.len() > 400 {
            cursors = cursors.into_iter().step_by(37).collect();
        }
        for cursor in cursors {
            let brackets = matching_bracket(&src, cursor);
            let painted = highlighter.paint(&src, &theme, brackets);
            assert_eq!(strip_ansi(&painted), src, "painted {painted:?}");
            for line in painted.split('\n') {
                if let Some(last) = line.rfind('\x1b') {
                    assert!(line[last..].starts_with("\x1b[0m"), "a style left open on line {line:?} of {painted:?}");
                }
            }
        }
    }
}

#[test]
fn painting_colours_each_capture() {
    let highlighter = Highlighter::new();
    let red = Theme::none().with("variable", Color::Red.normal());
    let brackets = Theme::none()
        .with("string", Color::Green.normal())
        .with("punctuation.bracket", Color::Blue.normal())
        .with_brackets(Some(Style::new().bold()));
    let comments = Theme::none().with("comment", Color::DarkGray.normal());
    let heredocs = Theme::none().with("string", Color::Green.normal());
    for (src, theme, pair, expected) in [
        ("$x = 'a'", &red, None, "\x1b[31m$x\x1b[0m = 'a'"),
        // `variable.parameter` falls back to `variable`.
        ("|$v| { $v }", &red, None, "|\x1b[31m$v\x1b[0m| { \x1b[31m$v\x1b[0m }"),
        ("file { 'x': }", &brackets, None, "file \x1b[34m{\x1b[0m \x1b[32m'x'\x1b[0m: \x1b[34m}\x1b[0m"),
        ("file { 'x': }", &brackets, Some((12, 5)), "file \x1b[1;34m{\x1b[0m \x1b[32m'x'\x1b[0m: \x1b[1;34m}\x1b[0m"),
        // A bracket inside a merged span (`([`) is emphasised alone.
        ("f([1])", &brackets, Some((1, 5)), "f\x1b[1;34m(\x1b[0m\x1b[34m[\x1b[0m1\x1b[34m]\x1b[0m\x1b[1;34m)\x1b[0m"),
        // Brackets the theme leaves plain are emphasised alone; offsets off the source or
        // inside a character are ignored.
        ("(é)", &comments.clone().with_brackets(Some(Style::new().underline())), Some((0, 2)), "\x1b[4m(\x1b[0mé)"),
        ("()", &comments.clone().with_brackets(Some(Style::new().underline())), Some((7, 1)), "(\x1b[4m)\x1b[0m"),
        // A span over lines is closed before each line feed and opened again after it.
        ("/* a\n\nb */", &comments, None, "\x1b[90m/* a\x1b[0m\n\n\x1b[90mb */\x1b[0m"),
        // `string.special` (the heredoc's tags) falls back to `string`.
        ("@(E)\n  x\n  |E\n", &heredocs, None, "\x1b[32m@(E)\x1b[0m\n\x1b[32m  x\x1b[0m\n\x1b[32m  |E\x1b[0m\n"),
    ] {
        assert_eq!(highlighter.paint(src, theme, pair), expected, "{src:?}");
    }
    assert_eq!(
        highlighter.highlight_value("[1, 'a']", &Theme::dark()),
        highlighter.paint("[1, 'a']", &Theme::dark(), None)
    );
}

#[test]
fn theme_falls_back_by_dotted_prefix() {
    let (red, green, blue) = (Color::Red.normal(), Color::Green.normal(), Color::Blue.normal());
    let theme = Theme::none().with("string", red).with("string.special", green).with("type.builtin", blue);
    for (capture, expected) in [
        ("string", Some(red)),
        ("string.escape", Some(red)),
        ("string.special", Some(green)),
        ("string.special.symbol", Some(green)),
        ("stringy", None),
        ("str", None),
        ("type", None),
        ("type.builtin", Some(blue)),
        ("", None),
        (".", None),
    ] {
        assert_eq!(theme.style(capture), expected, "{capture}");
    }
}

#[test]
fn the_dark_theme_colours_every_capture_but_operators_and_punctuation() {
    let highlighter = Highlighter::new();
    let theme = Theme::dark();
    assert!(!highlighter.capture_names().is_empty());
    for &capture in highlighter.capture_names() {
        let plain = capture == "operator" || (capture.starts_with("punctuation") && capture != "punctuation.special");
        assert_eq!(theme.style(capture).is_none(), plain, "{capture}: {:?}", theme.style(capture));
    }
    assert!(theme.brackets().is_some());
    assert_eq!(Theme::default(), theme);
}

/// Random sources made of Puppet's tokens, brackets, quotes and odd characters, and small
/// edits of them: the spans keep their shape, painting keeps the text, and bracket matching
/// gives a real pair, the same from the previous source's tree as from a fresh parse.
#[test]
fn any_input_is_highlighted_without_harm() {
    const PIECES: &[&str] = &[
        "$x", " ", "\n", "\r\n", "\t", "=", "==", "=>", "->", "'", "\"", "${", "}", "{", "(", ")", "[", "]", "|", "/",
        "\\", "#", "/*", "*/", "@(", "END", ":", "json", "/L", "|-", "if", "else", "class", "define", "function",
        "node", "file", "notice", "Integer", "1", "0x", "2.5e", "-", "<|", "|>", "@@", "?", ",", ";", "é", "☺",
        "\u{0}", "::", "undef",
    ];
    let highlighter = Highlighter::new();
    let theme = Theme::dark();
    let mut rng = fastrand::Rng::with_seed(7);
    let mut src = String::new();
    for round in 0..3000 {
        // Fresh sources, and small edits of the last one (as typing makes them).
        if round % 10 == 0 || src.len() > 200 {
            let len = rng.usize(0..40);
            src = (0..len).map(|_| PIECES[rng.usize(..PIECES.len())]).collect();
        } else {
            let mut at = rng.usize(..=src.len());
            while !src.is_char_boundary(at) {
                at -= 1;
            }
            if rng.bool() || src.is_empty() {
                src.insert_str(at, PIECES[rng.usize(..PIECES.len())]);
            } else if let Some(c) = src[at..].chars().next().or_else(|| src.chars().last()) {
                let at = if at == src.len() { at - c.len_utf8() } else { at };
                src.replace_range(at..at + c.len_utf8(), "");
            }
        }
        let spans = highlighter.spans(&src);
        check_spans(&src, &spans);
        let cursor = rng.usize(0..=src.len());
        let pair = matching_bracket(&src, cursor);
        let fresh = {
            let src = src.clone();
            std::thread::spawn(move || matching_bracket(&src, cursor)).join().expect("no panic")
        };
        assert_eq!(pair, fresh, "{src:?} at {cursor}: incremental and fresh parses differ");
        if let Some((at, partner)) = pair {
            let bytes = src.as_bytes();
            let kinds = [bytes[at.min(partner)], bytes[at.max(partner)]];
            assert!(matches!(&kinds, b"()" | b"[]" | b"{}"), "{src:?} at {cursor}: {pair:?}");
            assert!(at == cursor || at + 1 == cursor);
            assert_eq!(matching_bracket(&src, partner), Some((partner, at)), "{src:?}: not symmetric");
        }
        let painted = highlighter.paint(&src, &theme, pair);
        assert_eq!(strip_ansi(&painted), src);
        assert_eq!(highlighter.paint_statements(&src, &theme, pair), painted, "{src:?}: by pieces");
    }
}

/// Statements nested thousands deep, each long enough to be cut into its frame and body:
/// painted by pieces as a whole, without running out of stack, before and after an edit
/// at the deepest point.
#[test]
fn deeply_nested_long_statements_are_painted_by_pieces() {
    let depth = 3000;
    let filler = format!("  notify {{ '{}': }}\n", "x".repeat(1100));
    let src = format!("{}{filler}{}", "if $a {\n".repeat(depth), "}\n".repeat(depth));
    let edited = src.replacen("notify", "notify { 'y': }\nnotify", 1);
    let (theme, expected, expected_edited) = {
        let highlighter = Highlighter::new();
        let theme = Theme::dark();
        let expected = highlighter.paint(&src, &theme, None);
        let edited = highlighter.paint(&edited, &theme, None);
        (theme, expected, edited)
    };
    // A thread of the main thread's stack size: the shell's.
    let painted = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let highlighter = Highlighter::new();
            (highlighter.paint_statements(&src, &theme, None), highlighter.paint_statements(&edited, &theme, None))
        })
        .expect("a thread")
        .join()
        .expect("no overflow");
    assert!(painted.0 == expected, "painted by pieces differently");
    assert!(painted.1 == expected_edited, "painted by pieces differently after the edit");
}

/// `matching_bracket` parses each source from the previous one's tree (per thread): typing a
/// manifest a key at a time, and moving the cursor over it, finds the same pairs as parsing
/// each buffer afresh (in a new thread).
#[test]
fn incremental_parsing_finds_the_same_pairs() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/shell/input.pp");
    let text = std::fs::read_to_string(&input).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
    let fresh = |src: &str, pos: usize| {
        let src = src.to_owned();
        std::thread::spawn(move || matching_bracket(&src, pos)).join().expect("no panic")
    };
    let start = text.match_indices('\n').nth(150).map_or(0, |(at, _)| at + 1);
    let mut checked = 0;
    for end in (start..=text.len()).filter(|&end| text.is_char_boundary(end)) {
        let buffer = &text[..end];
        let typed = matching_bracket(buffer, end);
        if typed.is_some() || end % 50 == 0 {
            assert_eq!(typed, fresh(buffer, end), "typed up to {end}");
            checked += 1;
        }
    }
    // Cursor moves over a finished buffer, and edits in its middle.
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..100 {
        let mut buffer = text.clone();
        let at = rng.usize(..buffer.len());
        if buffer.is_char_boundary(at) {
            buffer.insert(at, ['{', '}', '(', '\'', '"', '\n'][rng.usize(..6)]);
        }
        for pos in [at, at + 1, rng.usize(..=buffer.len())] {
            assert_eq!(matching_bracket(&buffer, pos), fresh(&buffer, pos), "at {pos} after an edit at {at}");
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} checks");
}

/// Painting statement by statement from the previous tree gives what painting the whole
/// source gives, at every key of typing a manifest (and it repeated), the bracket pair at the
/// cursor emphasised.
#[test]
fn painting_by_statements_is_painting_the_whole() {
    let highlighter = Highlighter::new();
    let theme = Theme::dark();
    let manifest = include_str!("../../bench/shell/input.pp");
    let doubled = format!("{manifest}{manifest}");
    let mut wrong = Vec::new();
    for text in [manifest, doubled.as_str()] {
        let ends: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        for &end in ends.iter().step_by(3) {
            let src = &text[..end];
            let pair = matching_bracket(src, end);
            if highlighter.paint_statements(src, &theme, pair) != highlighter.paint(src, &theme, pair) {
                wrong.push(end);
            }
        }
    }
    // Edits in the middle: a line removed, then put back.
    let lines: Vec<&str> = manifest.lines().collect();
    for skip in (0..lines.len()).step_by(7) {
        let src: String = lines.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, l)| format!("{l}\n")).collect();
        for src in [src.as_str(), manifest] {
            if highlighter.paint_statements(src, &theme, None) != highlighter.paint(src, &theme, None) {
                wrong.push(usize::MAX - skip);
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} sources painted differently, first at {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// The same inside long statements, which are painted by their frame and their bodies'
/// statements: manifests placed in a class with parameters, in a lambda whose parameters
/// and assignments shadow them, in `if` and `case` bodies, with top-level variables used as
/// resource titles; each line deleted, typed again a few keys at a time, and put back, one
/// highlighter carrying what it kept from edit to edit.
#[test]
fn painting_inside_long_statements_is_painting_the_whole() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |path: &str| std::fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let body: String = ["classes.pp", "expressions.pp", "resources.pp"]
        .iter()
        .map(|name| read(&format!("tree-sitter-puppet/test/highlight/{name}")))
        .chain([read("eval/tests/stdlib-9.7.0/stdlib/manifests/manage.pp")])
        .collect();
    let indented = |text: &str, depth: usize| -> String {
        text.lines().map(|line| format!("{}{line}\n", "  ".repeat(depth))).collect()
    };
    let manifest = format!(
        "$top = 'a'\n$docroot = 'b'\nnotify {{ $top: }}\n\
         class wrap (String $docroot, $ensure = $top, $item = 1) {{\n  notify {{ $docroot: }}\n{}\
         \x20 $list.each |$item, $ensure| {{\n    $docroot = $item\n    notify {{ [$docroot, $ensure, $top]: }}\n{}  }}\n\
         \x20 if $ensure {{\n{}  }} else {{\n    case $item {{\n      1: {{\n{}      }}\n    }}\n  }}\n}}\n\
         notify {{ $docroot: }}\n",
        indented(&body, 1),
        indented(&body, 2),
        indented(&read("bench/shell/input.pp"), 2),
        indented(&body, 4),
    );
    let highlighter = Highlighter::new();
    let theme = Theme::dark();
    let mut wrong = Vec::new();
    let mut check = |src: &str, what: String| {
        if highlighter.paint_statements(src, &theme, None) != highlighter.paint(src, &theme, None) {
            wrong.push(what);
        }
    };
    check(&manifest, "the whole".into());
    let lines: Vec<&str> = manifest.lines().collect();
    for (n, line) in lines.iter().enumerate().step_by(5) {
        let before: String = lines[..n].iter().map(|l| format!("{l}\n")).collect();
        let after: String = lines[n + 1..].iter().map(|l| format!("{l}\n")).collect();
        let ends: Vec<usize> = (0..=line.len()).filter(|&i| line.is_char_boundary(i)).collect();
        for &end in ends.iter().step_by(ends.len() / 4 + 1).chain([&line.len()]) {
            check(&format!("{before}{}\n{after}", &line[..end]), format!("line {} typed to {end}", n + 1));
        }
        check(&manifest, format!("line {} put back", n + 1));
    }
    assert!(manifest.len() > 20_000, "a long statement: {} bytes", manifest.len());
    assert!(wrong.is_empty(), "{} sources painted differently: {:?}", wrong.len(), &wrong[..wrong.len().min(8)]);
}
