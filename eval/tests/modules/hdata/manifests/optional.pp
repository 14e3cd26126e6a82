# Data that is undef for an optional parameter without a default.
class hdata::optional (Optional[String] $maybe) {
  notice("maybe: ${maybe}")
}
