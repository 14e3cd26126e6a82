file { '/etc/motd':
# <- type
#      ^ string
  ensure  => file,
  # <- property
  #       ^ operator
  content => "Hello ${name}\n",
  #          ^ string
  #                 ^ punctuation.special
  #                   ^ variable
  #                         ^ string.escape
  require => Package['motd'],
  # <- property.builtin
  #          ^ type
}

@@sshkey { $fqdn: type => 'rsa' }
# <- punctuation.special
#  ^ type
#                 ^ property

exec { 'reload': unless => 'true' }
#                ^ property

File { mode => '0644' }
# <- type
#      ^ property

User <| groups == 'admin' |> { shell => '/bin/zsh' }
# <- type
#    ^ punctuation.special
#                         ^ punctuation.special

Package['a'] -> Service['b']
#            ^ operator

class { 'ntp': servers => ['a'] }
# <- keyword
