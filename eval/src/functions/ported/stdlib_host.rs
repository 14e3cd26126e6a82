//! stdlib's functions about the node and its secrets (interfaces and addresses from facts, OS versions, password hashes, escaping for shells and XML), ported from its Ruby (8.5.0 and 9.7.0).

use super::Port;

pub static PORTS: &[Port] = &[];
