//! `cargo xtask check modules`: compiles every class and every defined type of the corpus
//! modules (`scripts/install-corpus.sh` installs them in /usr/share/puppet/modules) for a real
//! node, here and in Puppet 7.23, and compares the compiled catalogs.
//!
//! The node is `puppet apply`'s with Puppet's defaults: `strict_variables` off, the facts
//! Facter reports on a Debian 12 node (`eval/src/facts/debian12.json`, which is
//! `Session::default()`'s), in Puppet through the oracle (`xtask/ruby/modules_oracle.rb` with
//! `--catalog-json --no-strict-variables --facts=...`). One program per class
//! (`include CLASS`) and per defined type (`TYPE { 'sample': ... }`, its required parameters
//! filled from the table of sample values, `sample_values.txt`). Both run the commands a
//! module's `generate()` calls, as Puppet does (`poppet --allow-generate`).
//!
//! Each program is one of:
//! - **identical**: both compile, and the catalogs (`poppet_tests::catalog::lines`: resources,
//!   parameters, tags, containment, classes) and the log messages are the same;
//! - **same failure**: both stop with the same error;
//! - **needs Ruby**: ours stops at a function a module implements in Ruby, or at an ERB
//!   template, which Poppet cannot run yet (counted by function); or the catalogs differ
//!   first in a resource whose type a module implements in Ruby with its own
//!   `title_patterns` (Ruby code that sets parameters from the title: counted as
//!   `TYPE titles`);
//! - **differs**: anything else, listed (`--show N` of them, with the first differing line).
//!
//! The headline is the number of classes whose catalog is identical to Puppet's, next to the
//! number Puppet compiles. Exit status 1 when a program panics or differs (`--allow-differ`
//! reports differences without failing).
//!
//! ```sh
//! cargo xtask check modules [MODULEPATH] [--show N] [--only TEXT] [--allow-differ]
//!                            [--answers FILE] [--ral]
//! ```
//!
//! `--ral` checks the core resources too, as `puppet apply` does when it converts the catalog
//! (the oracle's `--ral`, our `Options::validate_resources`).
//!
//! `--answers FILE` keeps Puppet's answers in FILE (JSON Lines), read instead of asking
//! Puppet again when it holds an answer for every program (Puppet takes minutes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use poppet_tests::catalog;
use poppet_tests::oracle::{self, Oracle};
use puppet_eval::Session;
use puppet_syntax::ast::{ExprKind, Parameter};
use serde_json::Value as Json;

use super::our_expectation;

/// The sample values of defined types' required parameters.
const SAMPLES: &str = include_str!("sample_values.txt");

/// What a program compiled from the corpus modules is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Class,
    Define,
}

struct Program {
    kind: Kind,
    name: String,
    code: String,
}

/// How our compilation of a program compares with Puppet's.
enum Verdict {
    Identical,
    SameFailure,
    /// The Ruby function (or `template`) that stopped ours.
    NeedsRuby(String),
    /// What differs: the first differing line of each side.
    Differs {
        puppet: String,
        ours: String,
    },
}

