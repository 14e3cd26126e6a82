//! stdlib's functions that read and write data formats (YAML, JSON, TOML, Python and Ruby literals, HOCON) and number and string conversions, ported from its Ruby (8.5.0 and 9.7.0).

use super::Port;

pub static PORTS: &[Port] = &[];
