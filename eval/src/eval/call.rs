//! Calls: of functions (built-in and user-defined), of methods (`$x.f(y)` is `f($x, y)`), of
//! types (`Integer('1')` is `new(Integer, '1')`), and of lambdas given as blocks.

use std::cell::OnceCell;
use std::rc::Rc;

use indexmap::IndexMap;
use puppet_syntax::ast::{CallKind, Expr, ExprKind, Lambda, Parameter};
use puppet_syntax::{epp, Span};
use puppet_types::dispatch::{select_signature, Signature};
use puppet_types::ty::{CallableType, Size};
use puppet_types::value::Callable;
use puppet_types::{Type, Value};

use super::Evaluator;
use crate::error::{fail, fail_at, Eval, Flow};
use crate::functions::Call;
use crate::scope::Scope;

/// A Puppet-language function (`function f(Integer $x) >> Integer { ... }`).
pub struct FunctionDef {
    pub name: String,
    pub parameters: Vec<Parameter>,
    pub body: Option<Expr>,
    pub return_type: Option<Expr>,
    /// The manifest it is defined in (a module's `functions/*.pp`): its body's errors and
    /// calls are placed there. `None` for the program's own functions.
    pub file: Option<Rc<str>>,
    names: Rc<[Rc<str>]>,
    /// The parameter types, the signature and the return type, evaluated at the first call
    /// that gets that far.
    prepared: OnceCell<Rc<Prepared>>,
}

struct Prepared {
    types: Rc<[Type]>,
    signature: Signature,
    return_type: Option<Type>,
}

impl FunctionDef {
    pub fn new(
        name: &str,
        parameters: &[Parameter],
        body: Option<&Expr>,
        return_type: Option<&Expr>,
        file: Option<Rc<str>>,
    ) -> FunctionDef {
        FunctionDef {
            name: name.to_string(),
            parameters: parameters.to_vec(),
            body: body.cloned(),
            return_type: return_type.cloned(),
            file,
            names: parameter_names(parameters),
            prepared: OnceCell::new(),
        }
    }
}

fn parameter_names(parameters: &[Parameter]) -> Rc<[Rc<str>]> {
    parameters.iter().map(|p| Rc::from(p.name.as_str())).collect()
}

/// A lambda with the scope it was written in.
pub struct Closure {
    pub lambda: Rc<Lambda>,
    pub scope: Rc<Scope>,
    pub types: Rc<[Type]>,
    /// The declared return type (`|$x| >> String { ... }`), checked against each value the
    /// lambda returns, however it is called.
    return_type: Option<Rc<Type>>,
    names: Rc<[Rc<str>]>,
    /// Whether some parameter has a type other than Any (its values are then checked).
    typed: bool,
    /// The body is `$first + X` (or `-`, `<<`) with `$first` nowhere else and no break():
    /// the accumulator idiom, evaluated updating the first argument in place.
    consumes_first: bool,
    id: usize,
}

impl Closure {
    /// How many parameters the lambda declares (a captures-rest parameter included).
    pub fn parameter_count(&self) -> usize {
        self.lambda.parameters.len()
    }

    /// Whether its last parameter captures the rest (`*$rest`).
    pub fn captures_rest(&self) -> bool {
        self.lambda.parameters.last().is_some_and(|p| p.captures_rest)
    }

    fn signature(&self) -> Signature {
        parameters_signature(&self.lambda.parameters, &self.types)
    }
}

