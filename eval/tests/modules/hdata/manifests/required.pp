# Data that is undef for a parameter without a default.
class hdata::required (String $must) {
  notice($must)
}
