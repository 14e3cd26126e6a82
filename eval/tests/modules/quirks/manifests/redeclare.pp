class quirks::redeclare {
  include quirks::relation
  class { 'quirks::relation': }
}
