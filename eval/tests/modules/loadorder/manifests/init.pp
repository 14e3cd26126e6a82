# Puppet's loader reads a module's init.pp before the file of a nested class.
class loadorder {
  notice('loadorder')
}

class loadorder::from_init {
  notice('loadorder::from_init')
}
