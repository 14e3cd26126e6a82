define demo::site (String $root = "/srv/${title}") {
  file { $root: ensure => directory }
  notify { "site ${title} in ${module_name}": }
}
