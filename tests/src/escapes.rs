//! The escapes of the lexer's case file (`syntax/tests/lexer/cases.txt`), whose sources are
//! one line each: `\n`, `\t`, `\r`, `\\` and `\xNN` (a byte). Used by the lexer's test and by
//! its recorder (`cargo xtask record lexer`).

/// Decodes a case's source; an escape other than those is an error naming it.
pub fn decode(src: &str) -> Result<Vec<u8>, String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'\\' => out.push(b'\\'),
                b'x' => {
                    let hex = std::str::from_utf8(&b[i + 2..(i + 4).min(b.len())]).unwrap_or("");
                    let byte = u8::from_str_radix(hex, 16).map_err(|_| format!("bad escape \\x{hex} in {src:?}"))?;
                    out.push(byte);
                    i += 4;
                    continue;
                }
                other => return Err(format!("unknown escape \\{} in {src:?}", other as char)),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}
