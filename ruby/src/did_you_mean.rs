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
