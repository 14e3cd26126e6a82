class tmpl::erb($servers = ['a.example.com', 'b.example.com'], $port = 80) {
  $x = 'class x'
  notice(template('tmpl/servers.erb'))
  notice(template('tmpl/classvar.erb'))
}
