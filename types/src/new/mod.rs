//! Conversions: `new(T, args...)`, `T(args...)` and `T.new(args...)` for every type except
//! String (String.new is the format engine's, in the `pfmt` crate).
//!
//! Puppet's `new` function (`functions/new.rb`) does three things:
//!
//! 1. a single argument that already is an instance of `T` is returned as it is (except for
//!    `Init` types): `Integer(3)`, `Scalar(1)`, `Pattern[/a/]('a')`;
//! 2. otherwise `T`'s *new function* is called with the arguments;
//! 3. its result is asserted to be an instance of `T`:
//!    `Converted value from Tuple[Integer, String].new() has wrong type, index 1 expects a
//!    String value, got Integer`.
//!
//! Each type's new function (`new_function` in `types.rb` and the `p_*_type.rb` files):
//!
//! | type                          | function        | here                          |
//! |-------------------------------|-----------------|-------------------------------|
//! | Integer                       | `new`           | [`integer`]                   |
//! | Float                         | `new_float`     | [`float`]                     |
//! | Numeric                       | `new_numeric`   | [`numeric`]                   |
//! | Boolean                       | `new_boolean`   | [`boolean`]                   |
//! | Array, Tuple                  | `new_array`     | [`array`](mod@array)                  |
//! | Hash, Struct                  | `new_hash`      | [`hash`]                      |
//! | Regexp                        | `new_float` (sic) | [`regexp`]                  |
//! | Sensitive                     | `new_Sensitive` | [`sensitive`]                 |
//! | Deferred                      | `new_Deferred`  | [`deferred`]                  |
//! | Error                         | `new_Error`     | [`error`]                     |
//! | Type                          | `new_type`      | [`type_`]                     |
//! | Init[T, args]                 | `new_Init`      | [`init`]                      |
//! | NotUndef (no type), Unit      | `new_unit`      | [`wrappers`]                  |
//! | `Optional[T]`, `NotUndef[T]`, aliases | T's function | this file                   |
//! | Timespan, Timestamp           | `new_timespan`, `new_timestamp` | [`crate::time`] |
//! | SemVer, SemVerRange           | `new_Version`, `new_VersionRange` | [`crate::semver`] |
//! | Binary, URI                   | `new_Binary`, `new_error` | [`crate::binary`], [`crate::uri`] |
//! | String                        | `new_string`    | the format engine (`pfmt`)    |
//! | every other type              | none: `Creation of new instance of type 'T' is not supported` |

pub mod array;
pub mod boolean;
pub mod deferred;
pub mod error;
pub mod float;
pub mod hash;
pub mod init;
pub mod integer;
mod iterate;
pub mod numeric;
pub mod regexp;
pub(crate) mod ruby;
pub mod sensitive;
pub mod string;
pub mod type_;
pub mod wrappers;

use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::ty::Type;
use crate::value::Value;

use crate::dispatch::Signature;

/// How deeply conversions may nest (aliases of aliases, `Init` calling `new`); beyond it
/// Ruby would overflow its stack.
const MAX_DEPTH: usize = 100;

/// The conversion of `String`: the format engine's. It replaces this with its own
/// `String.new` through [`new_value_with`].
pub type StringNew<'a> = &'a dyn Fn(&[Value]) -> Result<Value>;

/// `new(t, args...)`: Puppet's `new` function for every type except String.
///
/// `String` (and types that convert through it, such as `Init[String]` and
/// `Optional[String]`) gives an error here: the String conversion is the format engine's
/// (the `pfmt` crate), which intercepts `String` before calling this, or passes its
/// conversion to [`new_value_with`].
pub fn new_value(t: &Type, args: &[Value]) -> Result<Value> {
    new_value_with(t, args, &string_not_here)
}

/// [`new_value`] with `string_new` as the conversion of `String` (`String.new(args...)`), for
/// the format engine, so that `Init[String]`, `Optional[String]` and aliases of String
/// convert too.
pub fn new_value_with(t: &Type, args: &[Value], string_new: StringNew<'_>) -> Result<Value> {
    New { string_new }.new_instance(t, args, 0)
}

