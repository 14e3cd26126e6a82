//! The evaluator's golden suite: every program of `tests/golden/*.txt` run through a fresh
//! session, its notices, warnings, `err()` messages and error compared with what Puppet 7.23
//! did (recorded by `cargo xtask record eval`; the format is the test kit's
//! `poppet_tests::cases`, the expectation lines its `poppet_tests::oracle::Expectation`).
//!
//! `GOLDEN_FILTER=text` runs only the cases whose name contains `text`.
//!
//! Beyond the suites, real code is compared with Puppet by `cargo xtask check eval-corpus`
//! (every corpus manifest) and `cargo xtask check modules` (every class of the corpus
//! modules; classes that need a function implemented in Ruby are counted apart).
//!
//! `tests/golden/disagree.todo` lists the cases known to disagree (`FILE: case name`), each
//! with the reason in the comment lines above it: they are reported, not failed, until they
//! agree, when the runner asks for them to be removed from the list (`poppet_tests::ratchet`).

use poppet_tests::cases;
use poppet_tests::oracle::{self, Expectation};
use poppet_tests::ratchet::Ratchet;

use puppet_eval::{Level, Options, Outcome, Session, Strict};

/// Our outcome of a program in the oracle's expectation lines (the whole error, every line
/// of it, as the oracle's `error_full` keeps it).
fn our_expectation(outcome: &Outcome) -> Vec<String> {
    let error = outcome.error.as_ref().map(|e| e.puppet_text());
    Expectation {
        notices: outcome.messages(Level::Notice),
        // The oracle keeps a warning's first line.
        warnings: outcome.messages(Level::Warning).into_iter().map(|w| w.lines().next().unwrap_or_default()).collect(),
        errs: outcome.messages(Level::Err),
        error: error.as_deref(),
        resources: outcome.resources.iter().map(String::as_str).collect(),
        relationships: outcome.relationships.iter().map(String::as_str).collect(),
    }
    .lines()
}

/// A session with the settings the oracle had when recording: its options from the case
/// file's `# oracle:` header (`--strict=`, `--no-strict-variables`, `--node=`, `--facts=`
/// relative to the workspace, `--ral`), else the oracle's defaults ([`Session::oracle_node`]); and
/// generate() runs its commands, as Puppet's does.
fn session(oracle_options: &[String]) -> Session {
    let mut session = node_session(oracle_options);
    session.evaluator.options.allow_generate = true;
    let dirs = header_modulepath(oracle_options);
    if !dirs.is_empty() {
        let modulepath = std::env::join_paths(&dirs).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        session.evaluator.set_modulepath(&modulepath);
    }
    session
}

/// The module directories of a case file's `--modulepath=DIR[:DIR]` header option (relative
/// to the workspace), none without it.
fn header_modulepath(oracle_options: &[String]) -> Vec<std::path::PathBuf> {
    oracle_options
        .iter()
        .filter_map(|o| o.strip_prefix("--modulepath="))
        .flat_map(|dirs| std::env::split_paths(dirs).collect::<Vec<_>>())
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| poppet_tests::catalog::workspace_path(&d.to_string_lossy()))
        .collect()
}

/// A session as the oracle compiles with `oracle_options`.
fn node_session(oracle_options: &[String]) -> Session {
    if oracle_options.is_empty() {
        return Session::oracle_node();
    }
    let mut options = Options { strict_variables: true, ..Options::default() };
    let mut node = "testnode".to_owned();
    let mut facts_file = None;
    for option in oracle_options {
        match option.split_once('=') {
            Some(("--strict", "off")) => options.strict = Strict::Off,
            Some(("--strict", "warning")) => options.strict = Strict::Warning,
            Some(("--strict", "error")) => options.strict = Strict::Error,
            Some(("--node", name)) => node = name.to_owned(),
            Some(("--facts", file)) => facts_file = Some(file.to_owned()),
            Some(("--modulepath", _)) => {}
            None if option == "--no-strict-variables" => options.strict_variables = false,
            // The catalog converted as `puppet apply` converts it: the core types' checks.
            None if option == "--ral" => options.validate_resources = true,
            _ => panic!("an oracle option the golden runner does not know: {option}"),
        }
    }
    let facts = match facts_file {
        Some(file) => {
            let path = poppet_tests::catalog::workspace_path(&file);
            puppet_eval::facts::read(&path).unwrap_or_else(|e| panic!("{e}"))
        }
        None => puppet_eval::facts::small(&node),
    };
    Session::new(options, &facts, &node)
}

