//! String forms of types and values.
//!
//! - [`Type`]'s `Display` and [`value_to_string`] are Puppet's `TypeFormatter`
//!   (`type_formatter.rb`): `Integer[1, 2]`, `Struct[{'a' => Integer}]`, values as they
//!   appear inside type parameters and messages (`'a'`, `[1, 'b']`, `/re/`, `undef`).
//! - [`value_to_s`] is the evaluator's string form (`EvaluatorImpl#string`), what `notice`
//!   and interpolation print: strings bare, `undef` as nothing, `[a, 1]`, `{a => 1}`.
//! - [`float_to_s`] is Ruby's `Float#to_s`; [`puppet_quote`] is Puppet's choice of quotes.

use std::fmt::{self, Write};
use std::rc::Rc;

use crate::ty::{CallableType, RuntimeName, Size, StringParam, StructElement, Type};
use crate::value::Value;

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Formatter::default();
        out.ty(self);
        f.write_str(&out.bld)
    }
}

/// A value as `TypeFormatter` prints it (inside type parameters and messages).
pub fn value_to_string(v: &Value) -> String {
    let mut out = Formatter::default();
    out.value(v);
    out.bld
}

/// A type alias as its `to_s` prints it: `Name = resolved type`, nested aliases expanded too
/// (`TypeFormatter#alias_expanded_string`).
pub fn alias_expanded_string(t: &Type) -> String {
    let mut f = Formatter { expanded: true, ..Formatter::default() };
    f.ty(t);
    f.bld
}

/// A value as `notice` and string interpolation print it (`EvaluatorImpl#string`).
pub fn value_to_s(v: &Value) -> String {
    let mut out = String::new();
    write_s(&mut out, v);
    out
}

