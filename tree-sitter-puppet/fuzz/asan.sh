#!/bin/sh
# Runs the mutation harness (`cargo xtask fuzz mutate`, xtask/src/parse/mutate.rs) with its C code, the generated parser, the
# external scanner and the tree-sitter runtime, built under AddressSanitizer and
# UndefinedBehaviorSanitizer (the cc crate passes CFLAGS on). The Rust code is not instrumented:
# that needs a nightly compiler.
#
#   tree-sitter-puppet/fuzz/asan.sh [--inputs N] [--seed S] [--corpus FILE_LIST] ...
#
# Needs gcc with libasan and libubsan. Builds into target/asan; failing inputs go to
# target/asan/mutate. Not part of CI: it runs several times slower than the plain harness.
set -eu
cd "$(dirname "$0")/../.."

target=x86_64-unknown-linux-gnu
export CARGO_TARGET_DIR="$PWD/target/asan"
export CC="${CC:-gcc}"
export CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"
# With an explicit --target, RUSTFLAGS reach the tool but not build scripts. Rust links with
# -nodefaultlibs, so the sanitizer runtimes are named; libasan is preloaded to come first.
export RUSTFLAGS="-C link-arg=-fsanitize=address,undefined -C link-arg=-lasan -C link-arg=-lubsan"
cargo build --release --target "$target" -p xtask

export LD_PRELOAD="$("$CC" -print-file-name=libasan.so)"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1"
exec "$CARGO_TARGET_DIR/$target/release/xtask" fuzz mutate --inputs 300000 "$@"
