//! User-defined Object types (Pcore's `PObjectType`, `p_object_type.rb`) and their
//! instances: building a type from its initialisation hash with Puppet's checks and
//! messages, its members through the parent chain, the `new_T` function that creates
//! instances (what `RubyGenerator` generates for Puppet), instance equality and how
//! types and instances print.
//!
//! ```puppet
//! type Point = Object[{attributes => {x => Integer, y => {type => Integer, value => 0}}}]
//! notice(Point(1))          # Point({'x' => 1})
//! notice(Point)             # Object[{name => 'Point', attributes => {'x' => Integer, 'y' => {type => Integer, value => 0}}}]
//! ```
//!
//! A type's members are its own; inherited ones are found through [`resolved_parent`] when
//! they are asked for, so a parent may be declared after its child. While an alias is being
//! resolved it has no type yet: a parent seen in that state (a cycle) has no members, as
//! Puppet's half-built object type has none.

use std::rc::Rc;

use crate::dispatch::{entry, struct_of, Signature};
use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::regexp::Regexp;
use crate::ty::{AttributeKind, CallableType, Member, ObjectExtension, ObjectType, Type};
use crate::value::{ObjectValue, Value};

/// How many parents a chain may have before it is taken for a cycle.
const MAX_PARENTS: usize = 1000;

/// `Pcore::TYPE_MEMBER_NAME`.
const MEMBER_NAME: &str = r"\A[a-z_]\w*\z";
/// `Pcore::TYPE_QUALIFIED_REFERENCE`.
const QUALIFIED_REFERENCE: &str = r"\A[A-Z][\w]*(?:::[A-Z][\w]*)*\z";

fn pattern(source: &str) -> Type {
    Type::Pattern(Rc::from(vec![Rc::new(Regexp::new(source))]))
}

fn callable() -> Type {
    Type::Callable(Rc::new(CallableType { params: None, block: None, return_type: None }))
}

fn annotations_type() -> Type {
    Type::optional(Type::hash_of(Type::Type(None), Type::hash_of(pattern(MEMBER_NAME), Type::Any)))
}

/// `TYPE_OBJECT_I12N`: what an Object type's initialisation hash must be.
fn init_type() -> Type {
    let member = pattern(MEMBER_NAME);
    let not_undef = Type::NotUndef(None);
    let function_name =
        Type::variant(vec![member.clone(), Type::String(Some(crate::ty::StringParam::Value("[]".into())))]);
    struct_of(vec![
        entry("name", true, pattern(QUALIFIED_REFERENCE)),
        entry("parent", true, Type::Type(None)),
        entry("type_parameters", true, Type::hash_of(member.clone(), not_undef.clone())),
        entry("attributes", true, Type::hash_of(member.clone(), not_undef.clone())),
        entry("constants", true, Type::hash_of(member.clone(), Type::Any)),
        entry("functions", true, Type::hash_of(function_name, not_undef)),
        entry("equality", true, Type::variant(vec![member.clone(), Type::array_of(member)])),
        entry("equality_include_type", true, Type::Boolean(None)),
        entry("checks", true, Type::Any),
        entry("annotations", true, annotations_type()),
    ])
}

/// `TYPE_ATTRIBUTE`: an attribute given as a hash.
fn attribute_type() -> Type {
    let kinds = ["constant", "derived", "given_or_derived", "reference"];
    struct_of(vec![
        entry("type", false, Type::Type(None)),
        entry("final", true, Type::Boolean(None)),
        entry("override", true, Type::Boolean(None)),
        entry(
            "kind",
            true,
            Type::Enum { values: kinds.iter().map(|k| Rc::from(*k)).collect(), case_insensitive: false },
        ),
        // Puppet's key is required, but its Any value accepts undef: it may be left out.
        entry("value", true, Type::Any),
        entry("annotations", true, annotations_type()),
    ])
}

/// `TYPE_FUNCTION`: a function given as a hash.
fn function_type() -> Type {
    struct_of(vec![
        entry("type", false, Type::type_of(callable())),
        entry("final", true, Type::Boolean(None)),
        entry("override", true, Type::Boolean(None)),
        entry("annotations", true, annotations_type()),
    ])
}

/// `TypeAsserter.assert_instance_of(label, t, v)`.
fn assert_instance(label: &str, t: &Type, v: &Value) -> Result<()> {
    if is_instance(t, v) {
        return Ok(());
    }
    Err(Error::new(crate::mismatch::describe_value(&format!("{label} has wrong type,"), t, v)))
}

fn get<'h>(h: &'h crate::value::Hash, key: &str) -> Option<&'h Value> {
    h.get(&Value::from(key))
}

/// `label` of an Object type: its name, or `Object`.
pub fn label(o: &ObjectType) -> &str {
    object_label(o)
}

