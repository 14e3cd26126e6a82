# A defined type reporting the module names it sees.
define callers::d($sub = $caller_module_name, $mod = $module_name) {
  notice("${title}: default=${sub} module=${mod} caller=${caller_module_name}")
}
