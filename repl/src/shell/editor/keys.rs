//! Bytes from the terminal turned into keys: UTF-8 characters, control keys, the escape
//! sequences of xterm-like terminals (arrows, Home/End, Delete, with or without modifiers),
//! Alt as an escape prefix, and a bracketed paste as one key holding the pasted text.
//!
//! [`decode`] is pure: it takes the bytes read so far and says which key they start with
//! and how many bytes it took, or that more bytes are needed. What it does not know becomes
//! [`Key::Unknown`], never an error.
//!
//! ```
//! use poppet::shell::editor::keys::{decode, Decoded, Key};
//!
//! assert_eq!(decode(b"a", false), Decoded::Key(Key::Char('a'), 1));
//! assert_eq!(decode(b"\x1b[A", false), Decoded::Key(Key::Up, 3));
//! assert_eq!(decode(b"\x1b", false), Decoded::More);
//! assert_eq!(decode(b"\x1b", true), Decoded::Key(Key::Escape, 1));
//! ```

/// A key, as the editor acts on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Char(char),
    /// Ctrl with a letter (`Ctrl('a')`), lower case.
    Ctrl(char),
    /// Alt (or Escape first) with a character.
    Alt(char),
    Enter,
    /// Alt-Enter (Escape, then Enter).
    AltEnter,
    Tab,
    Backspace,
    /// Alt-Backspace.
    AltBackspace,
    Delete,
    Up,
    Down,
    Left,
    Right,
    /// Ctrl or Alt with Left: a word back.
    WordLeft,
    /// Ctrl or Alt with Right: a word forward.
    WordRight,
    Home,
    End,
    Escape,
    /// A bracketed paste: the text between `ESC[200~` and `ESC[201~`, line ends as `\n`.
    Paste(String),
    /// A sequence the editor does not act on.
    Unknown,
}

/// What the bytes at the start of a buffer are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A key, and how many bytes it took.
    Key(Key, usize),
    /// The bytes start a key that is not complete yet: read more (or, with `last` and
    /// nothing more to come, they are taken as they are).
    More,
}

const PASTE_END: &[u8] = b"\x1b[201~";

/// The key `bytes` start with. `last` says that no more bytes are coming soon: an escape
/// alone is then the Escape key rather than the start of a sequence. Never decodes from an
/// empty buffer (`More`).
pub fn decode(bytes: &[u8], last: bool) -> Decoded {
    let Some(&first) = bytes.first() else { return Decoded::More };
    match first {
        0x1b => escape(bytes, last),
        b'\r' | b'\n' => Decoded::Key(Key::Enter, 1),
        b'\t' => Decoded::Key(Key::Tab, 1),
        0x7f | 0x08 => Decoded::Key(Key::Backspace, 1),
        0x00 => Decoded::Key(Key::Unknown, 1),
        0x01..=0x1a => Decoded::Key(Key::Ctrl(char::from(b'a' + first - 1)), 1),
        0x1c..=0x1f => Decoded::Key(Key::Unknown, 1),
        _ => character(bytes, last).map_or(Decoded::More, |(c, n)| Decoded::Key(Key::Char(c), n)),
    }
}

/// The UTF-8 character at the start of `bytes`; an invalid byte is U+FFFD (one byte taken),
/// an incomplete one `None` until `last`.
fn character(bytes: &[u8], last: bool) -> Option<(char, usize)> {
    let len = match bytes[0] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return Some((char::REPLACEMENT_CHARACTER, 1)),
    };
    if bytes.len() < len {
        let continuing = bytes[1..].iter().all(|b| b & 0xc0 == 0x80);
        return if last || !continuing { Some((char::REPLACEMENT_CHARACTER, 1)) } else { None };
    }
    match std::str::from_utf8(&bytes[..len]).ok().and_then(|s| s.chars().next()) {
        Some(c) => Some((c, len)),
        None => Some((char::REPLACEMENT_CHARACTER, 1)),
    }
}

/// A key starting with ESC.
fn escape(bytes: &[u8], last: bool) -> Decoded {
    let Some(&second) = bytes.get(1) else {
        return if last { Decoded::Key(Key::Escape, 1) } else { Decoded::More };
    };
    match second {
        b'[' => csi(bytes, last),
        b'O' => match bytes.get(2) {
            None if !last => Decoded::More,
            None => Decoded::Key(Key::Alt('O'), 2),
            Some(b'A') => Decoded::Key(Key::Up, 3),
            Some(b'B') => Decoded::Key(Key::Down, 3),
            Some(b'C') => Decoded::Key(Key::Right, 3),
            Some(b'D') => Decoded::Key(Key::Left, 3),
            Some(b'H') => Decoded::Key(Key::Home, 3),
            Some(b'F') => Decoded::Key(Key::End, 3),
            Some(_) => Decoded::Key(Key::Unknown, 3),
        },
        b'\r' | b'\n' => Decoded::Key(Key::AltEnter, 2),
        0x7f | 0x08 => Decoded::Key(Key::AltBackspace, 2),
        0x1b => Decoded::Key(Key::Escape, 1),
        _ => match character(&bytes[1..], last) {
            None => Decoded::More,
            Some((c, n)) if !c.is_control() => Decoded::Key(Key::Alt(c.to_ascii_lowercase()), n + 1),
            Some((_, n)) => Decoded::Key(Key::Unknown, n + 1),
        },
    }
}

