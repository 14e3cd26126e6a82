# Declares resources with create_resources.
class catalogdemo::made {
  create_resources('notify', { 'made one' => { 'message' => 'm' } })
}
