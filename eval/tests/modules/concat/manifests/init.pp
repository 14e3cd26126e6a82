# A defined type named as its module, as puppetlabs-concat's `concat`: resource defaults
# for its type (`Concat { ... }`) in the whole-catalog suite.
define concat (
  String $path  = $title,
  String $mode  = '0644',
  String $owner = 'root',
) {
  file { $path:
    ensure => file,
    mode   => $mode,
    owner  => $owner,
  }
}