impl Callable for Closure {
    fn signature(&self) -> Type {
        let s = Closure::signature(self);
        Type::Callable(Rc::new(CallableType {
            params: Some(Rc::new(s.params)),
            block: None,
            return_type: self.return_type.clone(),
        }))
    }
    fn name(&self) -> &str {
        "lambda"
    }
    fn identity(&self) -> usize {
        self.id
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The signature of a parameter list: required up to the last parameter without a default,
/// unbounded when the last captures the rest.
fn parameters_signature(parameters: &[Parameter], types: &[Type]) -> Signature {
    let names: Vec<&str> = parameters.iter().map(|p| p.name.as_str()).collect();
    let required = parameters.iter().filter(|p| p.value.is_none() && !p.captures_rest).count() as i64;
    let rest = parameters.last().is_some_and(|p| p.captures_rest);
    let size = Size::new(required, if rest { None } else { Some(parameters.len() as i64) });
    Signature::new(&names, Type::Tuple { types: Rc::from(types), size: Some(size) })
}

impl Evaluator {
    pub(super) fn call(&mut self, e: &Expr) -> Eval<Value> {
        let ExprKind::Call { kind, functor, arguments, lambda, .. } = &e.kind else {
            return Err(fail_at("not a call", e.at));
        };
        match (kind, &functor.kind) {
            (CallKind::Method, ExprKind::NamedAccess { left, right }) => {
                // The receiver is unfolded as an argument is: `(*$a).f(x)` is `f(*$a, x)`.
                let mut args = self.eval_list(std::slice::from_ref(left))?;
                let ExprKind::QualifiedName(name) = &right.kind else {
                    return Err(fail_at("A method name must be a simple name", right.at));
                };
                let receiver = args.first().cloned().unwrap_or(Value::Undef);
                if let Some(result) = self.object_member(&receiver, name, arguments, lambda.is_some(), e.at) {
                    return result;
                }
                args.extend(self.eval_list(arguments)?);
                let block = self.block(lambda.as_ref())?;
                self.call_function(name, args, block, e.at, "Method call")
            }
            (CallKind::Function, ExprKind::QualifiedName(name)) => {
                if !self.epp_output.is_empty() && (name == epp::TEXT || name == epp::RENDER) {
                    return self.template_part(name, arguments);
                }
                let args = self.eval_list(arguments)?;
                let block = self.block(lambda.as_ref())?;
                self.call_function(name, args, block, e.at, "Function Call")
            }
            (CallKind::Function, ExprKind::QualifiedReference(_) | ExprKind::Access { .. }) => {
                let target = self.eval(functor)?;
                let mut args = vec![target];
                args.extend(self.eval_list(arguments)?);
                let block = self.block(lambda.as_ref())?;
                self.call_function("new", args, block, e.at, "Function Call")
            }
            _ => Err(fail_at("Illegal function call: the functor is not a name", e.at)),
        }
    }

    /// A text part or a `<%= %>` expression of the EPP template being rendered: appended to
    /// its output (a value as interpolation renders it).
    fn template_part(&mut self, name: &str, arguments: &[Expr]) -> Eval<Value> {
        let value = match arguments.first() {
            Some(e) => self.eval(e)?,
            None => Value::Undef,
        };
        if let Some((out, sensitive)) = self.epp_output.last_mut() {
            match &value {
                _ if name == epp::TEXT => out.push_str(value.as_str().unwrap_or_default()),
                // A Sensitive value renders as what it wraps, and makes the whole result
                // Sensitive (`eval_EppExpression`).
                Value::Sensitive(inner) => {
                    *sensitive = true;
                    super::interpolate_into(out, inner);
                }
                _ => super::interpolate_into(out, &value),
            }
        }
        Ok(Value::Undef)
    }

    /// Renders a parsed template in a scope local to `scope`, with the given parameters
    /// (bound as the template's declared parameters, as a lambda's by name; or, when it
    /// declares none, as variables). Errors in its code name `file` and the template's lines.
    pub(crate) fn render_template(
        &mut self,
        template: &epp::Template,
        file: Rc<str>,
        scope: Rc<Scope>,
        given: Option<&puppet_types::value::Hash>,
    ) -> Eval<Value> {
        // As Puppet's `EppEvaluator`: a key naming a variable with `::` is no argument but a
        // variable set in the calling scope (a leading `::` dropped)
        let arguments;
        let given = match given {
            Some(h) if h.keys().any(|k| k.as_str().is_some_and(|k| k.contains("::"))) => {
                let mut rest = puppet_types::value::Hash::default();
                for (k, v) in h.iter() {
                    match k.as_str().filter(|k| k.contains("::")) {
                        Some(name) => self.scope.replace(name.strip_prefix("::").unwrap_or(name), v.clone()),
                        None => {
                            rest.insert(k.clone(), v.clone());
                        }
                    }
                }
                arguments = rest;
                Some(&arguments)
            }
            other => other,
        };
        let saved_scope = std::mem::replace(&mut self.scope, Scope::local(&scope));
        let saved_file = self.loader.current_file.replace(file.clone());
        let saved_positions = self.epp_positions.replace((file.clone(), Rc::new(template.positions())));
        self.epp_output.push((String::new(), false));
        let result = self.with_function_match_frames(|ev| {
            match (&template.parameters, given) {
                (Some(parameters), _) => {
                    // As Puppet's `call_by_name`: an undef value is no argument (a parameter
                    // given undef takes its default, or undef); any other value, a
                    // parameter's or not, is visible to the defaults, and a name that is no
                    // parameter is then refused.
                    let given: IndexMap<Rc<str>, Value> = given
                        .map(|h| {
                            h.iter()
                                .filter_map(|(k, v)| Some((Rc::from(k.as_str()?), v.clone())))
                                .filter(|(k, v)| !v.is_undef() || parameters.iter().any(|p| p.name == **k))
                                .collect()
                        })
                        .unwrap_or_default();
                    for (k, v) in &given {
                        if !v.is_undef() && !parameters.iter().any(|p| p.name == **k) {
                            ev.scope.bind(k.clone(), v.clone());
                        }
                    }
                    ev.bind_definition_parameters(parameters, given, "lambda", false)?;
                }
                (None, Some(h)) => {
                    for (k, v) in h.iter() {
                        if let Some(k) = k.as_str() {
                            ev.scope.bind(k.into(), v.clone());
                        }
                    }
                }
                (None, None) => {}
            }
            match &template.body {
                Some(body) => ev.eval(body).map(drop),
                None => Ok(()),
            }
        });
        let (out, sensitive) = self.epp_output.pop().unwrap_or_default();
        self.scope = saved_scope;
        self.loader.current_file = saved_file;
        self.epp_positions = saved_positions;
        match result {
            Ok(()) if sensitive => Ok(Value::Sensitive(Rc::new(Value::from(out.as_str())))),
            Ok(()) => Ok(Value::from(out.as_str())),
            Err(Flow::Error(mut e)) if e.file.is_none() && !e.bare => {
                if let Some(at) = e.at {
                    let (line, column) = template.template_position(at);
                    e.at = Some(Span { line, column, ..at });
                    e.file = Some(file);
                }
                Err(Flow::Error(e))
            }
            Err(other) => Err(other),
        }
    }

    /// A method call naming an attribute of a Pcore object (`$err.issue_code`,
    /// `$err.message`, `$deferred.name`, `$uri.host`), or `None` when the receiver is no such
    /// object or the name is not one of its attributes (a function is called with the object
    /// then).
    fn object_member(
        &mut self,
        receiver: &Value,
        name: &str,
        arguments: &[Expr],
        block: bool,
        at: Span,
    ) -> Option<Eval<Value>> {
        if let Value::Uri(uri) = receiver {
            // Puppet's URI object evaluates the arguments and ignores them, and the block.
            let part = uri.part(name)?;
            return Some(self.eval_list(arguments).map(|_| part));
        }
        if let Value::Object(object) = receiver {
            return self.user_object_member(object, name, arguments, block, at);
        }
        let (type_name, value) = match receiver {
            // The function `message` is Ruby's alias of `msg`.
            Value::Error(object) if name == "message" => ("Error", Value::String(object.msg.clone())),
            Value::Error(object) => ("Error", object.attribute(name)?),
            Value::Deferred(object) => ("Deferred", object.attribute(name)?),
            _ => return None,
        };
        let error =
            |message: String| Some(Err(fail_at(format!("Error while evaluating a Method call, {message}"), at)));
        if let Err(e) = self.eval_list(arguments) {
            return Some(Err(e));
        }
        match (name, arguments.len()) {
            ("message", 0) => Some(Ok(value)),
            ("message", n) => error(format!("wrong number of arguments (given {n}, expected 0)")),
            _ if block => error(format!("'attribute {type_name}[{name}]' does not expect a block")),
            (_, 0) => Some(Ok(value)),
            (_, n) => error(format!("'attribute {type_name}[{name}]' expects no arguments, got {n}")),
        }
    }

    /// A member of an instance of a user-defined Object type: an attribute's value (a
    /// constant's from the type), or Puppet's error for a derived attribute or a function,
    /// which have no implementation without Ruby.
    fn user_object_member(
        &mut self,
        object: &puppet_types::value::ObjectValue,
        name: &str,
        arguments: &[Expr],
        block: bool,
        at: Span,
    ) -> Option<Eval<Value>> {
        let found = puppet_types::object::find_member(&object.ty, name)?;
        let error =
            |message: String| Some(Err(fail_at(format!("Error while evaluating a Method call, {message}"), at)));
        if let Err(e) = self.eval_list(arguments) {
            return Some(Err(e));
        }
        let label = found.label();
        if !found.is_function {
            if block {
                return error(format!("'{label}' does not expect a block"));
            }
            if !arguments.is_empty() {
                return error(format!("'{label}' expects no arguments, got {}", arguments.len()));
            }
        }
        use puppet_types::ty::AttributeKind;
        match found.member.kind {
            _ if found.is_function => error(format!("no method is implemented for {label}")),
            Some(AttributeKind::Derived) => error(format!("no method is implemented for derived {label}")),
            Some(AttributeKind::Constant) => Some(Ok(found.member.value.unwrap_or(Value::Undef))),
            _ => Some(Ok(object.get(name).cloned().unwrap_or(Value::Undef))),
        }
    }

    fn block(&mut self, lambda: Option<&Rc<Lambda>>) -> Eval<Option<Value>> {
        match lambda {
            Some(l) => Ok(Some(self.closure(l)?)),
            None => Ok(None),
        }
    }

    /// A lambda as a value, closed over the current scope.
    pub(crate) fn closure(&mut self, lambda: &Rc<Lambda>) -> Eval<Value> {
        let types = self.parameter_types(&lambda.parameters)?;
        let typed = types.iter().any(|t| !matches!(t, Type::Any));
        let id = self.new_closure_id();
        let names = parameter_names(&lambda.parameters);
        let consumes_first = accumulator_body(lambda).is_some();
        let return_type = match &lambda.return_type {
            Some(t) => Some(Rc::new(self.eval_type(t)?)),
            None => None,
        };
        Ok(Value::Callable(Rc::new(Closure {
            lambda: lambda.clone(),
            scope: self.scope.clone(),
            types,
            return_type,
            names,
            typed,
            consumes_first,
            id,
        })))
    }

    fn parameter_types(&mut self, parameters: &[Parameter]) -> Eval<Rc<[Type]>> {
        let mut types = Vec::with_capacity(parameters.len());
        for p in parameters {
            types.push(match &p.type_expr {
                None => Type::Any,
                Some(t) => self.eval_type(t)?,
            });
        }
        Ok(types.into())
    }

    /// Calls the function `name` (user-defined first, then built-in). Its errors without a
    /// position get the call's, and Puppet's `Error while evaluating a {what}, ` prefix.
    pub fn call_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        block: Option<Value>,
        at: Span,
        what: &str,
    ) -> Eval<Value> {
        let key = name.strip_prefix("::").unwrap_or(name);
        if self.is_breakpoint(key) {
            return self.stop_at(at);
        }
        if !self.function_exists(key)
            && !self.autoload(super::modules::Entity::Function, key).map_err(|e| crate::error::place(e, at))?
        {
            return Err(fail_at(format!("Unknown function: '{name}'."), at));
        }
        let frames = self.call_frames.len();
        self.call_frames.push((self.loader.current_file.clone(), at.line));
        let result = self.call_known(key, args, block, at);
        self.call_frames.truncate(frames);
        result.map_err(|flow| match flow {
            Flow::Error(mut e) => {
                if e.at.is_none() && !e.bare {
                    e.message = format!("Error while evaluating a {what}, {}", e.message);
                    e.at = Some(at);
                }
                let file = self.loader.current_file.clone();
                e.trace.push(crate::error::TraceFrame { function: key.to_owned(), file, line: at.line });
                Flow::Error(e)
            }
            other => other,
        })
    }

    /// Calls a function from inside a function (Puppet's `call_function`, which loads a
    /// module's function as a call does): its errors are the calling function's, left
    /// without position or prefix.
    pub fn call_function_inner(&mut self, name: &str, args: Vec<Value>, block: Option<Value>, at: Span) -> Eval<Value> {
        let key = name.strip_prefix("::").unwrap_or(name);
        if !self.function_exists(key) && !self.autoload(super::modules::Entity::Function, key)? {
            return Err(fail(format!("Unknown function '{name}'")));
        }
        self.call_known(key, args, block, at)
    }

    pub fn function_exists(&self, key: &str) -> bool {
        self.functions.contains_key(key) || self.registry.get(key).is_some()
    }

    fn call_known(&mut self, key: &str, args: Vec<Value>, block: Option<Value>, at: Span) -> Eval<Value> {
        if let Some(def) = self.functions.get(key).cloned() {
            return self.call_user_function(&def, args, block.is_some(), at);
        }
        let Some((builtin, signatures)) = self.registry.get(key) else {
            return Err(fail(format!("Unknown function '{key}'")));
        };
        let dispatch = match signatures.iter().position(|s| s.accepts(&args, block.as_ref())) {
            Some(i) => i,
            None => select_signature(key, &signatures, &args, block.as_ref())?,
        };
        self.enter(at)?;
        let call = Call { args, block, dispatch, at };
        let result = match self.registry.port(key) {
            Some(port) => crate::functions::ported::call(self, port, call),
            None => (builtin.call)(self, call),
        };
        self.leave();
        result
    }

    fn call_user_function(&mut self, def: &FunctionDef, args: Vec<Value>, block: bool, at: Span) -> Eval<Value> {
        let prepared = match def.prepared.get() {
            Some(p) => p.clone(),
            None => {
                check_parameter_order(&def.parameters)?;
                let saved = std::mem::replace(&mut self.scope, self.top.clone());
                let prepared = (|| {
                    let types = self.parameter_types(&def.parameters)?;
                    let signature = parameters_signature(&def.parameters, &types);
                    let return_type = match &def.return_type {
                        Some(rt) => Some(self.eval_type(rt)?),
                        None => None,
                    };
                    Ok::<_, Flow>(Rc::new(Prepared { types, signature, return_type }))
                })();
                self.scope = saved;
                let prepared: Rc<Prepared> = prepared?;
                let _ = def.prepared.set(prepared.clone());
                prepared
            }
        };
        if !prepared.signature.accepts(&args, None) {
            select_signature(&def.name, std::slice::from_ref(&prepared.signature), &args, None)?;
        }
        if block {
            return Err(fail(format!("'{}' does not expect a block", def.name)));
        }
        self.enter(at)?;
        let top = self.top.clone();
        let saved_scope = self.enter_local_scope(&top);
        let saved_guard = self.param_guard.take();
        // The function's scope is the top scope's: what it declares is contained in
        // `Class[main]`, with that class's tags, whoever calls it.
        let saved_container = self.enter_main_container();
        let saved_file = match &def.file {
            Some(file) => Some(self.loader.current_file.replace(file.clone())),
            None => None,
        };
        let result = self.with_function_match_frames(|ev| {
            ev.bind_parameters(&def.name, &def.parameters, &def.names, args)?;
            check_defaults(ev, &def.name, &def.parameters, &prepared.types)?;
            match &def.body {
                Some(body) => ev.eval(body),
                None => Ok(Value::Undef),
            }
        });
        let result = match saved_file {
            Some(saved) => {
                self.loader.current_file = saved;
                result.map_err(|flow| crate::catalog::compiler::in_file(flow, def.file.as_ref()))
            }
            None => result,
        };
        if let Some(saved) = saved_container {
            self.leave_main_container(saved);
        }
        self.leave_local_scope(saved_scope);
        self.param_guard = saved_guard;
        self.leave();
        // A value given to `return()` is not checked against the return type (as Puppet).
        let value = match result {
            Err(Flow::Return(exit)) => return Ok(exit.value),
            Err(Flow::Next(exit)) => exit.value,
            Ok(v) => v,
            Err(other) => return Err(other),
        };
        if let Some(t) = &prepared.return_type {
            if !puppet_types::instance::is_instance(t, &value) {
                let subject = format!("value returned from {} has wrong type,", def.name);
                return Err(fail(puppet_types::mismatch::describe_value(&subject, t, &value)));
            }
        }
        Ok(value)
    }

    /// Binds parameters in the current scope: the arguments, the defaults of those left out
    /// (evaluated in order, so a default may use the parameters before it), the rest.
    fn bind_parameters(
        &mut self,
        callee: &str,
        parameters: &[Parameter],
        names: &[Rc<str>],
        args: Vec<Value>,
    ) -> Eval<()> {
        let mut args = args.into_iter();
        for (index, (p, name)) in parameters.iter().zip(names).enumerate() {
            let value = if p.captures_rest {
                let rest: Vec<Value> = args.by_ref().collect();
                match &p.value {
                    Some(default) if rest.is_empty() => match self.eval(default)? {
                        v @ Value::Array(_) => v,
                        v => Value::array(vec![v]),
                    },
                    _ => Value::array(rest),
                }
            } else {
                match args.next() {
                    Some(v) => v,
                    None => match &p.value {
                        Some(default) => self.eval_default(callee, names, index, default)?,
                        None => Value::Undef,
                    },
                }
            };
            self.scope.bind(name.clone(), value);
        }
        Ok(())
    }

    /// Evaluates the default of parameter `index` (`ParameterScope#evaluate`): reading that
    /// parameter or a later one, not bound yet, is Puppet's error.
    fn eval_default(&mut self, callee: &str, names: &[Rc<str>], index: usize, default: &Expr) -> Eval<Value> {
        let guard = super::ParamGuard {
            callee: callee.into(),
            from: names[index].clone(),
            names: names.to_vec(),
            pending: names[index..].to_vec(),
        };
        let saved = self.param_guard.replace(guard);
        let v = self.eval(default);
        self.param_guard = saved;
        v
    }

    /// Calls a block (a lambda given to a function) with `args`.
    pub fn call_block(&mut self, block: &Value, args: &[Value]) -> Eval<Value> {
        self.call_block_with(block, args.to_vec())
    }

    /// [`Evaluator::call_block`] with arguments it may keep (no copies of them are made).
    pub fn call_block_with(&mut self, block: &Value, args: Vec<Value>) -> Eval<Value> {
        let Value::Callable(c) = block else { return Err(fail("A block must be a lambda")) };
        let Some(closure) = c.as_any().downcast_ref::<Closure>() else {
            return Err(fail("A block must be a lambda"));
        };
        self.call_closure(closure, args)
    }

    /// Whether a block is an accumulator lambda (see `Closure::consumes_first`): it may be
    /// given the only handle of its first argument.
    pub fn block_consumes_first(&self, block: &Value) -> bool {
        match block {
            Value::Callable(c) => c.as_any().downcast_ref::<Closure>().is_some_and(|c| c.consumes_first),
            _ => false,
        }
    }

    /// How many parameters a block declares, and whether it captures the rest.
    pub fn block_arity(&self, block: &Value) -> (usize, bool) {
        match block {
            Value::Callable(c) => match c.as_any().downcast_ref::<Closure>() {
                Some(closure) => (closure.parameter_count(), closure.captures_rest()),
                None => (0, true),
            },
            _ => (0, false),
        }
    }

    /// `Closure#call_with_scope`: parameters are bound first (a missing required one is an
    /// error at the parameter; arguments beyond the parameters are dropped), then the bound
    /// values, defaults included, are checked against the parameter types.
    fn call_closure(&mut self, closure: &Closure, args: Vec<Value>) -> Eval<Value> {
        let at = closure.lambda.span;
        self.enter(at)?;
        let saved_scope = self.enter_local_scope(&closure.scope);
        let result = self.with_match_frame(|ev| {
            let finals = ev.bind_closure_parameters(closure, args)?;
            if closure.typed {
                let signature = closure.signature();
                if !signature.accepts(&finals, None) {
                    select_signature("lambda", std::slice::from_ref(&signature), &finals, None)?;
                }
            }
            if closure.consumes_first {
                if let Some(acc) = accumulator_shape(&closure.lambda) {
                    for statement in acc.before {
                        ev.eval(statement)?;
                    }
                    return ev.accumulate(acc.op, acc.name, acc.right, acc.expr);
                }
            }
            match &closure.lambda.body {
                Some(body) => ev.eval(body),
                None => Ok(Value::Undef),
            }
        });
        self.leave_local_scope(saved_scope);
        self.leave();
        let value = match result {
            Err(Flow::Next(exit)) => exit.value,
            other => other?,
        };
        if let Some(t) = &closure.return_type {
            if !puppet_types::instance::is_instance(t, &value) {
                let subject = "value returned from lambda has wrong type,";
                return Err(fail(puppet_types::mismatch::describe_value(subject, t, &value)));
            }
        }
        Ok(value)
    }

    /// Makes a new local scope within `parent` the current one (reusing a finished one's
    /// allocation); gives back the scope it replaces.
    fn enter_local_scope(&mut self, parent: &Rc<Scope>) -> Rc<Scope> {
        let scope = Scope::local_reusing(parent, self.scope_pool.pop());
        std::mem::replace(&mut self.scope, scope)
    }

    /// Returns to `saved` from a local scope made by [`Self::enter_local_scope`], keeping
    /// the finished scope for reuse when nothing else holds it (a closure made inside does).
    fn leave_local_scope(&mut self, saved: Rc<Scope>) {
        let scope = std::mem::replace(&mut self.scope, saved);
        if let Some(spare) = Scope::recycle(scope) {
            if self.scope_pool.len() < 64 {
                self.scope_pool.push(spare);
            }
        }
    }

    /// `combine_values_with_parameters`: binds a lambda's parameters in the current scope and,
    /// when they are typed, gives the values bound, in order (a captured rest spread out).
    fn bind_closure_parameters(&mut self, closure: &Closure, args: Vec<Value>) -> Eval<Vec<Value>> {
        let parameters = &closure.lambda.parameters;
        let count = parameters.len();
        let given = args.len();
        let mut finals = Vec::new();
        let mut args = args.into_iter();
        for (index, (p, name)) in parameters.iter().zip(closure.names.iter()).enumerate() {
            let value = if index >= given {
                match (&p.value, p.captures_rest) {
                    (Some(default), rest) => {
                        let v = self.eval_default("lambda", &closure.names, index, default)?;
                        match &v {
                            Value::Array(_) => v,
                            _ if rest => Value::array(vec![v]),
                            _ => v,
                        }
                    }
                    (None, true) => Value::array(Vec::new()),
                    (None, false) => {
                        return Err(fail_at(format!("Parameter ${} is required but no value was given", p.name), p.at));
                    }
                }
            } else if p.captures_rest {
                let rest: Vec<Value> = args.by_ref().take(given + 1 - count).collect();
                match &p.value {
                    Some(default) if rest.len() == 1 && rest[0].is_undef() => match self.eval(default)? {
                        v @ Value::Array(_) => v,
                        v => Value::array(vec![v]),
                    },
                    _ => Value::array(rest),
                }
            } else {
                args.next().unwrap_or(Value::Undef)
            };
            if closure.typed {
                match (&value, p.captures_rest) {
                    (Value::Array(a), true) => finals.extend(a.iter().cloned()),
                    _ => finals.push(value.clone()),
                }
            }
            self.scope.bind(name.clone(), value);
        }
        Ok(finals)
    }
}

/// The shape of the accumulator idiom: a lambda whose body is some statements, then
/// `$first OP X` (`+`, `-` or `<<`), where `$first` is its first parameter. `X` may read
/// `$first`: it is evaluated first, and `$first` (a variable, read without side effects)
/// taken after it. The idiom also needs that nothing calls break() ([`accumulator_body`]).
fn accumulator_shape(lambda: &Lambda) -> Option<Accumulator<'_>> {
    use puppet_syntax::ast::BinaryOp;
    let first = lambda.parameters.first().filter(|p| !p.captures_rest)?;
    let mut body = lambda.body.as_deref()?;
    let mut before: &[Expr] = &[];
    while let ExprKind::Block(statements) = &body.kind {
        let (last, rest) = statements.split_last()?;
        if !before.is_empty() && !rest.is_empty() {
            return None;
        }
        if !rest.is_empty() {
            before = rest;
        }
        body = last;
    }
    let ExprKind::Binary { op, left, right } = &body.kind else { return None };
    if !matches!(op, BinaryOp::Add | BinaryOp::Subtract | BinaryOp::LeftShift) {
        return None;
    }
    let ExprKind::Variable(name) = &left.kind else { return None };
    if *name != first.name {
        return None;
    }
    Some(Accumulator { before, op: *op, name, right, expr: body })
}

