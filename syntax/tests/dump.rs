//! The old dump format (`puppet_syntax::dump`) against Puppet 7.23's: each expectation is
//! what `puppet parser dump -e SOURCE` (the default format) or `puppet epp dump --format old
//! FILE` printed, less the line break the face adds; recorded from Puppet, never from us.
//! `cargo xtask check parser-cli` compares the whole corpus.

const PROGRAMS: &[(&str, &str, &str)] = &[
    ("an if without else indents what follows", "if $a { 1 }\nnotice(2)\n", "(block\n  (if $a\n    (then 1))\n    (invoke notice 2)\n  )"),
    ("a not prints its operand at once", "$y = !if $a { 1 }\nnotice(2)\n", "(block\n    (= $y (!(if $a\n  (then 1))))\n    (invoke notice 2)\n  )"),
    ("heredocs", "$e = @(END)\n  hello\n  END\n$f = @(\"END\":json)\n  hi ${a}\n  END\n", "(block\n  (= $e (@()\n    '  hello\n'\n  ))\n  (= $f (@(json)\n    (cat '  hi ' (str $a) '\n')\n  ))\n)"),
    ("a string line starting with a space takes no separator", "notice('a\n b', 'c')\n", "(invoke notice'a\n b' 'c')"),
    ("a collector's operations are not printed", "File <| title == 'x' |> { mode => '0644' }\nFile <<| |>>\n", "(block\n  (collect File\n    (<| |> (== title 'x')))\n  (collect File\n    (<<| |>>))\n)"),
    ("a type definition without parent", "type A { 1 }\n", "(type-definition A  (block\n  1\n))"),
    ("numbers", "$x = [0x1f, 017, 1e10, -1, 2.5, 12345678901234567890]\n", "(= $x ([] 0x1F 017 10000000000.0 (- 1) 2.5 12345678901234567890))"),
    ("regexps", "$x = [/a\\/b/, /é/, /\\n/]\n", "(= $x ([] /a\\/b/ /(?-mix:é)/ /\\n/))"),
    ("resources", "file { '/tmp': ensure => file, mode +> 1; 'x': * => $h }\n@file { 'v': }\n@@file { 'e': }\nFile { mode => 1 }\nFile['x'] { mode => 2 }\n", "(block\n  (resource file\n    ('/tmp'\n      (ensure => file)\n      (mode +> 1))\n    ('x'\n      (* => $h)))\n  (virtual-resource file\n    ('v'))\n  (exported-resource file\n    ('e'))\n  (resource-defaults File\n    (mode => 1))\n  (override (slice File 'x')\n    (mode => 2))\n)"),
    ("definitions", "class a::b($x, Integer $y = 1, *$z) inherits c { }\ndefine d() { notice(1) }\nnode 'a', /b/, default { }\nfunction f(String $x) >> Integer { 1 }\ntype A = Integer\n", "(block\n  (class a::b (inherits c) (parameters x (=t Integer y 1) *z) ())\n  (define d (block\n    (invoke notice 1)\n  ))\n  (node (matches 'a' /b/ :default) ())\n  (function f (parameters (t String x)) (return_type Integer) (block\n    1\n  ))\n  (type-alias A Integer)\n)"),
    ("case and selector", "case $a { 1, 2: { notice(1) } default: {} }\n$k = $a ? { 1 => 2, default => undef }\n", "(block\n  (case $a\n    (when (1 2) (then (block\n      (invoke notice 1)\n    )))\n    (when (:default) (then ())))\n  (= $k (? $a (1 => 2) (:default => :undef)))\n)"),
    ("calls and lambdas", "$l = $x.each |$a, $b| { 1 }\n$x.map |$v| { $v }\nnotice 1, 2\n$o = \"${x.y} $z\"\n", "(block\n  (= $l (call-method (. $x each) (lambda (parameters a b) (block\n    1\n  ))))\n  (call-method (. $x map) (lambda (parameters v) (block\n    $v\n  )))\n  (invoke notice 1 2)\n  (= $o (cat (str (call-method (. $x y))) ' ' (str $z)))\n)"),
    ("operators and access", "$j = !$a and true or false in $b\n$i = $h[a] + $h[1,2] - (1 * 2)\n$m = *$x\nFile['a'] -> File['b'] ~> File['c']\n", "(block\n  (= $j (|| (&& (! $a) true) (in false $b)))\n  (= $i (- (+ (slice $h a) (slice $h (1 2))) (* 1 2)))\n  (= $m (unfold $x))\n  (~> (-> (slice File 'a') (slice File 'b')) (slice File 'c'))\n)"),
    ("an empty program", "# nothing\n", ":nop"),
];

const TEMPLATES: &[(&str, &str, &str)] = &[
    (
        "a template",
        "hello <%= $a %>\n",
        "(lambda (epp (block\n  (render-s 'hello ')\n  (render $a)\n  (render-s '\n')\n)))",
    ),
    (
        "a template with parameters",
        "<%- |$a, $b = 2| -%>\n<% if $a { -%>x<% } %>\n",
        "(lambda (parameters a (= b 2)) (epp (block\n  (if $a\n    (then (render-s 'x')))\n    (render-s '\n')\n  )))",
    ),
    ("an empty template", "", "(lambda (epp ()))"),
];

#[test]
fn programs_dump_as_puppets() {
    let mut failures = Vec::new();
    for (name, source, expected) in PROGRAMS {
        let actual = match puppet_syntax::parse(source) {
            Ok(program) => puppet_syntax::dump::program(&program),
            Err(errors) => format!("(our parser rejects it: {})", errors[0]),
        };
        if actual != *expected {
            failures.push(format!("{name}:\n  puppet: {expected:?}\n  ours:   {actual:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn templates_dump_as_puppets() {
    let mut failures = Vec::new();
    for (name, source, expected) in TEMPLATES {
        let actual = match puppet_syntax::epp::parse_template(source) {
            Ok(template) => puppet_syntax::dump::template(&template),
            Err(error) => format!("(our parser rejects it: {error})"),
        };
        if actual != *expected {
            failures.push(format!("{name}:\n  puppet: {expected:?}\n  ours:   {actual:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
