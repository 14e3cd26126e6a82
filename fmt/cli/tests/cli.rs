//! The `pfmt` binary, spawned as a user runs it: formats, maps, Puppet's defaults, several
//! values, `--json` and `--yaml` input, errors (exit 1, `Error: MESSAGE`), usage errors (exit 2)
//! and `--help`.
//!
//! Every case with a `puppet` column was recorded from Puppet 7.23 through
//! the project's oracle (`tests/oracle/oracle.rb`): its expected output is what `notice(E)` logs for each
//! expression `E`, one line each, and its `Error:` line is the message Puppet reports (without
//! the evaluator's "Error while evaluating a Function Call, " prefix). Ask the oracle again with
//! `cargo test --release -p pfmt-cli --test cli -- --ignored` (needs Ruby and Puppet).

use std::io::Write;
use std::process::{Command, Output, Stdio};

const PFMT: &str = env!("CARGO_BIN_EXE_pfmt");

#[derive(Clone, Copy)]
struct Case {
    args: &'static [&'static str],
    /// Standard input (`--json`, `--yaml`).
    stdin: &'static str,
    /// Puppet's equivalent: one `String(...)` call per output line; the oracle's notices are
    /// `stdout`, its error `stderr`. Empty for what Puppet has no equivalent of (usage,
    /// reading the arguments and standard input).
    puppet: &'static [&'static str],
    stdout: &'static str,
    /// Exactly, or (usage errors, exit 2) how it starts.
    stderr: &'static str,
    code: i32,
}

const OK: Case = Case { args: &[], stdin: "", puppet: &[], stdout: "", stderr: "", code: 0 };
const FAILS: Case = Case { code: 1, ..OK };
const USAGE: Case = Case { code: 2, ..OK };

/// `pfmt FORMAT VALUE...`
const FORMATS: &[Case] = &[
    Case { args: &["%#x", "255"], puppet: &["String(255, '%#x')"], stdout: "0xff\n", ..OK },
    Case { args: &["%08.3f", "3.14159"], puppet: &["String(3.14159, '%08.3f')"], stdout: "0003.142\n", ..OK },
    Case { args: &["%e", "1234.5"], puppet: &["String(1234.5, '%e')"], stdout: "1.234500e+03\n", ..OK },
    Case {
        args: &["%y", "true", "false"],
        puppet: &["String(true, '%y')", "String(false, '%y')"],
        stdout: "yes\nno\n",
        ..OK
    },
    Case { args: &["%10.3s", "hello"], puppet: &["String('hello', '%10.3s')"], stdout: "       hel\n", ..OK },
    Case { args: &["%(a", "[1, 2]"], puppet: &["String([1, 2], '%(a')"], stdout: "(1, 2)\n", ..OK },
    Case {
        args: &["%#p", "{a => [1, 2], b => {c => true}}"],
        puppet: &["String({a => [1, 2], b => {c => true}}, '%#p')"],
        stdout: "{\n  'a' => [1, 2],\n  'b' => {\n    'c' => true\n  }\n}\n",
        ..OK
    },
    Case {
        args: &["%#a", "[1, {a => 2}]"],
        puppet: &["String([1, {a => 2}], '%#a')"],
        stdout: "[1,\n  {'a' => 2}]\n",
        ..OK
    },
    // negative numbers are values, not options; `--` ends the options
    Case { args: &["%+d", "-5", "5"], puppet: &["String(-5, '%+d')", "String(5, '%+d')"], stdout: "-5\n+5\n", ..OK },
    Case { args: &["--", "%x", "-255"], puppet: &["String(-255, '%x')"], stdout: "..f01\n", ..OK },
    // bare words are strings; -r takes every VALUE as a string
    Case { args: &["%s", "hello"], puppet: &["String('hello', '%s')"], stdout: "hello\n", ..OK },
    Case {
        args: &["-r", "%p", "it's", "[1]"],
        puppet: &["String(\"it's\", '%p')", "String('[1]', '%p')"],
        stdout: "'it\\'s'\n'[1]'\n",
        ..OK
    },
    Case {
        args: &["%p", "\"a\\tb\\u00e9\""],
        puppet: &["String(\"a\\tb\\u00e9\", '%p')"],
        stdout: "\"a\\tbé\"\n",
        ..OK
    },
    Case { args: &["%s", "undef"], puppet: &["String(undef, '%s')"], stdout: "\n", ..OK },
    Case { args: &["%d", "undef"], puppet: &["String(undef, '%d')"], stdout: "NaN\n", ..OK },
    Case { args: &["%p", "/a+b/"], puppet: &["String(/a+b/, '%p')"], stdout: "/a+b/\n", ..OK },
    // types and constructor calls
    Case { args: &["%s", "Integer[1,2]"], puppet: &["String(Integer[1,2], '%s')"], stdout: "Integer[1, 2]\n", ..OK },
    Case {
        args: &["%s", "Timestamp('2020-01-01T10:00:00.000 UTC')"],
        puppet: &["String(Timestamp('2020-01-01T10:00:00.000 UTC'), '%s')"],
        stdout: "2020-01-01T10:00:00.000000000 UTC\n",
        ..OK
    },
    Case { args: &["%p", "SemVer('1.2.3')"], puppet: &["String(SemVer('1.2.3'), '%p')"], stdout: "1.2.3\n", ..OK },
    Case { args: &["%s", "Binary('aGk=')"], puppet: &["String(Binary('aGk='), '%s')"], stdout: "hi\n", ..OK },
    Case {
        args: &["%s", "Sensitive(1)"],
        puppet: &["String(Sensitive(1), '%s')"],
        stdout: "Sensitive [value redacted]\n",
        ..OK
    },
    Case {
        args: &["%p", "String(255, '%#x')", "Optional[String](1)"],
        puppet: &["String(String(255, '%#x'), '%p')", "String(Optional[String](1), '%p')"],
        stdout: "'0xff'\n'1'\n",
        ..OK
    },
];