pub fn main(args: Vec<String>) -> ExitCode {
    let mut args = args.into_iter();
    let mut path_text = "/usr/share/puppet/modules".to_owned();
    let mut show = 10usize;
    let mut only = None;
    let mut allow_differ = false;
    let mut answers = None;
    let mut verdicts = None;
    let mut ral = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--show" => show = args.next().and_then(|n| n.parse().ok()).unwrap_or(show),
            "--only" => only = args.next(),
            "--allow-differ" => allow_differ = true,
            "--answers" => answers = args.next().map(PathBuf::from),
            "--verdicts" => verdicts = args.next().map(PathBuf::from),
            "--ral" => ral = true,
            _ => path_text = a,
        }
    }
    let modulepath: Vec<PathBuf> = std::env::split_paths(&path_text).collect();
    let samples = samples();
    let mut programs = programs(&modulepath, &samples);
    if let Some(only) = &only {
        programs.retain(|p| p.name.contains(only.as_str()));
    }
    if programs.is_empty() {
        eprintln!("no classes under {path_text} (run scripts/install-corpus.sh)");
        return ExitCode::from(2);
    }
    let codes: Vec<String> = programs.iter().map(|p| p.code.clone()).collect();
    let puppet_start = Instant::now();
    let puppet = match puppet_answers(&path_text, &codes, answers.as_deref(), ral) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let puppet_time = puppet_start.elapsed();
    let ours_start = Instant::now();
    let mut tally: BTreeMap<(bool, &str), usize> = BTreeMap::new();
    let mut puppet_compiles = [0usize; 2];
    let mut ruby: BTreeMap<String, usize> = BTreeMap::new();
    let (mut panics, mut differ, mut shown) = (0, 0, 0);
    let mut templates = Templates::default();
    for (program, theirs) in programs.iter().zip(&puppet) {
        let class = program.kind == Kind::Class;
        if theirs["error"].is_null() {
            puppet_compiles[usize::from(!class)] += 1;
        }
        let verdict = std::panic::catch_unwind(|| {
            let mut session = Session::default();
            // Puppet runs the commands of generate(): so do we, here (`--allow-generate`)
            session.evaluator.options.allow_generate = true;
            session.evaluator.options.validate_resources = ral;
            session.evaluator.set_modulepath(&path_text);
            session.evaluator.template_log = Some(Vec::new());
            let outcome = session.run(&program.code);
            let json =
                outcome.error.is_none().then(|| session.evaluator.compiler.catalog.to_json("testnode", "production"));
            let rendered = session.evaluator.template_log.take().unwrap_or_default();
            (judge(theirs, &our_expectation(&outcome), json.as_ref(), &modulepath), rendered)
        });
        let Ok((verdict, rendered)) = verdict else {
            panics += 1;
            eprintln!("PANIC: {}", program.name);
            continue;
        };
        templates.record(&rendered, &verdict, theirs);
        let label = match verdict {
            Verdict::Identical => "identical",
            Verdict::SameFailure => "same failure",
            Verdict::NeedsRuby(function) => {
                *ruby.entry(function).or_default() += 1;
                "needs Ruby"
            }
            Verdict::Differs { puppet, ours } => {
                differ += 1;
                if shown < show {
                    shown += 1;
                    eprintln!("DIFFERS: {}\n  puppet: {puppet}\n  ours:   {ours}", program.code.trim_end());
                }
                "differs"
            }
        };
        *tally.entry((class, label)).or_default() += 1;
    }
    let count = |class: bool, label: &str| tally.get(&(class, label)).copied().unwrap_or(0);
    for (class, what, compiles) in [(true, "classes", puppet_compiles[0]), (false, "defined types", puppet_compiles[1])]
    {
        let total: usize = tally.iter().filter(|((c, _), _)| *c == class).map(|(_, n)| n).sum();
        println!(
            "{total} {what}: Puppet compiles {compiles}; {} identical catalogs, {} same failure, {} need Ruby, {} differ",
            count(class, "identical"),
            count(class, "same failure"),
            count(class, "needs Ruby"),
            count(class, "differs"),
        );
    }
    let mut by_count: Vec<(&String, &usize)> = ruby.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = by_count.iter().map(|(f, n)| format!("{f} {n}")).collect();
    println!("stopped at Ruby: {}", top.join(", "));
    templates.report(&modulepath, show, verdicts.as_deref());
    differ += templates.differing();
    println!(
        "{} programs of {}: ours {:.1?}, Puppet {:.1?}; {panics} panics",
        programs.len(),
        path_text,
        ours_start.elapsed(),
        puppet_time
    );
    if panics > 0 || (differ > 0 && !allow_differ) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// What happened to each ERB template file the programs rendered, judged against Puppet's
/// catalogs: identical when Puppet's catalog has our output (in a parameter's value) or the
/// whole catalog is identical; different when Puppet compiled and its catalog has not; not
/// supported when our engine stopped at Ruby it does not run; failing in both otherwise.
#[derive(Default)]
struct Templates {
    /// Per template file: its outcomes over the programs that rendered it.
    seen: BTreeMap<String, TemplateOutcome>,
}

