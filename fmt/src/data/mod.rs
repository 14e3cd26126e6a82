//! Values from data documents: JSON and YAML read into Puppet values (`pfmt --json`/`--yaml`,
//! `poppet --facts`).

pub mod json;
pub mod yaml;

/// How deeply `--json` and `--yaml` documents may nest (serde_json's own limit, kept for YAML
/// too): deeper input is an error, never a stack overflow here or in the engine.
pub const MAX_DEPTH: usize = 128;
