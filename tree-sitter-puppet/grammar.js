/**
 * @file Tree-sitter grammar for the Puppet language (4.x and later).
 * @license MIT
 *
 * The reference is Puppet 7.23: its lexer (`pops/parser/lexer2.rb`) and its grammar
 * (`pops/parser/egrammar.ra`, installed with `puppet-agent` under
 * `/usr/lib/ruby/vendor_ruby/puppet/pops/parser/`), not the prose of the specification where
 * the two differ. The language specification is in `puppet-specifications/language/`
 * (lexical_structure.md, expression_precedence.md).
 *
 * Levels. Puppet's grammar nests `assignment > relationship > resource > expression`. The
 * grammar keeps those levels as hidden rules (`_assignment_level`, `_relationship_level`,
 * `_resource_level`, `_expression`), so that a `{` after an expression is a resource body only
 * where Puppet allows one (never in an `if` condition), and relationships bind tighter than
 * `=`. Operators use egrammar.ra's precedence table (`PREC` below).
 *
 * Statement calls. `include x`, `notice x`, `return` …: Puppet parses a bare name followed by
 * an expression and then rewrites it into a call (`Factory.transform_calls`) for the names of
 * `STATEMENT_CALLS` only. Those fifteen names are keywords wherever an expression may start,
 * where they also stand for plain names (`tag == 'x'` in a collector, `notice(1) + 2`); which
 * reading wins is a GLR choice by dynamic precedence (see `statement_call`).
 *
 * GLR conflicts are the three of `conflicts`, each commented there: the statement calls (two)
 * and `File {` (resource defaults, or the type of a titled resource `File { 'x': }`, decided
 * by what follows the brace). Each fork lives for one statement at most.
 *
 * Speed. Pass-through rules (the statement levels, `_primary`, `_literal`, `_definition`,
 * argument and entry rules) are inlined: in tree-sitter a hidden rule still costs a subtree
 * per use, and a statement used to pass through five of them. `_expression` is the only
 * supertype. The external scanner is called before every token (heredoc text is an extra, so
 * one of its tokens is always valid); it returns at once where none of its tokens can come.
 *
 * Context-dependent tokens (`[` after whitespace, `(` first on its line, `/` as division or
 * regex, string and heredoc text) are the external scanner's: see the header of
 * `src/scanner.c`, which also explains Puppet's string quirks and how heredocs are scanned.
 *
 * Reserved words. Puppet's keywords are tree-sitter reserved words (`reserved.global`): never
 * a `name`, so `else` after a reused `if` is the keyword and `class class {}` is an error;
 * where Puppet takes a keyword as a name (attribute names, `${type}`, `type`/`function` in
 * collections) the grammar lists it. The first token of an interpolation is a variable's name
 * whatever word it is when `[` or `.` follows it (`${node['a']}`, `${class.x}`): a decision of
 * Puppet's lexer, made here by the external scanner (`_keyword_variable`).
 *
 * Incremental parsing. With no statement separators, tree-sitter may reuse a statement whose
 * end depended on the next token. Reserved words removed most such cases; `cargo xtask fuzz
 * mutate` (xtask/src/parse/mutate.rs) compares incremental re-parses with fresh ones and
 * counts what remains. Editors converge on the next full parse.
 *
 * What the grammar accepts beyond Puppet, and puppet-syntax reports exactly (Puppet's own
 * automaton decides syntax errors there: syntax/src/lr.rs):
 *   - `[` after whitespace where only an access fits (`foo($a [1])`);
 *   - `type[…]` and `type.x` outside interpolations;
 *   - `;` where Puppet allows none: a leading or trailing `;`, or `;;` after a statement-call
 *     name (`notice; 1` is a call, as in Puppet, whose statement list drops the `;` before
 *     pairing a name with a statement);
 *   - `file { … }` without a title (Puppet's syntax reads a name and a hash, then validation
 *     rejects it);
 *   - heredocs without text or with an invalid escape letter;
 *   - malformed numbers (`0x1G`, `08`): one `number` token, so that the syntax layer can give
 *     Puppet's "not a valid … number" message.
 *
 * Not parsed: `plan` and `apply` are keywords only in Bolt's tasks mode; `puppet parser
 * validate` (7.23, default settings) rejects them as definitions, and so they are names here.
 * EPP templates are a separate language (puppet-syntax reads them: syntax/src/epp.rs).
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Precedence, from egrammar.ra's `prechigh … preclow` table (a higher number binds tighter).
// Note the order Puppet uses: `==`/`!=` bind tighter than `<`/`>`, and `in` tighter than `=~`.
const PREC = {
  ASSIGN: -3, //        = += -=            right   (assignment: relationship EQUALS assignment)
  RELATIONSHIP: -2, //  -> ~> <- <~        left
  ENTRY: 1, //          a => b             in `? { … }`, `=>` wins over a hash pair's
  RESOURCE: 1, //       expr { … }         a `{` after an expression continues a resource
  OR: 2, //             or                 left
  AND: 3, //            and                left
  SELECT: 4, //         ?                  left
  COMPARE: 5, //        > >= < <=          left
  EQUALITY: 6, //       == !=              left
  SHIFT: 7, //          << >>              left
  ADD: 8, //            + -                left
  MULTIPLY: 9, //       * / %              left
  MATCH: 10, //         =~ !~              left
  IN: 11, //            in                 left
  UNARY: 12, //         - (negate) * (splat)
  NOT: 13, //           !                  right
  COLLECT: 14, //       <| |> <<| |>>
  ACCESS: 15, //        [ ]
  CALL: 16, //          f(…)  .name
};

// Names that Puppet turns into calls when they stand as a statement followed by arguments
// (`include x`, `notice "x"`): Factory::STATEMENT_CALLS.
const STATEMENT_CALLS = [
  'require', 'realize', 'include', 'contain', 'tag',
  'debug', 'info', 'notice', 'warning', 'err',
  'fail', 'import', 'break', 'next', 'return',
];

// Keywords that are accepted as attribute names (egrammar.ra `keyword`). `plan` and `apply`
// are keywords only in Bolt's tasks mode; elsewhere they lex as names.
const ATTRIBUTE_KEYWORDS = [
  'and', 'case', 'class', 'default', 'define', 'else', 'elsif', 'if', 'in', 'inherits',
  'node', 'or', 'undef', 'unless', 'type', 'attr', 'function', 'private',
];

// Puppet's keywords (lexer2.rb KEYWORDS).
const KEYWORDS = [
  'and', 'attr', 'case', 'class', 'default', 'define', 'else', 'elsif', 'false', 'function',
  'if', 'in', 'inherits', 'node', 'or', 'private', 'true', 'type', 'undef', 'unless',
];

// [[:blank:]]: tab and the Unicode space separators (lexer2.rb PATTERN_WS).
const BLANK = /[ \t\r\n\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/;

module.exports = grammar({
  name: 'puppet',

  word: $ => $.name,

  // Puppet's keywords are never names (lexer2.rb KEYWORDS), so `else` after an `if` can only
  // be the keyword; where Puppet accepts a keyword as a name (attribute names, `${type}`),
  // the grammar spells it out.
  reserved: {
    global: _ => KEYWORDS,
  },

  extras: $ => [
    $.comment,
    BLANK,
    $.heredoc_body,
  ],

  // The external scanner (src/scanner.c). Order matters: it is the order of the C enum.
  externals: $ => [
    // LISTSTART: `[` preceded by whitespace or at the start of a line. It starts an array,
    // never an access: `$a [1]` is a variable followed by an array.
    $._list_start,
    // WSLPAREN: `(` preceded only by whitespace on its line. It never starts a call's
    // arguments: `notice(1)\n(2)` is a call followed by a parenthesized expression.
    $._ws_lparen,
    // DIV: `/` where an operator is accepted (after an operand); checked before `regex`.
    $._div,
    // A regular expression `/…/` where an operand may start.
    $.regex,
    // The text of a double-quoted string between its escapes and interpolations.
    $.string_content,
    // `\n`, `\t`, `\u{263A}`, `\$`, … in double-quoted strings and heredocs that allow them.
    $.escape_sequence,
    // A `"` that Puppet reads as text: where a piece of a double-quoted string starts (after
    // the opening quote, a variable or an interpolation) and another `"` or a `$` follows it,
    // as in `"${x}""` (SLURP_DQ_PATTERN needs a character before the closing quote).
    $._quote_text,
    // `@(` and the end tag of a heredoc (`@(END`, `@("END"`); records the tag.
    $.heredoc_start,
    // `/ts$` in a heredoc header: which escapes the heredoc's text allows.
    $.heredoc_escapes,
    // The line break that ends the line holding a heredoc's header: its text starts after it.
    $._heredoc_body_start,
    // The text of a heredoc between its escapes and interpolations.
    $.heredoc_content,
    // The line that ends a heredoc (`  |- END`).
    $.heredoc_end,
    // Never produced: valid only right after a `}`, where it tells the scanner that Puppet's
    // lexer reads a `/` as a regular expression rather than a division when it can
    // (lexer2.rb's `regexp_acceptable?`: `}` may end a case option's body).
    $._after_rbrace,
    // A keyword right after `${` that a `[` or a `.` follows (`${node['a']}`, `${class.x}`):
    // Puppet's lexer makes it a variable's name (`transform_to_variable`). Produced only
    // where `_after_dollar_brace` is valid.
    $._keyword_variable,
    // Never produced: valid only right after `${`, where it tells the scanner that a keyword
    // may be a variable's name (`_keyword_variable`).
    $._after_dollar_brace,
    // Never valid in the grammar: when it is reported valid, the parser is recovering.
    $._error_sentinel,
  ],

  supertypes: $ => [
    $._expression,
  ],

  // Pass-through rules, inlined so that they cost no subtree of their own.
  inline: $ => [
    $._statement_or_semicolon,
    $._statement,
    $._assignment_level,
    $._relationship_level,
    $._resource_level,
    $._primary,
    $._literal,
    $._definition,
    $._argument,
    $._hash_entry,
    $._array_element,
    $._classname,
    $._function_name,
    $._method_name,
    $._lparen,
  ],

  conflicts: $ => [
    // `notice $x` is a statement call, but the name alone is an expression too (`notice(1)`,
    // `tag == 'x'`): the parser tries both; dynamic precedence decides (see statement_call).
    [$.statement_call, $._statement_call_name],
    // `break\nnext`: `next` is `break`'s argument, as a name; dynamic precedence decides.
    [$._statement_arguments, $._expression],
    // `File { … }` is a resource default when the body holds attributes, but `File` is also
    // the start of an expression that a titled resource body `{ 'x': … }` follows.
    [$.resource_defaults, $._expression],
  ],

  rules: {
    program: $ => repeat($._statement_or_semicolon),

    _statement_or_semicolon: $ => choice($._statement, ';'),

    _statement: $ => choice(
      $.statement_call,
      $._assignment_level,
    ),

    // `include a, b` / `notice $x` / `return`: a call without parentheses. The names are
    // keywords wherever an expression may start, and plain names everywhere (see
    // `_statement_call_name`); arguments after them are taken first.
    // Which reading wins is decided by dynamic precedence (GLR): the call (+1) over the bare
    // name followed by another statement (0). An argument list that starts where Puppet sees
    // an operator after the name loses: `notice(1) + 2`, `notice -1`, `notice *$x`,
    // `notice[1]` (-10 on `(`, unary `-`/`*` and `[` without a space). A bare name alone,
    // `return`, is a name, as in Puppet's AST.
    statement_call: $ => prec.dynamic(1, prec.right(seq(
      field('function', alias(choice(...STATEMENT_CALLS), $.name)),
      // Puppet's statement list drops semicolons before it pairs a name with the statement
      // after it: `notice; 1` is `notice(1)`.
      repeat(';'),
      field('arguments', alias($._statement_arguments, $.arguments)),
    ))),

    _statement_arguments: $ => prec.right(choice(
      commaSep1($._assignment_level),
      // Puppet hands a statement-call name the next statement whatever it is: in
      // `return\nnotice 'x'`, `notice` is the argument of `return` (+5 over `notice 'x'`).
      seq(
        prec.dynamic(5, $._statement_call_name),
        repeat(seq(',', $._assignment_level)),
      ),
    )),

    // ---------------------------------------------------------------- statement levels
    // egrammar.ra: assignment > relationship > resource > expression.

    _assignment_level: $ => choice($.assignment, $._relationship_level),

    assignment: $ => prec.right(PREC.ASSIGN, seq(
      field('left', $._relationship_level),
      field('operator', choice('=', '+=', '-=')),
      field('right', $._assignment_level),
    )),

    _relationship_level: $ => choice($.relationship, $._resource_level),

    relationship: $ => prec.left(PREC.RELATIONSHIP, seq(
      field('left', $._relationship_level),
      field('operator', choice('->', '~>', '<-', '<~')),
      field('right', $._resource_level),
    )),

    _resource_level: $ => choice(
      $.resource_declaration,
      $.resource_defaults,
      $.resource_override,
      $._expression,
    ),

    // `file { 'a': mode => '0644'; 'b': }`, `@user { … }`, `@@file { … }`, `class { 'x': }`
    resource_declaration: $ => prec(PREC.RESOURCE, seq(
      optional(field('form', choice('@', '@@'))),
      field('type', choice($._expression, alias('class', $.name))),
      '{',
      sep1($.resource_body, ';'),
      optional(';'),
      '}', optional($._after_rbrace),
    )),

    resource_body: $ => seq(
      field('title', $._expression),
      ':',
      optional($._attributes),
    ),

    // `File { mode => '0644' }` (`@File { … }` parses; validation rejects it)
    resource_defaults: $ => prec.dynamic(1, seq(
      optional(field('form', choice('@', '@@'))),
      field('type', $.type),
      '{',
      optional($._attributes),
      '}', optional($._after_rbrace),
    )),

    // `File['x'] { mode => '0644', require +> Package['y'] }`
    resource_override: $ => prec(PREC.RESOURCE, seq(
      field('resource', $._expression),
      '{',
      optional($._attributes),
      '}', optional($._after_rbrace),
    )),

    // egrammar.ra's `attribute_operations endcomma`: the operations may be empty, so a comma
    // may lead them (`file { $path:, ensure => directory }`) or stand alone (`'a':,`), but
    // not twice (`'a':,,`).
    _attributes: $ => choice(
      ',',
      seq(optional(','), commaSep1($.attribute), optional(',')),
    ),

    // `name => value`, `name +> value`, `* => $hash`
    attribute: $ => seq(
      field('name', choice(
        alias($.name, $.attribute_name),
        ...ATTRIBUTE_KEYWORDS.map(k => alias(k, $.attribute_name)),
        ...STATEMENT_CALLS.map(k => alias(k, $.attribute_name)),
        alias('*', $.splat),
      )),
      field('operator', choice('=>', '+>')),
      field('value', $._expression),
    ),

    // ---------------------------------------------------------------- expressions

    _expression: $ => choice(
      $._primary,
      $.binary_expression,
      $.unary_expression,
      $.selector_expression,
      $.access_expression,
      $.call_expression,
      $.method_call,
      $.collector,
      $.parenthesized_expression,
      $.if_expression,
      $.unless_expression,
      $.case_expression,
      $._definition,
    ),

    _primary: $ => choice(
      $._literal,
      $.variable,
      $.name,
      $._statement_call_name,
      $.type,
      $.array,
      $.hash,
      $.reserved_word,
    ),

    // `notice(1) + 2`, `tag == 'x'`, `{ require => … }`: the statement-call names as plain
    // names. Where arguments may follow, they make a statement call (its dynamic precedence).
    _statement_call_name: $ => alias(choice(...STATEMENT_CALLS), $.name),

    _literal: $ => choice(
      $.number,
      $.boolean,
      $.undef,
      $.default,
      $.word,
      $.single_quoted_string,
      $.double_quoted_string,
      $.heredoc,
      $.regex,
    ),

    _definition: $ => choice(
      $.class_definition,
      $.define_definition,
      $.node_definition,
      $.function_definition,
      $.type_alias,
      $.type_definition,
    ),

    binary_expression: $ => {
      const table = [
        [PREC.OR, 'or'],
        [PREC.AND, 'and'],
        [PREC.COMPARE, choice('<', '<=', '>', '>=')],
        [PREC.EQUALITY, choice('==', '!=')],
        [PREC.SHIFT, choice('<<', '>>')],
        [PREC.ADD, choice('+', '-')],
        [PREC.MULTIPLY, choice('*', alias($._div, '/'), '%')],
        [PREC.MATCH, choice('=~', '!~')],
        [PREC.IN, 'in'],
      ];
      return choice(...table.map(([precedence, operator]) => prec.left(precedence, seq(
        field('left', $._expression),
        // @ts-ignore
        field('operator', operator),
        field('right', $._expression),
      ))));
    },

    // After a statement-call name Puppet reads `-` and `*` as binary operators: -10 (dynamic)
    // makes `notice -1` a subtraction rather than a call (see statement_call).
    unary_expression: $ => choice(
      prec.right(PREC.NOT, seq(field('operator', '!'), field('argument', $._expression))),
      prec.dynamic(-10, prec(PREC.UNARY, seq(field('operator', '-'), field('argument', $._expression)))),
      prec.dynamic(-10, prec(PREC.UNARY, seq(field('operator', '*'), field('argument', $._expression)))),
    ),

    // `$x ? { 'a' => 1, default => 2 }` and the single-entry form `$x ? 'a' => 1`
    selector_expression: $ => prec.left(PREC.SELECT, seq(
      field('value', $._expression),
      '?',
      choice(
        $.selector_entry,
        seq(
          '{',
          commaSep1(alias($._braced_selector_entry, $.selector_entry)),
          optional(','),
          '}', optional($._after_rbrace),
        ),
      ),
    )),

    selector_entry: $ => seq(
      field('match', $._expression),
      '=>',
      field('value', $._expression),
    ),

    // After `? {`, the `{` opens the entries, never a hash that would be a single entry's
    // match: Puppet's lexer makes a `{` after `?` a SELBRACE. Hence PREC.ENTRY over hash pairs,
    // still below every operator, so that an entry's value extends as far as it can.
    _braced_selector_entry: $ => prec(PREC.ENTRY, seq(
      field('match', $._expression),
      '=>',
      field('value', $._expression),
    )),

    // `$a[1]`, `$h['k']`, `Integer[1, 10]`, `Struct[{a => Integer}]`
    access_expression: $ => prec(PREC.ACCESS, seq(
      field('object', choice($._expression, $._type_keyword_name, $._interpolated_keyword)),
      '[',
      $._access_arguments,
      ']',
    )),

    _access_arguments: $ => seq(commaSep1($._argument), optional(',')),

    // `f(x)`, `Integer('1')`, `each($x) |$v| { … }`
    call_expression: $ => prec.right(PREC.CALL, seq(
      field('function', $._function_name),
      field('arguments', $.arguments),
      optional(field('lambda', $.lambda)),
    )),

    _function_name: $ => choice($._expression, $._type_keyword_name),

    // `type(…)` calls the function `type`; in an interpolation, `${type['a']}` reads `$type`.
    _type_keyword_name: $ => alias('type', $.name),

    // `${node['a']}`, `${class.x}`, `${if[0].y}`: the first token after `${`, a keyword that
    // a `[` or a `.` follows, names a variable (the external scanner's `_keyword_variable`).
    _interpolated_keyword: $ => alias($._keyword_variable, $.name),

    arguments: $ => seq(
      '(',
      optional(seq(commaSep1($._argument), optional(','))),
      ')',
    ),

    _argument: $ => choice($._assignment_level, $.hash_pair),

    // `$x.upcase`, `$x.map |$v| { … }`, `$x.dig('a', 'b')`
    method_call: $ => prec.right(PREC.CALL, seq(
      field('object', choice($._expression, $._type_keyword_name, $._interpolated_keyword)),
      '.',
      field('method', $._method_name),
      optional(field('arguments', $.arguments)),
      optional(field('lambda', $.lambda)),
    )),

    _method_name: $ => choice($.name, alias('type', $.name)),

    lambda: $ => seq(
      field('parameters', alias($._lambda_parameters, $.parameter_list)),
      optional(field('return_type', $.return_type)),
      field('body', $.block),
    ),

    _lambda_parameters: $ => seq(
      '|',
      optional(seq(commaSep1($.parameter), optional(','))),
      '|',
    ),

    // `User <| title == 'x' |>`, `File <<| tag == 'y' |>> { mode => '0644' }`
    collector: $ => prec.right(PREC.COLLECT, seq(
      field('type', $._expression),
      field('query', choice($.virtual_query, $.exported_query)),
      optional(seq('{', optional($._attributes), '}', optional($._after_rbrace))),
    )),

    virtual_query: $ => seq('<|', optional($._expression), '|>'),

    exported_query: $ => seq('<<|', optional($._expression), '|>>'),

    // `(1)`. After a statement-call name, `(` opens the call's arguments (`notice(1) + 2`), as
    // in Puppet, where `expression LPAREN` starts a call: hence the dynamic penalty, which
    // makes the parser drop a statement call whose argument starts with this form. A `(`
    // first on its line (WSLPAREN) never starts a call: `notice\n(1)` passes `(1)`.
    parenthesized_expression: $ => choice(
      prec.dynamic(-10, seq('(', $._assignment_level, ')')),
      seq(alias($._ws_lparen, '('), $._assignment_level, ')'),
    ),

    _lparen: $ => choice('(', alias($._ws_lparen, '(')),

    // ---------------------------------------------------------------- conditionals

    if_expression: $ => seq(
      'if',
      field('condition', $._expression),
      field('body', $.block),
      repeat(field('alternative', $.elsif_clause)),
      optional(field('alternative', $.else_clause)),
    ),

    elsif_clause: $ => seq(
      'elsif',
      field('condition', $._expression),
      field('body', $.block),
    ),

    else_clause: $ => seq('else', field('body', $.block)),

    unless_expression: $ => seq(
      'unless',
      field('condition', $._expression),
      field('body', $.block),
      optional(field('alternative', $.else_clause)),
    ),

    case_expression: $ => seq(
      'case',
      field('value', $._expression),
      '{',
      repeat1($.case_option),
      '}', optional($._after_rbrace),
    ),

    case_option: $ => seq(
      commaSep1(field('match', $._expression)),
      ':',
      field('body', $.block),
    ),

    block: $ => seq('{', repeat($._statement_or_semicolon), '}', optional($._after_rbrace)),

    // ---------------------------------------------------------------- definitions

    // `class a::b (String $x = 'y') inherits a { … }`
    class_definition: $ => seq(
      'class',
      field('name', $._classname),
      optional(field('parameters', $.parameter_list)),
      optional(seq('inherits', field('parent', choice($._classname, $.default)))),
      field('body', $.block),
    ),

    // `define a::b ($x) { … }`
    define_definition: $ => seq(
      'define',
      field('name', $._classname),
      optional(field('parameters', $.parameter_list)),
      field('body', $.block),
    ),

    // `node 'a', /b/, c.example.com, default inherits x { … }`
    node_definition: $ => seq(
      'node',
      commaSep1(field('name', $._hostname)),
      optional(','),
      optional(seq('inherits', field('parent', $._hostname))),
      field('body', $.block),
    ),

    _hostname: $ => choice(
      $.hostname,
      $.single_quoted_string,
      $.double_quoted_string,
      $.heredoc,
      $.word,
      $.default,
      $.regex,
    ),

    // `web01.example.com`, `192.168.0.1`
    hostname: $ => prec.left(seq(
      choice($.name, $.number),
      repeat(seq('.', choice($.name, $.number))),
    )),

    // `function a::b(Integer $x) >> String { … }`
    function_definition: $ => seq(
      'function',
      field('name', $._classname),
      optional(field('parameters', $.parameter_list)),
      optional(field('return_type', $.return_type)),
      field('body', $.block),
    ),

    _classname: $ => choice($.name, $.word, $.type),

    parameter_list: $ => seq(
      $._lparen,
      optional(seq(commaSep1($.parameter), optional(','))),
      ')',
    ),

    // `String $x = 'y'`, `*$rest`, `Optional[Integer] $n`
    parameter: $ => seq(
      optional(field('type', $._type_reference)),
      optional(field('splat', alias('*', $.splat))),
      field('name', $.variable),
      optional(seq('=', field('default', $._expression))),
    ),

    return_type: $ => seq('>>', field('type', $._type_reference)),

    _type_reference: $ => choice(
      $.type,
      alias($._type_access, $.access_expression),
    ),

    _type_access: $ => prec(PREC.ACCESS, seq(
      field('object', $.type),
      '[',
      $._access_arguments,
      ']',
    )),

    // `type MyType = Variant[Integer, String]`, `type Obj = Object { attributes => … }`
    type_alias: $ => seq(
      'type',
      field('name', $._type_reference),
      '=',
      field('value', choice(
        $._type_reference,
        $.hash,
        $.array,
        // `Object { … }`: the `{` belongs to the alias (egrammar.ra: `type hash`).
        prec(1, seq($.type, field('body', $.hash))),
      )),
    ),

    // `type MyType inherits Other { … }` (parsed by Puppet, rejected when validated)
    type_definition: $ => seq(
      'type',
      field('name', $.type),
      optional(seq('inherits', field('parent', $.type))),
      field('body', $.block),
    ),

    // ---------------------------------------------------------------- literals

    // `[` right after an expression is an access in Puppet (`notice[1]`); -10 (dynamic) makes
    // the array lose to it where both readings exist (see statement_call).
    array: $ => choice(
      prec.dynamic(-10, seq('[', optional($._array_elements), ']')),
      seq(alias($._list_start, '['), optional($._array_elements), ']'),
    ),

    _array_elements: $ => seq(commaSep1($._array_element), optional(',')),

    _array_element: $ => choice(
      $._argument,
      alias('type', $.word),
      alias('function', $.word),
    ),

    hash: $ => seq(
      '{',
      optional(seq(commaSep1($.hash_pair), optional(','))),
      '}', optional($._after_rbrace),
    ),

    hash_pair: $ => seq(
      field('key', $._hash_entry),
      '=>',
      field('value', $._hash_entry),
    ),

    _hash_entry: $ => choice(
      $._assignment_level,
      alias('type', $.word),
      alias('function', $.word),
    ),

    // `"text $var ${expr} \n"`
    double_quoted_string: $ => seq(
      '"',
      optional(alias($._quote_text, $.string_content)),
      repeat(choice(
        $.string_content,
        $.escape_sequence,
        seq(
          choice($.variable, $.interpolation),
          optional(alias($._quote_text, $.string_content)),
        ),
      )),
      '"',
    ),

    // `${x}` reads the variable `$x`; so does `${type}` (any keyword alone, as in Puppet), and
    // `${node['a']}` reads `$node` (a keyword followed by `[` or `.`: `_keyword_variable`).
    interpolation: $ => choice(
      seq('${', optional($._after_dollar_brace), $._assignment_level, '}'),
      prec(1, seq('${', alias(choice(...KEYWORDS), $.name), '}')),
    ),

    // `'text'` with only `\'` and `\\` as escapes. As SLURP_SQ_PATTERN needs a character
    // before the closing quote, `'''` is the string `'` (the longest match wins).
    single_quoted_string: _ => token(seq("'", choice(
      seq(repeat(choice(/[^'\\]/, /\\(.|\n)/)), "'"),
      seq("'", repeat("\\\\"), "'"),
    ))),

    // `@("END":json/tL)`: the header. Its text (`heredoc_body`, an extra) starts on the next
    // line, after whatever else the header's line holds; it lands after the construct that the
    // line ends, e.g. after the attribute or statement holding the heredoc.
    heredoc: $ => seq(
      $.heredoc_start,
      optional(seq(':', field('syntax', $.heredoc_syntax))),
      optional(field('escapes', $.heredoc_escapes)),
      ')',
    ),

    heredoc_syntax: _ => /[a-z][a-zA-Z0-9_+]+/,

    heredoc_body: $ => seq(
      $._heredoc_body_start,
      repeat(choice(
        $.heredoc_content,
        $.escape_sequence,
        $.variable,
        $.interpolation,
      )),
      $.heredoc_end,
    ),

    // Integers (decimal, octal, hex) and floats. Malformed numbers (`0x1G`, `08`, `1a`) are
    // one token too, so that they are reported as illegal numbers, as Puppet does.
    number: _ => token(choice(
      /[0-9][0-9a-zA-Z_]*/,
      /[0-9]+\.[0-9]+([eE]-?[0-9]+)?/,
      /[0-9]+[eE]-?[0-9]+/,
    )),

    boolean: _ => choice('true', 'false'),

    undef: _ => 'undef',

    default: _ => 'default',

    reserved_word: _ => choice('private', 'attr'),

    // NAME: `apache`, `apache::port`, `::apache`
    name: _ => /(::)?[a-z][a-zA-Z0-9_]*(::[a-z][a-zA-Z0-9_]*)*/,

    // WORD: a bare word that is not a NAME: `bare-word`, `_x`, `a::_b`. The longer match wins
    // (`foo-bar` is one word, not a subtraction); on a tie `name`, defined first, wins.
    word: _ => /((::)?[a-z_]([a-zA-Z0-9_-]*[a-zA-Z0-9_])?)+/,

    // CLASSREF: `File`, `Apache::Vhost`, `::Integer`
    type: _ => /(::)?[A-Z][a-zA-Z0-9_]*(::[A-Z][a-zA-Z0-9_]*)*/,

    // `$x`, `$::fact`, `$a::b::c`, `$0`
    // A `$` without a name is a variable named '' (lexer2.rb: "let higher layer complain").
    variable: _ => /\$((::)?([a-zA-Z0-9_]+::)*[a-zA-Z0-9_]+)?/,

    comment: _ => token(choice(
      /#[^\n]*/,
      /\/\*[^*]*\*+([^/*][^*]*\*+)*\//,
    )),
  },
});

/**
 * One or more `rule`s separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {SeqRule}
 */
function commaSep1(rule) {
  return sep1(rule, ',');
}

/**
 * One or more `rule`s separated by `separator`.
 * @param {RuleOrLiteral} rule
 * @param {RuleOrLiteral} separator
 * @returns {SeqRule}
 */
function sep1(rule, separator) {
  return seq(rule, repeat(seq(separator, rule)));
}