#[derive(Default)]
struct TemplateOutcome {
    identical: usize,
    differs: usize,
    unsupported: Option<String>,
    failing: usize,
    /// A program where it differs, and the start of our output.
    example: Option<String>,
}

impl Templates {
    fn record(&mut self, rendered: &[puppet_eval::functions::erb::Rendered], verdict: &Verdict, theirs: &Json) {
        let catalog = theirs.get("catalog").filter(|c| !c.is_null());
        let mut strings = Vec::new();
        if let Some(c) = catalog {
            collect_strings(c, &mut strings);
        }
        for r in rendered {
            let path = std::fs::canonicalize(&r.path).map_or_else(|_| r.path.clone(), |p| p.display().to_string());
            let outcome = self.seen.entry(path).or_default();
            match (&r.output, verdict) {
                (Ok(_), Verdict::Identical) => outcome.identical += 1,
                (Ok(out), _) if catalog.is_some() && strings.iter().any(|s| s.contains(out.as_str())) => {
                    outcome.identical += 1
                }
                (Ok(out), _) if catalog.is_some() => {
                    outcome.differs += 1;
                    outcome.example.get_or_insert_with(|| out.chars().take(120).collect());
                }
                (Err(e), _) => match ruby_function(e) {
                    Some(construct) => {
                        outcome.unsupported.get_or_insert(construct);
                    }
                    None => outcome.failing += 1,
                },
                (Ok(_), _) => outcome.failing += 1,
            }
        }
    }

    /// Templates that render differently from Puppet.
    fn differing(&self) -> usize {
        self.seen.values().filter(|o| o.differs > 0 && o.identical == 0).count()
    }

    fn report(&self, modulepath: &[PathBuf], show: usize, verdicts: Option<&Path>) {
        let mut all = Vec::new();
        for dir in modulepath {
            collect_templates(dir, &mut all, 0);
        }
        all.sort();
        all.dedup();
        let (mut identical, mut differs, mut unsupported, mut failing) = (0, 0, 0, 0);
        let mut constructs: BTreeMap<&str, usize> = BTreeMap::new();
        let mut shown = 0;
        for (path, o) in &self.seen {
            if o.identical > 0 {
                identical += 1;
            } else if o.differs > 0 {
                differs += 1;
                if shown < show {
                    shown += 1;
                    eprintln!(
                        "TEMPLATE DIFFERS: {path}
  ours: {:?}",
                        o.example.as_deref().unwrap_or("")
                    );
                }
            } else if let Some(c) = &o.unsupported {
                unsupported += 1;
                *constructs.entry(c.as_str()).or_default() += 1;
            } else {
                failing += 1;
            }
        }
        if let Some(path) = verdicts {
            let lines: Vec<String> = self
                .seen
                .iter()
                .map(|(p, o)| {
                    let v = if o.identical > 0 {
                        "identical"
                    } else if o.differs > 0 {
                        "differs"
                    } else if o.unsupported.is_some() {
                        "not supported"
                    } else {
                        "failing in both"
                    };
                    format!("{v}\t{p}")
                })
                .collect();
            let _ = std::fs::write(path, lines.join("\n") + "\n");
        }
        let reached = self.seen.len();
        let unsupported_list: Vec<String> = constructs.iter().map(|(c, n)| format!("{c} {n}")).collect();
        println!(
            "{} ERB templates: {reached} rendered by the programs; {identical} identical to Puppet's, {unsupported} not supported, {failing} failing in both, {differs} differ; {} not reached",
            all.len(),
            all.len().saturating_sub(reached)
        );
        if !unsupported_list.is_empty() {
            println!("templates not supported: {}", unsupported_list.join(", "));
        }
    }
}

/// Every string in a JSON document.
fn collect_strings<'a>(v: &'a Json, out: &mut Vec<&'a str>) {
    match v {
        Json::String(s) => out.push(s),
        Json::Array(items) => items.iter().for_each(|x| collect_strings(x, out)),
        Json::Object(map) => map.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// The `.erb` files under `dir` (modules' `templates` directories, symbolic links followed).
fn collect_templates(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    if depth > 10 {
        return;
    }
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            collect_templates(&path, out, depth + 1);
        } else if path.extension().is_some_and(|x| x == "erb") {
            out.push(std::fs::canonicalize(&path).unwrap_or(path));
        }
    }
}

