//! Tab completion (`poppet::shell::complete`), as data: `tests/shell/complete.txt` (its
//! header describes the format), against a fixed [`World`].

use std::path::{Path, PathBuf};

use poppet::shell::complete::{complete, Candidate, World};

/// A session with a few of everything.
struct Fake;

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

const COMMANDS: &[&str] = &["doc", "edit", "help", "load", "quit", "reload", "reset", "set", "time", "type", "vars"];

impl World for Fake {
    fn variables(&self) -> Vec<String> {
        strings(&["x", "xs", "facts", "h", "settings::environment", "_", "_1", "_12"])
    }
    fn keys(&self, variable: &str, path: &[String]) -> Vec<String> {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        match (variable, path.as_slice()) {
            ("facts", []) => strings(&["os", "networking", "kernel", "it's"]),
            ("facts", ["os"]) => strings(&["family", "release"]),
            ("facts", ["os", "release"]) => strings(&["full", "major"]),
            ("h", []) => strings(&["name", "port"]),
            _ => Vec::new(),
        }
    }
    fn functions(&self) -> Vec<String> {
        strings(&["notice", "map", "max", "min", "mymod::helper", "include", "contain", "require", "each"])
    }
    fn types(&self) -> Vec<String> {
        strings(&["Integer", "String", "Struct", "MyAlias", "Class"])
    }
    fn classes(&self) -> Vec<String> {
        strings(&["apache", "apache::mod::ssl", "nginx"])
    }
    fn defined_types(&self) -> Vec<String> {
        strings(&["apache::vhost", "app::site"])
    }
    fn commands(&self) -> Vec<String> {
        strings(COMMANDS)
    }
    fn command_arguments(&self, command: &str) -> Vec<String> {
        match command {
            "set" => strings(&["format", "color", "strict", "timing", "loglevel", "types"]),
            "help" => strings(COMMANDS),
            "type" => strings(&["-g"]),
            "vars" => self.variables(),
            _ => Vec::new(),
        }
    }
}

/// The cursor in an input (where there is none, the end).
const CURSOR: char = '‸';
/// A trailing space in an expected line.
const SPACE: char = '␠';

struct Case {
    name: String,
    line: usize,
    input: String,
    pos: usize,
    replaced: String,
    expected: Vec<String>,
}

fn visible(text: &str) -> String {
    let trimmed = text.trim_end_matches(' ');
    format!("{trimmed}{}", SPACE.to_string().repeat(text.len() - trimmed.len()))
}

fn unescape(text: &str) -> String {
    text.replace(SPACE, " ")
}

/// The directory standing for `{dir}` in the cases.
fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("complete-paths")
}

/// [`fixture_path`] with a few entries (made by [`cases`] only: tests run in parallel).
fn fixture_dir() -> PathBuf {
    let dir = fixture_path();
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["manifests", "modules", ".hidden"] {
        std::fs::create_dir_all(dir.join(sub)).expect("fixture directory");
    }
    for file in ["site.pp", "manifests/init.pp", ".hidden/x.pp"] {
        std::fs::write(dir.join(file), "notice(1)\n").expect("fixture file");
    }
    dir
}

fn read_cases(dir: &Path) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shell/complete.txt");
    let text = std::fs::read_to_string(&path).expect("tests/shell/complete.txt");
    let text = text.replace("{dir}", &dir.display().to_string());
    let mut cases = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        let Some(name) = line.strip_prefix("=== ") else {
            assert!(line.is_empty() || line.starts_with('#'), "line {}: stray text {line:?}", n + 1);
            continue;
        };
        let mut input = Vec::new();
        let replaced = loop {
            let (m, line) = lines.next().unwrap_or_else(|| panic!("line {}: case without ---", n + 1));
            if line == "---" || line.starts_with("--- ") {
                break unescape(line.get(4..).unwrap_or_default());
            }
            assert!(!line.starts_with("==="), "line {}: case without ---", m + 1);
            input.push(line);
        };
        let mut expected = Vec::new();
        while let Some((_, line)) = lines.next_if(|(_, l)| !l.starts_with("=== ")) {
            if !line.is_empty() && !line.starts_with('#') {
                expected.push(unescape(line));
            }
        }
        let input = input.join("\n");
        let pos = input.find(CURSOR).unwrap_or(input.len());
        let input = input.replacen(CURSOR, "", 1);
        cases.push(Case { name: name.to_owned(), line: n + 1, input, pos, replaced, expected });
    }
    cases
}

