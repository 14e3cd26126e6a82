class quirks::good_knobs {
  knob { 'good':
    ensure   => present,
    setting  => 1,
    provider => 'plain',
  }
}
