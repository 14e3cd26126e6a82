; Language injections for Puppet.

; A heredoc's `:syntax` names the language of its text: `@(END:json)`, `@("END":yaml)`.
; The text (an extra) follows the construct that ends the header's line, so it is matched as
; the next sibling of the node holding the heredoc, a few levels up.
(_
  (heredoc
    syntax: (heredoc_syntax) @injection.language)
  .
  (heredoc_body
    (heredoc_content) @injection.content))

(_
  (_
    (heredoc
      syntax: (heredoc_syntax) @injection.language))
  .
  (heredoc_body
    (heredoc_content) @injection.content))

(_
  (_
    (_
      (heredoc
        syntax: (heredoc_syntax) @injection.language)))
  .
  (heredoc_body
    (heredoc_content) @injection.content))

(_
  (_
    (_
      (_
        (heredoc
          syntax: (heredoc_syntax) @injection.language))))
  .
  (heredoc_body
    (heredoc_content) @injection.content))

; Regular expressions (Ruby's dialect), without their slashes.
((regex) @injection.content
  (#set! injection.language "regex")
  (#offset! @injection.content 0 1 0 -1))

; `inline_epp('…')` and `inline_template('…')` hold templates.
(call_expression
  function: (name) @_function
  arguments: (arguments
    .
    (single_quoted_string) @injection.content)
  (#eq? @_function "inline_epp")
  (#set! injection.language "epp")
  (#offset! @injection.content 0 1 0 -1))

(call_expression
  function: (name) @_function
  arguments: (arguments
    .
    (single_quoted_string) @injection.content)
  (#eq? @_function "inline_template")
  (#set! injection.language "embedded_template")
  (#offset! @injection.content 0 1 0 -1))

((comment) @injection.content
  (#set! injection.language "comment"))