/// `pfmt -m MAP VALUE...`, `pfmt -m '{}' VALUE...`
const MAPS: &[Case] = &[
    Case {
        args: &["-m", "{Integer => \"%#x\"}", "255"],
        puppet: &["String(255, {Integer => \"%#x\"})"],
        stdout: "0xff\n",
        ..OK
    },
    Case {
        args: &["--map", "{Integer[default, -1] => '%d', Integer[0, default] => '%#x'}", "-1", "10"],
        puppet: &[
            "String(-1, {Integer[default, -1] => '%d', Integer[0, default] => '%#x'})",
            "String(10, {Integer[default, -1] => '%d', Integer[0, default] => '%#x'})",
        ],
        stdout: "-1\n0xa\n",
        ..OK
    },
    Case {
        args: &["-m", "{Array => {format => '%[a', separator => ';'}, Integer => '%#x'}", "[1, [2, 'x']]"],
        puppet: &["String([1, [2, 'x']], {Array => {format => '%[a', separator => ';'}, Integer => '%#x'})"],
        stdout: "[1;[2;'x']]\n",
        ..OK
    },
    Case {
        args: &["-m", "{Hash => {format => '%{h', separator2 => ': '}}", "{a => 1, b => [2]}"],
        puppet: &["String({a => 1, b => [2]}, {Hash => {format => '%{h', separator2 => ': '}})"],
        stdout: "{'a': 1, 'b': [2]}\n",
        ..OK
    },
    Case {
        args: &["-m", "{String => '%10s'}", "hello"],
        puppet: &["String('hello', {String => '%10s'})"],
        stdout: "     hello\n",
        ..OK
    },
    Case {
        args: &["-m", "{Float => '%.3f'}", "2.5", "1"],
        puppet: &["String(2.5, {Float => '%.3f'})", "String(1, {Float => '%.3f'})"],
        stdout: "2.500\n1\n",
        ..OK
    },
    // Puppet's defaults
    Case {
        args: &["-m", "{}", "{a => [1, undef]}", "x", "1.0", "undef", "default"],
        puppet: &[
            "String({a => [1, undef]}, {})",
            "String('x', {})",
            "String(1.0, {})",
            "String(undef, {})",
            "String(default, {})",
        ],
        stdout: "{'a' => [1, undef]}\nx\n1.000000\n\ndefault\n",
        ..OK
    },
];

