//! Puppet's ERB templates (`template()`, `inline_template()`), rendered as Puppet 7.23
//! renders them, without Ruby: Ruby's ERB compiler with Puppet's trim mode `-`
//! ([`scan`]), and an interpreter for the Ruby that templates contain ([`lexer`],
//! [`parser`], [`interp`], the methods of Ruby's classes in [`methods`]), reaching Puppet
//! through a [`Host`] ([`bridge`]: Puppet's values as Ruby objects, `scope`).
//!
//! What the interpreter does not run (`def`, `require`, a method it lacks) stops the
//! template with an error naming the construct ([`error::Kind::Unsupported`]): never a
//! different output.

pub mod ast;
pub mod bridge;
pub mod error;
pub mod interp;
pub mod lexer;
pub mod methods;
pub mod parser;
pub mod scan;
pub mod value;

pub use error::{line_col, Error, Kind};
pub use interp::Host;
pub use value::Printer;

use std::rc::Rc;

use ast::Body;
use lexer::{Lexer, Tok, Token};
use scan::Piece;

/// A compiled template: its code, ready to run many times.
#[derive(Debug)]
pub struct Template {
    body: Body,
}

impl Template {
    /// Compiles a template's text (ERB, then Ruby's grammar).
    pub fn compile(text: &str) -> Result<Template, Error> {
        let pieces = scan::scan(text);
        let mut tokens = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => tokens.push(Token { tok: Tok::Text(Rc::from(t)), at: 0, space_before: false }),
                Piece::Code { src, at } => tokens.extend(lex(&src, at)?),
                Piece::Insert { src, at } => {
                    tokens.push(Token { tok: Tok::InsertOpen, at, space_before: false });
                    tokens.extend(lex(&src, at)?);
                    tokens.push(Token { tok: Tok::InsertClose, at, space_before: false });
                }
            }
            tokens.push(Token { tok: Tok::Term, at: 0, space_before: false });
        }
        let body = parser::parse(tokens, text.len())?;
        Ok(Template { body })
    }

    /// Runs the template: its instance variables are `host`'s variables (names with
    /// characters other than letters, digits and `_` get `_` instead, as Puppet does).
    pub fn render(&self, host: &mut dyn Host) -> Result<String, Error> {
        let vars = host.variables();
        let mut it = interp::Interp::new(host);
        for (name, value) in vars {
            let object = match it.host.ruby_object(&name) {
                Some(object) => object,
                None => bridge::variable(&mut it, &name, &value),
            };
            let name: String = name.chars().map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' }).collect();
            it.ivars.insert(name.into(), object);
        }
        it.run(&self.body)
    }
}

/// The tokens of one tag's code, placed at `at` in the template.
fn lex(src: &str, at: usize) -> Result<Vec<Token>, Error> {
    let mut tokens = Lexer::new(src, 0, src.len()).tokens().map_err(|mut e| {
        e.at = e.at.map(|a| a + at);
        e
    })?;
    shift(&mut tokens, at);
    Ok(tokens)
}

fn shift(tokens: &mut [Token], by: usize) {
    for t in tokens {
        t.at += by;
        match &mut t.tok {
            Tok::Str(parts) | Tok::Sym(parts) | Tok::Regexp(parts, _) => {
                for p in parts {
                    if let lexer::StrPart::Code(inner) = p {
                        shift(inner, by);
                    }
                }
            }
            _ => {}
        }
    }
}
