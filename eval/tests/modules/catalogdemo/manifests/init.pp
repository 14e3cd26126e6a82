# A module class for the whole-catalog suite: resources declared in a module's manifest keep
# their file and line in the catalog.
class catalogdemo (
  String $greeting = 'hello',
  Array[String] $files = ['/etc/one'],
) {
  notify { "greeting ${greeting}": }
  file { $files:
    ensure => file,
  }
  catalogdemo::item { 'first': value => 1 }
}
