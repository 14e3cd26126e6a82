//! Puppet's own parser: the LALR(1) automaton of Puppet 7.23's grammar
//! (egrammar.ra, through Racc's tables in [`lr_tables`](crate::lr_tables)) run over the
//! tokens of Puppet's lexer ([`lexer`](crate::lexer)). It says where Puppet's parser stops:
//! the token it fails on, or a grammar action that raises an error. [`run`] takes the
//! grammar's actions as a parameter ([`Actions`]): [`recognize`] keeps only what the checks
//! below need, `build.rs` builds the AST.
//!
//! The tree-sitter grammar accepts what Puppet accepts, but it recovers differently (GLR
//! recovery puts ERROR nodes anywhere near the fault) and it accepts a little more (listed in
//! the header of `tree-sitter-puppet/grammar.js`); this automaton makes Puppet's syntax errors
//! exact by construction: the token Puppet fails on (`Syntax error at 'x'`), the end of the
//! input, or the lexer's error when the parser asks for a token the lexer cannot deliver. The
//! loop is Racc's (`racc/parser.rb`, `_racc_do_parse_rb`): a state whose action pointer is
//! empty takes its default action without reading a token.
//!
//! The tables are generated from the installed Puppet by `cargo xtask gen lr-tables`
//! (`xtask/ruby/lr_tables.rb`), and CI checks that they are reproduced. Only where Puppet's
//! automaton accepts and the tree still has an error (no such input is known) does
//! [`parse`](crate::parse) fall back to mapping tree-sitter's first ERROR or MISSING node to
//! a Puppet token.
//!
//! A few of the grammar's actions raise errors from what they build (`@` before something
//! that is not a resource, `foo { a +> 1 }`, `$a, $b` as a statement …). For those the
//! automaton keeps a [`Shape`] of each value — just what the checks look at — and its
//! offset, the one Puppet's `loc` gives it (a binary expression is at its operator).

use std::sync::OnceLock;

use crate::lexer::{Lexed, TokenKind};
use crate::lower::STATEMENT_CALLS;
use crate::lr_tables::*;

/// Where Puppet's parser stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The tokens are a program.
    Accepted,
    /// No action for `lexed.tokens[i]`; `i == tokens.len()` is the end of the input, or,
    /// when the lexer stopped early, the request for the token it could not deliver.
    Rejected(usize),
    /// A grammar action raised `message` about what is at byte `offset`.
    Invalid { message: &'static str, name: Option<usize>, offset: usize },
}

/// What the grammar's checks need to know of a value.
#[derive(Clone, Debug)]
enum Shape {
    Other,
    /// A terminal: its token's index.
    Token(usize),
    /// A `QualifiedName` made from the `NAME` token at this index.
    Name(usize),
    /// A `QualifiedReference`.
    Reference,
    /// An access (`Name[x]`: an override, `Resource[x]`: defaults).
    Access,
    /// A resource, resource defaults or override expression.
    Resource,
    /// `attribute_operations`: whether one is `+>`.
    Operations {
        append: bool,
    },
    /// `e, e, …` as a statement (Racc's array): its first comma's token index.
    Commas(usize),
    /// `syntactic_statements`.
    Statements(Vec<Shape>),
}

#[derive(Clone, Debug)]
struct Value {
    shape: Shape,
    offset: usize,
}

/// The rules whose actions matter, found by their text in Puppet's grammar.
struct Rules {
    name: usize,
    reference: usize,
    access: usize,
    virtual_: usize,
    exported: usize,
    titled: usize,
    class_resource: usize,
    untitled: usize,
    no_operations: usize,
    more_operations: usize,
    append: usize,
    class_name: usize,
    string_name: usize,
    commas: usize,
    first_statement: usize,
    statement_after_semicolon: usize,
    next_statement: usize,
    statements: usize,
}

