//! `cargo xtask check eval-corpus`: evaluates every manifest of the real-code corpus
//! (`scripts/install-corpus.sh` lists them) in a fresh session, and the same manifests with Puppet 7.23 (through the oracle):
//! none may panic or run away here, and every manifest we evaluate must give Puppet's
//! notices, warnings and error. Manifests that need what is not supported yet (resources,
//! `include`: the catalog) are counted apart.
//!
//! ```sh
//! cargo xtask check eval-corpus /tmp/puppet-corpus/pp-files.txt
//! ```

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use poppet_tests::oracle;
use puppet_eval::Session;

use super::our_expectation;

pub fn main(args: Vec<String>) -> ExitCode {
    let Some(list) = args.into_iter().next() else {
        eprintln!("usage: corpus PP-FILES.txt");
        return ExitCode::from(2);
    };
    let files = match std::fs::read_to_string(&list) {
        Ok(text) => text.lines().map(str::to_string).filter(|l| !l.is_empty()).collect::<Vec<_>>(),
        Err(e) => {
            eprintln!("{list}: {e}");
            return ExitCode::from(2);
        }
    };
    // A watchdog interrupts any manifest that runs longer than 5 seconds.
    let flag = Arc::new(AtomicBool::new(false));
    let started = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    {
        let (flag, started) = (flag.clone(), started.clone());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(100));
            let at = started.load(Ordering::SeqCst);
            if at != 0 && epoch.elapsed().as_millis() as u64 > at + 5000 {
                flag.store(true, Ordering::SeqCst);
            }
        });
    }
    let sources: Vec<String> = files
        .iter()
        .map(|f| std::fs::read(f).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default())
        .collect();
    let puppet_start = Instant::now();
    let puppet = match oracle::run_oracle(&oracle::oracle_path(), &sources) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let puppet_time = puppet_start.elapsed();
    let (mut finished, mut panics, mut interrupted, mut agree, mut differ) = (0, 0, 0, 0, 0);
    let mut reasons: HashMap<String, usize> = HashMap::new();
    let start = Instant::now();
    for ((file, source), theirs) in files.iter().zip(&sources).zip(&puppet) {
        started.store(epoch.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut session = Session::oracle_node();
            session.evaluator.interrupt = flag.clone();
            session.run(source)
        }));
        started.store(0, Ordering::SeqCst);
        match result {
            Err(_) => {
                panics += 1;
                eprintln!("PANIC: {file}");
            }
            Ok(outcome) => {
                match &outcome.error {
                    None => finished += 1,
                    Some(e) if e.message == "Evaluation interrupted" => {
                        interrupted += 1;
                        eprintln!("RUNAWAY: {file}");
                        continue;
                    }
                    Some(e) if e.message.contains("not supported yet") => {
                        let reason: String = e.message.chars().take(90).collect();
                        *reasons.entry(reason).or_default() += 1;
                        continue;
                    }
                    Some(_) => {}
                }
                let (ours, puppets) = (our_expectation(&outcome), oracle::expectation(theirs));
                if ours == puppets {
                    agree += 1;
                } else {
                    differ += 1;
                    eprintln!("DIFFERS: {file}\n  puppet: {puppets:?}\n  ours:   {ours:?}");
                }
            }
        }
    }
    let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!(
        "{} manifests: {finished} ran to the end, {panics} panics, {interrupted} runaway; ours {:.1?}, Puppet {:.1?}",
        files.len(),
        start.elapsed(),
        puppet_time
    );
    println!("{agree} as Puppet, {differ} differ; not supported yet:");
    for (reason, n) in reasons.iter().take(12) {
        println!("{n:6}  {reason}");
    }
    if panics > 0 || interrupted > 0 || differ > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
