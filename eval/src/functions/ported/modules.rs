//! The Ruby functions of the other modules of the corpus (mysql, postgresql, apache,
//! staging, ...), one section per module.

use super::Port;

pub static PORTS: &[Port] = &[];
