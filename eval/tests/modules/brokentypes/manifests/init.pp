# A parameter type naming a type that does not exist: Puppet evaluates parameter types when
# it loads the file, so any class of the module fails.
class brokentypes (
  Optional[Brokentypes::Nope] $x = undef,
) {
}