/// What is left to print: values, and the punctuation between them.
enum Piece<'a> {
    Value(&'a Value),
    Text(&'static str),
}

/// The notice form, iterative so that values nested deeper than the stack print too.
fn write_s(out: &mut String, v: &Value) {
    let mut todo: Vec<Piece<'_>> = vec![Piece::Value(v)];
    while let Some(piece) = todo.pop() {
        let v = match piece {
            Piece::Text(t) => {
                out.push_str(t);
                continue;
            }
            Piece::Value(v) => v,
        };
        match v {
            Value::Array(items) => {
                out.push('[');
                todo.push(Piece::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    todo.push(Piece::Value(item));
                    if i > 0 {
                        todo.push(Piece::Text(", "));
                    }
                }
            }
            Value::Hash(h) => {
                out.push('{');
                todo.push(Piece::Text("}"));
                for (i, (k, v)) in h.iter().enumerate().rev() {
                    todo.push(Piece::Value(v));
                    todo.push(Piece::Text(" => "));
                    todo.push(Piece::Value(k));
                    if i > 0 {
                        todo.push(Piece::Text(", "));
                    }
                }
            }
            leaf => write_leaf_s(out, leaf),
        }
    }
}

/// The notice form of a value that is not an Array or a Hash.
fn write_leaf_s(out: &mut String, v: &Value) {
    match v {
        Value::Undef => {}
        Value::String(s) => out.push_str(s),
        Value::Sensitive(_) => out.push_str("Sensitive [value redacted]"),
        // Values with a Ruby `to_s` of their own print bare.
        Value::Timespan(t) => {
            let _ = write!(out, "{t}");
        }
        Value::Timestamp(t) => {
            let _ = write!(out, "{t}");
        }
        Value::SemVer(v) => {
            let _ = write!(out, "{v}");
        }
        Value::SemVerRange(r) => {
            let _ = write!(out, "{r}");
        }
        Value::Uri(u) => {
            let _ = write!(out, "{u}");
        }
        // Pcore's meta types print expanded at the top of a notice only.
        Value::Type(t) if matches!(**t, Type::Deferred) => out.push_str(DEFERRED),
        Value::Type(t) if matches!(**t, Type::TypeSet) => out.push_str(TYPE_SET),
        Value::Type(t) if matches!(**t, Type::Error(None)) => out.push_str(ERROR),
        Value::Type(t) if matches!(&**t, Type::Object(o) if o.name.is_none() && o.attributes.is_empty()) => {
            out.push_str(OBJECT)
        }
        // `Iterator#to_s`: the generalized element type.
        Value::Iterator(_) => {
            let _ = write!(out, "{}-Value", crate::infer::generalize(&crate::infer::infer(v)));
        }
        Value::Type(t) if matches!(**t, Type::Alias(_)) => out.push_str(&alias_expanded_string(t)),
        Value::Type(t) if matches!(**t, Type::Object(_)) => {
            let _ = write!(out, "{t}");
        }
        _ => {
            let mut f = Formatter::default();
            f.value(v);
            out.push_str(&f.bld);
        }
    }
}

/// Ruby's `Float#to_s`, as Puppet prints every float (`1.0e+15`, `1000000000000000.2`).
pub use poppet_ruby::float::float_to_s;

/// Puppet's quoting of a string (`StringConverter#puppet_quote`): single quotes unless the
/// string holds a control character; inside single quotes `'` is escaped and a backslash
/// is kept with the character after it (`\n` stays `\n`), a final lone backslash doubled.
pub fn puppet_quote(s: &str) -> String {
    if s.chars().any(|c| (c as u32) < 0x20) {
        return puppet_double_quote(s);
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            out.push('\\');
            out.push(c);
            escaped = false;
        } else if c == '\'' {
            out.push_str("\\'");
        } else if c == '\\' {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    if escaped {
        out.push('\\');
    }
    out.push('\'');
    out
}

/// A double-quoted Puppet string with `\t \n \r \" \$ \\` escaped and other control
/// characters as `\u{X}`.
pub fn puppet_double_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A regexp between slashes (`PRegexpType.regexp_to_s_with_delimiters`): see
/// [`crate::regexp::to_s_with_delimiters`].
pub fn regexp_with_delimiters(source: &str) -> String {
    crate::regexp::to_s_with_delimiters(source)
}

/// `Foo::Bar` from `foo::bar`: each segment capitalized, unless the name already starts
/// with a capital ASCII letter.
pub fn capitalize_segments(name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return name.to_owned();
    }
    name.split("::").map(poppet_ruby::string::capitalize).collect::<Vec<_>>().join("::")
}

/// `LabelProvider#a_an`: the text with its indefinite article, `an` before a vowel (a, e,
/// i, o, u, y, in either case; a leading quote is skipped).
pub fn a_an(text: &str) -> String {
    format!("{} {text}", article(text))
}

/// `LabelProvider#a_an_uc`: [`a_an`] with the article capitalised.
pub fn a_an_uc(text: &str) -> String {
    let a = article(text);
    format!("{}{} {text}", &a[..1].to_uppercase(), &a[1..])
}

fn article(text: &str) -> &'static str {
    let mut chars = text.chars();
    let mut first = chars.next();
    if matches!(first, Some('"' | '\'')) {
        first = chars.next();
    }
    let vowel = first.is_some_and(|c| matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o' | 'u' | 'y'));
    if vowel {
        "an"
    } else {
        "a"
    }
}

/// The label Puppet's messages give a value (`ModelLabelProvider#label`): `Integer`,
/// `Undef Value`, `Boolean`, `Semver`, `Integer[1, 2]-Type`, `Object` for others.
pub fn label(v: &Value) -> String {
    match v {
        Value::Undef => "Undef Value".into(),
        Value::Boolean(_) => "Boolean".into(),
        Value::Integer(_) | Value::BigInt(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => match &**t {
            Type::Resource { title: Some(_), .. } => format!("{t} Resource-Reference"),
            // An alias's `to_s` expands it.
            Type::Alias(_) => format!("{}-Type", alias_expanded_string(t)),
            t => format!("{t}-Type"),
        },
        Value::Binary(_) => "Binary".into(),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Timestamp(_) => "Timestamp".into(),
        Value::Timespan(_) => "Timespan".into(),
        Value::SemVer(_) => "Semver".into(),
        Value::SemVerRange(_) => "SemverRange".into(),
        _ => "Object".into(),
    }
}

/// The notice form of Puppet's `Object` type (the Pcore object model's root).
const OBJECT: &str = "Object[{}]";
/// The notice form of the `TypeSet` type.
const TYPE_SET: &str = "TypeSet[{pcore_uri => 'http://puppet.com/2016.1/pcore', pcore_version => '1.0.0', name_authority => 'http://puppet.com/2016.1/runtime', name => 'DefaultTypeSet', version => '0.0.0'}]";
/// The notice form of the `Deferred` type (an Object type defined in Pcore).
const DEFERRED: &str = "Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}]";

/// The notice form of the `Error` type (an Object type defined in Pcore).
const ERROR: &str = "Object[{name => 'Error', type_parameters => {'kind' => Variant[String, Regexp, Type[Enum], Type[Pattern], Type[NotUndef], Type[Undef]], 'issue_code' => Variant[String, Regexp, Type[Enum], Type[Pattern], Type[NotUndef], Type[Undef]]}, attributes => {'msg' => String[1], 'kind' => {type => Optional[String[1]], value => undef}, 'details' => {type => Optional[Hash[String[1], Data]], value => undef}, 'issue_code' => {type => Optional[String[1]], value => undef}}, functions => {'message' => Callable[[0, 0], String[1]]}}]";

const COMMA_SEP: &str = ", ";

#[derive(Default)]
struct Formatter {
    bld: String,
    depth: usize,
    /// `alias_expanded_string`: user aliases print as `Name = resolved type`, each once in
    /// its own expansion (recursive ones then print by name).
    expanded: bool,
    expanding: Vec<Rc<str>>,
}

/// Nesting beyond this prints as `...` (recursive aliases print by name, so only
/// pathological input reaches it).
const MAX_DEPTH: usize = 200;

impl Formatter {
    fn chomp_list(&mut self) {
        if self.bld.ends_with(COMMA_SEP) {
            self.bld.truncate(self.bld.len() - COMMA_SEP.len());
        }
    }

    fn sep(&mut self) {
        self.bld.push_str(COMMA_SEP);
    }

    /// `Name[...]`, or `Name` alone when `empty`.
    fn array(&mut self, start: &str, empty: bool, body: impl FnOnce(&mut Self)) {
        self.bld.push_str(start);
        if !empty {
            self.bld.push('[');
            body(self);
            self.bld.push(']');
        }
    }

    fn types(&mut self, types: &[Type]) {
        for (i, t) in types.iter().enumerate() {
            if i > 0 {
                self.sep();
            }
            self.ty(t);
        }
    }

    fn opt_ty(&mut self, t: Option<&Type>) {
        match t {
            Some(t) => self.ty(t),
            None => self.bld.push_str("Any"),
        }
    }

    /// `from[, to]` of a size; nothing for an absent size.
    fn size(&mut self, size: Option<&Size>) {
        if let Some(s) = size {
            let _ = write!(self.bld, "{}", s.from);
            if let Some(to) = &s.to {
                let _ = write!(self.bld, ", {to}");
            }
        }
    }

    fn ty(&mut self, t: &Type) {
        if self.depth > MAX_DEPTH {
            self.bld.push_str("...");
            return;
        }
        self.depth += 1;
        self.ty_inner(t);
        self.depth -= 1;
    }

    fn ty_inner(&mut self, t: &Type) {
        match t {
            Type::Any
            | Type::Undef
            | Type::Default
            | Type::Unit
            | Type::Scalar
            | Type::ScalarData
            | Type::Numeric
            | Type::Binary
            | Type::SemVerRange
            | Type::CatalogEntry => self.bld.push_str(t.name()),
            // `PObjectType#to_s` is expanded; inside another type it is its label.
            Type::Object(o) if self.expanded || (self.depth == 1 && **o != crate::ty::ObjectType::default()) => {
                self.object_type(o)
            }
            Type::Object(o) => self.bld.push_str(crate::object::label(o)),
            Type::TypeSet => self.bld.push_str("TypeSet"),
            Type::Deferred => self.bld.push_str("Deferred"),
            // `string_PObjectTypeExtension`: the base's name and the given parameters.
            Type::ObjectExtension(e) => {
                self.bld.push_str(crate::object::label(&e.base));
                self.bld.push('[');
                match &crate::object::init_parameters(e) {
                    Value::Array(values) => {
                        for (i, v) in values.iter().enumerate() {
                            if i > 0 {
                                self.sep();
                            }
                            self.value(v);
                        }
                    }
                    other => self.value(other),
                }
                self.bld.push(']');
            }
            // `init_parameters`: `default` for a free parameter, trailing ones left out.
            Type::Error(params) => self.array("Error", params.is_none(), |f| {
                let Some(p) = params else { return };
                let given = p.by_name();
                let count = given.iter().rposition(|(_, v)| v.is_some()).map_or(0, |i| i + 1);
                for (index, (_, v)) in given[..count].iter().enumerate() {
                    if index > 0 {
                        f.sep();
                    }
                    f.value(v.unwrap_or(&Value::Default));
                }
            }),
            Type::Boolean(b) => {
                self.array("Boolean", b.is_none(), |f| f.bld.push_str(if b == &Some(true) { "true" } else { "false" }))
            }
            Type::Integer { from, to } => self.array("Integer", from.is_none() && to.is_none(), |f| {
                match from {
                    Some(n) => {
                        let _ = write!(f.bld, "{n}");
                    }
                    None => f.bld.push_str("default"),
                }
                if let Some(to) = to {
                    let _ = write!(f.bld, ", {to}");
                }
            }),
            Type::Float { from, to } => {
                let unbounded = *from == f64::NEG_INFINITY && *to == f64::INFINITY;
                self.array("Float", unbounded, |f| {
                    if *from == f64::NEG_INFINITY {
                        f.bld.push_str("default");
                    } else {
                        f.bld.push_str(&float_to_s(*from));
                    }
                    if *to != f64::INFINITY {
                        f.sep();
                        f.bld.push_str(&float_to_s(*to));
                    }
                })
            }
            Type::String(p) => {
                let size = match p {
                    Some(StringParam::Size(s)) => Some(s),
                    _ => None,
                };
                self.array("String", size.is_none(), |f| f.size(size))
            }
            Type::Enum { values, case_insensitive } => self.array("Enum", values.is_empty(), |f| {
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        f.sep();
                    }
                    f.bld.push_str(&puppet_quote(v));
                }
                if *case_insensitive {
                    f.bld.push_str(", true");
                }
            }),
            Type::Pattern(patterns) => self.array("Pattern", patterns.is_empty(), |f| {
                for (i, p) in patterns.iter().enumerate() {
                    if i > 0 {
                        f.sep();
                    }
                    f.bld.push_str(&regexp_with_delimiters(p.source()));
                }
            }),
            Type::Regexp(r) => self.array("Regexp", r.is_none(), |f| {
                if let Some(r) = r {
                    f.bld.push_str(&regexp_with_delimiters(r.source()));
                }
            }),
            Type::SemVer(ranges) => self.array("SemVer", ranges.is_empty(), |f| {
                for (i, r) in ranges.iter().enumerate() {
                    if i > 0 {
                        f.sep();
                    }
                    let _ = write!(f.bld, "'{r}'");
                }
            }),
            Type::Timespan { from, to } => {
                self.time_range("Timespan", *from, *to, |n| crate::time::Timespan { nsecs: n }.to_string())
            }
            Type::Timestamp { from, to } => {
                self.time_range("Timestamp", *from, *to, |n| crate::time::Timestamp { nsecs: n }.to_string())
            }
            Type::Uri(p) => self.array("URI", p.is_none(), |f| {
                if let Some(v) = p {
                    f.value(v)
                }
            }),
            Type::Collection(size) => self.array("Collection", size.is_none(), |f| f.size(size.as_ref())),
            Type::Array { element, size } => {
                if size.as_ref().is_some_and(|s| *s == Size::exact(0)) {
                    self.bld.push_str("Array[0, 0]");
                } else {
                    let default = size.is_none() && element.as_deref().is_none_or(|e| *e == Type::Any);
                    self.array("Array", default, |f| {
                        f.opt_ty(element.as_deref());
                        if size.is_some() {
                            f.sep();
                            f.size(size.as_ref());
                        }
                    })
                }
            }
            Type::Hash { key, value, size } => {
                if size.as_ref().is_some_and(|s| *s == Size::exact(0)) {
                    self.bld.push_str("Hash[0, 0]");
                } else {
                    let default = size.is_none()
                        && key.as_deref().is_none_or(|e| *e == Type::Any)
                        && value.as_deref().is_none_or(|e| *e == Type::Any);
                    self.array("Hash", default, |f| {
                        f.opt_ty(key.as_deref());
                        f.sep();
                        f.opt_ty(value.as_deref());
                        if size.is_some() {
                            f.sep();
                            f.size(size.as_ref());
                        }
                    })
                }
            }
            Type::Tuple { types, size } => self.array("Tuple", types.is_empty(), |f| {
                f.types(types);
                if size.is_some() {
                    f.sep();
                    f.size(size.as_ref());
                }
            }),
            Type::Struct(elements) => self.array("Struct", elements.is_empty(), |f| {
                f.bld.push('{');
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        f.sep();
                    }
                    f.struct_element(e);
                }
                f.bld.push('}');
            }),
            Type::Variant(types) => self.array("Variant", types.is_empty(), |f| f.types(types)),
            Type::Optional(t) => self.array("Optional", t.is_none(), |f| f.contained(t.as_deref())),
            Type::NotUndef(t) => {
                let empty = t.as_deref().is_none_or(|t| *t == Type::Any);
                self.array("NotUndef", empty, |f| f.contained(t.as_deref()))
            }
            Type::Iterable(t) => self.array("Iterable", t.is_none(), |f| f.opt_ty(t.as_deref())),
            Type::Iterator(t) => self.array("Iterator", t.is_none(), |f| f.opt_ty(t.as_deref())),
            Type::Type(t) => self.array("Type", t.is_none(), |f| f.opt_ty(t.as_deref())),
            Type::Sensitive(t) => {
                let empty = t.as_deref().is_none_or(|t| *t == Type::Any);
                self.array("Sensitive", empty, |f| f.opt_ty(t.as_deref()))
            }
            Type::Resource { type_name, title } => match type_name {
                Some(name) => self.array(&capitalize_segments(name), title.is_none(), |f| {
                    if let Some(title) = title {
                        f.bld.push_str(&puppet_quote(title));
                    }
                }),
                None => self.bld.push_str("Resource"),
            },
            Type::Class(name) => self.array("Class", name.is_none(), |f| {
                if let Some(n) = name {
                    f.bld.push_str(n);
                }
            }),
            Type::Callable(c) => self.callable(c),
            Type::Runtime { runtime, name } => self.array("Runtime", runtime.is_none() && name.is_none(), |f| {
                f.bld.push_str(runtime.as_deref().unwrap_or("undef"));
                if let Some(name) = name {
                    f.sep();
                    match name {
                        RuntimeName::Name(n) => f.bld.push_str(&puppet_quote(n)),
                        RuntimeName::Pattern(re, repl) => {
                            f.bld.push('[');
                            f.bld.push_str(&regexp_with_delimiters(re.source()));
                            f.sep();
                            f.bld.push_str(&puppet_quote(repl));
                            f.bld.push(']');
                        }
                    }
                }
            }),
            Type::Init { ty, args } => self.array("Init", ty.is_none(), |f| {
                f.opt_ty(ty.as_deref());
                for a in args.iter() {
                    f.sep();
                    f.value(a);
                }
            }),
            Type::Reference(name) => {
                self.bld.push_str("TypeReference[");
                self.bld.push_str(&puppet_quote(name));
                self.bld.push(']');
            }
            Type::Alias(a) => {
                self.bld.push_str(&a.name);
                let builtin = matches!(&*a.name, "Data" | "RichData" | "RichDataKey" | "ScalarData");
                if self.expanded && !builtin && !self.expanding.contains(&a.name) {
                    self.bld.push_str(" = ");
                    self.expanding.push(a.name.clone());
                    self.ty(&a.resolved_type());
                    self.expanding.pop();
                }
            }
        }
    }

    /// The parameter of Optional and NotUndef: a String type with a value prints as the
    /// quoted string (`Optional['a']`).
    fn contained(&mut self, t: Option<&Type>) {
        match t {
            Some(Type::String(Some(StringParam::Value(s)))) => self.bld.push_str(&puppet_quote(s)),
            t => self.opt_ty(t),
        }
    }

    fn time_range(&mut self, name: &str, from: Option<i128>, to: Option<i128>, show: impl Fn(i128) -> String) {
        self.array(name, from.is_none() && to.is_none(), |f| {
            match from {
                Some(n) => {
                    let _ = write!(f.bld, "'{}'", show(n));
                }
                None => f.bld.push_str("default"),
            }
            if let Some(to) = to.filter(|to| Some(*to) != from) {
                let _ = write!(f.bld, ", '{}'", show(to));
            }
        })
    }

    /// A struct entry: an optional key whose value accepts undef prints as its name alone;
    /// a required key whose value accepts undef prints as `NotUndef['k']`.
    fn struct_element(&mut self, e: &StructElement) {
        let value_optional = crate::assignable::is_assignable(&e.value_type, &Type::Undef);
        let name = struct_key_name(&e.key_type);
        let quoted_name = name.map(puppet_quote);
        match (&e.key_type, quoted_name) {
            (Type::Optional(_), Some(n)) if value_optional => self.bld.push_str(&n),
            (Type::Optional(_), _) => self.ty(&e.key_type),
            (k, Some(n)) if value_optional => {
                self.bld.push_str("NotUndef[");
                if matches!(k, Type::String(Some(StringParam::Value(_)))) {
                    self.bld.push_str(&n);
                } else {
                    self.ty(k);
                }
                self.bld.push(']');
            }
            (_, Some(n)) => self.bld.push_str(&n),
            (k, None) => self.ty(k),
        }
        self.bld.push_str(" => ");
        self.ty(&e.value_type);
    }

    fn callable(&mut self, c: &CallableType) {
        match (&c.return_type, &c.params) {
            (None, params) => self.array("Callable", params.is_none(), |f| f.callable_params(c)),
            (Some(ret), None) => {
                self.bld.push_str("Callable[[], ");
                self.ty(ret);
                self.bld.push(']');
            }
            (Some(ret), Some(_)) => {
                self.bld.push_str("Callable[[");
                self.callable_params(c);
                self.bld.push_str("], ");
                self.ty(ret);
                self.bld.push(']');
            }
        }
    }

    fn callable_params(&mut self, c: &CallableType) {
        let (types, size): (&[Type], Option<&Size>) = match c.params.as_deref() {
            Some(Type::Tuple { types, size }) => (types, size.as_ref()),
            _ => (&[], None),
        };
        for t in types.iter().filter(|t| **t != Type::Unit) {
            self.ty(t);
            self.sep();
        }
        if types.is_empty() {
            self.bld.push_str("0, 0, ");
        } else if let Some(s) = size {
            self.size(Some(s));
            self.sep();
        }
        if let Some(block) = &c.block {
            self.ty(block);
            self.sep();
        }
        self.chomp_list();
    }

    /// `open`, the items written by `each` with `, ` between them, and `close`.
    fn list<T>(
        &mut self,
        open: &str,
        items: impl IntoIterator<Item = T>,
        close: &str,
        mut each: impl FnMut(&mut Self, T),
    ) {
        self.bld.push_str(open);
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.sep();
            }
            each(self, item);
        }
        self.bld.push_str(close);
    }

    /// `'name' => ` of a member or an attribute.
    fn quoted_key(&mut self, name: &str) {
        self.bld.push_str(&puppet_quote(name));
        self.bld.push_str(" => ");
    }

    /// `append_object_hash`: an Object type's hash, its member types by name.
    fn object_type(&mut self, o: &crate::ty::ObjectType) {
        use crate::object::{Entry, MemberForm, MemberOption};
        let expanded = std::mem::replace(&mut self.expanded, false);
        self.list("Object[{", crate::object::init_hash_entries(o), "}]", |f, entry| match entry {
            Entry::Name(n) => {
                f.bld.push_str("name => ");
                f.bld.push_str(&puppet_quote(n));
            }
            Entry::Parent(p) => {
                f.bld.push_str("parent => ");
                f.ty(p);
            }
            Entry::Members(key, members) => {
                f.bld.push_str(key);
                f.list(" => {", members, "}", |f, (name, form)| {
                    f.quoted_key(&name);
                    match form {
                        MemberForm::Type(t) => f.ty(t),
                        MemberForm::Hash(options) => f.list("{", options, "}", |f, (option, value)| {
                            f.bld.push_str(option);
                            f.bld.push_str(" => ");
                            match value {
                                MemberOption::Type(t) => f.ty(t),
                                MemberOption::Bool(b) => f.bld.push_str(if b { "true" } else { "false" }),
                                MemberOption::Kind(k) => f.bld.push_str(k),
                                MemberOption::Value(v) => f.value(v),
                            }
                        }),
                    }
                });
            }
            Entry::Constants(constants) => f.list("constants => {", constants, "}", |f, (name, value)| {
                f.quoted_key(&name);
                f.value(value);
            }),
            Entry::Equality(names) => {
                f.list("equality => [", names, "]", |f, name| f.bld.push_str(&puppet_quote(name)))
            }
            Entry::Value(key, v) => {
                f.bld.push_str(key);
                f.bld.push_str(" => ");
                f.value(v);
            }
        });
        self.expanded = expanded;
    }

    /// `string_PuppetObject`: `Name({'attribute' => value, ...})`.
    fn object_value(&mut self, o: &crate::value::ObjectValue) {
        self.bld.push_str(crate::object::label(&o.ty));
        self.list("({", o.init_hash(), "})", |f, (name, v)| {
            f.quoted_key(&name);
            match &v {
                // A value without a string form of its own (`string_Object`).
                Value::Sensitive(_) | Value::Binary(_) => {
                    let _ = write!(f.bld, "Instance of {}", crate::infer::generalize(&crate::infer::infer(&v)));
                }
                _ => f.value(&v),
            }
        });
    }

    fn value(&mut self, v: &Value) {
        if self.depth > MAX_DEPTH {
            self.bld.push_str("...");
            return;
        }
        self.depth += 1;
        self.value_inner(v);
        self.depth -= 1;
    }

    fn value_inner(&mut self, v: &Value) {
        match v {
            Value::Undef => self.bld.push_str("undef"),
            Value::Default => self.bld.push_str("default"),
            Value::Boolean(b) => self.bld.push_str(if *b { "true" } else { "false" }),
            Value::Integer(i) => {
                let _ = write!(self.bld, "{i}");
            }
            Value::BigInt(b) => {
                let _ = write!(self.bld, "{b}");
            }
            Value::Float(f) => self.bld.push_str(&float_to_s(*f)),
            Value::String(s) => self.bld.push_str(&puppet_quote(s)),
            Value::Regexp(r) => self.bld.push_str(&regexp_with_delimiters(r.source())),
            Value::Array(items) => {
                self.bld.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.sep();
                    }
                    self.value(item);
                }
                self.bld.push(']');
            }
            Value::Hash(h) => {
                self.bld.push('{');
                for (i, (k, v)) in h.iter().enumerate() {
                    if i > 0 {
                        self.sep();
                    }
                    self.value(k);
                    self.bld.push_str(" => ");
                    self.value(v);
                }
                self.bld.push('}');
            }
            Value::Type(t) => self.ty(t),
            Value::Timespan(t) => {
                let _ = write!(self.bld, "'{t}'");
            }
            Value::Timestamp(t) => {
                let _ = write!(self.bld, "'{t}'");
            }
            Value::SemVer(s) => {
                let _ = write!(self.bld, "'{s}'");
            }
            Value::SemVerRange(s) => {
                let _ = write!(self.bld, "'{s}'");
            }
            Value::Binary(b) => {
                let _ = write!(self.bld, "{b}");
            }
            Value::Uri(u) => {
                self.bld.push_str("URI(");
                self.bld.push_str(&puppet_quote(&u.to_string()));
                self.bld.push(')');
            }
            Value::Sensitive(_) => self.bld.push_str("Sensitive [value redacted]"),
            Value::Deferred(d) => {
                self.bld.push_str("Deferred({'name' => ");
                self.bld.push_str(&puppet_quote(&d.name));
                if let Some(arguments) = &d.arguments {
                    self.bld.push_str(", 'arguments' => [");
                    for (i, a) in arguments.iter().enumerate() {
                        if i > 0 {
                            self.sep();
                        }
                        self.value(a);
                    }
                    self.bld.push(']');
                }
                self.bld.push_str("})");
            }
            Value::Error(e) => {
                self.bld.push_str("Error({");
                for (index, (name, v)) in e.init_hash().iter().enumerate() {
                    if index > 0 {
                        self.sep();
                    }
                    self.bld.push_str(&puppet_quote(name));
                    self.bld.push_str(" => ");
                    self.value(v);
                }
                self.bld.push_str("})");
            }
            Value::Object(o) => self.object_value(o),
            Value::Iterator(_) => {
                let t = crate::infer::infer(v);
                let _ = write!(self.bld, "{t}-Value");
            }
            Value::Callable(c) => self.ty(&c.signature()),
        }
    }
}

/// The name of a struct key type: the string of a `String` type with a value, or of an
/// `Enum` of one value, possibly wrapped in `Optional` or `NotUndef`.
pub fn struct_key_name(t: &Type) -> Option<&str> {
    match t {
        Type::String(Some(StringParam::Value(s))) => Some(s),
        Type::Enum { values, .. } if values.len() == 1 => values.first().map(|s| &**s),
        Type::Optional(Some(t)) | Type::NotUndef(Some(t)) => struct_key_name(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(puppet_quote("a\\nb"), "'a\\nb'");
        assert_eq!(puppet_quote("c'd"), "'c\\'d'");
        assert_eq!(puppet_quote("a\\"), "'a\\'"); // Puppet's own quirk
        assert_eq!(puppet_quote("a\nb$"), "\"a\\nb\\$\"");
        assert_eq!(regexp_with_delimiters("a/b\\/c"), "/a\\/b\\/c/");
        assert_eq!(regexp_with_delimiters("a/é"), "/(?-mix:a\\/é)/");
    }
}
