# A module with data but no hiera.yaml: Puppet reads none of it.
class hnodata (Integer $port = 2) {
  notice($port)
}
