//! The literal reader: data literals, type expressions and constructor calls
//! (`Timestamp('2020-01-01T00:00:00.000 UTC')`, `SemVer('1.2.3')`, `Binary('YWJj')`) read from
//! Puppet source into values.
