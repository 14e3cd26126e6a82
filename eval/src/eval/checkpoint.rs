//! Checkpoints: everything a program can change in the evaluator, saved before it runs so
//! that it can be put back. The shell runs each input between a checkpoint and either its
//! commit (the checkpoint kept for `:undo`) or its rollback (a failed input leaves no trace).
//!
//! What is saved: the variables of every scope that outlives a program (the top scope, the
//! node's, each evaluated class's), the compiler (the catalog, the definitions of classes,
//! defined types and nodes, the class scopes), the functions and type aliases, the module
//! manifests loaded so far (a rolled-back load is loaded again when next needed), and the
//! warnings given once. Values are shared, not copied (they are immutable), and so are the
//! catalog's resources (until one is changed) and its indexes (persistent maps): a checkpoint
//! costs a copy of the scopes' tables and of the list of resources, and holds on to nothing
//! but what the input after it changed.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

use puppet_types::Type;

use super::call::FunctionDef;
use super::Evaluator;
use crate::catalog::compiler::Compiler;
use crate::scope::{SavedVars, Scope};

/// The evaluator's state at one moment ([`Evaluator::checkpoint`]).
pub struct Checkpoint {
    scopes: Vec<(Rc<Scope>, SavedVars)>,
    compiler: Compiler,
    functions: HashMap<String, Rc<FunctionDef>>,
    aliases: HashMap<String, Type>,
    garbled: HashMap<String, bool>,
    pending_objects: HashMap<String, super::PendingObject>,
    classes: BTreeSet<String>,
    erb_objects: Vec<crate::functions::erb::ErbObject>,
    loaded_files: HashSet<PathBuf>,
    once: HashSet<String>,
}

impl Evaluator {
    /// Saves what a program can change, for [`Evaluator::rollback`].
    pub fn checkpoint(&self) -> Checkpoint {
        let mut scopes = vec![(self.top.clone(), self.top.saved())];
        let lasting = self.compiler.class_scopes.values().chain(self.compiler.node_scope.as_ref());
        for scope in lasting {
            if !scopes.iter().any(|(s, _)| Rc::ptr_eq(s, scope)) {
                scopes.push((scope.clone(), scope.saved()));
            }
        }
        Checkpoint {
            scopes,
            compiler: self.compiler.clone(),
            functions: self.functions.clone(),
            aliases: self.aliases.clone(),
            garbled: self.garbled.clone(),
            pending_objects: self.pending_objects.clone(),
            classes: self.classes.clone(),
            erb_objects: self.erb_objects.clone(),
            loaded_files: self.loader.loaded_files.clone(),
            once: self.once.1.clone(),
        }
    }

    /// Puts the evaluator back as it was at `checkpoint`: what ran since is forgotten.
    pub fn rollback(&mut self, checkpoint: Checkpoint) {
        for (scope, vars) in checkpoint.scopes {
            scope.restore(vars);
        }
        self.compiler = checkpoint.compiler;
        self.functions = checkpoint.functions;
        self.aliases = checkpoint.aliases;
        self.garbled = checkpoint.garbled;
        self.pending_objects = checkpoint.pending_objects;
        self.classes = checkpoint.classes;
        self.erb_objects = checkpoint.erb_objects;
        self.loader.loaded_files = checkpoint.loaded_files;
        self.once.1 = checkpoint.once;
        self.reset_after_error();
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use crate::Session;

    /// A checkpoint copies the catalog by sharing it: after an input that declares nothing,
    /// every resource is the checkpoint's own; after one that changes a resource, only that
    /// one is copied; a rollback brings back what the checkpoint had.
    #[test]
    fn a_checkpoint_shares_what_an_input_leaves_alone() {
        let mut session = Session::default();
        let declared = session.run("Integer[1, 200].each |$i| { notify { \"n${i}\": } }");
        assert!(declared.error.is_none(), "{:?}", declared.error);
        let shared = |session: &Session, checkpoint: &super::Checkpoint| {
            let (now, then) = (session.evaluator.compiler.catalog.resources(), checkpoint.compiler.catalog.resources());
            now.iter().zip(then).filter(|(a, b)| Rc::ptr_eq(a, b)).count()
        };
        let checkpoint = session.evaluator.checkpoint();
        let total = session.evaluator.compiler.catalog.len();
        assert!(session.run("1 + 1").error.is_none());
        assert_eq!(shared(&session, &checkpoint), total, "an input that declares nothing copies nothing");
        assert!(session.run("Notify['n7'] { message => 'changed' }").error.is_none());
        assert_eq!(shared(&session, &checkpoint), total - 1, "only the resource overridden is copied");
        session.evaluator.rollback(checkpoint);
        let n7 = session.evaluator.compiler.catalog.get("Notify", "n7").expect("Notify[n7]");
        assert!(n7.params.get("message").is_none(), "the rollback undoes the override");
    }
}
