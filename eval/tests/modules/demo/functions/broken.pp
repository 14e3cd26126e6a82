# Fails in its body: its errors and warnings are placed in this file.
function demo::broken(String $x) {
  notice("broken ${x}")
  $x + 1
}
