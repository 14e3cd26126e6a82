//! `Error.new` (the `Error` Pcore object type's constructor, the function named `new_Error`).
//!
//! ```puppet
//! dispatch from_hash(Struct[{'msg' => String[1], 'kind' => Optional[String[1]], 'details' => Optional[Hash[String[1], Data]], 'issue_code' => Optional[String[1]]}] hash)
//! dispatch create(String[1] msg, Optional[String[1]] kind?, Optional[Hash[String[1], Data]] details?, Optional[String[1]] issue_code?)
//! ```

use std::rc::Rc;

use crate::error::Result;
use crate::ty::{Size, Type};
use crate::value::{ErrorValue, Value};

use super::hash_get;
use crate::dispatch::{entry, string_sized, struct_of, Dispatch, Dispatcher, Selected, Signature};

#[derive(Clone, Copy)]
enum Method {
    FromHash,
    Create,
}

fn build() -> Dispatcher<Method> {
    let msg = string_sized(1, None);
    let text = Type::optional(string_sized(1, None));
    let details = Type::optional(Type::Hash {
        key: Some(Rc::new(string_sized(1, None))),
        value: Some(Rc::new(crate::common::data())),
        size: None::<Size>,
    });
    Dispatcher {
        name: "new_Error",
        dispatches: vec![
            Dispatch::new(Method::FromHash).req(
                "hash",
                struct_of(vec![
                    entry("msg", false, msg.clone()),
                    entry("kind", true, text.clone()),
                    entry("details", true, details.clone()),
                    entry("issue_code", true, text.clone()),
                ]),
            ),
            Dispatch::new(Method::Create)
                .req("msg", msg)
                .opt("kind", text.clone())
                .opt("details", details)
                .opt("issue_code", text),
        ],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Error.new(args...)`, before `new`'s assertion of the result.
pub fn new_error(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| {
        let get = |index: usize, name: &str| match (f.select(args), args.first()) {
            (Ok(Selected::Call(Method::FromHash)), Some(Value::Hash(h))) => hash_get(h, name).cloned(),
            _ => args.get(index).cloned(),
        };
        f.select(args)?;
        Ok(create(get(0, "msg"), get(1, "kind"), get(2, "details"), get(3, "issue_code")))
    })
}

/// The signatures (for `Init[Error]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// An Error value of checked attributes.
fn create(msg: Option<Value>, kind: Option<Value>, details: Option<Value>, issue_code: Option<Value>) -> Value {
    let text = |v: Option<Value>| v.as_ref().and_then(Value::as_str).map(Rc::from);
    Value::Error(Rc::new(ErrorValue {
        msg: text(msg).unwrap_or_else(|| Rc::from("")),
        kind: text(kind),
        details: details.filter(|d| matches!(d, Value::Hash(_))),
        issue_code: text(issue_code),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        let e = new_error(&[Value::from("m"), Value::Undef, Value::Undef, Value::from("C")]);
        let shown = e.map(|v| crate::display::value_to_string(&v));
        assert_eq!(shown.ok().as_deref(), Some("Error({'msg' => 'm', 'issue_code' => 'C'})"));
        let e = new_error(&[]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("'new_Error' expects between 1 and 4 arguments, got none"));
    }
}
