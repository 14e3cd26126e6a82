# Data of the wrong type for the parameter.
class hdata::typed (Integer $count = 1) {
  notice($count)
}
