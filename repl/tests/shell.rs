//! The interactive shell, driven through a pseudo-terminal: the scripted sessions of
//! `tests/shell/sessions.txt` (see that file for the format) run against the real binary:
//! typing, continuation, completion, hints, history across runs, Ctrl-C, every command,
//! colour rules. The highlighter, completion and the validator's table are tested as pure
//! code (`tests/highlight.rs`, `tests/complete.rs`, the unit tests of `shell/validate.rs`);
//! `bench/shell` measures a keystroke's highlighting and the start-up.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use poppet::shell::validate::{verdict, Verdict};
use rexpect::reader::Options;
use rexpect::session::{spawn_with_options, PtySession};

/// One scripted session.
struct Script {
    name: String,
    line: usize,
    args: Vec<String>,
    env: Vec<(String, String)>,
    /// Whether escape sequences stay in what is expected against (colour tests).
    raw: bool,
    steps: Vec<Step>,
}

enum Step {
    /// Keys to type (escapes decoded), then Enter.
    Line(String),
    /// Keys to type, without Enter.
    Keys(String),
    /// Keys to type at once, without waiting for a prompt (Ctrl-C while code runs).
    Now(String),
    /// Text that must come.
    Expect(String),
    /// A regular expression that must match what comes.
    Regex(String),
    /// Text that must not come before the next prompt.
    Absent(String),
    /// A regular expression that must not match what comes before the next prompt.
    AbsentRegex(String),
    /// Ends the shell (Ctrl-D) and starts it again in the same directory.
    Restart,
    /// A file to create in the session's directory: name and content.
    File(String, String),
    /// Wait for the process to end.
    Eof,
    /// Pause (lets a running evaluation start before Ctrl-C).
    Sleep(u64),
    /// A new terminal size: columns and rows (the shell gets SIGWINCH).
    Size(u16, u16),
}

/// `\r`, `\n`, `\t`, `\e`, `\xNN` and `\\` in a script line.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('e') => out.push('\x1b'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                if let Some(ch) = u8::from_str_radix(&hex, 16).ok().map(char::from) {
                    out.push(ch);
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn parse(text: &str) -> Vec<Script> {
    let mut scripts: Vec<Script> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if let Some(name) = line.strip_prefix("=== ") {
            scripts.push(Script {
                name: name.trim().to_owned(),
                line: index + 1,
                args: Vec::new(),
                env: Vec::new(),
                raw: false,
                steps: Vec::new(),
            });
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let Some(script) = scripts.last_mut() else { panic!("line {}: a step before the first ===", index + 1) };
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        match tag {
            "args:" => script.args = rest.split_whitespace().map(str::to_owned).collect(),
            "env:" => {
                for pair in rest.split_whitespace() {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    script.env.push((k.to_owned(), v.to_owned()));
                }
            }
            "raw:" => script.raw = true,
            ">" => script.steps.push(Step::Line(unescape(rest))),
            "keys:" => script.steps.push(Step::Keys(unescape(rest))),
            "now:" => script.steps.push(Step::Now(unescape(rest))),
            "repeat:" => {
                let (count, text) = rest.split_once(' ').unwrap_or((rest, ""));
                let count: usize = count.parse().unwrap_or_else(|_| panic!("line {}: repeat: COUNT TEXT", index + 1));
                script.steps.push(Step::Now(unescape(text).repeat(count)));
            }
            "<" => script.steps.push(Step::Expect(unescape(rest))),
            "~" => script.steps.push(Step::Regex(rest.to_owned())),
            "!" => script.steps.push(Step::Absent(unescape(rest))),
            "!~" => script.steps.push(Step::AbsentRegex(rest.to_owned())),
            "restart" => script.steps.push(Step::Restart),
            "file:" => {
                let (name, content) = rest.split_once(' ').unwrap_or((rest, ""));
                script.steps.push(Step::File(name.to_owned(), unescape(content)));
            }
            "eof" => script.steps.push(Step::Eof),
            "sleep:" => script.steps.push(Step::Sleep(rest.trim().parse().unwrap_or(100))),
            "size:" => {
                let size = rest.trim().split_once('x').and_then(|(c, r)| Some((c.parse().ok()?, r.parse().ok()?)));
                let (columns, rows) = size.unwrap_or_else(|| panic!("size: COLUMNSxROWS, not {rest:?}"));
                script.steps.push(Step::Size(columns, rows));
            }
            other => panic!("line {}: unknown step {other:?}", index + 1),
        }
    }
    scripts
}

