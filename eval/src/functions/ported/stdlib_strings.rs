//! puppetlabs-stdlib's functions of strings, numbers and conversions (`bool2str`,
//! `str2bool`, `dirname`, `shell_escape`, `to_json`, `to_yaml`, `fqdn_rand_string`, ...).

use super::Port;

pub static PORTS: &[Port] = &[];
