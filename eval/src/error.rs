//! What stops an evaluation: errors with Puppet's wording, and the non-local exits of
//! `break()`, `next()` and `return()`, which unwind the evaluator's Rust stack as errors do.

use puppet_syntax::Span;
use puppet_types::Value;

/// An evaluation error: Puppet's message, and where Puppet places it (`None` while it is
/// still a function's error without a position: the call adds its own).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub message: String,
    pub at: Option<Span>,
    /// The manifest the position is in, when it is not the program's (a module's file).
    pub file: Option<std::rc::Rc<str>>,
    /// Reported as it is, without prefix or position: an error Puppet raises after
    /// evaluation (`no parameter named 'x' (line: 1) on File[/x] (line: 1)`). Callers that
    /// place positionless errors leave it alone.
    pub bare: bool,
    /// The calls the error unwound through, innermost first (the shell's call trace).
    pub trace: Vec<TraceFrame>,
}

/// One call an error unwound through: the function called, and where the call was.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceFrame {
    pub function: String,
    /// The manifest or shell input of the call (`None`: the program).
    pub file: Option<std::rc::Rc<str>>,
    pub line: u32,
}

impl EvalError {
    pub fn new(message: impl Into<String>, at: Span) -> EvalError {
        EvalError { message: message.into(), at: Some(at), file: None, bare: false, trace: Vec::new() }
    }
}

/// Why evaluation left an expression early. Each payload is boxed: evaluation results are
/// moved at every node, and an `Eval<Value>` stays small this way.
#[derive(Clone, Debug)]
pub enum Flow {
    Error(Box<EvalError>),
    /// `break()`: leaves the innermost iteration.
    Break(Box<Span>),
    /// `next(value)`: ends the current lambda call (or function body) with `value`.
    Next(Box<Exit>),
    /// `return(value)`: ends the current function call with `value`.
    Return(Box<Exit>),
}

/// The value of `next()` or `return()`, and where it was called.
#[derive(Clone, Debug)]
pub struct Exit {
    pub value: Value,
    pub at: Span,
}

impl Flow {
    pub fn error(e: EvalError) -> Flow {
        Flow::Error(Box::new(e))
    }

    pub fn brk(at: Span) -> Flow {
        Flow::Break(Box::new(at))
    }

    pub fn next(value: Value, at: Span) -> Flow {
        Flow::Next(Box::new(Exit { value, at }))
    }

    pub fn ret(value: Value, at: Span) -> Flow {
        Flow::Return(Box::new(Exit { value, at }))
    }
}

const _: () = assert!(size_of::<Eval<Value>>() <= 32);

/// An evaluation step's result.
pub type Eval<T> = Result<T, Flow>;

impl From<EvalError> for Flow {
    fn from(e: EvalError) -> Flow {
        Flow::error(e)
    }
}

impl From<puppet_types::Error> for Flow {
    /// A type-system error, without a position yet (or reported as it is, when its message
    /// has its own).
    fn from(e: puppet_types::Error) -> Flow {
        Flow::error(EvalError { message: e.message, at: None, file: None, bare: e.positioned, trace: Vec::new() })
    }
}

impl From<pfmt::error::FormatError> for Flow {
    fn from(e: pfmt::error::FormatError) -> Flow {
        fail(e.message)
    }
}

/// An error without a position: inside a built-in function, the call's position is added
/// with Puppet's `Error while evaluating a Function Call, ` prefix.
pub fn fail(message: impl Into<String>) -> Flow {
    Flow::error(EvalError { message: message.into(), at: None, file: None, bare: false, trace: Vec::new() })
}

/// An error Puppet reports bare (`no parameter named 'x' (line: 1) on File[/x] (line: 1)`).
pub fn bare(message: impl Into<String>) -> Flow {
    Flow::error(EvalError { message: message.into(), at: None, file: None, bare: true, trace: Vec::new() })
}

/// An error at `at`.
pub fn fail_at(message: impl Into<String>, at: Span) -> Flow {
    Flow::error(EvalError::new(message, at))
}

/// Gives an error without a position the position `at`.
pub fn place(flow: Flow, at: Span) -> Flow {
    match flow {
        Flow::Error(mut e) if e.at.is_none() && !e.bare => {
            e.at = Some(at);
            Flow::Error(e)
        }
        other => other,
    }
}
