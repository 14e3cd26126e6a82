//! puppetlabs-stdlib's validation and test functions (`validate_legacy`,
//! `validate_*`, `is_*`).

use super::Port;

pub static PORTS: &[Port] = &[];