/// The error of `String.new` without the format engine.
fn string_not_here(_args: &[Value]) -> Result<Value> {
    Err(Error::new("String.new is the format engine's conversion (pfmt); puppet-types does not convert to String"))
}

/// One conversion in progress, with the String conversion to use.
pub(crate) struct New<'a> {
    string_new: StringNew<'a>,
}

impl New<'_> {
    /// The `new` function (`new_instance` in `functions/new.rb`).
    pub(crate) fn new_instance(&self, t: &Type, args: &[Value], depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(Error::new("stack level too deep"));
        }
        if let [single] = args {
            if !matches!(t, Type::Init { .. }) && is_instance(t, single) {
                return Ok(single.clone());
            }
        }
        let result = self.call_new_function(t, args, depth + 1)?;
        assert_converted(t, result)
    }

    /// Calls `t.new_function` with `args`.
    fn call_new_function(&self, t: &Type, args: &[Value], depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(Error::new("stack level too deep"));
        }
        match t {
            Type::Alias(a) => self.call_new_function(&a.resolved_type(), args, depth + 1),
            Type::Integer { .. } => integer::new_integer(args),
            Type::Float { .. } => float::new_float(args),
            Type::Numeric => numeric::new_numeric(args),
            Type::Boolean(_) => boolean::new_boolean(args),
            Type::String(_) => (self.string_new)(args),
            Type::Regexp(_) => regexp::new_regexp(args),
            Type::Array { .. } | Type::Tuple { .. } => array::new_array(args),
            Type::Hash { .. } | Type::Struct(_) => hash::new_hash(args),
            Type::Sensitive(_) => sensitive::new_sensitive(args),
            Type::Deferred => deferred::new_deferred(args),
            Type::Error(_) => error::new_error(args),
            Type::Object(o) => crate::object::new_object(o, args),
            Type::ObjectExtension(e) => crate::object::new_object(&e.base, args),
            Type::Type(_) => type_::new_type(args),
            Type::Timespan { .. } => crate::time::new_timespan(args),
            Type::Timestamp { .. } => crate::time::new_timestamp(args),
            Type::SemVer(_) => crate::semver::new_semver(args),
            Type::SemVerRange => crate::semver::new_semver_range(args),
            Type::Binary => crate::binary::new_binary(args),
            Type::Uri(_) => crate::uri::new_uri(args),
            Type::Optional(Some(inner)) | Type::NotUndef(Some(inner)) => self.call_new_function(inner, args, depth + 1),
            // `optional_type.new_function` on nil: Ruby's NoMethodError
            Type::Optional(None) => Err(ruby::no_method("new_function", &Value::Undef)),
            Type::NotUndef(None) | Type::Unit => wrappers::new_unit(args),
            Type::Init { ty: Some(target), args: init_args } => {
                init::new_init(self, t, target, init_args, args, depth + 1)
            }
            _ => Err(not_supported(t)),
        }
    }
}

/// `Creation of new instance of type 'T' is not supported`.
pub(crate) fn not_supported(t: &Type) -> Error {
    Error::new(format!("Creation of new instance of type '{t}' is not supported"))
}

/// The assertion of `new`'s result (`TypeAsserter.assert_instance_of`).
fn assert_converted(t: &Type, result: Value) -> Result<Value> {
    if is_instance(t, &result) {
        return Ok(result);
    }
    let subject = format!("Converted value from {t}.new() has wrong type,");
    Err(Error::new(crate::mismatch::describe_value(&subject, t, &result)))
}

