//! The `poppet` command's library side: the interactive shell (line editing, highlighting as
//! you type, completion, the `:commands`), built on the evaluator library `puppet_eval`.

pub mod excerpt;
pub mod shell;
pub mod tools;
