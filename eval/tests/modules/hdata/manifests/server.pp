# Interpolated data: the lookup happens in the class's scope before $title is set.
class hdata::server (String $label = 'none', $port = undef) {
  notice("label ${label}, port ${port} (${type($port, generalized)})")
}