/// Puppet's answer to each program: from `answers` when it holds one for each program (the
/// program's code is the answer's id), else from the oracle, then kept in `answers`.
fn puppet_answers(modulepath: &str, codes: &[String], answers: Option<&Path>, ral: bool) -> Result<Vec<Json>, String> {
    if let Some(kept) = answers.and_then(|path| std::fs::read_to_string(path).ok()) {
        let by_code: std::collections::HashMap<String, Json> = kept
            .lines()
            .filter_map(|l| serde_json::from_str::<Json>(l).ok())
            .filter_map(|a| Some((a["code"].as_str()?.to_owned(), a)))
            .collect();
        if let Some(found) = codes.iter().map(|c| by_code.get(c).cloned()).collect::<Option<Vec<_>>>() {
            return Ok(found);
        }
    }
    let records: Vec<Json> = codes.iter().map(|c| serde_json::json!({"id": c, "code": c})).collect();
    let oracle = real_node_oracle(modulepath);
    let mut found = if ral { oracle.arg("--ral") } else { oracle }.run_records(&records)?;
    for (answer, code) in found.iter_mut().zip(codes) {
        answer["code"] = Json::from(code.as_str());
    }
    if let Some(path) = answers {
        let text: String = found.iter().map(|a| format!("{a}\n")).collect();
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(found)
}

/// Compares Puppet's outcome `theirs` (with its `catalog`) with ours: our expectation lines
/// and, when ours compiled, our catalog.
fn judge(theirs: &Json, ours: &[String], our_catalog: Option<&Json>, modulepath: &[PathBuf]) -> Verdict {
    let hide = |lines: Vec<String>| modulepath.iter().fold(lines, |lines, dir| oracle::hide_modulepath(lines, dir));
    let error = |lines: &[String]| lines.iter().find(|l| l.starts_with("error: ")).cloned();
    let our_error = error(ours);
    if let Some(e) = &our_error {
        if let Some(function) = ruby_function(e) {
            // Puppet stopping at the same place for another reason is no news either.
            return Verdict::NeedsRuby(function);
        }
    }
    let messages = |lines: &[String]| -> Vec<String> {
        lines.iter().filter(|l| !l.starts_with("resource: ") && !l.starts_with("edge: ")).cloned().collect()
    };
    let their_messages = hide(messages(&oracle::expectation(theirs)));
    let our_messages = hide(messages(ours));
    let first_difference = |a: &[String], b: &[String]| {
        let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        let line = |v: &[String]| v.get(at).cloned().unwrap_or_else(|| "(nothing more)".to_owned());
        Verdict::Differs { puppet: line(a), ours: line(b) }
    };
    if their_messages != our_messages {
        if let Some(type_name) = error(&their_messages).as_deref().and_then(ruby_type_refused) {
            // Puppet refuses a resource of a type a module implements in Ruby (`--ral`).
            return Verdict::NeedsRuby(format!("{type_name} validation"));
        }
        return first_difference(&their_messages, &our_messages);
    }
    if our_error.is_some() {
        // The same error: with `--ral`, Puppet's catalog compiled before it was refused.
        return Verdict::SameFailure;
    }
    match (theirs.get("catalog").filter(|c| !c.is_null()), our_catalog) {
        (None, None) => Verdict::SameFailure,
        (Some(t), Some(o)) => {
            let (t, o) = (hide(catalog::lines(t)), hide(catalog::lines(o)));
            if t == o {
                return Verdict::Identical;
            }
            let at = t.iter().zip(&o).position(|(x, y)| x != y).unwrap_or(t.len().min(o.len()));
            match t[..at.min(t.len())].iter().rev().find_map(|l| l.strip_prefix("resource: ")) {
                Some(resource) if splits_titles_in_ruby(resource, modulepath) => {
                    let type_name = resource.split('[').next().unwrap_or(resource).to_lowercase();
                    Verdict::NeedsRuby(format!("{type_name} titles"))
                }
                _ => first_difference(&t, &o),
            }
        }
        (Some(_), None) => first_difference(&["a catalog".to_owned()], &["no catalog".to_owned()]),
        (None, Some(_)) => first_difference(&["no catalog".to_owned()], &["a catalog".to_owned()]),
    }
}

/// Whether the type of `resource` (`Keystone_user_role[a@b]`) is one a module implements in
/// Ruby with its own `title_patterns`: Ruby code that sets parameters from the title.
fn splits_titles_in_ruby(resource: &str, modulepath: &[PathBuf]) -> bool {
    let type_name = resource.split('[').next().unwrap_or(resource).to_lowercase();
    modules(modulepath).iter().any(|m| {
        std::fs::read_to_string(m.join("lib/puppet/type").join(format!("{type_name}.rb")))
            .is_ok_and(|code| code.contains("def self.title_patterns"))
    })
}

/// What our error stopped at when it stopped at Ruby code: a Ruby function's name, or
/// `template: CONSTRUCT` for Ruby in an ERB template that Poppet's engine does not run.
fn ruby_function(error: &str) -> Option<String> {
    const UNSUPPORTED: &str = "Ruby that Poppet's template engine does not run: ";
    if let Some(start) = error.find(UNSUPPORTED) {
        let rest = &error[start + UNSUPPORTED.len()..];
        let end = rest.find(" (NotImplementedError)").unwrap_or(rest.len());
        return Some(format!("template: {}", &rest[..end]));
    }
    if !error.contains("is implemented in Ruby") {
        return None;
    }
    let start = error.find("The function '")? + "The function '".len();
    let end = error[start..].find('\'')?;
    Some(error[start..start + end].to_owned())
}

/// The type of the resource Puppet's `--ral` conversion refused, when it is not a core type
/// (`Parameter path failed on Archive[x]: …`, `Validation of Concat_fragment[x] failed: …`):
/// its checks are the module's Ruby.
fn ruby_type_refused(error: &str) -> Option<String> {
    let text = error.strip_prefix("error: ")?;
    let reference = match text.strip_prefix("Validation of ") {
        Some(rest) => rest,
        None => text.strip_prefix("Parameter ")?.split_once(" failed on ")?.1,
    };
    let type_name = reference.split('[').next()?.to_lowercase();
    puppet_eval::resource_types::get(&type_name).is_none().then_some(type_name)
}

/// Puppet 7.23 with the module path `modulepath` for the real node: the oracle of
/// [`modules_oracle`] with `--catalog-json`, strict variables off and the Debian 12 facts.
fn real_node_oracle(modulepath: &str) -> Oracle {
    let facts = catalog::workspace_path("eval/src/facts/debian12.json");
    modules_oracle(modulepath)
        .arg("--catalog-json")
        .arg("--no-strict-variables")
        .arg(format!("--facts={}", facts.display()))
}

/// Puppet 7.23 with the module path `modulepath` (`DIR[:DIR]`): `xtask/ruby/modules_oracle.rb`
/// around the oracle of `$POPPET_ORACLE` or the project's, with `--catalog`.
pub fn modules_oracle(modulepath: &str) -> Oracle {
    Oracle::at(Path::new(env!("CARGO_MANIFEST_DIR")).join("ruby/modules_oracle.rb"))
        .arg("--catalog")
        .env("POPPET_MODULEPATH", modulepath)
        .env("POPPET_BASE_ORACLE", oracle::oracle_path().display().to_string())
}

/// The programs: one per class and per defined type the modules define, one per manifest as
/// the loaders find them (`MODULE` in `init.pp`, `MODULE::a::b` in `a/b.pp`, when the file
/// defines that name at its top level).
fn programs(modulepath: &[PathBuf], samples: &[(String, String)]) -> Vec<Program> {
    let mut out = Vec::new();
    for module in modules(modulepath) {
        let Some(name) = module.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
        let manifests = module.join("manifests");
        let mut files = Vec::new();
        walk(&manifests, &mut files);
        files.sort();
        for file in files {
            let Ok(rel) = file.strip_prefix(&manifests) else { continue };
            let stem = rel.with_extension("");
            let parts: Vec<String> = stem.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let expected = if parts == ["init"] { name.clone() } else { format!("{name}::{}", parts.join("::")) };
            let Ok(text) = std::fs::read_to_string(&file) else { continue };
            if let Some(program) = program(&text, &expected, samples) {
                out.push(program);
            }
        }
    }
    out
}

/// The modules of the module path as Puppet finds them: each directory's, sorted by name, a
/// name found in an earlier directory shadowing the same name in a later one.
fn modules(modulepath: &[PathBuf]) -> Vec<PathBuf> {
    let mut found: BTreeMap<std::ffi::OsString, PathBuf> = BTreeMap::new();
    for dir in modulepath {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for module in entries.flatten() {
            found.entry(module.file_name()).or_insert_with(|| module.path());
        }
    }
    found.into_values().collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "pp") {
            out.push(p);
        }
    }
}

