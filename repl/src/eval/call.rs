//! Calls: of functions (built-in and user-defined), of methods (`$x.f(y)` is `f($x, y)`), of
//! types (`Integer('1')` is `new(Integer, '1')`), and of lambdas given as blocks.

use std::cell::OnceCell;
use std::rc::Rc;

use puppet_syntax::ast::{CallKind, Expr, ExprKind, Lambda, Parameter};
use puppet_syntax::Span;
use puppet_types::mismatch::{select_signature, Signature};
use puppet_types::ty::{CallableType, Size};
use puppet_types::value::Callable;
use puppet_types::{Type, Value};

use super::Evaluator;
use crate::error::{fail, fail_at, Eval, EvalError, Flow};
use crate::functions::Call;
use crate::scope::Scope;

/// Functions that come with later parts of Poppet, and which part: until then they are an
/// error saying so, never a wrong answer.
const NOT_YET: &[(&str, &str)] = &[
    ("include", "the catalog"),
    ("contain", "the catalog"),
    ("require", "the catalog"),
    ("realize", "the catalog"),
    ("create_resources", "the catalog"),
    ("tag", "the catalog"),
    ("tagged", "the catalog"),
    ("epp", "templates"),
    ("inline_epp", "templates"),
    ("template", "templates"),
    ("inline_template", "templates"),
    ("file", "modules"),
    ("lookup", "modules and Hiera data"),
    ("hiera", "modules and Hiera data"),
    ("hiera_array", "modules and Hiera data"),
    ("hiera_hash", "modules and Hiera data"),
    ("hiera_include", "modules and Hiera data"),
];

/// A Puppet-language function (`function f(Integer $x) >> Integer { ... }`).
pub struct FunctionDef {
    pub name: String,
    pub parameters: Vec<Parameter>,
    pub body: Option<Expr>,
    pub return_type: Option<Expr>,
    /// The parameter types, evaluated at the first call.
    types: OnceCell<Rc<[Type]>>,
}

impl FunctionDef {
    pub fn new(name: &str, parameters: &[Parameter], body: Option<&Expr>, return_type: Option<&Expr>) -> FunctionDef {
        FunctionDef {
            name: name.to_string(),
            parameters: parameters.to_vec(),
            body: body.cloned(),
            return_type: return_type.cloned(),
            types: OnceCell::new(),
        }
    }
}

/// A lambda with the scope it was written in.
pub struct Closure {
    pub lambda: Rc<Lambda>,
    pub scope: Rc<Scope>,
    pub types: Rc<[Type]>,
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
        Type::Callable(Rc::new(CallableType { params: Some(Rc::new(s.params)), block: None, return_type: None }))
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
    let size = Size { from: required, to: if rest { None } else { Some(parameters.len() as i64) } };
    Signature::new(&names, Type::Tuple { types: Rc::from(types), size: Some(size) })
}

