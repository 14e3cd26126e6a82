//! Inputs for fuzzing: mutated corpus files and generated stress inputs, a pure function of
//! (seed, index, corpus). Shared by the grammar's fuzz harness (`cargo xtask fuzz mutate`) and
//! the lowering's (`cargo xtask fuzz lower`).

#![allow(dead_code)]

use std::{fmt::Write as _, fs, path::Path};

use fastrand::Rng;

/// The largest slice of a corpus file a mutated input starts from, and the largest it grows to.
pub const MAX_WINDOW: usize = 8 * 1024;

pub const MAX_INPUT: usize = 64 * 1024;

// ------------------------------------------------------------------------------------ corpus

pub struct Corpus {
    pub files: Vec<Vec<u8>>,
    pub description: String,
}

impl Corpus {
    pub fn load(list: Option<&Path>, verbose: bool) -> Corpus {
        let builtin = || Corpus {
            files: SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect(),
            description: format!("{} built-in snippets", SEEDS.len()),
        };
        let Some(list) = list else { return builtin() };
        let Ok(text) = fs::read_to_string(list) else {
            if verbose {
                eprintln!("mutate: cannot read {}; using built-in snippets", list.display());
            }
            return builtin();
        };
        let files: Vec<Vec<u8>> = text.lines().filter(|l| !l.is_empty()).filter_map(|l| fs::read(l).ok()).collect();
        if files.is_empty() {
            if verbose {
                eprintln!("mutate: no readable file in {}; using built-in snippets", list.display());
            }
            return builtin();
        }
        let description = format!("{} files from {}", files.len(), list.display());
        Corpus { files, description }
    }

    pub fn pick<'a>(&'a self, rng: &mut Rng) -> &'a [u8] {
        &self.files[rng.usize(..self.files.len())]
    }
}

/// Stand-ins for the corpus: one of each family of constructs.
pub const SEEDS: &[&str] = &[
    "class foo (\n  String $x = 'a',\n  Optional[Integer[0, 10]] $n = undef,\n) inherits foo::params {\n  file { \"/tmp/${x}\":\n    ensure  => file,\n    content => template('foo/x.erb'),\n    require => Package['x'],\n  }\n}\n",
    "$a = @(END)\n  text\n  END\n$b = @(\"E\"/tsL)\n  ${x} and $y \\t \\\n  E\nnotice($a, $b)\n",
    "$x = [@(A), @(B:json)]\na\nA\n{\"b\": 1}\n-B\n",
    "if $x =~ /^a(b|c)\\/d$/ and $y !~ /x/ {\n  $z = $a / $b / 2\n} elsif $q { } else { notice('no') }\n",
    "User <| title == 'root' and groups != 'x' |> { shell => '/bin/zsh' }\n@@file { 'x': tag => ['a'] }\nFile <<| tag == 'a' |>>\n",
    "$h = { 'a' => 1, b => [1, 2.5, 0x1F, 0777, 1e10], \"c${d}\" => undef }\n$v = $h['a'] [1]\n",
    "case $facts['os']['family'] {\n  'RedHat', 'Fedora': { $p = 'httpd' }\n  /^(Debian|Ubuntu)$/: { $p = \"apache${v}\" }\n  default: { fail(\"no ${facts['os']}\") }\n}\n",
    "$r = $x ? { 'a' => 1, default => 2 }\n$l = [1, 2, 3].map |$i| { $i * 2 }.filter |$k, $v| { $v > 1 }\n",
    "define foo::bar (Hash[String, Any] $o = {}) {\n  Exec { path => '/bin' }\n  exec { 'x': command => \"echo \\\"${o['a']}\\\" \\u{1F600}\", unless => 'test -f x' }\n  Foo::Bar['x'] -> Service['y'] ~> Notify['z']\n}\n",
    "node 'a.example.com', /^web\\d+$/ {\n  include foo\n  class { 'bar': x => 1 }\n}\nnode default {}\n",
    "function foo::f(Integer $x, *$rest) >> Integer {\n  unless $x > 0 { return(-$x) }\n  $x % 3 << 1\n}\ntype Foo::T = Variant[Enum['a', 'b'], Pattern[/x/], Struct[{a => Integer}]]\n",
    "/* a comment\n  over lines */\n# a line comment\n$s = \"line\none ${$a[1]} ${foo::bar} ${::x} $::y \\$ \\\\ \\n\"\n$t = 'it''s \\' \\\\'\n",
    "$x = @(END/$)\n  | indented ${not} \\$ END\n  -END\n$y = \"${ @(IN)\ninside\nIN\n }\"\n",
    "plan p::q(TargetSpec $t) {\n  $r = run_task('x', $t)\n  apply($t) { file { '/x': } }\n}\n",
    "application a (String $x) { }\nsite { a { 'x': } }\n$c = Class['a'] < $b and !$d or -$e in [1]\n($x, $y) = [1, 2]\n",
];

