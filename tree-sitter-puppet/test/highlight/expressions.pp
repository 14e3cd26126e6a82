$a = [1, 2.5, 0x1F, 'x', true, undef]
# <- variable
#     ^ number
#        ^ number
#                        ^ boolean
#                              ^ constant.builtin
$b = $a.map |$v| { $v * 2 }.filter |$v| { $v > 2 }
#       ^ function.builtin
#            ^ variable.parameter
#                     ^ operator
if $x =~ /^foo\/(bar)$/ and $y in ['a'] {
# <- keyword
#     ^ operator
#        ^ string.regexp
#                       ^ keyword
#                              ^ keyword
  notice("yes: ${x}")
  # <- function.builtin
} elsif $z { } else { }
# ^ keyword
#              ^ keyword
$c = $x ? { 'a' => 1, default => 2 }
#       ^ operator
#                     ^ constant.builtin
case $os { 'Debian', /^Ubuntu/: { } default: { } }
# <- keyword
$d = String(255, '%x')
#    ^ constructor
$e = @("END":json/L)
#    ^ string.special
#            ^ attribute
  {"a": "${b}"}
  | END
# comment
# <- comment
$f = [1].each |$v| { if $v { next } }
#                             ^ function.builtin