/// A control sequence: `ESC [`, parameters, a final byte.
fn csi(bytes: &[u8], last: bool) -> Decoded {
    let Some(end) = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b)).map(|i| i + 2) else {
        // Parameters only so far.
        return if last || bytes.len() > 32 { Decoded::Key(Key::Unknown, bytes.len()) } else { Decoded::More };
    };
    let params = &bytes[2..end];
    let n = end + 1;
    let modified = params.contains(&b';');
    // `1;5C` (Ctrl-Right), `1;3D` (Alt-Left): a modifier above 1.
    let modifier = params.split(|&b| b == b';').nth(1).and_then(|m| std::str::from_utf8(m).ok()?.parse::<u8>().ok());
    let key = match (bytes[end], params) {
        (b'A', _) => Key::Up,
        (b'B', _) => Key::Down,
        (b'C', _) if modified && modifier.is_some_and(|m| m > 1) => Key::WordRight,
        (b'D', _) if modified && modifier.is_some_and(|m| m > 1) => Key::WordLeft,
        (b'C', _) => Key::Right,
        (b'D', _) => Key::Left,
        (b'H', _) => Key::Home,
        (b'F', _) => Key::End,
        (b'~', b"1" | b"7") => Key::Home,
        (b'~', b"4" | b"8") => Key::End,
        (b'~', b"3") => Key::Delete,
        (b'~', b"200") => return paste(bytes, n),
        _ => Key::Unknown,
    };
    Decoded::Key(key, n)
}

/// A bracketed paste whose start marker takes `start` bytes: complete once its end marker
/// has come.
fn paste(bytes: &[u8], start: usize) -> Decoded {
    let body = &bytes[start..];
    let Some(end) = body.windows(PASTE_END.len()).position(|w| w == PASTE_END) else { return Decoded::More };
    let text = String::from_utf8_lossy(&body[..end]).replace("\r\n", "\n").replace('\r', "\n");
    Decoded::Key(Key::Paste(text), start + end + PASTE_END.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(mut bytes: &[u8]) -> Vec<Key> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            match decode(bytes, true) {
                Decoded::Key(key, n) => {
                    out.push(key);
                    bytes = &bytes[n..];
                }
                Decoded::More => break,
            }
        }
        out
    }

    #[test]
    fn characters_and_control_keys() {
        assert_eq!(
            keys(b"a\x01\x05\r\n\t\x7f\x08"),
            [
                Key::Char('a'),
                Key::Ctrl('a'),
                Key::Ctrl('e'),
                Key::Enter,
                Key::Enter,
                Key::Tab,
                Key::Backspace,
                Key::Backspace
            ]
        );
        assert_eq!(keys("é漢🙂".as_bytes()), [Key::Char('é'), Key::Char('漢'), Key::Char('🙂')]);
    }

    #[test]
    fn incomplete_input_waits_for_more() {
        assert_eq!(decode(&"漢".as_bytes()[..2], false), Decoded::More);
        assert_eq!(decode(b"\x1b[", false), Decoded::More);
        assert_eq!(decode(b"\x1b[1;5", false), Decoded::More);
        assert_eq!(decode(b"\x1b[200~abc", false), Decoded::More);
        assert_eq!(decode(b"", true), Decoded::More);
    }

    #[test]
    fn escape_sequences() {
        assert_eq!(
            keys(b"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1b[F\x1b[3~\x1b[1~\x1b[4~"),
            [Key::Up, Key::Down, Key::Right, Key::Left, Key::Home, Key::End, Key::Delete, Key::Home, Key::End]
        );
        assert_eq!(keys(b"\x1b[1;5C\x1b[1;3D"), [Key::WordRight, Key::WordLeft]);
        assert_eq!(keys(b"\x1bb\x1bF\x1b\r\x1b\x7f"), [Key::Alt('b'), Key::Alt('f'), Key::AltEnter, Key::AltBackspace]);
        assert_eq!(keys(b"\x1b[99Z\x1b"), [Key::Unknown, Key::Escape]);
    }

    #[test]
    fn bracketed_paste_is_one_key() {
        assert_eq!(keys(b"\x1b[200~a\r\nb\rc\x1b[201~d"), [Key::Paste("a\nb\nc".into()), Key::Char('d')]);
    }

    #[test]
    fn invalid_bytes_never_fail() {
        assert_eq!(keys(b"\xff\xc3"), [Key::Char('\u{fffd}'), Key::Char('\u{fffd}')]);
        for bytes in [&b"\x1b[\xff"[..], b"\x1b\xc3", b"\x1bO", b"\x1b[1;"] {
            let _ = keys(bytes);
        }
    }
}