// ------------------------------------------------------------------------------------ inputs

/// One input: its bytes, and the generator that made them.
pub struct Input {
    pub bytes: Vec<u8>,
    pub kind: &'static str,
}

/// The random stream for input `index`, or one of its sub-streams (`stream` > 0).
pub fn rng_for(seed: u64, index: u64, stream: u64) -> Rng {
    let mut x = seed ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(index.wrapping_add(1));
    x ^= stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
    // splitmix64's finaliser, so that neighbouring indices get unrelated streams.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Rng::with_seed(x ^ (x >> 31))
}

pub fn make_input(seed: u64, index: u64, corpus: &Corpus) -> Input {
    let mut rng = rng_for(seed, index, 0);
    if rng.u32(..100) < 75 {
        Input { bytes: mutated(&mut rng, corpus), kind: "mutated" }
    } else {
        let (kind, bytes) = generated(&mut rng, corpus);
        Input { bytes, kind }
    }
}

/// A number in `0..=max`, small ones as likely as large ones on a log scale.
pub fn log_uniform(rng: &mut Rng, max: usize) -> usize {
    let bits = usize::BITS - max.leading_zeros();
    let limit = (1usize << rng.u32(0..=bits)).min(max);
    rng.usize(0..=limit)
}

/// Puppet-significant fragments the mutations insert.
#[rustfmt::skip]
pub const FRAGMENTS: &[&[u8]] = &[
    b"\"", b"'", b"${", b"}", b"@(", b"@(END)", b"@(\"END\")", b"@(END/L)", b"@(END:json/$)",
    b"@(\"E\"/tsrnuL$)", b"END", b"|", b"|-", b"-", b"/", b"/*", b"*/", b"//", b"[", b"]", b" [",
    b"(", b"\n(", b")", b"{", b"<|", b"|>", b"<<|", b"|>>", b"\\", b"\\\\", b"\n", b"\r\n", b"\r",
    b"#", b"$", b"$::", b"::", b"=>", b"->", b"~>", b"=~", b"!~", b"@@", b"@", b"\\u{", b"\\u",
    b"\\u{1F600}", b"\\$", b"\\\n", b"\\\r\n", b"\\\"", b" ", b"\t", b"\0", b"\xff", b"\xfe",
    b"\xef\xbb\xbf", b"\xc3", b"\xe2\x80", b"\xc2\xa0", b"\xe3\x80\x80", b"\xed\xa0\x80", b"?",
    b":", b",", b";", b"=", b"$x", b"${x}", b"\"${x}\"", b"/re/", b"*", b"%", b"<<", b">>", b"case",
    b"if", b"unless", b"else", b"class", b"define", b"node", b"function", b"type", b"default",
    b"undef", b"true", b"in", b"and", b"or", b"!", b"1", b"0x", b"1e", b"1.5", b"{a=>1}", b"[1,2]",
    b"notice()", b"${$a[", b"\"${\"", b"$x ? {", b"|$a| {",
];

