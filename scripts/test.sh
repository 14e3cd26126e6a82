#!/usr/bin/env bash
# Runs every test of Poppet, after installing what the tests need on this machine:
# Puppet 7.23 and the corpus of real manifests (Debian packages), and the tree-sitter CLI.
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

# The project's shared directory (the oracle, the corpus installer): $POPPET_SHARED, else
# ../shared beside this checkout, else beside the local checkout this one was cloned from.
SHARED=${POPPET_SHARED:-}
if [ -z "$SHARED" ]; then
  origin=$(git -C "$root" remote get-url origin 2>/dev/null || true)
  for candidate in "$root/../shared" "${origin:+$origin/../shared}"; do
    if [ -n "$candidate" ] && [ -d "$candidate/oracle" ]; then
      SHARED=$(cd "$candidate" && pwd)
      break
    fi
  done
fi
if [ -n "$SHARED" ] && [ -z "${POPPET_ORACLE:-}" ]; then
  export POPPET_ORACLE="$SHARED/oracle/oracle.rb"
fi

step "set-up: Puppet 7.23 and the real-code corpus"
if [ -n "$SHARED" ] && [ -r "$SHARED/corpus/install.sh" ]; then
  bash "$SHARED/corpus/install.sh" "$CORPUS"
elif [ ! -s "$CORPUS/pp-files.txt" ]; then
  echo "no shared directory (../shared) and no $CORPUS/pp-files.txt: cannot get the corpus" >&2
  exit 1
fi

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
  cargo run --release -q -p tree-sitter-puppet --example corpus -- "$CORPUS/pp-files.txt"

check "PN: our AST of every corpus manifest, printed as PN, is identical to Puppet's" \
  cargo run --release -q -p puppet-syntax --example pn_corpus -- "$CORPUS/pp-files.txt"

check "validation: our diagnostics for every corpus manifest are Puppet's" \
  cargo run --release -q -p puppet-syntax --example validate_corpus -- "$CORPUS/pp-files.txt"

check "evaluation: every corpus manifest evaluates as Puppet 7.23 does (no panic; notices, warnings, errors)" \
  cargo run --release -q -p puppet-eval --example corpus -- "$CORPUS/pp-files.txt"

check "modules: every class of the corpus modules compiled here and in Puppet 7.23 (no panic; agreement reported)" \
  cargo run --release -q -p puppet-eval --example modules_corpus -- /usr/share/puppet/modules

check "fuzz: mutated corpus files and stress inputs through the parser (no crash, hang or bad tree)" \
  cargo run --release -q -p tree-sitter-puppet --example mutate -- --corpus "$CORPUS/pp-files.txt"

check "fuzz: lowering and PN over the same inputs (no panic, no stack overflow)" \
  cargo run --release -q -p puppet-syntax --example lower_fuzz -- --corpus "$CORPUS/pp-files.txt"

echo
echo "scripts/test.sh: $passed passed, 0 failed"