fn object_label(o: &ObjectType) -> &str {
    o.name.as_deref().unwrap_or("Object")
}

/// What a parent type stands for: aliases followed to the end.
#[derive(Clone)]
pub enum Parent {
    /// An Object type.
    Object(Rc<ObjectType>),
    /// An alias still being resolved (a cycle): no members yet.
    Pending(Rc<str>),
    /// A reference to a type that does not exist.
    Unresolved(Rc<str>),
    /// Some other type: it has no members.
    Other,
}

/// `resolved_parent`: the parent with its aliases followed.
pub fn resolved_parent(o: &ObjectType) -> Option<Parent> {
    o.parent.as_ref().map(resolve)
}

fn resolve(t: &Type) -> Parent {
    let mut t = t.clone();
    for _ in 0..MAX_PARENTS {
        let next = match &t {
            Type::Alias(a) if !a.is_resolved() => return Parent::Pending(a.name.clone()),
            Type::Alias(a) => a.resolved_type(),
            Type::Object(o) => return Parent::Object(o.clone()),
            Type::Reference(name) => return Parent::Unresolved(name.clone()),
            _ => return Parent::Other,
        };
        t = next;
    }
    Parent::Other
}

/// The Object type parent of `o`, if it has one.
pub fn parent_object(o: &ObjectType) -> Option<Rc<ObjectType>> {
    match resolved_parent(o)? {
        Parent::Object(p) => Some(p),
        _ => None,
    }
}

/// The Object types from the root of `o`'s chain down to `o`'s parent.
fn ancestors(o: &ObjectType) -> Vec<Rc<ObjectType>> {
    let mut chain = Vec::new();
    let mut next = parent_object(o);
    while let Some(p) = next {
        if chain.len() >= MAX_PARENTS {
            break;
        }
        next = parent_object(&p);
        chain.push(p);
    }
    chain.reverse();
    chain
}

/// A member found in a type's chain, with the label of the type that declares it.
#[derive(Clone, Debug)]
pub struct Found {
    pub container: Rc<str>,
    pub member: Member,
    pub is_function: bool,
}

impl Found {
    /// `attribute P[x]`, `function P[f]`, `type_parameter P[t]`.
    pub fn label(&self) -> String {
        let feature = if self.is_function { "function" } else { "attribute" };
        format!("{feature} {}[{}]", self.container, self.member.name)
    }
}

/// The members of `o` and its parents (`members(true)`, or attributes or functions only),
/// each once in the order of a Ruby hash merged from the root down: an overriding member
/// takes the place of the one it overrides.
fn collect(o: &ObjectType, attributes: bool, functions: bool) -> Vec<Found> {
    let mut all: Vec<Found> = Vec::new();
    let mut levels = ancestors(o);
    levels.push(Rc::new(o.clone()));
    for level in &levels {
        let container: Rc<str> = Rc::from(label(level));
        let own = level
            .attributes
            .iter()
            .filter(|_| attributes)
            .map(|m| (m, false))
            .chain(level.functions.iter().filter(|_| functions).map(|m| (m, true)));
        for (member, is_function) in own {
            let found = Found { container: container.clone(), member: member.clone(), is_function };
            match all.iter_mut().find(|f| f.member.name == member.name) {
                Some(slot) => *slot = found,
                None => all.push(found),
            }
        }
    }
    all
}

/// Every attribute of `o`, inherited ones first.
pub fn all_attributes(o: &ObjectType) -> Vec<Found> {
    collect(o, true, false)
}

/// The member `name` of `o` or of a parent (`PObjectType#[]`).
pub fn find_member(o: &ObjectType, name: &str) -> Option<Found> {
    collect(o, true, true).into_iter().find(|f| &*f.member.name == name)
}

/// The attributes that are arguments of `new`: neither constants nor derived.
fn init_attributes(o: &ObjectType) -> Vec<Found> {
    all_attributes(o)
        .into_iter()
        .filter(|f| !matches!(f.member.kind, Some(AttributeKind::Constant | AttributeKind::Derived)))
        .collect()
}

/// The arguments of `new` in their positional order: those without a value first.
fn parameters(o: &ObjectType) -> Vec<Found> {
    let (optional, required): (Vec<_>, Vec<_>) = init_attributes(o).into_iter().partition(|f| f.member.value.is_some());
    required.into_iter().chain(optional).collect()
}

/// `init_hash_type`: the Struct a hash given to `new` must match.
pub fn init_hash_type(o: &ObjectType) -> Type {
    struct_of(
        init_attributes(o)
            .iter()
            .map(|f| entry(&f.member.name, f.member.value.is_some(), f.member.ty.clone()))
            .collect(),
    )
}

// ---- building a type from its hash ------------------------------------------------------