/// `--json` and `--yaml`: the values from standard input.
const STDIN: &[Case] = &[
    Case {
        args: &["--json", "%p"],
        stdin: "{\"b\": [1, null, true], \"a\": 2.5}",
        puppet: &["String({'b' => [1, undef, true], 'a' => 2.5}, '%p')"],
        stdout: "{'b' => [1, undef, true], 'a' => 2.5}\n",
        ..OK
    },
    // JSON lines
    Case {
        args: &["--json", "-m", "{}"],
        stdin: "1\n\"two\"\n[3, false]\n{}\n",
        puppet: &["String(1, {})", "String('two', {})", "String([3, false], {})", "String({}, {})"],
        stdout: "1\ntwo\n[3, false]\n{}\n",
        ..OK
    },
    Case { args: &["--json", "%d"], stdin: "", stdout: "", ..OK },
    Case {
        args: &["--yaml", "-m", "{}"],
        stdin: "a: [1, ~, yes, '2']\nb: 2.5\n",
        puppet: &["String({'a' => [1, undef, 'yes', '2'], 'b' => 2.5}, {})"],
        stdout: "{'a' => [1, undef, 'yes', '2'], 'b' => 2.5}\n",
        ..OK
    },
    Case {
        args: &["--yaml", "%p"],
        stdin: "--- 1\n--- x\n---\n- 0x10\n- !!str 3\n",
        puppet: &["String(1, '%p')", "String('x', '%p')", "String([16, '3'], '%p')"],
        stdout: "1\n'x'\n[16, '3']\n",
        ..OK
    },
];

/// Errors: `Error: MESSAGE` on standard error, exit 1, after the results before the failure.
const ERRORS: &[Case] = &[
    Case {
        args: &["%k", "1"],
        puppet: &["String(1, '%k')"],
        stderr: "Error: Illegal format 'k' specified for value of Integer type - expected one of the characters 'dxXobBeEfgGaAspc'\n",
        ..FAILS
    },
    Case {
        args: &["%d", "1", "[1, 'x']", "2"],
        puppet: &["String(1, '%d')", "String([1, 'x'], '%d')", "String(2, '%d')"],
        stdout: "1\n",
        stderr: "Error: Illegal format 'd' specified for value of Array type - expected one of the characters 'asp'\n",
        ..FAILS
    },
    Case {
        args: &["%-8s|", "hello"],
        puppet: &["String('hello', '%-8s|')"],
        stderr: "Error: The format '%-8s|' is not a valid format on the form '%<flags><width>.<prec><format>'\n",
        ..FAILS
    },
    Case { args: &["%99999999999d", "42"], puppet: &["String(42, '%99999999999d')"], stderr: "Error: width too big\n", ..FAILS },
    Case {
        args: &["-m", "{Integer => '%k'}", "1"],
        puppet: &["String(1, {Integer => '%k'})"],
        stderr: "Error: Illegal format 'k' specified for value of Integer type - expected one of the characters 'dxXobBeEfgGaAspc'\n",
        ..FAILS
    },
    // Puppet's own quirk: string_formats without format is refused
    Case {
        args: &["-m", "{Array => {string_formats => {Integer => '%#x'}}}", "[255]"],
        puppet: &["String([255], {Array => {string_formats => {Integer => '%#x'}}})"],
        stderr: "Error: The format '' is not a valid format on the form '%<flags><width>.<prec><format>'\n",
        ..FAILS
    },
    Case {
        args: &["", "1"],
        puppet: &["String(1, '')"],
        stderr: "Error: 'new_string' parameter 'string_formats' expects a Formats = Variant[Default, String[1], TypeMap = Hash[Type, Variant[Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], ContainerFormat = Struct[{Optional['format'] => Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], Optional['separator'] => String, Optional['separator2'] => String, Optional['string_formats'] => Hash[Type, Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/]]}]]]] value, got String\n",
        ..FAILS
    },
    Case {
        args: &["-m", "5", "1"],
        puppet: &["String(1, 5)"],
        stderr: "Error: 'new_string' parameter 'string_formats' expects a Formats = Variant[Default, String[1], TypeMap = Hash[Type, Variant[Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], ContainerFormat = Struct[{Optional['format'] => Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], Optional['separator'] => String, Optional['separator2'] => String, Optional['string_formats'] => Hash[Type, Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/]]}]]]] value, got Integer\n",
        ..FAILS
    },
    // reading the arguments and standard input: the literal reader's and the parsers' words
    Case { args: &["%d", "[1,"], stderr: "Error: Syntax error at end of input\n", ..FAILS },
    Case { args: &["%d", "$x"], stderr: "Error: Not a literal: this expression needs the evaluator\n", ..FAILS },
    Case { args: &["-m", "{", "1"], stderr: "Error: Syntax error at end of input\n", ..FAILS },
    Case {
        args: &["%d", "99999999999999999999"],
        stderr: "Error: A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0x56bc75e2d630fffff'\n",
        ..FAILS
    },
    Case {
        args: &["--json", "%d"],
        stdin: "1\n[2",
        puppet: &["String(1, '%d')"],
        stdout: "1\n",
        stderr: "Error: invalid JSON on standard input: EOF while parsing a list at line 2 column 2\n",
        ..FAILS
    },
    Case {
        args: &["--json", "%d"],
        stdin: "18446744073709551615",
        stderr: "Error: invalid JSON on standard input: the integer 18446744073709551615 is outside Puppet's Integer range (64 bits) at line 1 column 20\n",
        ..FAILS
    },
    Case {
        args: &["--yaml", "%d"],
        stdin: "[1, 2",
        stderr: "Error: invalid YAML on standard input: while parsing a flow sequence, expected ',' or ']' at byte 5 line 2 column 1\n",
        ..FAILS
    },
    Case { args: &["--yaml", "%d"], stdin: "[!!int x]", stderr: "Error: invalid YAML on standard input: the scalar 'x' is no !!int at line 1 column 8\n", ..FAILS },
];

