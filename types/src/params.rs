//! Parameterising a type from values, as the access operator does (`Integer[1, default]`,
//! `String[$n]`, `Pattern['a', /b/]`, `Struct[{Optional[k] => T}]`), with Puppet's errors for
//! bad parameters.
