# A lookup from a class: interpolation sees the class's variables.
class hdata::vars {
  $local = 'from class'
  notice(lookup('hdata::from_scope'))
}