/// A fresh directory per session (home, state, config, files), removed afterwards.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let slug: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        let dir = std::env::temp_dir().join(format!("poppet-shell-{}-{slug}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn substitute(text: &str, dir: &Path) -> String {
    text.replace("$DIR", &dir.display().to_string())
}

fn run_script(script: &Script) -> Result<(), String> {
    let dir = TempDir::new(&script.name);
    let command = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_poppet"));
        command.args(script.args.iter().map(|a| substitute(a, &dir.0)));
        command.env_clear();
        command.env("PATH", std::env::var("PATH").unwrap_or_default());
        command.env("HOME", &dir.0);
        command.env("XDG_STATE_HOME", dir.0.join("state"));
        command.env("XDG_CONFIG_HOME", dir.0.join("config"));
        command.env("TERM", "xterm-256color");
        command.current_dir(&dir.0);
        for (k, v) in &script.env {
            command.env(k, substitute(v, &dir.0));
        }
        command
    };
    let options = || Options::new().timeout_ms(Some(5_000)).strip_ansi_escape_codes(!script.raw);
    let mut session: Option<PtySession> = None;
    // Keys go only after a fresh prompt, so that what the screen shows around them is
    // known (the editor keeps typeahead; `now:` and `repeat:` test that). Within a
    // multi-line input (the shell's own validator says whether it is one) there is no
    // prompt to wait for.
    let mut need_prompt = true;
    let mut pending = String::new();
    // A dumb terminal gets a plain prompt (the editor does not repaint there).
    let dumb = script.env.iter().any(|(k, v)| k == "TERM" && v == "dumb");
    let prompt = if dumb { "poppet> " } else { FRESH_PROMPT };
    for step in &script.steps {
        match step {
            // Files come before the shell starts (init.pp), or between steps.
            Step::File(name, content) => {
                write_file(&dir.0.join(substitute(name, &dir.0)), &substitute(content, &dir.0))?;
                continue;
            }
            Step::Restart => {
                need_prompt = true;
                if let Some(mut s) = session.take() {
                    s.send_control('d').map_err(|e| e.to_string())?;
                    s.exp_eof().map_err(|e| format!("expected the end before restarting: {e}"))?;
                }
                continue;
            }
            _ => {}
        }
        let s = match &mut session {
            Some(s) => s,
            None => session.insert(spawn_with_options(command(), options()).map_err(|e| format!("spawn: {e}"))?),
        };
        if matches!(step, Step::Line(_) | Step::Keys(_)) && std::mem::take(&mut need_prompt) {
            s.exp_regex(prompt).map_err(|e| format!("expected a prompt: {e}"))?;
        }
        match step {
            Step::Line(text) => {
                pending.push_str(text);
                if verdict(&pending) == Verdict::Incomplete {
                    pending.push('\n');
                } else {
                    pending.clear();
                    need_prompt = true;
                }
                s.send(&substitute(text, &dir.0)).map_err(|e| e.to_string())?;
                s.send("\r").map_err(|e| e.to_string())?;
                s.flush().map_err(|e| e.to_string())?;
            }
            Step::Keys(text) | Step::Now(text) => {
                need_prompt = text.ends_with('\r') || text.contains(['\x03', '\x04']);
                s.send(&substitute(text, &dir.0)).map_err(|e| e.to_string())?;
                s.flush().map_err(|e| e.to_string())?;
            }
            Step::Expect(text) => {
                s.exp_string(&substitute(text, &dir.0)).map_err(|e| format!("expected {text:?}: {e}"))?;
            }
            Step::Regex(re) => {
                s.exp_regex(re).map_err(|e| format!("expected /{re}/: {e}"))?;
            }
            Step::Absent(text) => {
                need_prompt = true;
                let before = sync(s, prompt)?;
                if before.contains(text.as_str()) {
                    return Err(format!("{text:?} came: {before:?}"));
                }
            }
            Step::AbsentRegex(re) => {
                need_prompt = true;
                let before = sync(s, prompt)?;
                let re = regex::Regex::new(re).map_err(|e| e.to_string())?;
                if re.is_match(&before) {
                    return Err(format!("/{re}/ matched: {before:?}"));
                }
            }
            Step::Eof => {
                s.exp_eof().map_err(|e| format!("expected the end: {e}"))?;
                session = None;
                need_prompt = true;
            }
            Step::Sleep(ms) => std::thread::sleep(Duration::from_millis(*ms)),
            Step::Size(columns, rows) => resize(s, *columns, *rows)?,
            Step::File(..) | Step::Restart => {}
        }
    }
    Ok(())
}

