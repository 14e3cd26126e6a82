class quirks::defaults (
  String $user,
  String $home,
  String $root = "${home}/repositories",
) {
}