/// The signatures of `t`'s new function in dispatch order (`argument_mismatch` dispatches
/// left out): what `Init[t]` accepts is asked of them; or the error of a type without one.
/// Each type describes its signatures once, in the file of its conversion, where they also
/// choose the method that converts.
pub(crate) fn signatures(t: &Type, depth: usize) -> Result<Vec<Signature>> {
    if depth > MAX_DEPTH {
        return Err(Error::new("stack level too deep"));
    }
    Ok(match t {
        Type::Alias(a) => return signatures(&a.resolved_type(), depth + 1),
        Type::Integer { .. } => integer::signatures(),
        Type::Float { .. } => float::signatures(),
        Type::Numeric => numeric::signatures(),
        Type::Boolean(_) => boolean::signatures(),
        Type::String(_) => string::signatures(),
        Type::Regexp(_) => regexp::signatures(),
        Type::Array { .. } | Type::Tuple { .. } => array::signatures(),
        Type::Hash { .. } | Type::Struct(_) => hash::signatures(),
        Type::Sensitive(_) => sensitive::signatures(),
        Type::Deferred => deferred::signatures(),
        Type::Error(_) => error::signatures(),
        Type::Object(o) => crate::object::signatures(o),
        Type::ObjectExtension(e) => crate::object::signatures(&e.base),
        Type::Type(_) => type_::signatures(),
        Type::Timespan { .. } => crate::time::timespan_signatures(),
        Type::Timestamp { .. } => crate::time::timestamp_signatures(),
        Type::SemVer(_) => crate::semver::semver_signatures(),
        Type::SemVerRange => crate::semver::range_signatures(),
        Type::Binary => crate::binary::signatures(),
        Type::Uri(_) => crate::uri::signatures(),
        Type::Optional(Some(inner)) | Type::NotUndef(Some(inner)) => return signatures(inner, depth + 1),
        Type::Optional(None) => return Err(ruby::no_method("new_function", &Value::Undef)),
        Type::NotUndef(None) | Type::Unit => wrappers::signatures(),
        _ => return Err(not_supported(t)),
    })
}

/// The parameter types of the signatures of `t`'s new function, each as a
/// `Tuple[types..., required, count]` in dispatch order (`argument_mismatch` dispatches
/// left out), or the error of a type without one (what `Init[t]` matches arguments with).
pub fn new_signatures(t: &Type) -> Result<Vec<Type>> {
    Ok(signatures(t, 0)?.into_iter().map(|s| s.params).collect())
}

/// `The string 'x' cannot be converted to T` or `Value of type X cannot be converted to T`
/// (the `on_error` methods of the numeric and Boolean new functions).
pub(crate) fn cannot_convert(from: &Value, target: &str) -> String {
    match from {
        Value::String(s) => format!("The string '{s}' cannot be converted to {target}"),
        _ => format!("Value of type {} cannot be converted to {target}", crate::infer::infer_generalized(from)),
    }
}

/// The value of a string key of a Puppet hash.
pub(crate) fn hash_get<'h>(h: &'h crate::value::Hash, key: &str) -> Option<&'h Value> {
    h.get(&Value::from(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsupported_types() {
        let callable = crate::ty::CallableType { params: None, block: None, return_type: None };
        let e = new_value(&Type::Callable(std::rc::Rc::new(callable)), &[]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Creation of new instance of type 'Callable' is not supported"));
        let e = new_value(&Type::Undef, &[Value::Integer(1), Value::Integer(2)]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Creation of new instance of type 'Undef' is not supported"));
    }

    #[test]
    fn string_is_elsewhere() {
        assert!(new_value(&Type::STRING, &[Value::Integer(1), Value::Integer(2)]).is_err());
        let called = std::cell::Cell::new(false);
        let hook = |_: &[Value]| {
            called.set(true);
            Ok(Value::from("s"))
        };
        let _ = new_value_with(&Type::STRING, &[Value::Integer(1), Value::Integer(2)], &hook);
        assert!(called.get());
    }

    #[test]
    fn optional_without_type() {
        let e = new_value(&Type::Optional(None), &[Value::Integer(1), Value::Integer(2)]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("undefined method `new_function' for nil:NilClass"));
    }

    #[test]
    fn self_recursive_alias() {
        let alias = crate::ty::TypeAlias::new("A");
        alias.resolve_to(Type::optional(Type::Alias(alias.clone())));
        let e = new_value(&Type::Alias(alias.clone()), &[Value::Integer(1), Value::Integer(2)]).err();
        assert_eq!(e.map(|e| e.message).as_deref(), Some("stack level too deep"));
        assert!(new_signatures(&Type::Alias(alias)).is_err());
    }

    #[test]
    fn signatures() {
        assert_eq!(new_signatures(&Type::INTEGER).map(|s| s.len()).ok(), Some(2));
        assert_eq!(new_signatures(&Type::Boolean(None)).map(|s| s.len()).ok(), Some(1));
        assert!(new_signatures(&Type::Scalar).is_err());
    }
}
