//! Tools for the grammar (tree-sitter-puppet): the corpus check and the mutation fuzzer, and
//! the fuzz inputs they share with the lowering fuzzer.

pub mod corpus;
pub mod inputs;
pub mod mutate;
