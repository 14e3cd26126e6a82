class demo::config inherits demo {
  file { '/etc/demo/demo.conf':
    ensure  => file,
    content => "port=${demo::port}\n",
    require => File['/etc/demo'],
  }
  notice(demo::double($demo::port))
}