/// Tokens the token soup is made of: the fragments and whole small constructs.
#[rustfmt::skip]
pub const TOKENS: &[&[u8]] = &[
    b"$a", b"$::b", b"$c::d", b"foo", b"Foo::Bar", b"'s'", b"\"d\"", b"\"x${y}z\"", b"\"$a\"",
    b"@(E)\nbody\nE\n", b"@(\"E\")\n${a} $b\n|-E\n", b"@(E/t)\n\\t\n  E ", b"/r/", b"1", b"0x1f",
    b"017", b"2.5e3", b"true", b"undef", b"default", b"=", b"==", b"!=", b"<", b"<=", b"+", b"-",
    b"*", b"/", b"%", b"<<", b">>", b"=~", b"!~", b"in", b"and", b"or", b"!", b"?", b":", b"::",
    b",", b";", b"=>", b"+>", b"->", b"~>", b"<-", b"<~", b"(", b")", b"[", b"]", b" [", b"{", b"}",
    b"|", b"<|", b"|>", b"<<|", b"|>>", b"@", b"@@", b"\n", b"\n(", b" ", b"\r\n", b"# c\n",
    b"/* c */", b"if", b"elsif", b"else", b"unless", b"case", b"class", b"define", b"node",
    b"inherits", b"function", b"type", b"plan", b"include", b"notice", b"Integer[1]", b"File",
    b"file", b"${", b"$", b"\"", b"'", b"@(", b"\\",
];

/// A corpus file, or a slice of it, with one to a dozen mutations.
pub fn mutated(rng: &mut Rng, corpus: &Corpus) -> Vec<u8> {
    let file = corpus.pick(rng);
    let mut buf = window(rng, file, MAX_WINDOW);
    let rounds = 1 + log_uniform(rng, 12);
    for _ in 0..rounds {
        mutate(rng, &mut buf, corpus);
    }
    buf.truncate(MAX_INPUT);
    buf
}

/// A file, or a random slice of it if it is larger than `max`.
pub fn window(rng: &mut Rng, file: &[u8], max: usize) -> Vec<u8> {
    if file.len() <= max {
        return file.to_vec();
    }
    let length = rng.usize(max / 4..=max);
    let start = rng.usize(..=file.len() - length);
    file[start..start + length].to_vec()
}

/// A position in `buf`, often at the start of a line or next to a significant character.
pub fn position(rng: &mut Rng, buf: &[u8]) -> usize {
    let at = rng.usize(..=buf.len());
    match rng.u32(..4) {
        0 => buf[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1),
        1 => at + buf[at..].iter().position(|b| b"\"'$@/\\[({|<\n".contains(b)).unwrap_or(0),
        _ => at,
    }
}

pub fn slice(rng: &mut Rng, buf: &[u8], max: usize) -> (usize, usize) {
    let start = rng.usize(..=buf.len());
    let end = start + log_uniform(rng, max.min(buf.len() - start));
    (start, end)
}

