//! Array and Tuple to String (`string_PArrayType`, `string_PTupleType`).
//!
//! | Format    | Array/Tuple Formats
//! | ------    | -------------
//! | a         | formats with `[ ]` delimiters and `,`, alternate form `#` indents nested arrays/hashes
//! | s         | same as a
//! | p         | same as a
//!
//! See "Flags" `<[({\|` for formatting of delimiters, and the container options `separator`
//! and `string_formats` (the map for the elements; default `{Any => '%p'}`: strings quoted).
//! Nested arrays and hashes are formatted with the whole format map.
//!
//! The alternate form flag `#` will cause indentation of nested array or hash containers. If
//! width is also set it is taken as the maximum allowed length of a sequence of elements (not
//! including delimiters). If this max length is exceeded, each element will be indented.

use puppet_types::{Type, Value};

use crate::convert::{convert_typed, is_a_or_h, is_container, Indentation};
use crate::error::FormatError;
use crate::map::{default_container_formats, value_type, FormatMap, DEFAULT_ARRAY_SEPARATOR};

/// The inferred type of the `i`th element, taken from the array's Tuple type when it has one
/// (else as [`value_type`] finds it for `maps`).
pub(crate) fn element_type(val_type: &Type, items: &[Value], i: usize, maps: &[&FormatMap]) -> Type {
    match val_type {
        Type::Tuple { types, .. } if types.len() == items.len() => types[i].clone(),
        _ => value_type(maps, &items[i]),
    }
}

/// `String(array, format)`.
pub fn string_array(
    val_type: &Type,
    items: &[Value],
    map: &FormatMap,
    ind: Indentation,
) -> Result<String, FormatError> {
    let format = map.get_format(val_type)?;
    let sep: &str = format.separator.as_deref().unwrap_or(DEFAULT_ARRAY_SEPARATOR);
    let string_formats = format.container_string_formats.clone().unwrap_or_else(default_container_formats);
    let (open, close) = format.delimiter_pair(("[", "]"));
    let ind = ind.indenting(format.alt || ind.is_indenting);
    if !format.is("asp") {
        return Err(FormatError::illegal("Array", format.letter, "asp"));
    }
    let mut buf = String::new();
    if ind.breaks() {
        buf.push('\n');
        buf.push_str(&ind.padding());
    }
    buf.push_str(open);

    // first pass: each element formatted
    let mut children = ind.increase(format.alt);
    let mut mapped: Vec<String> = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        children = children.subsequent();
        let t = element_type(val_type, items, i, &[map, &string_formats]);
        let m = if is_container(&t) { map } else { &string_formats };
        mapped.push(convert_typed(&t, v, m, children)?);
    }

    // the widest run of elements between nested arrays and hashes
    let sz_break = match format.width {
        Some(width) if format.alt => {
            let mut runs = vec![0usize];
            for (v, s) in items.iter().zip(&mapped) {
                if is_a_or_h(v) {
                    runs.push(0);
                } else if let Some(last) = runs.last_mut() {
                    *last += s.chars().count();
                }
            }
            runs.into_iter().max().unwrap_or(0) as u64 > width
        }
        _ => false,
    };

    // output each element with breaks and padding
    let mut children = ind.increase(format.alt);
    for (i, (v, str_val)) in items.iter().zip(&mapped).enumerate() {
        if children.first {
            children = children.subsequent();
            if sz_break && !is_a_or_h(v) {
                buf.push(' ');
            }
        } else {
            buf.push_str(sep);
            let after_container = format.alt && i > 0 && items.get(i - 1).is_some_and(is_a_or_h) && !is_a_or_h(v);
            if (sz_break && !is_a_or_h(v)) || after_container {
                if !buf.ends_with('\n') {
                    rstrip(&mut buf);
                }
                buf.push('\n');
                buf.push_str(&children.padding());
            }
        }
        if buf.ends_with(' ') && str_val.starts_with('\n') {
            rstrip(&mut buf);
        }
        buf.push_str(str_val);
    }
    buf.push_str(close);
    Ok(buf)
}

/// Ruby's `String#rstrip!`: trailing whitespace and NUL removed.
pub(crate) fn rstrip(s: &mut String) {
    let n = s.trim_end_matches(['\0', '\t', '\n', '\x0b', '\x0c', '\r', ' ']).len();
    s.truncate(n);
}

#[cfg(test)]
mod tests {
    fn s(v: &str, fmt: &str) -> String {
        crate::format_literal(v, fmt)
    }

    #[test]
    fn indentation() {
        assert_eq!(s("[[1,2],[3,[4]]]", "'%#a'"), "[\n  [1, 2],\n  [3,\n    [4]]]");
        assert_eq!(s("[1, 2, 3, 44444, 5]", "'%#3a'"), "[ 1,\n  2,\n  3,\n  44444,\n  5]");
        assert_eq!(s("[1, [2], 3]", "'%#a'"), "[1,\n  [2],\n  3]");
    }

    #[test]
    fn delimiters_and_separators() {
        assert_eq!(s("[1, 'a']", "'%(a'"), "(1, 'a')");
        assert_eq!(s("[1, 'a']", "'% a'"), "1, 'a'");
        assert_eq!(s("[1, 2]", "{Array => {format => '%<a', separator => ';'}}"), "<1;2>");
        assert_eq!(s("[1, 'a']", "{Tuple => {format => '%a', string_formats => {Integer => '%#x'}}}"), "[0x1, a]");
        assert_eq!(s("[1, 'a']", "{Array => {format => '%a', string_formats => {Integer => '%#x'}}}"), "[0x1, 'a']");
    }
}