impl Evaluator {
    pub(super) fn call(&mut self, e: &Expr) -> Eval<Value> {
        let ExprKind::Call { kind, functor, arguments, lambda, .. } = &e.kind else {
            return Err(fail_at("not a call", e.at));
        };
        match (kind, &functor.kind) {
            (CallKind::Method, ExprKind::NamedAccess { left, right }) => {
                let receiver = self.eval(left)?;
                let ExprKind::QualifiedName(name) = &right.kind else {
                    return Err(fail_at("A method name must be a simple name", right.at));
                };
                let mut args = vec![receiver];
                args.extend(self.eval_list(arguments)?);
                let block = self.block(lambda.as_ref())?;
                self.call_function(name, args, block, e.at, "Method call")
            }
            (CallKind::Function, ExprKind::QualifiedName(name)) => {
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

    fn block(&mut self, lambda: Option<&Rc<Lambda>>) -> Eval<Option<Value>> {
        match lambda {
            Some(l) => Ok(Some(self.closure(l)?)),
            None => Ok(None),
        }
    }

    /// A lambda as a value, closed over the current scope.
    pub(crate) fn closure(&mut self, lambda: &Rc<Lambda>) -> Eval<Value> {
        let types = self.parameter_types(&lambda.parameters)?;
        let id = self.new_closure_id();
        Ok(Value::Callable(Rc::new(Closure { lambda: lambda.clone(), scope: self.scope.clone(), types, id })))
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

    /// Calls the function `name` (user-defined first, then built-in).
    pub fn call_function(&mut self, name: &str, args: Vec<Value>, block: Option<Value>, at: Span, what: &str) -> Eval<Value> {
        let prefix = |flow: Flow| match flow {
            Flow::Error(EvalError { message, at: None }) => {
                Flow::Error(EvalError { message: format!("Error while evaluating a {what}, {message}"), at: Some(at) })
            }
            other => other,
        };
        let key = name.strip_prefix("::").unwrap_or(name);
        if let Some(def) = self.functions.get(key).cloned() {
            return self.call_user_function(&def, args, block.is_some(), at).map_err(prefix);
        }
        if let Some((builtin, signatures)) = self.registry.get(key) {
            let dispatch = select_signature(key, &signatures, &args, block.as_ref()).map_err(|e| prefix(e.into()))?;
            self.enter(at)?;
            let result = (builtin.call)(self, Call { args, block, dispatch, at });
            self.leave();
            return result.map_err(prefix);
        }
        if let Some((_, part)) = NOT_YET.iter().find(|(n, _)| *n == key) {
            return Err(fail_at(format!("The function '{key}' is not supported yet: it comes with {part}"), at));
        }
        Err(fail_at(format!("Unknown function: '{name}'."), at))
    }

    fn call_user_function(&mut self, def: &FunctionDef, args: Vec<Value>, block: bool, at: Span) -> Eval<Value> {
        check_parameter_order(&def.parameters)?;
        let types = match def.types.get() {
            Some(t) => t.clone(),
            None => {
                let saved = std::mem::replace(&mut self.scope, self.top.clone());
                let t = self.parameter_types(&def.parameters);
                self.scope = saved;
                let t = t?;
                let _ = def.types.set(t.clone());
                t
            }
        };
        let signature = parameters_signature(&def.parameters, &types);
        select_signature(&def.name, std::slice::from_ref(&signature), &args, None)?;
        if block {
            return Err(fail(format!("'{}' does not expect a block", def.name)));
        }
        self.enter(at)?;
        let scope = Scope::local(&self.top);
        let saved_scope = std::mem::replace(&mut self.scope, scope);
        let saved_matches = std::mem::replace(&mut self.matches, vec![None]);
        let result = (|| {
            self.bind_parameters(&def.parameters, args)?;
            check_defaults(self, &def.name, &def.parameters, &types, &signature)?;
            match &def.body {
                Some(body) => self.eval(body),
                None => Ok(Value::Undef),
            }
        })();
        self.scope = saved_scope;
        self.matches = saved_matches;
        self.leave();
        // A value given to `return()` is not checked against the return type (as Puppet).
        let value = match result {
            Err(Flow::Return(v, _)) => return Ok(v),
            Ok(v) | Err(Flow::Next(v, _)) => v,
            Err(other) => return Err(other),
        };
        if let Some(rt) = &def.return_type {
            let saved = std::mem::replace(&mut self.scope, self.top.clone());
            let t = self.eval_type(rt);
            self.scope = saved;
            let t = t?;
            if !puppet_types::instance::is_instance(&t, &value) {
                let subject = format!("value returned from {} has wrong type,", def.name);
                return Err(fail(puppet_types::mismatch::describe_value(&subject, &t, &value)));
            }
        }
        Ok(value)
    }

    /// Binds parameters in the current scope: the arguments, the defaults of those left out
    /// (evaluated in order, so a default may use the parameters before it), the rest.
    fn bind_parameters(&mut self, parameters: &[Parameter], args: Vec<Value>) -> Eval<()> {
        let mut args = args.into_iter();
        for p in parameters {
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
                        Some(default) => self.eval(default)?,
                        None => Value::Undef,
                    },
                }
            };
            self.scope.replace(&p.name, value);
        }
        Ok(())
    }

    /// Calls a block (a lambda given to a function) with `args`.
    pub fn call_block(&mut self, block: &Value, args: &[Value]) -> Eval<Value> {
        let Value::Callable(c) = block else { return Err(fail("A block must be a lambda")) };
        let Some(closure) = c.as_any().downcast_ref::<Closure>() else {
            return Err(fail("A block must be a lambda"));
        };
        self.call_closure(closure, args.to_vec())
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
        let scope = Scope::local(&closure.scope);
        let saved_scope = std::mem::replace(&mut self.scope, scope);
        let result = self.with_match_frame(|ev| {
            let finals = ev.bind_closure_parameters(&closure.lambda.parameters, args)?;
            if !closure.types.iter().all(|t| matches!(t, Type::Any)) {
                select_signature("lambda", std::slice::from_ref(&closure.signature()), &finals, None)?;
            }
            match &closure.lambda.body {
                Some(body) => ev.eval(body),
                None => Ok(Value::Undef),
            }
        });
        self.scope = saved_scope;
        self.leave();
        match result {
            Err(Flow::Next(v, _)) => Ok(v),
            other => other,
        }
    }

    /// `combine_values_with_parameters`: binds a lambda's parameters in the current scope and
    /// gives the values bound, in order (a captured rest spread out).
    fn bind_closure_parameters(&mut self, parameters: &[Parameter], args: Vec<Value>) -> Eval<Vec<Value>> {
        let count = parameters.len();
        let mut finals = Vec::with_capacity(args.len().min(count));
        for (index, p) in parameters.iter().enumerate() {
            let value = if index >= args.len() {
                match (&p.value, p.captures_rest) {
                    (Some(default), rest) => {
                        let v = self.eval(default)?;
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
                let rest = args[count - 1..].to_vec();
                match &p.value {
                    Some(default) if rest.len() == 1 && rest[0].is_undef() => match self.eval(default)? {
                        v @ Value::Array(_) => v,
                        v => Value::array(vec![v]),
                    },
                    _ => Value::array(rest),
                }
            } else {
                args[index].clone()
            };
            match (&value, p.captures_rest) {
                (Value::Array(a), true) => finals.extend(a.iter().cloned()),
                _ => finals.push(value.clone()),
            }
            self.scope.replace(&p.name, value);
        }
        Ok(finals)
    }
}

/// `Parameter $b is required but appears after optional parameters`.
fn check_parameter_order(parameters: &[Parameter]) -> Eval<()> {
    let mut optional = false;
    for p in parameters {
        if p.value.is_some() || p.captures_rest {
            optional = true;
        } else if optional {
            return Err(fail_at(format!("Parameter ${} is required but appears after optional parameters", p.name), p.at));
        }
    }
    Ok(())
}

/// Defaults are checked against their parameter's type once bound (arguments were checked
/// before the call).
fn check_defaults(ev: &mut Evaluator, name: &str, parameters: &[Parameter], types: &[Type], signature: &Signature) -> Eval<()> {
    let _ = signature;
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
