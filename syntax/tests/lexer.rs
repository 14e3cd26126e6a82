//! The lexer against Puppet 7.23: the cases of `tests/lexer/cases.txt` (recorded from
//! `puppet parser validate` and Puppet's own lexer; see that file's header), and properties
//! no recording can show (no panics, linear time, Puppet's stack limits, the token API).

use puppet_syntax::lexer::{self, Token, TokenKind};
use puppet_syntax::Diagnostic;
use std::time::{Duration, Instant};

struct Case {
    line: usize,
    src: String,
    out: String,
    tok: Option<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lexer/cases.txt")).unwrap();
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(src) = line.strip_prefix("src: ") {
            cases.push(Case { line: n + 1, src: src.to_string(), out: String::new(), tok: None });
        } else if let Some(out) = line.strip_prefix("out: ") {
            cases.last_mut().unwrap().out = out.to_string();
        } else if let Some(tok) = line.strip_prefix("tok: ") {
            cases.last_mut().unwrap().tok = Some(tok.to_string());
        }
    }
    cases
}

/// What our lexer says Puppet reports for these bytes: a lexical error, or `OK`.
fn verdict(bytes: &[u8]) -> (String, Option<String>) {
    let source = match lexer::check_encoding(bytes) {
        Err(d) => return (lexer::puppet_text(&d), None),
        Ok(source) => source,
    };
    let lexed = lexer::lex(source);
    let kinds = lexed.tokens.iter().map(|t| t.kind.name()).collect::<Vec<_>>().join(" ");
    match &lexed.error {
        Some(d) => (lexer::puppet_text(d), Some(kinds)),
        None => ("OK".to_string(), Some(kinds)),
    }
}

#[test]
fn recorded_cases() {
    let cases = cases();
    assert!(cases.len() >= 80, "{} cases", cases.len());
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &cases {
        let bytes = poppet_tests::escapes::decode(&case.src).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        let (out, kinds) = verdict(&bytes);
        let expected = case.out.as_str();
        checked += 1;
        if out != expected {
            failures.push(format!("line {}: src: {}\n  puppet: {}\n  ours:   {}", case.line, case.src, expected, out));
        }
        if let (Some(tok), Some(kinds)) = (&case.tok, &kinds) {
            if tok != kinds {
                failures.push(format!(
                    "line {}: src: {}\n  puppet tokens: {}\n  ours:          {}",
                    case.line, case.src, tok, kinds
                ));
            }
        }
    }
    println!("{checked} cases, {} failures", failures.len());
    assert!(failures.is_empty(), "{} of {checked} cases differ:\n{}", failures.len(), failures.join("\n"));
}

fn error(source: &str) -> Option<Diagnostic> {
    lexer::lex(source).error
}

fn kinds(source: &str) -> Vec<TokenKind> {
    let lexed = lexer::lex(source);
    assert!(lexed.error.is_none(), "{:?}", lexed.error);
    lexed.tokens.iter().map(|t| t.kind).collect()
}

