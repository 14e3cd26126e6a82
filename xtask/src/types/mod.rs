//! Tools for puppet-types and pfmt: the recorder of their golden tables.

pub mod record;