fn rules() -> &'static Rules {
    static RULE_IDS: OnceLock<Rules> = OnceLock::new();
    RULE_IDS.get_or_init(|| {
        // A rule Puppet's grammar lacks matches nothing (usize::MAX): its check is skipped.
        let id = |text: &str| RULES.iter().position(|r| *r == text).unwrap_or(usize::MAX);
        Rules {
            name: id("primary_expression : NAME"),
            reference: id("type : CLASSREF"),
            access: id("bracketed_expression : expression LBRACK access_args endcomma RBRACK"),
            virtual_: id("resource : AT resource"),
            exported: id("resource : ATAT resource"),
            titled: id(
                "resource : resource LBRACE expression COLON attribute_operations additional_resource_bodies RBRACE",
            ),
            class_resource: id("resource : CLASS LBRACE resource_bodies endsemi RBRACE"),
            untitled: id("resource : resource LBRACE attribute_operations endcomma RBRACE"),
            no_operations: id("attribute_operations :"),
            more_operations: id("attribute_operations : attribute_operations COMMA attribute_operation"),
            append: id("attribute_operation : attribute_name PARROW expression"),
            class_name: id("classname : CLASS"),
            string_name: id("classname : STRING"),
            commas: id("syntactic_statement : syntactic_statement COMMA assignment"),
            first_statement: id("syntactic_statements : syntactic_statement"),
            statement_after_semicolon: id("syntactic_statements : syntactic_statements SEMIC syntactic_statement"),
            next_statement: id("syntactic_statements : syntactic_statements syntactic_statement"),
            statements: id("statements : syntactic_statements"),
        }
    })
}

/// Puppet's terminal number of a token kind: its place in Racc's token table, or 1 (`error`)
/// for a token the grammar has no terminal for (`~`, an unrecognised character).
fn terminal(kind: TokenKind) -> i16 {
    let name = kind.name();
    TOKENS.iter().find(|(n, _)| *n == name).map_or(1, |&(_, t)| t)
}

fn entry(table: &[i16], index: i32) -> Option<i16> {
    usize::try_from(index).ok().and_then(|i| table.get(i)).copied().filter(|&v| v != N)
}

fn index(value: i16) -> Option<usize> {
    usize::try_from(value).ok()
}

/// The grammar's actions, as a run of the automaton takes them: [`recognize`] keeps only what
/// the grammar's checks need, `build.rs` builds the AST.
pub(crate) trait Actions {
    type Value;
    /// The value of the terminal `lexed.tokens[token]` (`tokens.len()`: the end of input).
    fn shift(&mut self, token: usize) -> Self::Value;
    /// The value `rule` makes of `values` (its right-hand side's), or the outcome that stops
    /// the run. `next` is the index of the token after the reduced ones.
    fn reduce(&mut self, rule: usize, values: &mut [Self::Value], next: usize) -> Result<Self::Value, Outcome>;
    /// Whether `rule`, of one symbol, leaves that symbol's value as it is (the run then
    /// skips [`Actions::reduce`]).
    fn passes(&self, _rule: usize) -> bool {
        false
    }
}

/// Runs Puppet's parser over `lexed.tokens`.
pub fn recognize(source: &str, lexed: &Lexed) -> Outcome {
    match run(lexed, &mut Recognizer { source, lexed }) {
        Ok(_) => Outcome::Accepted,
        Err(outcome) => outcome,
    }
}