/// Our outcome in the recorder's expectation lines (the directories of the header's module
/// path written `<modules>`).
fn expectation(case: &cases::Case, source: &str) -> Vec<String> {
    let mut lines = our_expectation(&session(&case.oracle_options).run(source));
    for dir in header_modulepath(&case.oracle_options) {
        lines = oracle::hide_modulepath(lines, &dir);
    }
    lines
}

#[test]
fn golden() {
    run_suite("golden");
}

/// The programs of `tests/golden_stdlib/*.txt`: the functions modules implement in Ruby,
/// ported, each file run with the module path of its header (`--modulepath=DIR`: Debian's
/// stdlib 8.5.0 in /usr/share/puppet/modules, which `scripts/install-corpus.sh` installs, or
/// stdlib 9.7.0 in `tests/stdlib-9.7.0`).
#[test]
fn stdlib() {
    run_suite("golden_stdlib");
}

/// Runs the case files of `tests/SUITE`, with the cases `tests/SUITE/disagree.todo` lists
/// as known to disagree.
fn run_suite(suite: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(suite);
    let todo = Ratchet::read(dir.join("disagree.todo"));
    let report = cases::run(&dir, "GOLDEN_FILTER", |case, source| {
        let ours = std::panic::catch_unwind(|| expectation(case, source)).unwrap_or_else(|_| vec!["PANIC".to_string()]);
        if ours == case.expected {
            return None;
        }
        Some(format!("{}  puppet: {:?}\n  ours:   {:?}", cases::show_source(source), case.expected, ours))
    });
    report.print(suite, "agree with Puppet 7.23");
    assert!(report.problems.is_empty(), "malformed case files");
    // A failure is `FILE:LINE: NAME\n...`: known when `FILE: NAME` is listed.
    let failing: Vec<String> = report.failures.iter().map(|f| failure_key(f)).collect();
    // Only failures are keyed (by the runner's heading): with every case run, a listed case
    // that did not fail agrees now (or is no case any more).
    let verdict = todo.judge(failing.iter().map(|k| (k.as_str(), false)), std::env::var("GOLDEN_FILTER").is_err());
    let fixed = &verdict.stale;
    for k in fixed {
        eprintln!("{k}: agrees with Puppet now: remove it from disagree.todo");
    }
    eprintln!("{suite}: {} known disagreements (disagree.todo)", todo.len());
    assert!(
        verdict.unexpected.is_empty() && fixed.is_empty(),
        "{} cases differ from Puppet besides disagree.todo; {} listed cases agree",
        verdict.unexpected.len(),
        fixed.len()
    );
}

/// The programs of `tests/golden_modules/*.txt`, run with the modules of `tests/modules` on
/// the module path (recorded by `cargo xtask record eval --modulepath eval/tests/modules`, Puppet
/// with that module path; the module path is written `<modules>` in messages).
#[test]
fn modules() {
    run_with_modules("golden_modules", &["modules"]);
}

/// The programs of `tests/golden_modules_metadata/*.txt`, with modules whose `metadata.json`
/// Puppet refuses on the module path: `tests/modules_metadata/1` to `5`, in order.
#[test]
fn modules_metadata() {
    run_with_modules(
        "golden_modules_metadata",
        &["modules_metadata/1", "modules_metadata/2", "modules_metadata/3", "modules_metadata/4", "modules_metadata/5"],
    );
}

/// Runs the case files of `tests/GOLDEN` with the module path `tests/DIR:...`.
fn run_with_modules(golden: &str, dirs: &[&str]) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let dirs: Vec<std::path::PathBuf> = dirs.iter().map(|d| root.join(d)).collect();
    let modulepath = std::env::join_paths(&dirs).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    let report = cases::run(root.join(golden), "GOLDEN_FILTER", |case, source| {
        let ours = std::panic::catch_unwind(|| {
            let mut session = session(&case.oracle_options);
            session.evaluator.set_modulepath(&modulepath);
            let mut lines = our_expectation(&session.run(source));
            for dir in &dirs {
                lines = oracle::hide_modulepath(lines, dir);
            }
            lines
        })
        .unwrap_or_else(|_| vec!["PANIC".to_string()]);
        if ours == case.expected {
            return None;
        }
        Some(format!("{}  puppet: {:?}\n  ours:   {:?}", cases::show_source(source), case.expected, ours))
    });
    report.print(golden, "agree with Puppet 7.23");
    assert!(report.problems.is_empty(), "malformed case files");
    assert!(report.failures.is_empty(), "{} module programs differ from Puppet", report.failures.len());
}

