; Indentation for Puppet (nvim-treesitter's @indent captures).

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
] @indent.begin

[
  "}"
  "]"
  ")"
] @indent.branch @indent.end

[
  (heredoc_body)
  (double_quoted_string)
  (single_quoted_string)
] @indent.ignore

(comment) @indent.auto
