//! The signature of `String.new` (`PStringType.new_function`, the function named
//! `new_string`). The conversion itself is the format engine's (the `pfmt` crate), which
//! checks its arguments against this signature; `Init[String]` asks the same signature what
//! it accepts.
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

use crate::dispatch::{alias, entry, pattern, string_sized, struct_of, Dispatch, Dispatcher};
use crate::ty::Type;

/// `FMT_PATTERN_STR`: a format of the format engine (`%-10.2f`).
pub const FMT_PATTERN_STR: &str = r"^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$";

/// The dispatcher of `new_string`; its one method is the format engine's conversion.
pub(crate) fn dispatcher() -> Dispatcher<()> {
    let format = alias("Format", pattern(FMT_PATTERN_STR));
    let type_to_format = Type::hash_of(Type::Type(None), format.clone());
    let container = alias(
        "ContainerFormat",
        struct_of(vec![
            entry("format", true, format.clone()),
            entry("separator", true, Type::STRING),
            entry("separator2", true, Type::STRING),
            entry("string_formats", true, type_to_format),
        ]),
    );
    let type_map = alias("TypeMap", Type::hash_of(Type::Type(None), Type::variant(vec![format, container])));
    let formats = alias("Formats", Type::variant(vec![Type::Default, string_sized(1, None), type_map]));
    let convertible = alias("Convertible", Type::Any);
    Dispatcher {
        name: "new_string",
        dispatches: vec![Dispatch::new(()).req("from", convertible).opt("string_formats", formats)],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<()> = dispatcher();
}

/// Checks the arguments of `String.new(args...)` against its signature: the error of
/// arguments it does not accept (`'new_string' expects between 1 and 2 arguments, got 3`).
pub fn check_args(args: &[crate::Value]) -> crate::Result<()> {
    FUNCTION.with(|f| f.select(args).map(|_| ()))
}

/// The signatures (for `Init[String]`).
pub(crate) fn signatures() -> Vec<crate::dispatch::Signature> {
    FUNCTION.with(|f| f.signatures())
}