#[test]
fn cases() {
    let dir = fixture_dir();
    let cases = read_cases(&dir);
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (start, candidates) = complete(&case.input, case.pos, &Fake);
        let got: Vec<String> = candidates.iter().map(|c| c.replacement.clone()).collect();
        let replaced = case.input.get(start..case.pos);
        if replaced != Some(case.replaced.as_str()) || got != case.expected {
            failures.push(format!(
                "line {} ({}): {:?} at {}\n  replaced: expected {:?}, got {:?}\n  expected:\n{}\n  got:\n{}",
                case.line,
                case.name,
                case.input,
                case.pos,
                case.replaced,
                replaced,
                case.expected.iter().map(|c| format!("    {}", visible(c))).collect::<Vec<_>>().join("\n"),
                got.iter().map(|c| format!("    {}", visible(c))).collect::<Vec<_>>().join("\n"),
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// What the list shows, where it differs from what is inserted.
#[test]
fn displays() {
    let table: &[(&str, &[(&str, &str)])] = &[
        ("$facts[o", &[("'os']", "os")]),
        ("$facts['i", &[("it\\'s']", "it's")]),
        ("$facts[\"o", &[("os\"]", "os")]),
        ("file { 'x': mod", &[("mode => ", "mode")]),
        (":he", &[(":help", ":help")]),
        ("class { 'ng", &[("nginx'", "nginx")]),
    ];
    for (input, expected) in table {
        let (_, got) = complete(input, input.len(), &Fake);
        let expected: Vec<Candidate> = expected
            .iter()
            .map(|(replacement, display)| Candidate {
                replacement: (*replacement).to_owned(),
                display: (*display).to_owned(),
            })
            .collect();
        assert_eq!(got, expected, "{input:?}");
    }
}

/// Every byte offset of inputs that end in odd places, inside characters included: no panic,
/// and the word replaced starts on a character boundary at or before the cursor.
#[test]
fn never_panics() {
    let mut inputs: Vec<String> = [
        "",
        "$",
        "\"",
        "'",
        "${",
        "\"${",
        "\"${\"${$",
        "é",
        "$é",
        "notice(\"héllo ${wörld['ü'].map |$x| { \"🎉$x\" }}\") # ç",
        "file { 'ü': ensure => 'é', mode => \"${fäcts}\" }",
        "$x = @(\"ÉND\"/L)\n  ${x} é\n  |-ÉND\nnotice($x)",
        "$x = @(END:json)\n{\"a\": \"é\"}",
        "@(",
        "@(\"\")\n",
        "/* é",
        "$x =~ /é\\/",
        "}}}])))",
        "{{{[[[(((",
        ":load é",
        ":set é ü",
        ":",
        "  :",
        "\\",
        "\"\\",
        "'\\",
        "$::",
        "$a::",
        "::",
        "a::",
        "a-",
        "File <| title == 'é' |> { mo",
        "$facts['é']['ü",
        "\u{feff}notice(1)",
        "\r\n$x\r\n",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    inputs.extend(read_cases(&fixture_path()).into_iter().map(|c| c.input));
    for input in &inputs {
        for pos in 0..=input.len() + 2 {
            let (start, _) = complete(input, pos, &Fake);
            let mut cursor = pos.min(input.len());
            while !input.is_char_boundary(cursor) {
                cursor -= 1;
            }
            assert!(start <= cursor && input.is_char_boundary(start), "{input:?} at {pos}: start {start}");
        }
    }
}