/// Usage errors: clap's message and usage on standard error, exit 2.
const USAGE_ERRORS: &[Case] = &[
    Case {
        args: &[],
        stderr: "error: a FORMAT or -m MAP is required\n\nUsage: pfmt [OPTIONS] FORMAT VALUE...\n",
        ..USAGE
    },
    Case { args: &["%d"], stderr: "error: at least one VALUE is required\n\nUsage: pfmt", ..USAGE },
    Case { args: &["-m", "{}"], stderr: "error: at least one VALUE is required\n", ..USAGE },
    Case {
        args: &["--json", "%d", "1"],
        stderr: "error: no VALUE may be given with --json: the values are read from standard input\n",
        ..USAGE
    },
    Case { args: &["--yaml", "-m", "{}", "1"], stderr: "error: no VALUE may be given with --yaml", ..USAGE },
    Case {
        args: &["--json", "--yaml", "%d"],
        stderr: "error: the argument '--json' cannot be used with '--yaml'\n",
        ..USAGE
    },
    Case {
        args: &["-r", "--json", "%d"],
        stderr: "error: the argument '--raw' cannot be used with '--json'\n",
        ..USAGE
    },
    Case { args: &["--bogus", "%d", "1"], stderr: "error: unexpected argument '--bogus' found\n", ..USAGE },
    Case { args: &["-m"], stderr: "error: a value is required for '--map <MAP>' but none was supplied\n", ..USAGE },
];