/// Runs the automaton over `lexed.tokens` with `actions`: the program's value, or where it
/// stops.
pub(crate) fn run<A: Actions>(lexed: &Lexed, actions: &mut A) -> Result<A::Value, Outcome> {
    // each kind's terminal looked up once (`terminal` searches the token table by name)
    let mut by_kind = [None; 256];
    let terminals: Vec<i16> = lexed
        .tokens
        .iter()
        .map(|t| match by_kind.get_mut(t.kind as usize) {
            Some(known) => *known.get_or_insert_with(|| terminal(t.kind)),
            None => terminal(t.kind),
        })
        .collect();
    let mut states: Vec<i16> = Vec::with_capacity(64);
    states.push(0);
    let mut values: Vec<A::Value> = Vec::with_capacity(64);
    // The index of the next token to shift, and its terminal once read.
    let mut next = 0usize;
    let mut lookahead: Option<i16> = None;
    loop {
        let Some(&state) = states.last() else {
            return Err(Outcome::Rejected(next));
        };
        let mut action = entry(&ACTION_DEFAULT, state.into());
        if let Some(pointer) = entry(&ACTION_POINTER, state.into()) {
            if lookahead.is_none() && next == terminals.len() && lexed.error.is_some() {
                // The lexer fails when asked for this token.
                return Err(Outcome::Rejected(next));
            }
            let t = *lookahead.get_or_insert_with(|| terminals.get(next).copied().unwrap_or(0));
            let i = i32::from(pointer) + i32::from(t);
            if let Some(a) = entry(&ACTION_TABLE, i) {
                if entry(&ACTION_CHECK, i) == Some(state) {
                    action = Some(a);
                }
            }
        }
        let Some(action) = action else {
            return Err(Outcome::Rejected(next));
        };
        if action > 0 && action < SHIFT_N {
            values.push(actions.shift(next));
            states.push(action);
            next += 1;
            lookahead = None;
        } else if action < 0 && action > -REDUCE_N {
            let rule = usize::from(action.unsigned_abs());
            let (Some(&len), Some(&lhs)) = (REDUCE_TABLE.get(rule * 2), REDUCE_TABLE.get(rule * 2 + 1)) else {
                return Err(Outcome::Rejected(next));
            };
            let len = index(len).unwrap_or(0);
            states.truncate(states.len().saturating_sub(len));
            if !(len == 1 && !values.is_empty() && actions.passes(rule)) {
                let first = values.len().saturating_sub(len);
                let value = actions.reduce(rule, &mut values[first..], next)?;
                values.truncate(first);
                values.push(value);
            }
            let Some(&top) = states.last() else {
                return Err(Outcome::Rejected(next));
            };
            let k = lhs - NT_BASE;
            let mut goto = entry(&GOTO_DEFAULT, k.into());
            if let Some(pointer) = entry(&GOTO_POINTER, k.into()) {
                let i = i32::from(pointer) + i32::from(top);
                if let Some(g) = entry(&GOTO_TABLE, i) {
                    if entry(&GOTO_CHECK, i) == Some(k) {
                        goto = Some(g);
                    }
                }
            }
            let Some(goto) = goto else {
                return Err(Outcome::Rejected(next));
            };
            states.push(goto);
        } else if action == SHIFT_N {
            // `$start : program $end`: the program's value is the first on the stack
            return values.into_iter().next().ok_or(Outcome::Rejected(next));
        } else {
            return Err(Outcome::Rejected(next));
        }
    }
}

/// The actions of [`recognize`]: each value's [`Shape`] and offset.
struct Recognizer<'a> {
    source: &'a str,
    lexed: &'a Lexed,
}

impl Actions for Recognizer<'_> {
    type Value = Value;

    fn shift(&mut self, token: usize) -> Value {
        let offset = self.lexed.tokens.get(token).map_or(self.source.len(), |t| t.start);
        Value { shape: Shape::Token(token), offset }
    }

    fn reduce(&mut self, rule: usize, values: &mut [Value], next: usize) -> Result<Value, Outcome> {
        let next_offset = self.lexed.tokens.get(next).map_or(self.source.len(), |t| t.start);
        reduce(self.source, self.lexed, rule, values, next_offset)
    }
}

