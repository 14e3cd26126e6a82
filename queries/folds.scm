; Folding ranges for Puppet.

[
  (block)
  (hash)
  (array)
  (arguments)
  (parameter_list)
  (resource_declaration)
  (resource_defaults)
  (resource_override)
  (collector)
  (case_expression)
  (selector_expression)
  (heredoc_body)
  (comment)
] @fold
