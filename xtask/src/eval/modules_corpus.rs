//! `cargo xtask check modules`: compiles every class of the corpus modules
//! (`scripts/install-corpus.sh` installs them in /usr/share/puppet/modules) here and in Puppet
//! 7.23 with the same module path (`xtask/ruby/modules_oracle.rb` around the oracle), one `include CLASS` program per class, and reports how
//! many give Puppet's notices, warnings, error, resources and edges. Classes whose
//! compilation calls a function implemented in Ruby (a module's, or an ERB template's `template`)
//! are counted apart: Poppet cannot run them.
//!
//! ```sh
//! cargo xtask check modules [/usr/share/puppet/modules] [--show N]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use poppet_tests::oracle::{self, Oracle};
use puppet_eval::Session;

use super::our_expectation;

pub fn main(args: Vec<String>) -> ExitCode {
    let mut args = args.into_iter();
    let mut modulepath = PathBuf::from("/usr/share/puppet/modules");
    let mut show = 10usize;
    while let Some(a) = args.next() {
        if a == "--show" {
            show = args.next().and_then(|n| n.parse().ok()).unwrap_or(show);
        } else {
            modulepath = PathBuf::from(a);
        }
    }
    let classes = classes(&modulepath);
    if classes.is_empty() {
        eprintln!("no classes under {} (run scripts/install-corpus.sh)", modulepath.display());
        return ExitCode::from(2);
    }
    let programs: Vec<String> = classes.iter().map(|c| format!("include {c}\n")).collect();
    let path_text = modulepath.display().to_string();
    let puppet_start = Instant::now();
    let puppet = match modules_oracle(&path_text).run(&programs) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let puppet_time = puppet_start.elapsed();
    let ours_start = Instant::now();
    let (mut agree, mut ruby, mut differ, mut panics) = (0, 0, 0, 0);
    let mut shown = 0;
    for ((class, program), outcome) in classes.iter().zip(&programs).zip(&puppet) {
        let expected = oracle::expectation(outcome);
        let ours = std::panic::catch_unwind(|| {
            let mut session = Session::oracle_node();
            session.evaluator.set_modulepath(&path_text);
            our_expectation(&session.run(program))
        });
        let Ok(ours) = ours else {
            panics += 1;
            eprintln!("PANIC: {class}");
            continue;
        };
        if ours == expected {
            agree += 1;
        } else if ours.iter().any(|l| l.contains("is implemented in Ruby")) {
            ruby += 1;
        } else {
            differ += 1;
            if shown < show {
                shown += 1;
                eprintln!("DIFFERS: {class}\n  puppet: {expected:?}\n  ours:   {ours:?}");
            }
        }
    }
    let compiled = agree + differ;
    println!(
        "{} classes of {}: {agree} compile as in Puppet, {differ} differ, {ruby} need Ruby functions, {panics} panics; ours {:.1?}, Puppet {:.1?}",
        classes.len(),
        modulepath.display(),
        ours_start.elapsed(),
        puppet_time
    );
    if compiled > 0 {
        println!("of the classes that need no Ruby functions, {:.1}% agree", 100.0 * agree as f64 / compiled as f64);
    }
    if panics > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Puppet 7.23 with the module path `modulepath` (`DIR[:DIR]`): `xtask/ruby/modules_oracle.rb`
/// around the oracle of `$POPPET_ORACLE` or the project's, with `--catalog`.
pub fn modules_oracle(modulepath: &str) -> Oracle {
    Oracle::at(Path::new(env!("CARGO_MANIFEST_DIR")).join("ruby/modules_oracle.rb"))
        .arg("--catalog")
        .env("POPPET_MODULEPATH", modulepath)
        .env("POPPET_BASE_ORACLE", oracle::oracle_path().display().to_string())
}

/// The classes the modules define, one per manifest as the loaders find them: `MODULE` in
/// `init.pp`, `MODULE::a::b` in `a/b.pp`, when the file defines that class.
fn classes(modulepath: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(modules) = std::fs::read_dir(modulepath) else { return out };
    let mut modules: Vec<PathBuf> = modules.flatten().map(|e| e.path()).collect();
    modules.sort();
    for module in modules {
        let Some(name) = module.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
        let manifests = module.join("manifests");
        let mut files = Vec::new();
        walk(&manifests, &mut files);
        files.sort();
        for file in files {
            let Ok(rel) = file.strip_prefix(&manifests) else { continue };
            let stem = rel.with_extension("");
            let parts: Vec<String> = stem.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let class = if parts == ["init"] { name.clone() } else { format!("{name}::{}", parts.join("::")) };
            let Ok(text) = std::fs::read_to_string(&file) else { continue };
            if defines_class(&text, &class) {
                out.push(class);
            }
        }
    }
    out
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

/// Whether the manifest's top level defines the class.
fn defines_class(text: &str, class: &str) -> bool {
    let Ok(program) = puppet_syntax::analyze(text).result else { return false };
    let Some(body) = program.body else { return false };
    let statements = match &body.kind {
        puppet_syntax::ast::ExprKind::Block(s) => s.clone(),
        _ => vec![body],
    };
    statements.iter().any(|s| matches!(&s.kind, puppet_syntax::ast::ExprKind::Class { name, .. } if name.trim_start_matches("::").eq_ignore_ascii_case(class)))
}
