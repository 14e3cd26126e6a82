class quirks::knobs {
  knob { 'good':
    ensure  => present,
    setting => 1,
  }
  knob { 'bad':
    value => 1,
  }
}
