; Symbols for code navigation: definitions and references.

(class_definition
  name: (_) @name) @definition.class

(define_definition
  name: (_) @name) @definition.type

(function_definition
  name: (_) @name) @definition.function

(type_alias
  name: (type) @name) @definition.type

(type_alias
  name: (access_expression
    object: (type) @name)) @definition.type

(type_definition
  name: (type) @name) @definition.type

(node_definition
  name: (_) @name) @definition.module

; A resource declaration defines its titled resources: `file { '/etc/motd': }`.
(resource_declaration
  (resource_body
    title: (_) @name)) @definition.resource

(call_expression
  function: (name) @name) @reference.call

(statement_call
  function: (name) @name) @reference.call

(method_call
  method: (name) @name) @reference.call

; `class { 'a::b': }` declares a class: a reference to it.
(resource_declaration
  type: (name) @name
  (#eq? @name "class")) @reference.class