#[test]
fn regex_or_division_by_previous_token() {
    use TokenKind::*;
    // after `)` and `]`: division; after `}`: a regex (case options), after `,`: a regex
    assert_eq!(kinds("($a) /2/ 1"), [WsLParen, Variable, RParen, Div, Number, Div, Number]);
    assert_eq!(kinds("$a[0] /2/ 1"), [Variable, LBrack, Number, RBrack, Div, Number, Div, Number]);
    assert_eq!(kinds("} /2/ 1"), [RBrace, Regex, Number]);
    assert_eq!(kinds("f(1, /x/)"), [Name, LParen, Number, Comma, Regex, RParen]);
    // inside an interpolation, what came before the string decides the first token
    assert_eq!(kinds(r#"$x = "${/a/}""#), [Variable, Equals, DqPre, Regex, DqPost]);
    assert_eq!(kinds(r#"$x "${/a/}""#), [Variable, DqPre, Div, Name, Div, DqPost]);
}

#[test]
fn context_tokens() {
    use TokenKind::*;
    assert_eq!(kinds("$a [1]"), [Variable, ListStart, Number, RBrack]);
    assert_eq!(kinds("$a[1]"), [Variable, LBrack, Number, RBrack]);
    assert_eq!(kinds("f (1)\n  (2)"), [Name, LParen, Number, RParen, WsLParen, Number, RParen]);
    assert_eq!(kinds("$a ? { 1 => 2 }"), [Variable, QMark, SelBrace, Number, FArrow, Number, RBrace]);
    assert_eq!(kinds("\"${x}\""), [DqPre, Variable, DqPost]);
    assert_eq!(kinds("\"${x.y}\""), [DqPre, Variable, Dot, Name, DqPost]);
    assert_eq!(kinds("\"${x + 1}\""), [DqPre, Name, Plus, Number, DqPost]);
    assert_eq!(kinds("\"${1}\""), [DqPre, Variable, DqPost]);
}

#[test]
fn heredoc_tokens_and_positions() {
    use TokenKind::*;
    let source = "$a = @(A)\n  text\n  |-A\n$b = @(\"B\")\n  ${x}y\n  | B\n";
    let lexed = lexer::lex(source);
    assert!(lexed.error.is_none());
    let got: Vec<(TokenKind, &str)> =
        lexed.tokens.iter().map(|t| (t.kind, source.get(t.start..t.end).unwrap_or("?"))).collect();
    assert_eq!(
        got,
        [
            (Variable, "$a"),
            (Equals, "="),
            (Heredoc, "@(A)"),
            (Sublocate, "  text\n"),
            // a text with a margin: offset 0 is the margin's start and the length is not
            // widened (SubLocator#to_global), so Puppet's range is "  te"
            (String, "  te"),
            (Variable, "$b"),
            (Equals, "="),
            (Heredoc, "@(\"B\")"),
            (Sublocate, "  ${x}y\n"),
            // offset 0 of a text with a margin is the margin's start, as in Puppet
            (DqPre, "  "),
            (Variable, "x"),
            (DqPost, "y\n"),
        ]
    );
    assert_eq!(lexed.value(source, 4), "text");
    assert_eq!(lexed.value(source, 11), "y\n");
}

#[test]
fn token_at_and_syntax_error_messages() {
    let source = "$x = 'a\\'b' \"p${y}q\", /r\\/s/ ::foo true é";
    let lexed = lexer::lex(source);
    assert!(lexed.error.is_none());
    let at = |s: &str| lexer::token_index_at(&lexed.tokens, source.find(s).unwrap()).unwrap();
    let message = |s: &str| lexer::syntax_error_message(source, &lexed, at(s));
    assert_eq!(message("$x"), "Syntax error at 'x'");
    assert_eq!(message("="), "Syntax error at '='");
    assert_eq!(message("'a"), "Syntax error at 'a'b'");
    assert_eq!(message("\"p"), "Syntax error at 'p'");
    assert_eq!(message("y}"), "Syntax error at 'y'");
    assert_eq!(message("q\""), "Syntax error at 'q'");
    assert_eq!(message("/r"), "Syntax error at '(?-mix:r\\/s)'");
    assert_eq!(message("::foo"), "Syntax error at '::foo'");
    assert_eq!(message("true"), "Syntax error at 'true'");
    assert_eq!(message("é"), "Syntax error at ''");
    assert_eq!(lexer::syntax_error_message(source, &lexed, lexed.tokens.len()), "Syntax error at end of input");
    // a token starting past the offset, and none at all
    let t: &Token = lexer::token_at(&lexed.tokens, source.find(" \"p").unwrap()).unwrap();
    assert_eq!(&source[t.start..t.end], "\"p${");
    assert!(lexer::token_at(&lexed.tokens, source.len()).is_none());
    // error_at: positioned at the token, as Puppet's on_error positions it
    let d = lexer::error_at(source, &lexed, at("true"));
    assert_eq!(lexer::puppet_text(&d), "Syntax error at 'true' (line: 1, column: 36)");
    let d = lexer::error_at(source, &lexed, lexed.tokens.len());
    assert_eq!(lexer::puppet_text(&d), "Syntax error at end of input");
}

#[test]
fn tokens_stop_before_the_failing_request() {
    // the parser has `$x =` when it asks for the string, whose lexing fails
    let lexed = lexer::lex("$x = \"a ${1x}\"");
    assert_eq!(lexed.tokens.len(), 2);
    assert_eq!(lexer::puppet_text(&lexer::error_at("", &lexed, 2)), "Illegal number '1x' (line: 1, column: 11)");
}

#[test]
fn stack_limits_as_measured_with_puppet() {
    // puppet parser validate exits 1 without a message at these depths (see STACK_BUDGET)
    let nested = |n: usize, inner: &str| format!("$x = {}{inner}{}\n", "\"${".repeat(n), "}\"".repeat(n));
    let run = |source: String| {
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || lexer::lex(&source).error.map(|d| d.message))
            .unwrap()
            .join()
            .unwrap()
    };
    assert_eq!(run(nested(1482, "1x")).as_deref(), Some("Illegal number '1x'"));
    assert_eq!(run(nested(1483, "1x")).as_deref(), Some("stack level too deep"));
    assert_eq!(run(nested(1484, "x")), None);
    let pieces = |t: usize, tail: &str| format!("$x = \"{}{tail}\"\n", "$a ".repeat(t));
    assert_eq!(run(pieces(6862, "${1x}")).as_deref(), Some("Illegal number '1x'"));
    assert_eq!(run(pieces(6863, "${1x}")).as_deref(), Some("stack level too deep"));
    assert_eq!(run(pieces(6871, "")), None);
    assert_eq!(run(pieces(6872, "")).as_deref(), Some("stack level too deep"));
}

/// Lexes in a thread with a small stack, and checks the time.
fn robust(source: String, limit: Duration) -> lexer::Lexed {
    let started = Instant::now();
    let lexed = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || lexer::lex(&source))
        .unwrap()
        .join()
        .expect("no panic");
    assert!(started.elapsed() < limit, "took {:?}", started.elapsed());
    lexed
}

#[test]
fn no_panics_and_linear_time_on_hostile_input() {
    let second = Duration::from_secs(if cfg!(debug_assertions) { 20 } else { 2 });
    // 5,000 heredocs on a line
    let n = 5000;
    let mut source = String::new();
    for i in 0..n {
        source.push_str(&format!("@(T{i}) "));
    }
    source.push('\n');
    for i in 0..n {
        source.push_str(&format!("text {i}\nT{i}\n"));
    }
    let lexed = robust(source, second);
    assert!(lexed.error.is_none());
    assert_eq!(lexed.tokens.iter().filter(|t| t.kind == TokenKind::Heredoc).count(), n);
    // huge numbers, long names, long runs of backslashes, quotes, slashes, braces
    let big = 200_000;
    for source in [
        "9".repeat(big),
        format!("$x = 0x{}", "f".repeat(big)),
        format!("$x = 1.{}x", "5".repeat(big)),
        format!("$x = {}", "a".repeat(big)),
        format!("$x = '{}'", "\\".repeat(big)),
        format!("$x = \"{}\"", "\\".repeat(big)),
        format!("$x = \"{}\"", "\\u0041".repeat(big / 6)),
        format!("$x = \"{}\"", "$".repeat(big)),
        format!("$x = \"{}\"", "${x}".repeat(big / 4)),
        format!("$x = {}", "/".repeat(big)),
        format!("$x = {}", "/\\".repeat(big / 2)),
        format!("$x =~ /{}/", "(".repeat(big)),
        format!("$x =~ /{}/", "[".repeat(big)),
        format!("$x =~ /{}/", "(?<=".repeat(big / 4)),
        "{".repeat(big),
        "}".repeat(big),
        "é".repeat(big),
        "\u{a0}".repeat(big),
        "::".repeat(big),
        "@(".repeat(big),
        format!("@(X)\n{}", "x\n".repeat(big)),
        format!("@(X)\n{}X", " ".repeat(big)),
        format!("\"{}", "${\"".repeat(big / 3)),
        format!("$x = {}", "\"${".repeat(big / 3)),
    ] {
        robust(source, second);
    }
    // every prefix of a tricky source
    let source =
        "$x = @(\"E\":json/L)\n  ${a} \\\n  \"${b[0]}\" 0x1G 'q\\''\n  |-E\n$y = /a\\/b/ ?{ 1 => \"é${c}\" }\n";
    for end in (0..=source.len()).filter(|&i| source.is_char_boundary(i)) {
        robust(source[..end].to_string(), second);
    }
}

#[test]
fn check_encoding_reports_boms_before_bad_bytes() {
    let bom = lexer::check_encoding(b"\xfe\xff\xff").unwrap_err();
    assert_eq!(bom.span.line, 0);
    assert!(bom.message.starts_with("Illegal UTF-16 Byte Order mark"));
    assert_eq!(lexer::check_encoding(b"ok").unwrap(), "ok");
    assert_eq!(error("\u{feff}$x = 1").unwrap().message, lexer::check_encoding(b"\xef\xbb\xbf").unwrap_err().message);
}

/// The real-code corpus (`scripts/test.sh` installs it; `POPPET_CORPUS` overrides where):
/// Puppet validates every manifest, so none may have a lexical error. Skipped without it.
#[test]
fn corpus_has_no_lexical_errors() {
    let dir = std::env::var("POPPET_CORPUS").unwrap_or_else(|_| "/tmp/puppet-corpus".to_string());
    let Ok(list) = std::fs::read_to_string(format!("{dir}/pp-files.txt")) else {
        eprintln!("no corpus at {dir}: skipped");
        return;
    };
    let mut files = 0;
    let mut tokens = 0;
    let mut failures = Vec::new();
    for path in list.lines().filter(|l| !l.is_empty()) {
        let bytes = std::fs::read(path).unwrap();
        files += 1;
        match lexer::check_encoding(&bytes) {
            Err(d) => failures.push(format!("{path}: {}", lexer::puppet_text(&d))),
            Ok(source) => {
                let lexed = lexer::lex(source);
                tokens += lexed.tokens.len();
                if let Some(d) = lexed.error {
                    failures.push(format!("{path}: {}", lexer::puppet_text(&d)));
                }
            }
        }
    }
    println!("{files} manifests, {tokens} tokens, {} with a lexical error", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
