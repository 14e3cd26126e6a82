function demo::double(Integer $x) >> Integer {
  $x * 2
}