/// `PObjectType#_pcore_init_from_hash`: the Object type `init` describes, named `name` when
/// given (a type alias's name wins over the hash's), with every check Puppet makes.
pub fn from_init_hash(name: Option<Rc<str>>, init: &Value) -> Result<ObjectType> {
    assert_instance("object initializer", &init_type(), init)?;
    let Value::Hash(h) = init else { return Ok(ObjectType::default()) };
    let mut o = ObjectType {
        name: name.or_else(|| get(h, "name").and_then(Value::as_str).map(Rc::from)),
        parent: get(h, "parent").and_then(|p| p.as_type().cloned()),
        equality_include_type: true,
        ..ObjectType::default()
    };
    let label: Rc<str> = Rc::from(object_label(&o));

    let mut parent_members: Vec<Found> = Vec::new();
    let mut parent_type_params: Vec<Found> = Vec::new();
    let mut parent_object = None;
    if o.parent.is_some() {
        check_self_recursion(&o)?;
        match resolved_parent(&o) {
            Some(Parent::Unresolved(name)) => {
                return Err(Error::new(format!("reference to unresolved type '{name}'")));
            }
            Some(Parent::Object(p)) => {
                parent_members = collect(&p, true, true);
                parent_type_params = type_parameters(&p);
                parent_object = Some(p);
            }
            _ => {}
        }
    }

    if let Some(Value::Hash(params)) = get(h, "type_parameters") {
        for (key, spec) in params.iter() {
            let key = Rc::from(key.as_str().unwrap_or_default());
            let (ty, value) = match spec {
                Value::Hash(spec) => {
                    (get(spec, "type").and_then(|t| t.as_type().cloned()), get(spec, "value").cloned())
                }
                _ => {
                    assert_instance(&format!("type_parameter {label}[{key}]"), &Type::Type(None), spec)?;
                    (spec.as_type().cloned(), None)
                }
            };
            let ty = match ty.unwrap_or(Type::Any) {
                t @ Type::Optional(_) => t,
                t => Type::optional(t),
            };
            let member =
                Member { name: key, ty, kind: None, value, is_final: false, is_override: false, annotations: None };
            let found = Found { container: label.clone(), member, is_function: false };
            assert_override(&found, &parent_type_params, "type_parameter")?;
            o.type_parameters.push(found.member);
        }
    }

    // The attributes, then the constants as attributes of kind constant.
    let mut specs: Vec<(Rc<str>, Value)> = Vec::new();
    if let Some(Value::Hash(attributes)) = get(h, "attributes") {
        specs.extend(attributes.iter().map(|(k, v)| (Rc::from(k.as_str().unwrap_or_default()), v.clone())));
    }
    if let Some(Value::Hash(constants)) = get(h, "constants") {
        for (key, value) in constants.iter() {
            let key: Rc<str> = Rc::from(key.as_str().unwrap_or_default());
            if specs.iter().any(|(k, _)| *k == key) {
                return Err(Error::new(format!(
                    "attribute {label}[{key}] is defined as both a constant and an attribute"
                )));
            }
            let mut spec = crate::value::Hash::default();
            spec.insert(Value::from("type"), Value::ty(crate::infer::generalize(&crate::infer::infer(value))));
            spec.insert(Value::from("value"), value.clone());
            spec.insert(Value::from("kind"), Value::from("constant"));
            let overrides = parent_members.iter().any(|f| f.member.name == key);
            spec.insert(Value::from("override"), Value::Boolean(overrides));
            specs.push((key, Value::Hash(Rc::new(spec))));
        }
    }
    for (key, spec) in specs {
        let member = attribute(&label, &key, &spec)?;
        let found = Found { container: label.clone(), member, is_function: false };
        assert_override(&found, &parent_members, "attribute")?;
        o.attributes.push(found.member);
    }

    if let Some(Value::Hash(functions)) = get(h, "functions") {
        for (key, spec) in functions.iter() {
            let key: Rc<str> = Rc::from(key.as_str().unwrap_or_default());
            let spec = match spec {
                Value::Hash(_) => spec.clone(),
                _ => {
                    assert_instance(&format!("function {label}[{key}]"), &Type::type_of(callable()), spec)?;
                    let mut h = crate::value::Hash::default();
                    h.insert(Value::from("type"), spec.clone());
                    Value::Hash(Rc::new(h))
                }
            };
            assert_instance(&format!("initializer for function '{key}'"), &function_type(), &spec)?;
            let Value::Hash(spec) = &spec else { continue };
            let member = Member {
                name: key.clone(),
                ty: get(spec, "type").and_then(|t| t.as_type().cloned()).unwrap_or_else(callable),
                kind: None,
                value: None,
                is_final: get(spec, "final").is_some_and(|v| matches!(v, Value::Boolean(true))),
                is_override: get(spec, "override").is_some_and(|v| matches!(v, Value::Boolean(true))),
                annotations: get(spec, "annotations").cloned(),
            };
            let found = Found { container: label.clone(), member, is_function: true };
            if o.attributes.iter().any(|a| a.name == key) {
                return Err(Error::new(format!("{} conflicts with attribute with the same name", found.label())));
            }
            assert_override(&found, &parent_members, "function")?;
            o.functions.push(found.member);
        }
    }

    if let Some(Value::Boolean(b)) = get(h, "equality_include_type") {
        o.equality_include_type = *b;
    }
    let equality = match get(h, "equality") {
        Some(Value::String(s)) => Some(vec![s.clone()]),
        Some(Value::Array(names)) => Some(names.iter().filter_map(|n| n.as_str().map(Rc::from)).collect()),
        _ => None,
    };
    if let Some(names) = &equality {
        check_equality(&o, &label, names, &parent_members, parent_object.as_deref())?;
    }
    o.equality = equality;
    o.checks = get(h, "checks").cloned();
    o.annotations = get(h, "annotations").cloned();
    Ok(o)
}

