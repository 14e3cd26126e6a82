//! No template makes the engine panic or run away: the ERB templates of the module corpus
//! (when installed) and of the project's test modules, and mutations of each (bytes
//! deleted, duplicated, swapped, Ruby's punctuation inserted), are each compiled and
//! rendered; each gives output or an error. `POPPET_ERB_FUZZ=N` makes N mutations of each.

mod host;

use std::path::{Path, PathBuf};

use poppet_erb::Template;

/// The templates: the corpus's, the test modules', and constructs at the engine's bounds.
fn seeds() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in [PathBuf::from("/usr/share/puppet/modules"), root.join("eval/tests/modules")] {
        collect(&dir, &mut files, 0);
    }
    files.sort();
    files.dedup();
    let mut out: Vec<String> =
        files.iter().filter_map(|f| std::fs::read(f).ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).collect();
    out.extend(BOUNDS.iter().map(|s| s.to_string()));
    out
}

const BOUNDS: &[&str] = &[
    "<% loop do %>x<% end %>",
    "<% a = []; a << a %><%= a.inspect %><%= a == a %><%= a.flatten %><%= a.hash %>",
    "<% h = {}; h[1] = h %><%= h.inspect %><%= h == h %>",
    "<%= ((((((((((((((((((((((1)))))))))))))))))))))) %>",
    "<% f = ->(n) { f.(n + 1) } %><%= f.(0) %>",
    "<%= 'a' * 100000000000 %>",
    "<% s = 'a'; 40.times { s << s } %><%= s.length %>",
    "<% a = [1]; 40.times { a += a } %><%= a.length %>",
    "<%= (1..).to_a %>",
    "<%= (1..100000000000).to_a.size %>",
    "<%= [1, [2, [3]]].flatten(-1).sum %>",
    "<%= \"#{\"#{\"#{1}\"}\"}\" %>",
    "<% while true; end %>",
    "<%= @servers.each_slice(0).to_a %>",
    "<%= [3, 1, nil].sort %>",
    "<%= 9223372036854775807 + 1 %>",
    "<%= -9223372036854775808 / -1 %><%= -9223372036854775808 % -1 %><%= (-9223372036854775808).abs %>",
    "<%= 'abc'[-9223372036854775808, 2] %><%= 'abc'[1, 9223372036854775807] %>",
    "<%= [1, 2][9223372036854775807] %><%= [1, 2][-9223372036854775808] %>",
    "<% x = [1]; x[1_000_000_000] = 2 %>",
    "<%= 'é'.center(9223372036854775807) %>",
    "<%= Array.new(9223372036854775807) %>",
    "<%= 2 ** 62 * 4 %><%= 10.pow(100, 7) %><%= 1 << 70 %>",
    "<%= 'x'.rjust(-5) %><%= [].first(-1) %>",
    "<%= @options.dig('b', 0, 0) %>",
    "<% @servers << @servers %><%= @servers.inspect %>",
    "<%= 1.0 / 0 %><%= (0.0 / 0).round %>",
    "<%= 1e308.round(400) %><%= 12345.round(-400) %><%= 2.5.floor(-9223372036854775808) %>",
    "<%= 'a'.succ * 3 %><%= ('a'..'zzzzzz').to_a.size %>",
    "<%= Regexp.new('(' * 5000) %>",
    "<%= 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ /(a+)+b/ %>",
];

fn collect(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    if depth > 8 {
        return;
    }
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            collect(&path, out, depth + 1);
        } else if path.extension().is_some_and(|x| x == "erb") {
            out.push(path);
        }
    }
}

/// `text` with one to four edits, drawn from `rng` (seeded: failures reproduce).
fn mutate(text: &str, rng: &mut fastrand::Rng) -> String {
    const PIECES: &[&str] = &[
        "<%", "%>", "-%>", "<%=", "end", "do |x|", "{", "}", "(", "\"", "'", "#{", "/", "[", "]", ".", "::", "|", "?",
        ":", "\n", "@", "%w[", "<<~E\n", "*", "&", "=>", "..", "-", "rescue", "begin", "retry", "while", "->",
    ];
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + below(rng, 4) {
        if chars.is_empty() {
            break;
        }
        let at = below(rng, chars.len());
        match below(rng, 4) {
            0 => {
                let len = 1 + below(rng, 8);
                chars.drain(at..(at + len).min(chars.len()));
            }
            1 => {
                let end = (at + 1 + below(rng, 16)).min(chars.len());
                let copy: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, copy);
            }
            2 => {
                let other = below(rng, chars.len());
                chars.swap(at, other);
            }
            _ => {
                let piece = PIECES[below(rng, PIECES.len())];
                chars.splice(at..at, piece.chars());
            }
        }
    }
    chars.into_iter().collect()
}

fn below(rng: &mut fastrand::Rng, n: usize) -> usize {
    rng.usize(..n.max(1))
}

fn render(text: &str) {
    let Ok(t) = Template::compile(text) else { return };
    let mut host = host::TestHost::new();
    let _ = t.render(&mut host);
}

#[test]
fn no_template_panics_or_runs_away() {
    let seeds = seeds();
    let per_seed: usize = std::env::var("POPPET_ERB_FUZZ").ok().and_then(|n| n.parse().ok()).unwrap_or(12);
    let mut rng = fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0;
    for seed in &seeds {
        let started = std::time::Instant::now();
        render(seed);
        runs += 1;
        for _ in 0..per_seed {
            let mutated = mutate(seed, &mut rng);
            render(&mutated);
            runs += 1;
        }
        let took = started.elapsed();
        if took.as_secs() > 20 {
            eprintln!("slow seed ({took:?}): {}", seed.chars().take(80).collect::<String>());
        }
    }
    eprintln!("{runs} renders of {} templates and their mutations", seeds.len());
}
