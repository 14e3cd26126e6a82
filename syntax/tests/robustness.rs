//! Lowering and printing stay within a test thread's 2 MiB stack and never panic.

use puppet_syntax::{parse, pn, MAX_DEPTH};

/// Parses, lowers and prints `source` on a thread with the default 2 MiB test stack.
fn lower_and_print(source: String) -> Result<String, Vec<String>> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || match parse(&source) {
            Ok(program) => Ok(pn::program(&program).to_text()),
            Err(diagnostics) => Err(diagnostics.iter().map(|d| d.message.clone()).collect()),
        })
        .expect("thread starts")
        .join()
        .expect("no panic")
}

#[test]
fn nesting_just_below_the_limit_lowers() {
    let depth = MAX_DEPTH - 2;
    let source = format!("$x = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
    let printed = lower_and_print(source).expect("lowers");
    assert!(printed.starts_with("(= (var \"x\") (array (array"));
}

#[test]
fn deeper_nesting_is_an_error_not_a_crash() {
    for (open, close) in [("[", "]"), ("(", ")"), ("{a => ", "}"), ("\"${", "}\""), ("-", "")] {
        let source = format!("$x = {}1{}\n", open.repeat(20_000), close.repeat(20_000));
        let errors = lower_and_print(source).expect_err("too deep");
        // Nested strings overflow Puppet's own lexer first: it says so, and so do we.
        assert!(
            errors.iter().any(|e| e.contains("nested more than") || e == "stack level too deep"),
            "{open}: {errors:?}"
        );
    }
}

/// A file's bytes: Puppet's encoding errors come first, as values, whatever follows.
#[test]
fn bytes_that_are_not_utf8_or_start_with_a_bom_are_errors() {
    let message = |bytes: &[u8]| match puppet_syntax::parse_bytes(bytes) {
        Ok(_) => String::from("(parsed)"),
        Err(d) => d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; "),
    };
    assert_eq!(message(b"$x = \"\xff\"\n"), "invalid byte sequence in UTF-8");
    assert_eq!(
        message(b"\xef\xbb\xbf$x = 1\n"),
        "Illegal UTF-8 Byte Order mark at beginning of input: [EF BB BF] - remove these from the puppet source"
    );
    assert_eq!(message(b"$x = 1\n"), "(parsed)");
}