fn spawn(args: &[impl AsRef<std::ffi::OsStr>], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(PFMT);
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // what a test sees must not depend on the caller's colour settings
    cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE").env_remove("CLICOLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("pfmt starts");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("pfmt runs");
    writer.join().expect("stdin written");
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs every case of a table and lists all disagreements at once.
fn check(table: &[Case]) {
    let mut failures = Vec::new();
    for case in table {
        let out = spawn(case.args, case.stdin, &[]);
        let (stdout, stderr, code) = (text(&out.stdout), text(&out.stderr), out.status.code());
        let stderr_ok = if case.code == 2 { stderr.starts_with(case.stderr) } else { stderr == case.stderr };
        if stdout != case.stdout || !stderr_ok || code != Some(case.code) {
            failures.push(format!(
                "pfmt {:?} (stdin {:?})\n  expected exit {} stdout {:?} stderr {:?}\n  got      exit {:?} stdout {:?} stderr {:?}",
                case.args, case.stdin, case.code, case.stdout, case.stderr, code, stdout, stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases disagree:\n{}", failures.len(), table.len(), failures.join("\n"));
}

#[test]
fn formats() {
    check(FORMATS);
}

#[test]
fn maps_and_defaults() {
    check(MAPS);
}

#[test]
fn json_and_yaml_on_stdin() {
    check(STDIN);
}

#[test]
fn errors_exit_1() {
    check(ERRORS);
}

#[test]
fn usage_errors_exit_2() {
    check(USAGE_ERRORS);
}

#[test]
fn help_shows_usage_and_examples() {
    for flag in ["--help", "-h"] {
        let out = spawn(&[flag], "", &[]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert!(out.stderr.is_empty(), "{flag}");
        for part in [
            "Usage: pfmt [OPTIONS] FORMAT VALUE...",
            "pfmt [OPTIONS] -m MAP VALUE...",
            "--json",
            "--yaml",
            "Examples:",
            "pfmt '%#x' 255",
        ] {
            assert!(stdout.contains(part), "{flag} shows {part:?}:\n{stdout}");
        }
        assert!(!stdout.contains('\x1b'), "no colour when stdout is not a terminal");
    }
    let out = spawn(&["--version"], "", &[]);
    assert_eq!(text(&out.stdout), format!("pfmt {}\n", env!("CARGO_PKG_VERSION")));
}

/// Each example of `--help` that shows its result prints that result.
#[test]
fn help_examples_print_what_they_say() {
    let examples: &[(&[&str], &str, &str)] = &[
        (&["%#x", "255"], "", "0xff\n"),
        (&["%08.3f", "3.14159"], "", "0003.142\n"),
        (&["%y", "true", "false"], "", "yes\nno\n"),
        (&["%10.3s", "hello"], "", "       hel\n"),
        (&["%(a", "[1, 2]"], "", "(1, 2)\n"),
        (&["-m", "{Integer => \"%#x\"}", "255"], "", "0xff\n"),
        (&["-m", "{Array => {format => \"%[a\", separator => \";\"}}", "[1, [2, 'x']]"], "", "[1;[2;'x']]\n"),
        (&["-m", "{}", "{a => [1, undef]}"], "", "{'a' => [1, undef]}\n"),
        (&["-r", "%p", "it's"], "", "'it\\'s'\n"),
        (&["--json", "%p"], "{\"a\": [1, null]}\n", "{'a' => [1, undef]}\n"),
        (&["--json", "-m", "{Float => \"%.3f\"}"], "1\n2.5\n", "1\n2.500\n"),
    ];
    let help = text(&spawn(&["--help"], "", &[]).stdout);
    for (args, stdin, expected) in examples {
        let out = spawn(args, stdin, &[]);
        assert_eq!((text(&out.stdout), out.status.code()), (expected.to_string(), Some(0)), "pfmt {args:?}");
        // the example is in the help as a shell command line
        let shown = args.iter().map(|a| {
            if a.contains(' ') || a.contains('\'') || a.contains('"') || a.contains('%') || a.contains('{') {
                quote(a)
            } else {
                a.to_string()
            }
        });
        let line = std::iter::once("pfmt".to_string()).chain(shown).collect::<Vec<_>>().join(" ");
        assert!(help.contains(&line) || args.contains(&"--json"), "--help shows {line}");
    }
}

/// How `--help` quotes an argument for the shell.
fn quote(a: &str) -> String {
    if a.contains('\'') {
        format!("\"{a}\"")
    } else {
        format!("'{a}'")
    }
}

#[test]
fn colour_only_when_asked_for_off_a_terminal() {
    let plain = spawn(&["%d", "[1,"], "", &[]);
    assert_eq!(text(&plain.stderr), "Error: Syntax error at end of input\n");
    let usage = spawn(&["--bogus"], "", &[]);
    assert!(!text(&usage.stderr).contains('\x1b'));
    let forced = spawn(&["%d", "[1,"], "", &[("CLICOLOR_FORCE", "1")]);
    assert_eq!(text(&forced.stderr), "\x1b[1m\x1b[31mError:\x1b[0m Syntax error at end of input\n");
    let usage = spawn(&["--bogus"], "", &[("CLICOLOR_FORCE", "1")]);
    assert!(text(&usage.stderr).contains('\x1b'));
    let off = spawn(&["%d", "[1,"], "", &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert_eq!(text(&off.stderr), "Error: Syntax error at end of input\n");
}

#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    let out = spawn(&[std::ffi::OsStr::new("%d"), std::ffi::OsStr::from_bytes(b"\xff")], "", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: invalid UTF-8"), "{}", text(&out.stderr));
}

#[test]
fn stdin_that_is_not_utf8_is_an_error() {
    let mut cmd = Command::new(PFMT);
    let mut child = cmd
        .args(["--json", "%d"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    child.stdin.take().expect("stdin").write_all(b"1\n\xff").expect("written");
    let out = child.wait_with_output().expect("runs");
    assert_eq!(
        (text(&out.stdout), text(&out.stderr), out.status.code()),
        ("".into(), "Error: standard input is not UTF-8 (invalid byte at offset 2)\n".into(), Some(1))
    );
}

/// Many values in, the reader gone after the first line: no panic, no message.
#[test]
fn a_closed_pipe_ends_quietly() {
    let lines: String = (0..200_000).map(|i| format!("{i}\n")).collect();
    let mut child = Command::new(PFMT)
        .args(["--json", "%d"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(lines.as_bytes());
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 2];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("a result");
    assert_eq!(&first, b"0\n");
    drop(stdout);
    let out = child.wait_with_output().expect("ends");
    writer.join().expect("written");
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(0), String::new()));
}

/// Asks Puppet (through the oracle) about every case with a `puppet` column and compares its
/// answer with the table. Needs Ruby and Puppet 7.23 (the oracle of `$POPPET_ORACLE`, else the
/// project's `tests/oracle/oracle.rb`).
#[test]
#[ignore = "asks Puppet through tests/oracle/oracle.rb"]
fn oracle_agrees_with_the_tables() {
    let oracle = poppet_tests::oracle::oracle_path();
    let cases: Vec<&Case> =
        [FORMATS, MAPS, STDIN, ERRORS].concat().leak().iter().filter(|c| !c.puppet.is_empty()).collect::<Vec<_>>();
    let mut input = String::new();
    for (i, case) in cases.iter().enumerate() {
        let code: String = case.puppet.iter().map(|e| format!("notice({e})\n")).collect();
        input.push_str(&format!("{{\"id\":\"{i}\",\"code\":{}}}\n", json_string(&code)));
    }
    let mut child = Command::new("ruby")
        .arg(oracle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ruby runs the oracle");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("oracle answers");
    writer.join().expect("joined").expect("written");
    let answers = text(&out.stdout);
    let mut failures = Vec::new();
    for (case, line) in cases.iter().zip(answers.lines()) {
        let notices = field_strings(line, "notices");
        let stdout: String = notices.iter().map(|n| format!("{n}\n")).collect();
        let stderr = match field_string(line, "error_message") {
            Some(m) => format!(
                "Error: {}\n",
                m.trim_start_matches("Evaluation Error: ")
                    .trim_start_matches("Error while evaluating a Function Call, ")
            ),
            None => String::new(),
        };
        // an error of reading standard input comes after the values Puppet has formatted
        let reading = case.stderr.starts_with("Error: invalid JSON") || case.stderr.starts_with("Error: invalid YAML");
        if stdout != case.stdout || (stderr != case.stderr && !(stderr.is_empty() && reading)) {
            failures.push(format!(
                "{:?}: Puppet prints {stdout:?} {stderr:?}, the table says {:?} {:?}",
                case.puppet, case.stdout, case.stderr
            ));
        }
    }
    assert_eq!(answers.lines().count(), cases.len(), "one answer per case");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

fn field_string(line: &str, key: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    v.get(key)?.as_str().map(str::to_owned)
}

fn field_strings(line: &str, key: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
    v.get(key)
        .and_then(|n| n.as_array())
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}
