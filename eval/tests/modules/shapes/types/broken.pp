# An Object type with an error Puppet reports when it is first named.
type Shapes::Broken = Object[{ attributes => { x => 1 } }]