/// The programs of `tests/golden_catalog/*.txt`, compiled with the node settings of their
/// file's `# oracle:` header and the suite's module path (`poppet_tests::catalog::GOLDEN`: the
/// modules of `tests/modules`), their messages and whole catalogs (`Catalog::to_json` as
/// `poppet_tests::catalog::lines`) compared with Puppet's (recorded by `cargo xtask record
/// catalog`; the module path is written `<modules>`). `tests/golden_catalog/disagree.todo`
/// lists the cases known to disagree.
#[test]
fn catalog() {
    let settings = poppet_tests::catalog::GOLDEN;
    let modules = poppet_tests::catalog::workspace_path(settings.modulepath);
    let dir = poppet_tests::catalog::workspace_path(settings.dir);
    let todo = Ratchet::read(dir.join("disagree.todo"));
    let report = cases::run(&dir, "GOLDEN_FILTER", |case, source| {
        let ours = std::panic::catch_unwind(|| {
            let mut session = session(&case.oracle_options);
            session.evaluator.set_modulepath(&modules.display().to_string());
            let outcome = session.run(source);
            let mut lines = our_messages(&outcome);
            if outcome.error.is_none() {
                let json =
                    session.evaluator.compiler.catalog.to_json(&session.evaluator.compiler.node_name, "production");
                lines.extend(poppet_tests::catalog::lines(&json));
            }
            oracle::hide_modulepath(lines, &modules)
        })
        .unwrap_or_else(|_| vec!["PANIC".to_string()]);
        if ours == case.expected {
            return None;
        }
        Some(format!("{}{}", cases::show_source(source), line_diff(&case.expected, &ours)))
    });
    report.print("golden_catalog", "agree with Puppet 7.23");
    assert!(report.problems.is_empty(), "malformed case files");
    let failing: Vec<String> = report.failures.iter().map(|f| failure_key(f)).collect();
    let verdict = todo.judge(failing.iter().map(|k| (k.as_str(), false)), std::env::var("GOLDEN_FILTER").is_err());
    for k in &verdict.stale {
        eprintln!("{k}: agrees with Puppet now: remove it from golden_catalog/disagree.todo");
    }
    assert!(
        verdict.unexpected.is_empty() && verdict.stale.is_empty(),
        "{} catalogs differ from Puppet besides disagree.todo; {} listed cases agree",
        verdict.unexpected.len(),
        verdict.stale.len()
    );
}

/// Our outcome's messages in the oracle's expectation lines, without resources and edges
/// (the whole-catalog suite has the catalog's lines instead).
fn our_messages(outcome: &Outcome) -> Vec<String> {
    our_expectation(outcome).into_iter().filter(|l| !l.starts_with("resource: ") && !l.starts_with("edge: ")).collect()
}

/// Two expectations as a diff: the lines only Puppet's has (`-`) and only ours (`+`), each
/// change under the `resource:` line it belongs to.
fn line_diff(puppet: &[String], ours: &[String]) -> String {
    let (n, m) = (puppet.len(), ours.len());
    // common[i][j]: the longest common subsequence of puppet[i..] and ours[j..]
    let mut common = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            common[i][j] =
                if puppet[i] == ours[j] { common[i + 1][j + 1] + 1 } else { common[i + 1][j].max(common[i][j + 1]) };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    // the last `resource:` line both have, and the last one shown
    let mut context: Option<usize> = None;
    let mut shown: Option<usize> = None;
    let mut change = |out: &mut String, mark: char, line: &str, context: Option<usize>| {
        if let Some(c) = context.filter(|_| !line.starts_with("resource: ") && context != shown) {
            out.push_str(&format!("    {}\n", puppet[c]));
            shown = context;
        }
        out.push_str(&format!("  {mark} {line}\n"));
    };
    while i < n || j < m {
        if i < n && j < m && puppet[i] == ours[j] {
            if puppet[i].starts_with("resource: ") {
                context = Some(i);
            }
            i += 1;
            j += 1;
        } else if j == m || (i < n && common[i + 1][j] >= common[i][j + 1]) {
            change(&mut out, '-', &puppet[i], context);
            i += 1;
        } else {
            change(&mut out, '+', &ours[j], context);
            j += 1;
        }
    }
    out
}

/// The ratchet's key of a failure report (`FILE:LINE: NAME\n...`): `FILE: NAME`.
fn failure_key(failure: &str) -> String {
    let first = failure.lines().next().unwrap_or_default();
    let mut parts = first.splitn(3, ':');
    let (file, name) = (parts.next().unwrap_or_default(), parts.nth(1).unwrap_or_default().trim());
    format!("{file}: {name}")
}
