//! The inputs typed before, kept in a file in the format rustyline's `FileHistory` wrote,
//! so that the files of earlier versions load: a first line `#V2`, then one entry a line
//! with `\n` and `\` escaped as `\n` and `\\`. A file without the header is read a line an
//! entry (rustyline's first format) and written anew in the second.
//!
//! Entries that start with white space are not kept, nor one equal to the entry before it;
//! at most [`MAX_ENTRIES`] are kept.

use std::io::Write as _;
use std::path::Path;

/// How many entries are kept.
pub const MAX_ENTRIES: usize = 10_000;

const HEADER: &str = "#V2";

#[derive(Debug, Default)]
pub struct History {
    entries: Vec<String>,
    /// How many entries at the end are not in the file yet.
    unsaved: usize,
    /// Whether the file is in the current format and can be appended to.
    appendable: bool,
}

/// An entry as a line of the file.
fn escape(entry: &str) -> String {
    entry.replace('\\', "\\\\").replace('\n', "\\n")
}

/// A line of the file as an entry; `None` for a line with a bad escape (kept as it is).
fn unescape(line: &str) -> Option<String> {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            _ => return None,
        }
    }
    Some(out)
}

impl History {
    pub fn new() -> History {
        History::default()
    }

    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<&str> {
        self.entries.get(index).map(String::as_str)
    }

    /// Adds an entry; returns whether it was kept.
    pub fn add(&mut self, entry: &str) -> bool {
        if entry.is_empty()
            || entry.starts_with(char::is_whitespace)
            || self.entries.last().is_some_and(|last| last == entry)
        {
            return false;
        }
        self.entries.push(entry.to_owned());
        self.unsaved += 1;
        if self.entries.len() > MAX_ENTRIES {
            let over = self.entries.len() - MAX_ENTRIES;
            self.entries.drain(..over);
            self.appendable = false;
        }
        true
    }

    /// Reads the entries of `text` (a history file's content) before the ones added since.
    pub fn load_text(&mut self, text: &str) {
        let mut lines = text.lines();
        let v2 = text.lines().next() == Some(HEADER);
        if v2 {
            lines.next();
        }
        let unsaved = self.unsaved;
        let added: Vec<String> = std::mem::take(&mut self.entries);
        for line in lines {
            if line.is_empty() {
                continue;
            }
            let entry = if v2 { unescape(line).unwrap_or_else(|| line.to_owned()) } else { line.to_owned() };
            self.add(&entry);
        }
        for entry in &added {
            self.add(entry);
        }
        self.unsaved = unsaved;
        self.appendable = v2;
    }

    /// Loads the file at `path`.
    pub fn load(&mut self, path: &Path) -> std::io::Result<()> {
        let bytes = std::fs::read(path)?;
        self.load_text(&String::from_utf8_lossy(&bytes));
        Ok(())
    }

    /// The file's content for all entries.
    pub fn to_text(&self) -> String {
        let mut text = String::from(HEADER);
        text.push('\n');
        for entry in &self.entries {
            text.push_str(&escape(entry));
            text.push('\n');
        }
        text
    }

    /// Writes the entries added since the last load or append to the end of the file at
    /// `path` (the whole history when the file is missing or in the old format).
    pub fn append(&mut self, path: &Path) -> std::io::Result<()> {
        if self.unsaved == 0 {
            return Ok(());
        }
        if !self.appendable || !path.exists() {
            write_private(path, self.to_text().as_bytes(), false)?;
        } else {
            let mut text = String::new();
            for entry in &self.entries[self.entries.len().saturating_sub(self.unsaved)..] {
                text.push_str(&escape(entry));
                text.push('\n');
            }
            write_private(path, text.as_bytes(), true)?;
        }
        self.unsaved = 0;
        self.appendable = true;
        Ok(())
    }
}

/// Writes (or appends) to a file only its owner may read: history holds what was typed.
fn write_private(path: &Path, bytes: &[u8], append: bool) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.create(true).mode(0o600);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    options.open(path)?.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_format_round_trips() {
        let mut h = History::new();
        assert!(h.add("if true {\n  'a\\b'\n}"));
        assert!(h.add("1"));
        assert!(!h.add("1"));
        assert!(!h.add(" secret"));
        let text = h.to_text();
        assert_eq!(text, "#V2\nif true {\\n  'a\\\\b'\\n}\n1\n");
        let mut loaded = History::new();
        loaded.load_text(&text);
        assert_eq!(loaded.entries(), h.entries());
    }

    #[test]
    fn old_files_are_read_a_line_an_entry() {
        let mut h = History::new();
        h.load_text("one\ntwo\\n\n");
        assert_eq!(h.entries(), ["one", "two\\n"]);
    }

    #[test]
    fn append_writes_new_entries() {
        let dir = std::env::temp_dir().join(format!("poppet-history-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("history");
        let _ = std::fs::remove_file(&path);
        let mut h = History::new();
        h.add("a");
        h.append(&path).unwrap();
        h.add("b\nc");
        h.append(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "#V2\na\nb\\nc\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