pub fn mutate(rng: &mut Rng, buf: &mut Vec<u8>, corpus: &Corpus) {
    let at = position(rng, buf);
    match rng.u32(..14) {
        0 if !buf.is_empty() => {
            let i = rng.usize(..buf.len());
            buf[i] ^= 1 << rng.u32(..8);
        }
        1 if !buf.is_empty() => {
            let i = rng.usize(..buf.len());
            buf[i] = rng.u8(..);
        }
        2..=4 => {
            let fragment = FRAGMENTS[rng.usize(..FRAGMENTS.len())];
            buf.splice(at..at, fragment.iter().copied());
        }
        5 | 6 => {
            let (start, end) = slice(rng, buf, 256);
            buf.drain(start..end);
        }
        7 => {
            let (start, end) = slice(rng, buf, 4096);
            let copy = buf[start..end].to_vec();
            let at = rng.usize(..=buf.len());
            buf.splice(at..at, copy);
        }
        8 => {
            // Splice a slice of another file in, in place of a slice of this one.
            let other = corpus.pick(rng);
            let (start, end) = slice(rng, other, 4096);
            let (here, there) = slice(rng, buf, 64);
            buf.splice(here..there, other[start..end].iter().copied());
        }
        9 => {
            let at = log_uniform(rng, buf.len());
            buf.truncate(buf.len() - at);
        }
        10 => {
            let fragment = FRAGMENTS[rng.usize(..FRAGMENTS.len())];
            let times = log_uniform(rng, 300);
            let repeated = fragment.repeat(times);
            buf.splice(at..at, repeated);
        }
        11 => {
            // Swap a quote, bracket or sigil for another.
            const SIGNIFICANT: &[u8] = b"\"'$@/\\[](){}|<>#*\n";
            if let Some(i) = buf.iter().skip(at).position(|b| SIGNIFICANT.contains(b)) {
                buf[at + i] = SIGNIFICANT[rng.usize(..SIGNIFICANT.len())];
            }
        }
        12 => {
            // A small stress input inside the file.
            let (_, small) = stress(rng, 64);
            buf.splice(at..at, small);
        }
        _ => {
            let line_breaks: [&[u8]; 3] = [b"\n", b"\r\n", b"\r"];
            buf.splice(at..at, line_breaks[rng.usize(..3)].iter().copied());
        }
    }
}

/// A generated stress input, alone or after a piece of a corpus file.
pub fn generated(rng: &mut Rng, corpus: &Corpus) -> (&'static str, Vec<u8>) {
    let (kind, bytes) = stress(rng, 5000);
    if rng.bool() {
        return (kind, bytes);
    }
    let file = corpus.pick(rng);
    let mut buf = window(rng, file, 2048);
    let at = position(rng, &buf);
    buf.splice(at..at, bytes);
    (kind, buf)
}

pub fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.usize(..items.len())]
}