/// `PAttribute#initialize`: an attribute from its specification (a type, or a hash).
fn attribute(container: &str, name: &Rc<str>, spec: &Value) -> Result<Member> {
    let label = format!("attribute {container}[{name}]");
    let spec = match spec {
        Value::Hash(h) => h.clone(),
        _ => {
            assert_instance(&label, &Type::Type(None), spec)?;
            let mut h = crate::value::Hash::default();
            h.insert(Value::from("type"), spec.clone());
            if matches!(spec.as_type(), Some(Type::Optional(_))) {
                h.insert(Value::from("value"), Value::Undef);
            }
            Rc::new(h)
        }
    };
    assert_instance(&format!("initializer for {label}"), &attribute_type(), &Value::Hash(spec.clone()))?;
    if &**name == "__ptype" || &**name == "__pvalue" {
        return Err(Error::new(format!("The attribute '{name}' is reserved and cannot be used")));
    }
    let ty = get(&spec, "type").and_then(|t| t.as_type().cloned()).unwrap_or(Type::Any);
    let flag = |key: &str| get(&spec, key).and_then(|v| if let Value::Boolean(b) = v { Some(*b) } else { None });
    let kind = match get(&spec, "kind").and_then(Value::as_str) {
        Some("constant") => Some(AttributeKind::Constant),
        Some("derived") => Some(AttributeKind::Derived),
        Some("given_or_derived") => Some(AttributeKind::GivenOrDerived),
        Some("reference") => Some(AttributeKind::Reference),
        _ => None,
    };
    let mut is_final = flag("final").unwrap_or(false);
    if kind == Some(AttributeKind::Constant) {
        if flag("final") == Some(false) {
            return Err(Error::new(format!("{label} of kind 'constant' cannot be combined with final => false")));
        }
        is_final = true;
    }
    let value = match get(&spec, "value") {
        Some(v) => {
            if let Some(k @ (AttributeKind::Derived | AttributeKind::GivenOrDerived)) = kind {
                return Err(Error::new(format!(
                    "{label} of kind '{}' cannot be combined with an attribute value",
                    k.as_str()
                )));
            }
            if !matches!(v, Value::Default) {
                assert_instance(&format!("{label} value"), &ty, v)?;
            }
            Some(v.clone())
        }
        None if kind == Some(AttributeKind::Constant) => {
            return Err(Error::new(format!("{label} of kind 'constant' requires a value")));
        }
        None => None,
    };
    Ok(Member {
        name: name.clone(),
        ty,
        kind,
        value,
        is_final,
        is_override: flag("override").unwrap_or(false),
        annotations: get(&spec, "annotations").cloned(),
    })
}

/// `assert_override`: a member that overrides an inherited one must say so, and may.
fn assert_override(member: &Found, parents: &[Found], feature: &str) -> Result<()> {
    let label = |f: &Found| {
        if feature == "type_parameter" {
            format!("type_parameter {}[{}]", f.container, f.member.name)
        } else {
            f.label()
        }
    };
    let Some(parent) = parents.iter().find(|p| p.member.name == member.member.name) else {
        if member.member.is_override {
            return Err(Error::new(format!(
                "expected {} to override an inherited {feature}, but no such {feature} was found",
                label(member)
            )));
        }
        return Ok(());
    };
    let (this, that) = (label(member), label(parent));
    if parent.is_function != member.is_function {
        return Err(Error::new(format!("{this} attempts to override {that}")));
    }
    let constant = |f: &Found| f.member.kind == Some(AttributeKind::Constant);
    if parent.member.is_final && !(constant(parent) && constant(member)) {
        return Err(Error::new(format!("{this} attempts to override final {that}")));
    }
    if !member.member.is_override {
        return Err(Error::new(format!("{this} attempts to override {that} without having override => true")));
    }
    if !crate::assignable::is_assignable(&parent.member.ty, &member.member.ty) {
        return Err(Error::new(format!("{this} attempts to override {that} with a type that does not match")));
    }
    Ok(())
}

