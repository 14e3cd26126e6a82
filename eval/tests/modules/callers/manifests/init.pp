# Declares callers::d and includes callers::child from inside the module.
class callers {
  callers::d { 'from callers': }
  include callers::child
}
