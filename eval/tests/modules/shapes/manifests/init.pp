# Declares a file for a point given as an Object instance.
class shapes(Shapes::Point $origin = Shapes::Point(1, 2)) {
  notice($origin)
  file { "/tmp/point-${origin.x}-${origin.y}": ensure => file }
}
