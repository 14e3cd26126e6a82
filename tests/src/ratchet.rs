//! `disagree.todo`: the golden cases known to disagree with Puppet 7.23 (open work), one key a
//! line (`FILE: CODE` for golden tables, `FILE: CASE NAME` for case files), with comment lines
//! (`#`) saying why. A suite reports the listed cases instead of failing on them, and fails
//! when a case disagrees that is not listed, or when a listed case agrees now (or is no longer
//! a case): the list only shrinks. Used by the golden tests of puppet-types, pfmt and
//! puppet-eval.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The list of one suite, as read from its file (an absent file is an empty list).
pub struct Ratchet {
    path: PathBuf,
    known: Vec<String>,
}

/// What a run found, against the list.
#[derive(Debug, Default)]
pub struct Verdict {
    /// Cases that disagree and are not listed: failures.
    pub unexpected: Vec<String>,
    /// Listed cases that ran and agree now: remove them from the list.
    pub fixed: Vec<String>,
    /// Listed cases that are no case of the suite any more (only known when every case ran):
    /// remove them from the list.
    pub stale: Vec<String>,
}

impl Verdict {
    /// Whether the run keeps to the list.
    pub fn ok(&self) -> bool {
        self.unexpected.is_empty() && self.fixed.is_empty() && self.stale.is_empty()
    }
}

impl Ratchet {
    /// Reads the list at `path`: every line that is neither blank nor a `#` comment.
    pub fn read(path: impl AsRef<Path>) -> Ratchet {
        let path = path.as_ref().to_path_buf();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let known = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(str::to_owned).collect();
        Ratchet { path, known }
    }

    /// How many cases the list holds.
    pub fn len(&self) -> usize {
        self.known.len()
    }

    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// Whether the case of `key` is listed.
    pub fn contains(&self, key: &str) -> bool {
        self.known.iter().any(|k| k == key)
    }

    /// Judges a run: `ran` holds the key of every case that ran and whether it agreed with
    /// Puppet. `complete` says whether every case of the suite ran (no filter), so that listed
    /// keys that did not run are stale.
    pub fn judge<'a>(&self, ran: impl IntoIterator<Item = (&'a str, bool)>, complete: bool) -> Verdict {
        let mut verdict = Verdict::default();
        let mut seen = HashSet::new();
        for (key, agrees) in ran {
            seen.insert(key);
            match (self.contains(key), agrees) {
                (false, false) => verdict.unexpected.push(key.to_owned()),
                (true, true) => verdict.fixed.push(key.to_owned()),
                _ => {}
            }
        }
        if complete {
            verdict.stale = self.known.iter().filter(|k| !seen.contains(k.as_str())).cloned().collect();
        }
        verdict
    }

    /// Rewrites the list with `header` (comment lines) and the keys of the cases that disagree.
    pub fn write(&self, header: &str, disagreeing: &[String]) -> std::io::Result<()> {
        let mut text = header.to_owned();
        for key in disagreeing {
            text.push_str(key);
            text.push('\n');
        }
        std::fs::write(&self.path, text)
    }
}
