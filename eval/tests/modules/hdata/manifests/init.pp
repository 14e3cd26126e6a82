# Parameters without a value take theirs from the module's Hiera data.
class hdata (
  Integer $port,
  Hash $users               = {},
  Array[String] $packages   = [],
  String $motd              = 'none',
  Boolean $enabled          = false,
  Optional[String] $nothing = 'default kept',
  $unset                    = 'default',
) {
  notice("port ${port}, enabled ${enabled}, motd ${motd}")
  notice($users)
  notice($packages)
  notice("nothing: ${nothing}, unset: ${unset}")
}
