#!/usr/bin/env bash
# Runs every test of Poppet, after installing what the tests need on this machine:
# Puppet 7.23 and the corpus of real manifests (Debian packages, scripts/install-corpus.sh),
# and the tree-sitter CLI. The corpus checks and fuzzers are subcommands of `cargo xtask`
# (xtask/); they ask Puppet through the project's oracle (tests/oracle/oracle.rb).
#
#   bash scripts/test.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

TREE_SITTER_CLI_VERSION=0.27.1
CORPUS=${POPPET_CORPUS:-/tmp/puppet-corpus}

step() { printf '\n== %s\n' "$*"; }

# check NAME COMMAND...: runs one suite; set -e stops at the first that fails.
passed=0
check() {
  step "$1"
  shift
  "$@"
  passed=$((passed + 1))
}

# The Puppet oracle of the recorders and corpus checks: the project's own
# (tests/oracle/oracle.rb), unless $POPPET_ORACLE names another.
export POPPET_ORACLE=${POPPET_ORACLE:-$root/tests/oracle/oracle.rb}

step "set-up: Puppet 7.23 and the real-code corpus"
bash scripts/install-corpus.sh "$CORPUS"

step "set-up: tree-sitter CLI $TREE_SITTER_CLI_VERSION"
if ! tree-sitter --version 2>/dev/null | grep -q "$TREE_SITTER_CLI_VERSION"; then
  cargo install tree-sitter-cli --version "$TREE_SITTER_CLI_VERSION" --locked
fi
export PATH="$HOME/.cargo/bin:$PATH"
# The CLI finds grammars through a config file: point it at this checkout only.
TREE_SITTER_DIR=$(mktemp -d)
export TREE_SITTER_DIR
trap 'rm -rf "$TREE_SITTER_DIR"' EXIT
printf '{"parser-directories": ["%s"]}\n' "$root" > "$TREE_SITTER_DIR/config.json"

check "cargo test (workspace)" cargo test --workspace --release

check "tree-sitter test (corpus and highlight assertions)" \
  bash -c 'cd tree-sitter-puppet && tree-sitter test'

highlight_check() {
  local out
  out=$(cd tree-sitter-puppet && tree-sitter highlight --check test/highlight/classes.pp 2>&1 >/dev/null || true)
  if [ -n "$out" ] && ! grep -q "All highlight captures conform" <<<"$out"; then
    echo "$out" >&2
    return 1
  fi
  echo "All highlight captures conform to standards."
}
check "tree-sitter highlight --check" highlight_check

check "real-code corpus: every manifest parses with no ERROR or MISSING node" \
  cargo xtask check parse-corpus "$CORPUS/pp-files.txt"

check "PN: our AST of every corpus manifest, printed as PN, is identical to Puppet's" \
  cargo xtask check pn-corpus "$CORPUS/pp-files.txt"

check "AST: for every corpus manifest Puppet's parser builds, its AST is the lowering's, spans included" \
  cargo run --release -q -p puppet-syntax --example ast_agreement -- "$CORPUS/pp-files.txt"

check "validation: our diagnostics for every corpus manifest are Puppet's" \
  cargo xtask check validate-corpus "$CORPUS/pp-files.txt"

check "poppet parser validate|dump print what puppet parser validate|dump print (corpus and mutants)" \
  bash -c 'cargo build --release -p poppet && cargo xtask check parser-cli "$0/pp-files.txt"' "$CORPUS"

check "poppet epp validate|render|dump print what puppet epp validate|render|dump print (corpus templates, mutants, fixtures)" \
  bash -c 'cargo build --release -p poppet && cargo xtask check epp-cli "$0/epp-files.txt"' "$CORPUS"

check "poppet lookup prints what puppet lookup prints (the fixture control repo, the corpus modules' data; recorded)" \
  bash -c 'cargo build --release -p poppet && cargo xtask check lookup-cli'

check "poppet catalog compile prints what puppet catalog compile prints (the fixture control repo's nodes; recorded)" \
  bash -c 'cargo build --release -p poppet && cargo xtask check compile-cli'

check "evaluation: every corpus manifest evaluates as Puppet 7.23 does (no panic; notices, warnings, errors)" \
  cargo xtask check eval-corpus "$CORPUS/pp-files.txt"

check "modules: every class and defined type of the corpus modules compiled for a real node here and in Puppet 7.23 (identical catalogs, same failures, need Ruby; any other difference fails)" \
  cargo xtask check modules /usr/share/puppet/modules

check "fuzz: mutated corpus files and stress inputs through the parser (no crash, hang or bad tree)" \
  cargo xtask fuzz mutate --corpus "$CORPUS/pp-files.txt"

check "fuzz: lowering and PN over the same inputs (no panic, no stack overflow)" \
  cargo xtask fuzz lower --corpus "$CORPUS/pp-files.txt"

echo
echo "scripts/test.sh: $passed passed, 0 failed"
