class brokentypes::params {
  $value = 1
}
