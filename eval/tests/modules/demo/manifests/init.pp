# The module's main class.
class demo (
  Demo::Port $port = 8080,
  String $owner    = 'www-data',
) {
  notice("demo in ${module_name} on ${port}")
  file { '/etc/demo':
    ensure => directory,
    owner  => $owner,
  }
  include demo::config
}