/// The program for the class or defined type `name` that the manifest `text` defines at its
/// top level, if it does.
fn program(text: &str, name: &str, samples: &[(String, String)]) -> Option<Program> {
    let program = puppet_syntax::analyze(text).result.ok()?;
    let body = program.body?;
    let statements = match &body.kind {
        ExprKind::Block(s) => s.clone(),
        _ => vec![body],
    };
    let same = |n: &str| n.trim_start_matches("::").eq_ignore_ascii_case(name);
    statements.iter().find_map(|s| match &s.kind {
        ExprKind::Class { name: n, .. } if same(n) => {
            Some(Program { kind: Kind::Class, name: name.to_owned(), code: format!("include {name}\n") })
        }
        ExprKind::Define { name: n, parameters, .. } if same(n) => {
            let attributes: Vec<String> = parameters
                .iter()
                .filter(|p| p.value.is_none() && !p.captures_rest)
                .map(|p| format!("  {} => {},\n", p.name, sample(p, text, samples)))
                .collect();
            Some(Program {
                kind: Kind::Define,
                name: name.to_owned(),
                code: format!("{name} {{ 'sample':\n{}}}\n", attributes.concat()),
            })
        }
        _ => None,
    })
}

/// The table of sample values: `(PATTERN, VALUE)`, in order.
fn samples() -> Vec<(String, String)> {
    SAMPLES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(" => "))
        .map(|(p, v)| (p.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

/// A sample value for a required parameter: the table's first line matching the parameter's
/// name (`$name`) or its type's text (a pattern ending in `*` matches a prefix); an
/// `Optional[T]`, `Variant[T, ...]` or `Enum['a', ...]` by its first member.
fn sample(parameter: &Parameter, source: &str, samples: &[(String, String)]) -> String {
    let type_text = parameter
        .type_expr
        .as_ref()
        .and_then(|t| source.get(t.span.start..t.span.end))
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "Any".to_owned());
    let variable = format!("${}", parameter.name);
    if let Some((_, value)) = samples.iter().find(|(p, _)| *p == variable) {
        return value.clone();
    }
    sample_of_type(&type_text, samples)
}

fn sample_of_type(type_text: &str, samples: &[(String, String)]) -> String {
    let inner = |prefix: &str| {
        type_text.strip_prefix(prefix).and_then(|t| t.strip_suffix(']')).map(first_member).map(str::trim)
    };
    if let Some(first) = inner("Enum[") {
        return first.to_owned();
    }
    if let Some(first) = inner("Optional[").or_else(|| inner("Variant[")).or_else(|| inner("NotUndef[")) {
        return sample_of_type(first, samples);
    }
    let matches = |pattern: &str| match pattern.strip_suffix('*') {
        Some(prefix) => type_text.starts_with(prefix),
        None => type_text == pattern,
    };
    samples
        .iter()
        .find(|(p, _)| !p.starts_with('$') && matches(p))
        .map_or_else(|| "'sample'".to_owned(), |(_, v)| v.clone())
}

/// The first comma-separated member of a type's parameter list (brackets balanced).
fn first_member(list: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in list.char_indices() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => return &list[..i],
            _ => {}
        }
    }
    list
}

