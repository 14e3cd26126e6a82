//! Completion's view of the session: the names the shell keeps ([`Names`]) as the
//! [`World`] that `complete::complete` asks.

use super::complete::World;
use super::{commands, Names};

/// The session's names as completion sees them.
pub struct NamesWorld<'a>(pub &'a Names);

impl World for NamesWorld<'_> {
    fn variables(&self) -> Vec<String> {
        self.0.variables.clone()
    }

    fn keys(&self, variable: &str, path: &[String]) -> Vec<String> {
        self.0.keys(variable, path)
    }

    fn functions(&self) -> Vec<String> {
        self.0.functions.clone()
    }

    fn types(&self) -> Vec<String> {
        self.0.types.clone()
    }

    fn classes(&self) -> Vec<String> {
        self.0.classes.clone()
    }

    fn defined_types(&self) -> Vec<String> {
        self.0.defined_types.clone()
    }

    fn commands(&self) -> Vec<String> {
        commands::COMMANDS.iter().map(|c| c.name.to_owned()).collect()
    }

    fn command_arguments(&self, command: &str) -> Vec<String> {
        commands::arguments(command, self.0)
    }
}