/// Sets the size of the session's terminal, as a terminal window does when resized: the
/// kernel signals the shell (SIGWINCH).
fn resize(s: &PtySession, columns: u16, rows: u16) -> Result<(), String> {
    use std::os::fd::AsRawFd;
    let master = s.process().get_file_handle().map_err(|e| e.to_string())?;
    let size = nix::libc::winsize { ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: TIOCSWINSZ reads the winsize it is given; the descriptor is the open pty master.
    let rc = unsafe { nix::libc::ioctl(master.as_raw_fd(), nix::libc::TIOCSWINSZ, &size) };
    if rc != 0 {
        return Err(format!("TIOCSWINSZ: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// A prompt for a new input: nothing typed after it yet (the editor's repaints of a line
/// being typed show the prompt too, followed by the text).
const FRESH_PROMPT: &str = r"poppet> (\x1b\[0m)?\r";

/// Everything the shell printed up to now: it runs an input whose result (`__sync__`) is
/// not in its own text, and waits for that result.
fn sync(s: &mut PtySession, prompt: &str) -> Result<String, String> {
    s.exp_regex(prompt).map_err(|e| format!("expected a prompt: {e}"))?;
    s.send("\"__${'sync'}__\"\r").map_err(|e| e.to_string())?;
    s.flush().map_err(|e| e.to_string())?;
    s.exp_string("=> '__sync__'").map_err(|e| format!("expected the shell to answer: {e}"))
}

/// Writes a script's file; one starting with `#!` is made executable.
fn write_file(path: &Path, content: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::write(path, content).map_err(|e| e.to_string())?;
    if content.starts_with("#!") {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[test]
fn sessions() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shell/sessions.txt");
    let text = std::fs::read_to_string(&path).expect("tests/shell/sessions.txt");
    let mut scripts = parse(&text);
    assert!(scripts.len() >= 30, "the sessions file holds {} sessions", scripts.len());
    // SHELL_FILTER=TEXT runs only the sessions whose name contains TEXT.
    if let Ok(filter) = std::env::var("SHELL_FILTER") {
        scripts.retain(|s| s.name.contains(&filter));
    }
    let started = Instant::now();
    let mut failures = Vec::new();
    for script in &scripts {
        if let Err(e) = run_script(script) {
            failures.push(format!("sessions.txt:{}: {}: {e}", script.line, script.name));
        }
    }
    eprintln!("shell: {} sessions in {:.1} s", scripts.len(), started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} of {} sessions failed:\n{}", failures.len(), scripts.len(), failures.join("\n"));
}