/// `cargo xtask check templates`: every ERB template of the modules rendered by itself
/// (`notice(template('/path'))` at the top scope of the real node, strict variables off),
/// here and in Puppet 7.23: the same output, the same failure, stopped at Ruby we do not
/// run, or different (exit status 1 unless `--allow-differ`).
///
/// ```sh
/// cargo xtask check templates [MODULEPATH] [--show N] [--answers FILE] [--allow-differ]
/// ```
pub fn templates_main(args: Vec<String>) -> ExitCode {
    let mut args = args.into_iter();
    let mut path_text = "/usr/share/puppet/modules".to_owned();
    let (mut show, mut answers, mut allow_differ, mut verdicts) = (10usize, None, false, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--show" => show = args.next().and_then(|n| n.parse().ok()).unwrap_or(show),
            "--answers" => answers = args.next().map(PathBuf::from),
            "--verdicts" => verdicts = args.next().map(PathBuf::from),
            "--allow-differ" => allow_differ = true,
            _ => path_text = a,
        }
    }
    let modulepath: Vec<PathBuf> = std::env::split_paths(&path_text).collect();
    let mut files = Vec::new();
    for dir in &modulepath {
        collect_templates(dir, &mut files, 0);
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        eprintln!("no templates under {path_text} (run scripts/install-corpus.sh)");
        return ExitCode::from(2);
    }
    let codes: Vec<String> = files.iter().map(|f| format!("notice(template('{}'))", f.display())).collect();
    let puppet = match puppet_answers(&path_text, &codes, answers.as_deref(), false) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let (mut identical, mut same_failure, mut differ, mut shown) = (0, 0, 0, 0);
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut panics = 0;
    let mut lines = Vec::new();
    for ((code, theirs), file) in codes.iter().zip(&puppet).zip(&files) {
        let ours = std::panic::catch_unwind(|| {
            let mut session = Session::default();
            session.evaluator.set_modulepath(&path_text);
            our_expectation(&session.run(code))
        });
        let Ok(ours) = ours else {
            panics += 1;
            eprintln!("PANIC: {code}");
            continue;
        };
        let hide = |lines: Vec<String>| modulepath.iter().fold(lines, |lines, dir| oracle::hide_modulepath(lines, dir));
        let messages = |lines: Vec<String>| -> Vec<String> {
            lines.into_iter().filter(|l| !l.starts_with("resource: ") && !l.starts_with("edge: ")).collect()
        };
        let theirs = hide(messages(oracle::expectation(theirs)));
        let ours = hide(messages(ours));
        let verdict = if let Some(construct) = ours.iter().find_map(|l| ruby_function(l)) {
            *unsupported.entry(construct).or_default() += 1;
            "not supported"
        } else if theirs == ours {
            if theirs.iter().any(|l| l.starts_with("error: ")) {
                same_failure += 1;
                "same failure"
            } else {
                identical += 1;
                "identical"
            }
        } else {
            "differs"
        };
        lines.push(format!("{verdict}\t{}", file.display()));
        if verdict == "differs" {
            differ += 1;
            if shown < show {
                shown += 1;
                let at = theirs.iter().zip(&ours).position(|(a, b)| a != b).unwrap_or(theirs.len().min(ours.len()));
                let line = |v: &[String]| v.get(at).cloned().unwrap_or_else(|| "(nothing more)".to_owned());
                eprintln!("DIFFERS: {code}\n  puppet: {}\n  ours:   {}", line(&theirs), line(&ours));
            }
        }
    }
    if let Some(path) = &verdicts {
        let _ = std::fs::write(path, lines.join("\n") + "\n");
    }
    let total = files.len();
    let stopped: usize = unsupported.values().sum();
    let list: Vec<String> = unsupported.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!(
        "{total} ERB templates rendered at the top scope: {identical} identical output, {same_failure} same failure, {stopped} not supported, {differ} differ; {panics} panics"
    );
    if !list.is_empty() {
        println!("not supported: {}", list.join(", "));
    }
    if panics > 0 || (differ > 0 && !allow_differ) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
