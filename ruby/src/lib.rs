//! The Ruby behaviours Puppet shows, in one place. Puppet 7 is written in Ruby (3.1 here),
//! and much of what it prints is Ruby's: how a string is quoted in a message, how a float is
//! written, which strings `Integer()` accepts, which regular expressions compile and how
//! they print. Every crate of the workspace that needs one of these uses this crate, which
//! depends on none of them.
//!
//! | module     | Ruby                                                              |
//! |------------|-------------------------------------------------------------------|
//! | [`string`] | `String#inspect`, `String#dump`, `String#capitalize`               |
//! | [`float`]  | `Float#to_s`                                                       |
//! | [`kernel`] | `Kernel#Integer` and `Kernel#Float` of a string                    |
//! | [`regexp`] | Onigmo's syntax and errors, `Regexp#to_s`, `Regexp.escape`         |
//! | [`json`]   | which documents `JSON.parse` refuses, and its message              |
//! | [`yaml`]   | `to_yaml` (`Psych.dump` over libyaml's emitter)                    |
//! | [`did_you_mean`] | the suggestions a `NoMethodError`'s message ends with        |
//!
//! ```
//! assert_eq!(poppet_ruby::float::float_to_s(1e20), "1.0e+20");
//! assert_eq!(poppet_ruby::string::inspect("a\tb"), r#""a\tb""#);
//! ```

pub mod did_you_mean;
pub mod float;
pub mod json;
pub mod kernel;
pub mod regexp;
pub mod string;
pub mod yaml;
