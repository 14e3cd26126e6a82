; Syntax highlighting for Puppet.
;
; Standard capture names only (tree-sitter-highlight's list; `tree-sitter highlight --check`).
; Patterns go from general to specific: when several capture the same node, the later wins.

; ------------------------------------------------------------------ general

(comment) @comment

(variable) @variable

; Bare words are strings: `ensure => present`.
[
  (name)
  (word)
] @string.special.symbol

(type) @type

(number) @number

(boolean) @boolean

[
  (undef)
  (default)
] @constant.builtin

(reserved_word) @keyword

; ------------------------------------------------------------------ strings

[
  (single_quoted_string)
  (double_quoted_string)
  (string_content)
  (heredoc_content)
] @string

(escape_sequence) @string.escape

(regex) @string.regexp

[
  (heredoc_start)
  (heredoc_end)
  (heredoc_escapes)
] @string.special

(heredoc
  ":" @punctuation.delimiter)

(heredoc_syntax) @attribute

(double_quoted_string
  (variable) @variable)

(heredoc_body
  (variable) @variable)

; `${x}`, `${x[0]}` and `${x.y}` read the variable `$x`.
(interpolation
  (name) @variable)

(interpolation
  (access_expression
    object: (name) @variable))

(interpolation
  (method_call
    object: (name) @variable))

; ------------------------------------------------------------------ keywords and operators

[
  "and"
  "or"
  "in"
] @keyword

[
  "if"
  "elsif"
  "else"
  "unless"
  "case"
] @keyword

[
  "class"
  "define"
  "node"
  "function"
  "type"
  "inherits"
  "attr"
  "private"
] @keyword

[
  "="
  "+="
  "-="
  "=="
  "!="
  "<"
  "<="
  ">"
  ">="
  "=~"
  "!~"
  "+"
  "-"
  "*"
  "/"
  "%"
  "<<"
  ">>"
  "!"
  "->"
  "~>"
  "<-"
  "<~"
  "=>"
  "+>"
  "?"
] @operator

[
  "@"
  "@@"
  "<|"
  "|>"
  "<<|"
  "|>>"
] @punctuation.special

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
] @punctuation.bracket

[
  ","
  ";"
  ":"
  "."
  "|"
] @punctuation.delimiter

; After the brackets, so that these win: the `}` closing `${`, the `)` of `@(END)`.
(interpolation
  [
    "${"
    "}"
  ] @punctuation.special)

(heredoc
  ")" @string.special)

(splat) @operator

; ------------------------------------------------------------------ calls

(call_expression
  function: (name) @function)

(statement_call
  function: (name) @function)

(method_call
  method: (name) @function)

; Puppet's own functions (lib/puppet/functions and lib/puppet/parser/functions).
(call_expression
  function: (name) @function.builtin
  (#any-of? @function.builtin
    "abs" "alert" "all" "annotate" "any" "assert_type" "binary_file" "break" "call" "camelcase"
    "capitalize" "ceiling" "chomp" "chop" "compare" "contain" "convert_to" "create_resources"
    "crit" "debug" "defined" "dig" "digest" "downcase" "each" "emerg" "empty" "epp" "err"
    "eyaml_lookup_key" "fail" "file" "filter" "find_file" "find_template" "flatten" "floor"
    "fqdn_rand" "generate" "get" "getvar" "group_by" "hiera" "hiera_array" "hiera_hash"
    "hiera_include" "hocon_data" "import" "include" "index" "info" "inline_epp"
    "inline_template" "join" "json_data" "keys" "length" "lest" "lookup" "lstrip" "map"
    "match" "max" "md5" "min" "module_directory" "new" "next" "notice" "partition" "realize"
    "reduce" "regsubst" "require" "return" "reverse_each" "round" "rstrip" "scanf" "sha1"
    "sha256" "shellquote" "size" "slice" "sort" "split" "sprintf" "step" "strftime" "strip"
    "tag" "tagged" "template" "then" "tree_each" "type" "unique" "unwrap" "upcase" "values"
    "versioncmp" "warning" "with" "yaml_data"))

(statement_call
  function: (name) @function.builtin)

; `return`, `break`, `next` alone: Puppet keeps them as names, and calls them when evaluated.
((name) @function.builtin
  (#any-of? @function.builtin "return" "break" "next"))

(method_call
  method: (name) @function.builtin
  (#any-of? @function.builtin
    "all" "annotate" "any" "assert_type" "call" "camelcase" "capitalize" "ceiling" "chomp"
    "chop" "compare" "convert_to" "dig" "downcase" "each" "empty" "filter" "flatten" "floor"
    "get" "group_by" "index" "join" "keys" "length" "lest" "lstrip" "map" "match" "max" "min"
    "new" "partition" "reduce" "regsubst" "reverse_each" "round" "rstrip" "size" "slice" "sort"
    "split" "step" "strftime" "strip" "then" "tree_each" "unique" "unwrap" "upcase" "values"
    "with"))

; ------------------------------------------------------------------ types

; The types of Puppet's type system.
((type) @type.builtin
  (#match? @type.builtin
    "^(::)?(Any|Array|Binary|Boolean|Callable|CatalogEntry|Class|Collection|Data|Default|Deferred|Enum|Error|Float|Hash|Init|Integer|Iterable|Iterator|NotUndef|Numeric|Object|Optional|Pattern|Regexp|Resource|RichData|Runtime|Scalar|ScalarData|SemVer|SemVerRange|Sensitive|String|Struct|Timespan|Timestamp|Tuple|Type|TypeAlias|TypeReference|TypeSet|URI|Undef|Unit|Variant)$"))

; `Integer('42')`, `String(255, '%x')`: type conversions.
(call_expression
  function: (type) @constructor)

; ------------------------------------------------------------------ resources

(resource_declaration
  type: (name) @type)

(resource_declaration
  type: (name) @keyword
  (#eq? @keyword "class"))

(resource_body
  title: (_) @string.special)

(resource_body
  title: (single_quoted_string) @string)

(resource_body
  title: (double_quoted_string) @string)

(attribute
  name: (attribute_name) @property)

; Metaparameters, valid on every resource.
(attribute
  name: (attribute_name) @property.builtin
  (#any-of? @property.builtin
    "alias" "audit" "before" "consume" "export" "loglevel" "noop" "notify" "require"
    "schedule" "stage" "subscribe" "tag"))

; ------------------------------------------------------------------ definitions

(class_definition
  name: (_) @module)

(class_definition
  parent: (_) @module)

(define_definition
  name: (_) @type)

(function_definition
  name: (_) @function)

(type_alias
  name: (type) @type)

(type_definition
  name: (type) @type)

(node_definition
  name: (hostname) @string.special)

(hostname
  [
    (name)
    (number)
  ] @string.special)

(parameter
  name: (variable) @variable.parameter)

; Variables Puppet sets itself.
((variable) @variable.builtin
  (#match? @variable.builtin
    "^\\$(::)?(facts|trusted|server_facts|settings|title|name|module_name|caller_module_name|environment|serverversion|servername|serverip|clientcert|clientversion|agent_specified_environment|[0-9]+)$"))
