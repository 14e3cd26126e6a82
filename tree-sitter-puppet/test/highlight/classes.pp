class apache::vhost (
# <- keyword
#     ^ module
  String $docroot = '/var/www',
  # <- type.builtin
  #      ^ variable.parameter
  #                 ^ string
  Optional[Integer] $port = undef,
  #       ^ punctuation.bracket
  #                         ^ constant.builtin
) inherits apache {
# ^ keyword
#          ^ module
  include apache::params
  # <- function.builtin
  #       ^ string.special.symbol
  $x = $facts['os']['family']
  # <- variable
  #    ^ variable.builtin
}

define apache::site ($ensure = present) { }
# <- keyword
#      ^ type
#                              ^ string.special.symbol

function mymod::double(Integer $n) >> Integer { $n * 2 }
# <- keyword
#        ^ function
#                                  ^ operator
#                                               ^ variable

type Port = Integer[1, 65535]
# <- keyword
#    ^ type
#           ^ type.builtin
#                   ^ number

node 'web01', /^db\d+$/, default { }
# <- keyword
#    ^ string
#             ^ string.regexp
#                        ^ constant.builtin
