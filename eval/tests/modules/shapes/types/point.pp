# An Object type of a module, loaded by name.
type Shapes::Point = Object[{
  attributes => {
    x => Integer,
    y => { type => Integer, value => 0 },
  },
}]