/// Stress inputs; `scale` bounds nesting depths and repetition counts.
pub fn stress(rng: &mut Rng, scale: usize) -> (&'static str, Vec<u8>) {
    let mut s = String::new();
    let kind = match rng.u32(..12) {
        0 => {
            let depth = log_uniform(rng, scale);
            let closed = if rng.bool() { depth } else { rng.usize(..=depth) };
            let (open, middle, close) = match rng.u32(..9) {
                0 => ("[", "1", "]"),
                1 => ("(", "1", ")"),
                2 => ("{a => ", "1", "}"),
                3 => ("\"${", "$x", "}\""),
                4 => ("${\"", "x", "\"}"),
                5 => ("if $x {", "", "}"),
                6 => (" [", "1", "]"),
                7 => ("\n(", "1", ")"),
                _ => ("[{", "", "}]"),
            };
            s.push_str(pick(rng, &["$x = ", "", "notice(", "$x = \""]));
            s.push_str(&open.repeat(depth));
            s.push_str(middle);
            s.push_str(&close.repeat(closed));
            "nesting"
        }
        1 => {
            // Heredocs in interpolations in heredocs.
            let depth = log_uniform(rng, scale.min(200));
            s.push_str("$x = ");
            for i in 0..depth {
                let _ = write!(s, "@(\"E{i}\")\n{}${{ ", pick(rng, &["", "text ", "$a "]));
            }
            for i in (0..depth).rev() {
                let _ = write!(s, "}}\nE{i}\n");
            }
            "nested-heredocs"
        }
        2 => {
            // Many heredocs on one line, then their bodies.
            let count = match rng.u32(..4) {
                0 => 9,
                1 => 100,
                2 => *[63, 64, 65, 85, 86, 255, 256, 300].get(rng.usize(..8)).unwrap(),
                _ => 1 + log_uniform(rng, scale.min(300)),
            };
            let interpolate = rng.bool();
            let same_tag = rng.u32(..4) == 0;
            let eol = pick(rng, &["\n", "\n", "\r\n"]);
            s.push_str("$x = [");
            for i in 0..count {
                let tag = if same_tag { "END".to_string() } else { format!("T{i}") };
                let spec = pick(rng, &["", "", "/", "/tL", ":json", ":epp/$"]);
                if interpolate {
                    let _ = write!(s, "@(\"{tag}\"{spec}), ");
                } else {
                    let _ = write!(s, "@({tag}{spec}), ");
                }
            }
            s.push(']');
            s.push_str(eol);
            for i in 0..count {
                let tag = if same_tag { "END".to_string() } else { format!("T{i}") };
                if rng.u32(..20) == 0 {
                    continue; // a missing body: the next one's text belongs to this one
                }
                for _ in 0..rng.usize(..4) {
                    s.push_str(pick(rng, &["text", "${x}", "$y z", "\\t\\n\\$", "a\\", "E"]));
                    s.push_str(eol);
                }
                let margin = pick(rng, &["", "  |", "| ", "-", "  |-", "x "]);
                let _ = write!(s, "{margin}{tag}{}{eol}", pick(rng, &["", "  ", "\t"]));
            }
            "many-heredocs"
        }
        3 => {
            // A long tag, around the scanner's limits (1000 code points, a 1024 ring).
            let length = match rng.u32(..3) {
                0 => *[250, 999, 1000, 1001, 1023, 1024, 1025, 5000].get(rng.usize(..8)).unwrap(),
                _ => 1 + log_uniform(rng, 6000),
            };
            let unit = pick(rng, &["A", "é", "\u{1F600}", "a b", "\u{3000}"]);
            let tag: String = unit.repeat(length).chars().take(length).collect();
            let quoted = if rng.bool() { format!("\"{tag}\"") } else { tag.clone() };
            let _ = writeln!(s, "$x = @({quoted}{})", pick(rng, &["", "/L", ":txt"]));
            s.push_str(&"x".repeat(log_uniform(rng, 2100)));
            s.push('\n');
            s.push_str(pick(rng, &["", "  |", "|-", "prefix "]));
            if rng.u32(..4) != 0 {
                s.push_str(&tag);
            }
            s.push_str(&" ".repeat(log_uniform(rng, 40)));
            s.push_str(pick(rng, &["\n", "", "\r\n"]));
            s.push_str("notice($x)\n");
            "long-tag"
        }
        4 => {
            let prefix = pick(rng, &["", "$x = ", "notice(", "class a { $x = ", "$x = [1, "]);
            #[rustfmt::skip]
            let open = pick(rng, &[
                "\"abc ${x", "\"abc", "'abc", "@(END)\nbody", "@(END)\nbody\n", "@(END", "@(",
                "@(\"E\"/tsrnuL$)\n${x", "@(E)\n\\", "/* comment", "/*", "$x =~ /abc",
                "$x =~ /", "$x =~ /a\\", "\"${", "\"${$a[", "\"${ @(E)\n",
                "User <| title == 'x'", "User <<| ", "<|", "@@file {", "node /abc",
                "case $x { /re", "\\", "\"\\u{12", "\"\\u12", "\"\\", "\"$", "\"$::", "#",
                "$x = $y ? {", "|$a", "[", "(", "{", "Foo[", "$::", "@(E)\nx\n  | E x",
                "@(E/)\n\\u{",
            ]);
            s.push_str(prefix);
            s.push_str(open);
            s.push_str(pick(rng, &["", "", "\n", "\r\n", " "]));
            "unterminated"
        }
        5 => {
            // Invalid UTF-8 where the scanner decodes text.
            #[rustfmt::skip]
            const BAD: &[&[u8]] = &[
                b"\x80", b"\xc0", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                b"\xf8\x88\x80\x80\x80", b"\xff", b"\xfe\xff", b"\xc0\xaf", b"\xef\xbf\xbf",
            ];
            let bad = BAD[rng.usize(..BAD.len())];
            #[rustfmt::skip]
            let template = pick(rng, &[
                "$x = \"a@b\"\n", "$x = @(E@)\nb@dy\nE@\n", "$x = @(E)\nb@dy\nE\n",
                "$x = /r@/\n", "$x = 'a@b'\n", "# c@\n", "$x@ = 1\n", "@", "$x = \"${@}\"\n",
                "$x = @(\"E\")\n$@\nE\n",
            ]);
            let mut bytes = Vec::new();
            for (i, part) in template.split('@').enumerate() {
                if i > 0 {
                    bytes.extend_from_slice(bad);
                }
                bytes.extend_from_slice(part.as_bytes());
            }
            return ("invalid-utf8", bytes);
        }
        6 => {
            let mut bytes = Vec::new();
            for _ in 0..rng.usize(1..4) {
                bytes.extend_from_slice(if rng.bool() { b"\xef\xbb\xbf" } else { b"\0" });
                let snippet = pick(rng, &["$x = 1\n", "\"a", "@(E)\n", "x\n", "E\n", "'", "/", "${", "\\"]);
                bytes.extend_from_slice(snippet.as_bytes());
            }
            return ("bom-nul", bytes);
        }
        7 => {
            let length = log_uniform(rng, scale * 8);
            let (before, unit, after) = match rng.u32(..8) {
                0 => ("$x = '", "a", "'\n"),
                1 => ("$x = \"", "a$", "\"\n"),
                2 => ("# ", "c", "\n"),
                3 => ("/* ", "*", "*/\n"),
                4 => ("$x =~ /", "a\\/", "/\n"),
                5 => ("$x = @(E)\n", "b", "E\n"),
                6 => ("$x = [", "1,", "]\n"),
                _ => ("$x = 1", "+1", "\n"),
            };
            s.push_str(before);
            s.push_str(&unit.repeat(length / unit.len()));
            s.push_str(after);
            "long-line"
        }
        8 => {
            let digits = 1 + log_uniform(rng, scale * 4);
            let number: String = (0..digits).map(|_| rng.digit(10)).collect();
            let form = pick(rng, &["", "0x", "0", "-", "1.", "1e", "0.0e-", "1e+"]);
            let _ = writeln!(s, "$x = {form}{number}{}", pick(rng, &["", ".5", "e9", "x", "."]));
            "number"
        }
        9 => {
            // Double-quoted text and heredoc text with every kind of backslash.
            #[rustfmt::skip]
            const ESCAPES: &[&str] = &[
                "\\t", "\\n", "\\s", "\\r", "\\$", "\\\\", "\\\"", "\\'", "\\u{41}", "\\u{}",
                "\\u{1234567}", "\\u00e9", "\\u00", "\\\n", "\\\r\n", "\\\r", "\\q", "$", "${x}",
                "$::x", "$::", "$:", "x", " ", "\n", "\\u{1F600", "\\", "E",
            ];
            let heredoc = rng.bool();
            if heredoc {
                let spec = pick(rng, &["", "/", "/t", "/L", "/$", "/tsrnuL$", "/x"]);
                let quote = pick(rng, &["", "\""]);
                let _ = writeln!(s, "$x = @({quote}E{quote}{spec})");
            } else {
                s.push_str("$x = \"");
            }
            for _ in 0..log_uniform(rng, 200) {
                s.push_str(ESCAPES[rng.usize(..ESCAPES.len())]);
            }
            s.push_str(if heredoc { "\nE\n" } else { "\"\n" });
            "escapes"
        }
        10 => {
            let eol = pick(rng, &["\r\n", "\r", "\n\r"]);
            let seed = SEEDS[rng.usize(..SEEDS.len())];
            s.push_str(&seed.replace('\n', eol));
            "line-breaks"
        }
        _ => {
            let mut bytes = Vec::new();
            for _ in 0..log_uniform(rng, scale.min(2000)) {
                bytes.extend_from_slice(TOKENS[rng.usize(..TOKENS.len())]);
                if rng.u32(..3) == 0 {
                    bytes.push(b' ');
                }
            }
            return ("tokens", bytes);
        }
    };
    (kind, s.into_bytes())
}
