//! Compiles the generated parser and the external scanner.

fn main() {
    let src_dir = std::path::Path::new("src");

    let mut c_config = cc::Build::new();
    c_config.std("c11").include(src_dir);
    // The generated parser and scanner are C11; silence the generator's known warnings only.
    c_config
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-but-set-variable")
        .flag_if_supported("-Wno-trigraphs");

    for file in ["parser.c", "scanner.c"] {
        let path = src_dir.join(file);
        c_config.file(&path);
        println!("cargo:rerun-if-changed={}", path.to_str().unwrap_or(file));
    }
    println!("cargo:rerun-if-changed=src/tree_sitter/parser.h");
    c_config.compile("tree-sitter-puppet");
}
