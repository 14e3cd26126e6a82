define catalogdemo::item (
  Integer $value,
  String $label = "item ${title}",
) {
  notify { $label:
    message => $value,
  }
}