/// `check_self_recursion`: no type in the parent chain is the one being defined.
fn check_self_recursion(o: &ObjectType) -> Result<()> {
    let Some(name) = o.name.as_deref() else { return Ok(()) };
    let mut next = o.parent.clone();
    for _ in 0..MAX_PARENTS {
        let Some(t) = next else { return Ok(()) };
        next = match &t {
            Type::Alias(a) if &*a.name == name => None,
            Type::Alias(a) if a.is_resolved() => Some(a.resolved_type()),
            Type::Object(p) if p.name.as_deref() == Some(name) => None,
            Type::Object(p) => {
                next = p.parent.clone();
                if next.is_none() {
                    return Ok(());
                }
                continue;
            }
            _ => return Ok(()),
        };
        if next.is_none() {
            return Err(Error::new(format!("The Object type '{name}' inherits from itself")));
        }
    }
    Ok(())
}

/// The checks of `equality`: each name an attribute of this type, not a constant, not one
/// a parent's equality includes.
fn check_equality(
    o: &ObjectType,
    label: &str,
    names: &[Rc<str>],
    parent_members: &[Found],
    parent: Option<&ObjectType>,
) -> Result<()> {
    if names.is_empty() {
        return Ok(());
    }
    if !o.equality_include_type {
        return Err(Error::new(
            "equality_include_type = false cannot be combined with non empty equality specification",
        ));
    }
    for name in names {
        let inherited = parent_members.iter().find(|f| f.member.name == *name);
        let found = match inherited {
            Some(f) if !f.is_function => {
                let parent = parent.ok_or_else(|| Error::new("no parent"))?;
                if equality_attributes(parent).iter().any(|a| a.member.name == *name) {
                    let definer = equality_definer(parent, name);
                    return Err(Error::new(format!(
                        "{label} equality is referencing {} which is included in equality of {definer}",
                        f.label()
                    )));
                }
                Some(f.clone())
            }
            Some(f) => Some(f.clone()),
            None => {
                let own = |members: &[Member], is_function| {
                    members.iter().find(|m| m.name == *name).map(|m| Found {
                        container: Rc::from(label),
                        member: m.clone(),
                        is_function,
                    })
                };
                own(&o.attributes, false).or_else(|| own(&o.functions, true))
            }
        };
        match found {
            None => {
                return Err(Error::new(format!("{label} equality is referencing non existent attribute '{name}'")));
            }
            Some(f) if f.is_function => {
                return Err(Error::new(format!(
                    "{label} equality is referencing {}. Only attribute references are allowed",
                    f.label()
                )));
            }
            Some(f) if f.member.kind == Some(AttributeKind::Constant) => {
                return Err(Error::new(format!(
                    "{label} equality is referencing constant {}. Reference to constant is not allowed in equality",
                    f.label()
                )));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `find_equality_definer_of`: the topmost type whose equality includes `name`.
fn equality_definer(o: &ObjectType, name: &str) -> String {
    let mut t = Rc::new(o.clone());
    for _ in 0..MAX_PARENTS {
        match parent_object(&t) {
            Some(p) if equality_attributes(&p).iter().any(|a| &*a.member.name == name) => t = p,
            _ => break,
        }
    }
    label(&t).to_owned()
}

/// `equality_attributes`: the attributes instances are compared by, inherited ones included.
pub fn equality_attributes(o: &ObjectType) -> Vec<Found> {
    let mut levels = ancestors(o);
    levels.push(Rc::new(o.clone()));
    let mut all: Vec<Found> = Vec::new();
    for level in &levels {
        let container: Rc<str> = Rc::from(label(level));
        let own: Vec<&Member> = match &level.equality {
            None => level.attributes.iter().filter(|a| a.kind != Some(AttributeKind::Constant)).collect(),
            Some(names) => names.iter().filter_map(|n| level.attributes.iter().find(|a| a.name == *n)).collect(),
        };
        for m in own {
            let found = Found { container: container.clone(), member: m.clone(), is_function: false };
            match all.iter_mut().find(|f| f.member.name == m.name) {
                Some(slot) => *slot = found,
                None => all.push(found),
            }
        }
    }
    all
}

/// The type parameters of `o` and its parents.
fn type_parameters(o: &ObjectType) -> Vec<Found> {
    let mut levels = ancestors(o);
    levels.push(Rc::new(o.clone()));
    let mut all: Vec<Found> = Vec::new();
    for level in &levels {
        for m in &level.type_parameters {
            all.retain(|f| f.member.name != m.name);
            all.push(Found { container: Rc::from(label(level)), member: m.clone(), is_function: false });
        }
    }
    all
}

// ---- instances --------------------------------------------------------------------------

/// The signatures of `new_T`: from a hash, then positionally.
pub(crate) fn signatures(o: &ObjectType) -> Vec<Signature> {
    let mut create = Signature::empty();
    for f in parameters(o) {
        create = create.param(&f.member.name, f.member.ty.clone(), f.member.value.is_none());
    }
    vec![Signature::empty().param("hash", init_hash_type(o), true), create]
}

/// `T.new(args...)` for an Object type: the instance, or the errors of `new_T`'s dispatch.
pub fn new_object(o: &Rc<ObjectType>, args: &[Value]) -> Result<Value> {
    let Some(name) = o.name.as_deref() else {
        // Puppet names the function after the type's name, which an anonymous type lacks.
        return Err(Error::new(
            "undefined method `sub' for nil:NilClass\n\n          substituted = name.sub(*subst)\n                            ^^^^",
        ));
    };
    let signatures = signatures(o);
    let chosen = crate::dispatch::select_signature(&format!("new_{name}"), &signatures, args, None)?;
    let params = parameters(o);
    let given: Vec<Option<Value>> = match (chosen, args.first()) {
        (0, Some(Value::Hash(h))) => params.iter().map(|f| get(h, &f.member.name).cloned()).collect(),
        _ => params.iter().enumerate().map(|(i, _)| args.get(i).cloned()).collect(),
    };
    check_initializers(o)?;
    let mut values: Vec<(Rc<str>, Value)> = Vec::with_capacity(params.len());
    for f in init_attributes(o) {
        let index = params.iter().position(|p| p.member.name == f.member.name);
        let value = match index.and_then(|i| given.get(i).cloned().flatten()) {
            Some(v) => v,
            None => f.member.value.clone().unwrap_or(Value::Undef),
        };
        values.push((f.member.name.clone(), value));
    }
    Ok(Value::Object(Rc::new(ObjectValue { ty: o.clone(), values })))
}

/// The generated initializers call their parent's with the arguments of the attributes
/// the parent declares and the child does not override: a parent's required attribute that
/// a child overrides leaves the parent's initializer short of an argument (Ruby's
/// `ArgumentError`).
fn check_initializers(o: &ObjectType) -> Result<()> {
    let mut child = Rc::new(o.clone());
    for _ in 0..MAX_PARENTS {
        let Some(parent) = parent_object(&child) else { return Ok(()) };
        let child_label = label(&child);
        let passed = parameters(&child).iter().filter(|f| &*f.container != child_label).count();
        let expected = parameters(&parent);
        let required = expected.iter().filter(|f| f.member.value.is_none()).count();
        if passed < required || passed > expected.len() {
            let range = if required == expected.len() {
                required.to_string()
            } else {
                format!("{required}..{}", expected.len())
            };
            return Err(Error::new(format!("wrong number of arguments (given {passed}, expected {range})")));
        }
        child = parent;
    }
    Ok(())
}

impl ObjectValue {
    /// The value of attribute `name` as an instance stores it.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| &**n == name).map(|(_, v)| v)
    }

    /// `_pcore_init_hash`: the attributes whose values differ from their defaults, in the
    /// order each type of the chain adds its own.
    pub fn init_hash(&self) -> Vec<(Rc<str>, Value)> {
        all_attributes(&self.ty)
            .into_iter()
            .filter(|f| !matches!(f.member.kind, Some(AttributeKind::Constant | AttributeKind::Derived)))
            .filter_map(|f| {
                let v = self.get(&f.member.name)?.clone();
                match &f.member.value {
                    Some(default) if default.puppet_eq(&v) => None,
                    _ => Some((f.member.name.clone(), v)),
                }
            })
            .collect()
    }
}

/// The generated `eql?`: each type of the chain that defines one compares the concrete
/// types (the topmost that includes the type) and its own equality attributes, then calls
/// its parent's; above the topmost that defines one is Ruby's identity, unless that one is
/// the root (which calls no parent). A chain that defines none compares identity.
pub fn instances_equal(a: &ObjectValue, b: &ObjectValue) -> bool {
    let mut levels = ancestors(&a.ty);
    levels.push(a.ty.clone());
    let mut topmost = None;
    let mut parent_includes_type = false;
    for (depth, level) in levels.iter().enumerate() {
        let own_eq: Vec<Rc<str>> = match &level.equality {
            Some(names) => names.clone(),
            None => level
                .attributes
                .iter()
                .filter(|m| m.kind != Some(AttributeKind::Constant))
                .map(|m| m.name.clone())
                .collect(),
        };
        let include_type = level.equality_include_type && !parent_includes_type;
        parent_includes_type = level.equality_include_type;
        if own_eq.is_empty() && !include_type {
            continue;
        }
        topmost.get_or_insert(depth);
        if include_type && a.ty != b.ty {
            return false;
        }
        if !own_eq.iter().all(|n| a.get(n) == b.get(n)) {
            return false;
        }
    }
    match topmost {
        Some(0) => true,
        _ => std::ptr::eq(a, b),
    }
}

/// What an instance hashes by: its type's name and its equality attributes.
pub fn hash_instance<H: std::hash::Hasher>(v: &ObjectValue, state: &mut H) {
    use std::hash::Hash;
    v.ty.name.hash(state);
    for f in equality_attributes(&v.ty) {
        v.get(&f.member.name).hash(state);
    }
}

// ---- printing ---------------------------------------------------------------------------

/// The entries of an Object type's `_pcore_init_hash` as `TypeFormatter` prints them:
/// `(key, written value)`; the values of `attributes` and `functions` are member hashes.
pub enum Entry<'a> {
    Name(&'a str),
    Parent(&'a Type),
    Members(&'static str, Vec<(Rc<str>, MemberForm<'a>)>),
    Constants(Vec<(Rc<str>, &'a Value)>),
    Equality(&'a [Rc<str>]),
    Value(&'static str, &'a Value),
}

/// A member in a type's hash: its type alone, or its hash of options.
pub enum MemberForm<'a> {
    Type(&'a Type),
    Hash(Vec<(&'static str, MemberOption<'a>)>),
}

pub enum MemberOption<'a> {
    Type(&'a Type),
    Bool(bool),
    Kind(&'static str),
    Value(&'a Value),
}

/// `PObjectType#_pcore_init_hash`, in Puppet's order.
pub fn init_hash_entries(o: &ObjectType) -> Vec<Entry<'_>> {
    let mut out = Vec::new();
    if let Some(a) = &o.annotations {
        out.push(Entry::Value("annotations", a));
    }
    if let Some(name) = o.name.as_deref() {
        out.push(Entry::Name(name));
    }
    if let Some(p) = &o.parent {
        out.push(Entry::Parent(p));
    }
    if !o.type_parameters.is_empty() {
        let params = o
            .type_parameters
            .iter()
            .map(|m| {
                let ty = match &m.ty {
                    Type::Optional(Some(inner)) => &**inner,
                    t => t,
                };
                let form = match &m.value {
                    Some(v) if !v.is_undef() => {
                        MemberForm::Hash(vec![("type", MemberOption::Type(ty)), ("value", MemberOption::Value(v))])
                    }
                    _ => MemberForm::Type(ty),
                };
                (m.name.clone(), form)
            })
            .collect();
        out.push(Entry::Members("type_parameters", params));
    }
    let (constants, others): (Vec<&Member>, Vec<&Member>) = o.attributes.iter().partition(|a| {
        a.kind == Some(AttributeKind::Constant)
            && a.value.as_ref().is_some_and(|v| crate::infer::generalize(&crate::infer::infer(v)) == a.ty)
    });
    if !others.is_empty() {
        out.push(Entry::Members("attributes", others.into_iter().map(|m| (m.name.clone(), member_form(m))).collect()));
    }
    if !constants.is_empty() {
        out.push(Entry::Constants(
            constants.into_iter().filter_map(|m| Some((m.name.clone(), m.value.as_ref()?))).collect(),
        ));
    }
    if !o.functions.is_empty() {
        out.push(Entry::Members("functions", o.functions.iter().map(|m| (m.name.clone(), member_form(m))).collect()));
    }
    if let Some(e) = &o.equality {
        out.push(Entry::Equality(e));
    }
    if let Some(c) = &o.checks {
        out.push(Entry::Value("checks", c));
    }
    out
}

/// A member's `_pcore_init_hash`, compressed to its type when that is all it has.
fn member_form(m: &Member) -> MemberForm<'_> {
    let mut options = vec![("type", MemberOption::Type(&m.ty))];
    if m.is_final && m.kind != Some(AttributeKind::Constant) {
        options.push(("final", MemberOption::Bool(true)));
    }
    if m.is_override {
        options.push(("override", MemberOption::Bool(true)));
    }
    if let Some(a) = &m.annotations {
        options.push(("annotations", MemberOption::Value(a)));
    }
    if let Some(k) = m.kind {
        options.push(("kind", MemberOption::Kind(k.as_str())));
    }
    if let Some(v) = &m.value {
        options.push(("value", MemberOption::Value(v)));
    }
    if options.len() == 1 {
        MemberForm::Type(&m.ty)
    } else {
        MemberForm::Hash(options)
    }
}

// ---- type parameters (`T['x']`) ---------------------------------------------------------

/// `PObjectTypeExtension.new(base, keys)`: `T[values...]` or `T[{name => value}]`.
pub fn extend(base: &Rc<ObjectType>, keys: &[Value]) -> Result<Type> {
    let label = label(base);
    let params = type_parameters(base);
    if params.is_empty() {
        return Err(Error::new(format!("The {label}-Type cannot be parameterized using []")));
    }
    let check = |p: &Found, v: &Value| -> Result<Value> {
        let what = format!("type_parameter {}[{}]", p.container, p.member.name);
        assert_instance(&what, &p.member.ty, v)?;
        Ok(v.clone())
    };
    let named = match keys {
        [Value::Hash(_)] => !is_instance(&params[0].member.ty, &keys[0]),
        _ => false,
    };
    let mut given: Vec<(Rc<str>, Value)> = Vec::new();
    if let (true, [Value::Hash(h)]) = (named, keys) {
        for (name, v) in h.iter() {
            let name = name.as_str().unwrap_or_default();
            let Some(p) = params.iter().find(|p| &*p.member.name == name) else {
                return Err(Error::new(format!("'{name}' is not a known type parameter for {label}-Type")));
            };
            if !matches!(v, Value::Default) {
                given.push((p.member.name.clone(), check(p, v)?));
            }
        }
    } else {
        for (p, v) in params.iter().zip(keys) {
            if !matches!(v, Value::Default) {
                given.push((p.member.name.clone(), check(p, v)?));
            }
        }
    }
    if given.is_empty() {
        return Err(Error::new(format!("The {label}-Type cannot be parameterized using an empty parameter list")));
    }
    // In the order of the type parameters.
    let order = |n: &Rc<str>| params.iter().position(|p| p.member.name == *n).unwrap_or(usize::MAX);
    given.sort_by_key(|(n, _)| order(n));
    Ok(Type::ObjectExtension(Rc::new(ObjectExtension { base: base.clone(), parameters: given })))
}

/// `init_parameters`: the values by position (`default` for one not given, trailing ones
/// left out), or by name when the type has more than two parameters.
pub fn init_parameters(e: &ObjectExtension) -> Value {
    let params = type_parameters(&e.base);
    if params.len() > 2 {
        let mut h = crate::value::Hash::default();
        for (n, v) in &e.parameters {
            h.insert(Value::String(n.clone()), v.clone());
        }
        return Value::Hash(Rc::new(h));
    }
    let mut values: Vec<Value> = params
        .iter()
        .map(|p| e.parameters.iter().find(|(n, _)| *n == p.member.name).map_or(Value::Default, |(_, v)| v.clone()))
        .collect();
    while matches!(values.last(), Some(Value::Default)) {
        values.pop();
    }
    Value::array(values)
}

/// `PObjectTypeExtension#instance?`: an instance of the base type whose attributes named by
/// the parameters match them.
pub fn extension_instance(e: &ObjectExtension, v: &Value) -> bool {
    let Value::Object(o) = v else { return false };
    is_instance(&Type::Object(e.base.clone()), v)
        && e.parameters.iter().all(|(name, p)| match o.get(name) {
            Some(a) => crate::compare::match_value(a, p),
            None => find_member(&o.ty, name)
                .and_then(|f| f.member.value.filter(|_| f.member.kind == Some(AttributeKind::Constant)))
                .is_some_and(|a| crate::compare::match_value(&a, p)),
        })
}

/// `PObjectTypeExtension#_assignable?`: the base types assignable and each parameter
/// matched by the other's (a value matching it, or a type it accepts).
pub fn extension_assignable(e: &ObjectExtension, o: &Type) -> bool {
    let base = Type::Object(e.base.clone());
    let (other_base, other_params): (Type, &[(Rc<str>, Value)]) = match o {
        Type::ObjectExtension(x) => (Type::Object(x.base.clone()), &x.parameters),
        other => (other.clone(), &[]),
    };
    crate::assignable::is_assignable(&base, &other_base)
        && e.parameters.iter().all(|(name, b)| match other_params.iter().find(|(n, _)| n == name) {
            Some((_, a)) => {
                crate::compare::match_value(a, b)
                    || matches!((a, b), (Value::Type(a), Value::Type(b)) if crate::assignable::is_assignable(b, a))
            }
            None => false,
        })
}

/// The type of an instance: its Object type, with the values of its type parameters when
/// it has some (`create_from_instance`).
pub fn infer_instance(v: &ObjectValue) -> Type {
    let params = type_parameters(&v.ty);
    if params.is_empty() {
        return Type::Object(v.ty.clone());
    }
    let attributes = all_attributes(&v.ty);
    let parameters: Vec<(Rc<str>, Value)> = params
        .iter()
        .filter(|p| attributes.iter().any(|a| a.member.name == p.member.name))
        .map(|p| (p.member.name.clone(), v.get(&p.member.name).cloned().unwrap_or(Value::Undef)))
        .collect();
    Type::ObjectExtension(Rc::new(ObjectExtension { base: v.ty.clone(), parameters }))
}
