# Reports its caller module.
class callers::child {
  notice("child: caller=${caller_module_name}")
  [1].each |$i| { callers::d { "from a lambda in child": } }
}