/// [`accumulator_shape`] of a lambda in which nothing calls break() (checked once, when the
/// closure is made).
fn accumulator_body(lambda: &Lambda) -> Option<Accumulator<'_>> {
    let acc = accumulator_shape(lambda)?;
    let mut clean = true;
    for e in acc.before.iter().chain(std::iter::once(acc.right)) {
        e.walk(&mut |e| {
            clean &= !match &e.kind {
                ExprKind::Call { .. } => calls_break(e),
                _ => false,
            };
            clean
        });
    }
    clean.then_some(acc)
}

/// An accumulator lambda's body: statements, then `$name op right`.
struct Accumulator<'a> {
    before: &'a [Expr],
    op: puppet_syntax::ast::BinaryOp,
    name: &'a str,
    right: &'a Expr,
    expr: &'a Expr,
}

/// Whether a call could end the lambda with break() (directly, or through `call`).
fn calls_break(call: &Expr) -> bool {
    let ExprKind::Call { functor, .. } = &call.kind else { return false };
    let name = match &functor.kind {
        ExprKind::QualifiedName(n) => n.as_str(),
        ExprKind::NamedAccess { right, .. } => match &right.kind {
            ExprKind::QualifiedName(n) => n.as_str(),
            _ => return true,
        },
        _ => return false,
    };
    matches!(name, "break" | "call")
}

/// `Parameter $b is required but appears after optional parameters`.
fn check_parameter_order(parameters: &[Parameter]) -> Eval<()> {
    let mut optional = false;
    for p in parameters {
        if p.value.is_some() || p.captures_rest {
            optional = true;
        } else if optional {
            return Err(fail_at(
                format!("Parameter ${} is required but appears after optional parameters", p.name),
                p.at,
            ));
        }
    }
    Ok(())
}

/// Defaults are checked against their parameter's type once bound (arguments were checked
/// before the call).
fn check_defaults(ev: &mut Evaluator, name: &str, parameters: &[Parameter], types: &[Type]) -> Eval<()> {
    for (p, t) in parameters.iter().zip(types) {
        if p.value.is_none() || p.captures_rest || matches!(t, Type::Any) {
            continue;
        }
        let Some(v) = ev.scope.get(&p.name) else { continue };
        if !puppet_types::instance::is_instance(t, &v) {
            let subject = format!("'{name}' parameter '{}'", p.name);
            return Err(fail(puppet_types::mismatch::describe_value(&subject, t, &v)));
        }
    }
    Ok(())
}
