//! The reference text `:doc` and `:krt` show: what each built-in function and core resource
//! type does, written for Poppet in `reference.txt` (one entry per name; see its header).

use std::sync::OnceLock;

const TEXT: &str = include_str!("reference.txt");

/// One entry of the reference.
pub struct Entry {
    /// `function`, `type` or `metaparameters`.
    pub kind: &'static str,
    pub name: &'static str,
    /// The text, trimmed.
    pub paragraphs: &'static str,
}

impl Entry {
    /// The text's first paragraph.
    pub fn summary(&self) -> &'static str {
        self.paragraphs.split("\n\n").next().unwrap_or_default()
    }
}

/// Every entry, in the file's order.
pub fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let mut entries = Vec::new();
        let mut rest = TEXT;
        while let Some(at) = rest.find("\n== ") {
            let after = &rest[at + 4..];
            let (head, body) = after.split_once('\n').unwrap_or((after, ""));
            let end = body.find("\n== ").unwrap_or(body.len());
            let (kind, name) = head.split_once(' ').unwrap_or((head, ""));
            entries.push(Entry { kind, name: name.trim(), paragraphs: body[..end].trim() });
            rest = &body[end..];
        }
        entries
    })
}

fn find(kind: &str, name: &str) -> Option<&'static Entry> {
    entries().iter().find(|e| e.kind == kind && e.name.eq_ignore_ascii_case(name))
}

/// A built-in function's text.
pub fn function_text(name: &str) -> Option<&'static Entry> {
    find("function", name)
}

/// A core resource type's text (`file`).
pub fn type_text(name: &str) -> Option<&'static Entry> {
    find("type", name)
}

/// The metaparameters' text.
pub fn metaparameters() -> Option<&'static Entry> {
    entries().iter().find(|e| e.kind == "metaparameters")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_function_and_core_type_has_its_text() {
        let registry = puppet_eval::functions::Registry::default();
        let missing: Vec<&str> = registry.names().filter(|n| function_text(n).is_none()).collect();
        assert!(missing.is_empty(), "functions without reference text: {missing:?}");
        for t in puppet_eval::resource_types::all() {
            let entry = type_text(&t.name).unwrap_or_else(|| panic!("no reference text for type {}", t.name));
            for a in &t.attributes {
                let described = entry.paragraphs.lines().any(|l| l.split_whitespace().next() == Some(a.name.as_str()));
                assert!(described, "{}: attribute {} is not described", t.name, a.name);
            }
        }
        let meta = metaparameters().expect("the metaparameters' entry");
        for name in puppet_eval::resource_types::metaparameters() {
            assert!(meta.paragraphs.lines().any(|l| l.split_whitespace().next() == Some(name.as_str())), "{name}");
        }
        for e in entries() {
            assert!(!e.paragraphs.is_empty(), "{} {} has no text", e.kind, e.name);
            assert!(e.paragraphs.lines().all(|l| l.chars().count() <= 96), "{} {}: a line over 96", e.kind, e.name);
        }
    }
}
