# Inherits: its caller module is its parent's module.
class callers::heir inherits callers::child {
  notice("heir: caller=${caller_module_name}")
}
