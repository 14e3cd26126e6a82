//! `String.new` as Puppet defines it (`PStringType.new_function`, the function named
//! `new_string`), with its argument checks (against the signature in
//! `puppet_types::new::string`), and the String conversion for
//! `puppet_types::new::new_value_with` (`Optional[String](x)`, `Init[String]`, aliases).
//!
//! ```puppet
//! type Format = Pattern[/^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/]
//! type ContainerFormat = Struct[{
//!   Optional[format]         => Format,
//!   Optional[separator]      => String,
//!   Optional[separator2]     => String,
//!   Optional[string_formats] => Hash[Type, Format]
//! }]
//! type TypeMap = Hash[Type, Variant[Format, ContainerFormat]]
//! type Convertible = Any
//! type Formats = Variant[Default, String[1], TypeMap]
//!
//! dispatch from_args(Convertible from, Formats string_formats?)
//! ```
//!
//! Errors: `'new_string' expects between 1 and 2 arguments, got 3`, `'new_string' parameter
//! 'string_formats' expects a Formats = Variant[...] value, got Integer`.

use std::rc::Rc;

use puppet_types::{Type, Value};

use crate::error::FormatError;

/// `FMT_PATTERN_STR`.
pub use puppet_types::new::string::FMT_PATTERN_STR;

fn check_args(args: &[Value]) -> Result<(), FormatError> {
    puppet_types::new::string::check_args(args).map_err(|e| FormatError::new(e.message))
}

/// Checks `String(value, formats)`'s arguments against `new_string`'s signature.
pub(crate) fn check_formats(value: &Value, formats: &Value) -> Result<(), FormatError> {
    if matches!(formats, Value::Default) {
        return Ok(());
    }
    if let Value::String(s) = formats {
        if !s.is_empty() {
            return Ok(());
        }
    }
    check_args(&[value.clone(), formats.clone()])
}

/// `String.new(args...)`: `new_string(from, string_formats?)`.
pub fn new_string(args: &[Value]) -> Result<Value, FormatError> {
    let text = match args {
        [from] => crate::string_new(from, None)?,
        [from, formats] => crate::string_new(from, Some(formats))?,
        _ => {
            check_args(args)?;
            return Err(FormatError::new(format!(
                "'new_string' expects between 1 and 2 arguments, got {}",
                args.len()
            )));
        }
    };
    Ok(Value::from_string(text))
}

/// The String conversion for `puppet_types::new::new_value_with`.
pub fn string_new_hook(args: &[Value]) -> puppet_types::Result<Value> {
    new_string(args).map_err(Into::into)
}

/// `new(t, args...)` for every type, String included (`Optional[String](1)`,
/// `Init[String, '%x'](255)`).
pub fn new_value(t: &Type, args: &[Value]) -> puppet_types::Result<Value> {
    puppet_types::new::new_value_with(t, args, &string_new_hook)
}

/// A String value.
trait FromString {
    fn from_string(s: String) -> Value;
}

impl FromString for Value {
    fn from_string(s: String) -> Value {
        Value::String(Rc::from(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(args: &[Value]) -> String {
        new_string(args).err().map(|e| e.message).unwrap_or_default()
    }

    #[test]
    fn argument_counts() {
        assert_eq!(err(&[]), "'new_string' expects between 1 and 2 arguments, got none");
        let three = [Value::Integer(1), Value::from("%d"), Value::Integer(3)];
        assert_eq!(err(&three), "'new_string' expects between 1 and 2 arguments, got 3");
    }

    #[test]
    fn conversion() {
        let v = new_string(&[Value::Integer(255), Value::from("%#x")]);
        assert_eq!(v.ok(), Some(Value::from("0xff")));
        let v = new_value(&Type::optional(Type::STRING), &[Value::Integer(1), Value::from("%03d")]);
        assert_eq!(v.ok(), Some(Value::from("001")));
    }
}
