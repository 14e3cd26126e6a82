class tmpl(String $owner = 'ops') {
  file { '/etc/motd':
    content => epp('tmpl/motd.epp', { owner => $owner, port => 8080 }),
  }
  notice(epp('tmpl/motd.epp', { owner => $owner }))
}
