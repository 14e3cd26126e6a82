//! Iterator to String (`string_PIteratorType`): the iterator's elements as an Array
//! (`val.to_a`), formatted with the same format map. A format given for the iterator itself
//! (`String($it, '%(a')`) is keyed by the Iterator type and so does not apply to the array.

use puppet_types::Value;

use crate::convert::{convert_typed, Indentation};
use crate::error::FormatError;
use crate::map::FormatMap;

/// `String(iterator, format)`.
pub fn string_iterator(val: &Value, map: &FormatMap, ind: Indentation) -> Result<String, FormatError> {
    let array = puppet_types::new::array::new_array(std::slice::from_ref(val))?;
    convert_typed(&puppet_types::infer::infer_set(&array), &array, map, ind)
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use puppet_types::value::{Iterator, IteratorKind};
    use puppet_types::{literal, Value};

    fn reverse_each(src: &str) -> Value {
        let source = literal::read(src).unwrap_or(Value::Undef);
        Value::Iterator(Rc::new(Iterator { source, kind: IteratorKind::Reverse }))
    }

    fn s(v: &Value, fmt: Option<&str>) -> String {
        let f = fmt.map(|f| literal::read(f).unwrap_or(Value::from(f)));
        crate::string_new(v, f.as_ref()).unwrap_or_else(|e| format!("!! {}", e.message))
    }

    #[test]
    fn iterators_print_as_arrays() {
        // Puppet: String([1,2].reverse_each) and friends
        assert_eq!(s(&reverse_each("[1, 2]"), None), "[2, 1]");
        assert_eq!(s(&reverse_each("[1, 2]"), Some("%(a")), "[2, 1]");
        assert_eq!(s(&reverse_each("[1, 2]"), Some("%k")), "[2, 1]");
        assert_eq!(s(&reverse_each("['a', 'b']"), Some("{Array => '%(a'}")), "('b', 'a')");
        assert_eq!(s(&reverse_each("{a => 1}"), None), "[['a', 1]]");
        let nested = Value::array(vec![reverse_each("[1, 'a']")]);
        assert_eq!(s(&nested, None), "[['a', 1]]");
        assert_eq!(s(&nested, Some("%#a")), "[\n  ['a', 1]]");
    }
}
