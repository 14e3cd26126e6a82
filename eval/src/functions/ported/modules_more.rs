//! Ruby functions of the corpus's other modules (archive, inifile, monit, neutron, staging, ...), ported.

use super::Port;

pub static PORTS: &[Port] = &[];
