# An Object type whose parent is another module type.
type Shapes::Circle = Object[{
  parent     => Shapes::Point,
  attributes => { r => Float },
  constants  => { sides => 0 },
}]