/// The value `rule` makes of `vals`, or the error its action raises.
fn reduce(source: &str, lexed: &Lexed, rule: usize, vals: &mut [Value], next_offset: usize) -> Result<Value, Outcome> {
    let r = rules();
    let offset = OFFSET_FROM
        .get(rule)
        .and_then(|&k| index(k))
        .and_then(|k| vals.get(k))
        .or(vals.first())
        .map_or(next_offset, |v| v.offset);
    let invalid = |message: &'static str, at: Option<&Value>| Outcome::Invalid {
        message,
        name: None,
        offset: at.map_or(offset, |v| v.offset),
    };
    let shape_of = |vals: &[Value], k: usize| vals.get(k).map_or(Shape::Other, |v| v.shape.clone());
    let shape = if rule == r.name {
        match shape_of(vals, 0) {
            Shape::Token(i) => Shape::Name(i),
            _ => Shape::Other,
        }
    } else if rule == r.reference {
        Shape::Reference
    } else if rule == r.access {
        Shape::Access
    } else if rule == r.virtual_ || rule == r.exported {
        if !matches!(shape_of(vals, 1), Shape::Resource) {
            let message = if rule == r.virtual_ {
                "Virtual (@) can only be applied to a Resource Expression"
            } else {
                "Exported (@@) can only be applied to a Resource Expression"
            };
            return Err(invalid(message, vals.first()));
        }
        Shape::Resource
    } else if rule == r.titled || rule == r.class_resource {
        Shape::Resource
    } else if rule == r.untitled {
        match shape_of(vals, 0) {
            Shape::Name(_) => {
                if matches!(shape_of(vals, 2), Shape::Operations { append: true }) {
                    return Err(invalid("Syntax error resource body without title or hash with +>", vals.get(1)));
                }
                Shape::Other
            }
            Shape::Reference | Shape::Access => Shape::Resource,
            _ => {
                return Err(invalid(
                    "Expression is not valid as a resource, resource-default, or resource-override",
                    vals.first(),
                ))
            }
        }
    } else if rule == r.no_operations {
        Shape::Operations { append: false }
    } else if rule == r.more_operations {
        let append = [0, 2].iter().any(|&k| matches!(shape_of(vals, k), Shape::Operations { append: true }));
        Shape::Operations { append }
    } else if rule == r.append {
        Shape::Operations { append: true }
    } else if rule == r.class_name {
        return Err(invalid("'class' keyword not allowed at this location", vals.first()));
    } else if rule == r.string_name {
        return Err(invalid("A quoted string is not valid as a name here", vals.first()));
    } else if rule == r.commas {
        match shape_of(vals, 0) {
            Shape::Commas(first) => Shape::Commas(first),
            _ => match shape_of(vals, 1) {
                Shape::Token(comma) => Shape::Commas(comma),
                _ => Shape::Other,
            },
        }
    } else if rule == r.first_statement {
        Shape::Statements(vec![shape_of(vals, 0)])
    } else if rule == r.statement_after_semicolon || rule == r.next_statement {
        let last = shape_of(vals, vals.len().saturating_sub(1));
        match vals.first_mut().map(|v| std::mem::replace(&mut v.shape, Shape::Other)) {
            Some(Shape::Statements(mut list)) => {
                list.push(last);
                Shape::Statements(list)
            }
            _ => Shape::Other,
        }
    } else if rule == r.statements {
        if let Some(Shape::Statements(list)) = vals.first().map(|v| &v.shape) {
            transform_calls(source, lexed, list)?;
        }
        Shape::Other
    } else {
        KEEPS.get(rule).and_then(|&k| index(k)).map_or(Shape::Other, |k| shape_of(vals, k))
    };
    Ok(Value { shape, offset })
}

/// Factory.transform_calls: a statement-call name followed by a statement takes it as its
/// argument(s); any other `e, e, …` statement is an error at its first comma.
fn transform_calls(source: &str, lexed: &Lexed, list: &[Shape]) -> Result<(), Outcome> {
    let name_text = |i: usize| lexed.tokens.get(i).map_or("", |t| &source[t.start..t.end]);
    // The last statement kept, as far as the check cares: a name or not.
    let mut last: Option<&Shape> = None;
    for shape in list {
        match last {
            Some(Shape::Name(i)) if STATEMENT_CALLS.contains(&name_text(*i)) => {
                last = Some(&Shape::Other);
            }
            _ => {
                if let Shape::Commas(comma) = shape {
                    let offset = lexed.tokens.get(*comma).map_or(source.len(), |t| t.start);
                    return Err(match last {
                        Some(Shape::Name(i)) => Outcome::Invalid {
                            message: "attempt to pass argument list to the function '%{name}' which cannot be called without parentheses",
                            name: Some(*i),
                            offset,
                        },
                        _ => Outcome::Invalid { message: "illegal comma separated argument list", name: None, offset },
                    });
                }
                last = Some(shape);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule the checks name is one of Puppet's.
    #[test]
    fn the_rules_checked_are_puppets() {
        let r = rules();
        for id in [
            r.name,
            r.reference,
            r.access,
            r.virtual_,
            r.exported,
            r.titled,
            r.class_resource,
            r.untitled,
            r.no_operations,
            r.more_operations,
            r.append,
            r.class_name,
            r.string_name,
            r.commas,
            r.first_statement,
            r.statement_after_semicolon,
            r.next_statement,
            r.statements,
        ] {
            assert!(id < RULES.len());
        }
    }
}
