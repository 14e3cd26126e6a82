class quirks::relation {
  notify { 'quirks':
    message => 'x',
    require => Package['missing'],
  }
}
