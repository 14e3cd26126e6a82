; Scopes, definitions and references of Puppet variables.
;
; Classes, defined types, functions, nodes and lambdas open a scope; parameters and the
; variables assigned in a scope are defined there; every `$x` refers to the nearest.

[
  (program)
  (class_definition)
  (define_definition)
  (function_definition)
  (node_definition)
  (lambda)
] @local.scope

(parameter
  name: (variable) @local.definition)

(assignment
  left: (variable) @local.definition)

; `[$a, $b] = [1, 2]`
(assignment
  left: (array
    (variable) @local.definition))

(variable) @local.reference
