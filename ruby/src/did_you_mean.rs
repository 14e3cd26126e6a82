//! Ruby's "Did you mean?" (the did_you_mean gem): the suggestions a `NoMethodError`'s message
//! ends with, in Puppet's Ruby, for the methods Poppet's ports of Ruby code call on values
//! that may lack them. The table (`did_you_mean.tsv`: class, method, suggestions) is
//! generated from Puppet 7.23's Ruby by `cargo xtask gen did-you-mean`.

const TABLE: &str = include_str!("did_you_mean.tsv");

/// What Ruby adds to the message of `undefined method 'METHOD' for ...` when the receiver's
/// class is `class`: `"\nDid you mean?  a"`, further suggestions each on a line of their own;
/// `""` when it suggests nothing.
///
/// ```
/// use poppet_ruby::did_you_mean::suggestions;
/// assert_eq!(suggestions("String", "each_with_index"), "\nDid you mean?  each_line");
/// assert_eq!(suggestions("Array", "to_i"), "\nDid you mean?  to_s\n               to_a\n               to_h");
/// assert_eq!(suggestions("NilClass", "split"), "");
/// ```
pub fn suggestions(class: &str, method: &str) -> String {
    let found = TABLE.lines().find_map(|line| {
        let mut fields = line.split('\t');
        (fields.next() == Some(class) && fields.next() == Some(method)).then(|| fields.next()).flatten()
    });
    match found {
        Some(words) => format!("\nDid you mean?  {}", words.split(' ').collect::<Vec<_>>().join("\n               ")),
        None => String::new(),
    }
}

/// The did_you_mean gem's `SpellChecker#correct`: the words of `dictionary` that `input`
/// may be a mistyping or misspelling of, best first (Jaro-Winkler to select and order,
/// Levenshtein to keep).
///
/// ```
/// use poppet_ruby::did_you_mean::correct;
/// assert_eq!(correct(&["length", "last", "lazy"], "lenght"), ["length"]);
/// ```
pub fn correct<'a>(dictionary: &[&'a str], input: &str) -> Vec<&'a str> {
    let normalized = normalize(input);
    let len = normalized.chars().count();
    let threshold = if len > 3 { 0.834 } else { 0.77 };
    let mut words: Vec<(&str, f64)> = dictionary
        .iter()
        .filter(|w| jaro_winkler(&normalize(w), &normalized) >= threshold)
        .filter(|w| **w != input)
        .map(|w| (*w, jaro_winkler(w, &normalized)))
        .collect();
    // sort_by! then reverse!: best first, ties in reverse dictionary order
    words.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
    words.reverse();
    let limit = (len as f64 * 0.25).ceil() as usize;
    let corrections: Vec<&str> =
        words.iter().filter(|(w, _)| levenshtein(&normalize(w), &normalized) <= limit).map(|(w, _)| *w).collect();
    if !corrections.is_empty() {
        return corrections;
    }
    words
        .iter()
        .filter(|(w, _)| {
            let w = normalize(w);
            let shorter = len.min(w.chars().count());
            levenshtein(&w, &normalized) < shorter
        })
        .map(|(w, _)| *w)
        .take(1)
        .collect()
}

/// The lines a message ends with for `corrections`: `"\nDid you mean?  a"`, each further
/// one on a line of its own.
pub fn format(corrections: &[String]) -> String {
    if corrections.is_empty() {
        return String::new();
    }
    format!("\nDid you mean?  {}", corrections.join("\n               "))
}

fn normalize(s: &str) -> String {
    s.to_lowercase().replace('@', "")
}

/// The gem's `Jaro.distance` (over code points).
fn jaro(a: &str, b: &str) -> f64 {
    let (mut s1, mut s2): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if s1.len() > s2.len() {
        std::mem::swap(&mut s1, &mut s2);
    }
    let (l1, l2) = (s1.len(), s2.len());
    let range = (l2 / 2).saturating_sub(1);
    let mut flags1 = vec![false; l1];
    let mut flags2 = vec![false; l2 + range + 1];
    let mut m = 0.0;
    for i in 0..l1 {
        let last = i + range;
        let mut j = i.saturating_sub(range);
        while j <= last {
            if !flags2[j] && j < l2 && s1[i] == s2[j] {
                flags2[j] = true;
                flags1[i] = true;
                m += 1.0;
                break;
            }
            j += 1;
        }
    }
    let mut t = 0.0;
    let mut k = 0;
    for i in 0..l1 {
        if flags1[i] {
            let mut j = k;
            let mut index = k;
            while j < l2 {
                index = j;
                if flags2[j] {
                    break;
                }
                j += 1;
            }
            k = if j < l2 { j + 1 } else { k };
            if s2.get(index) != Some(&s1[i]) {
                t += 1.0;
            }
        }
    }
    let t = (t / 2.0_f64).floor();
    if m == 0.0 {
        0.0
    } else {
        (m / l1 as f64 + m / l2 as f64 + (m - t) / m) / 3.0
    }
}

/// The gem's `JaroWinkler.distance`: Jaro with a bonus for a common prefix (of up to 4).
fn jaro_winkler(a: &str, b: &str) -> f64 {
    let d = jaro(a, b);
    if d <= 0.7 {
        return d;
    }
    let prefix = a.chars().zip(b.chars()).take(4).take_while(|(x, y)| x == y).count();
    d + prefix as f64 * 0.1 * (1.0 - d)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j + 1] + 1).min(cur[j] + 1).min(prev[j] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}
