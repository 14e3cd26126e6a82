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

step "set-up: Puppet 7.23 and the real-code corpus"
if [ -r ../shared/corpus/install.sh ]; then
  bash ../shared/corpus/install.sh "$CORPUS"
elif [ ! -s "$CORPUS/pp-files.txt" ]; then
  echo "no ../shared/corpus/install.sh and no $CORPUS/pp-files.txt: cannot get the corpus" >&2
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

step "cargo test (workspace)"
cargo test --workspace --release

step "tree-sitter test (corpus and highlight assertions)"
(cd tree-sitter-puppet && tree-sitter test)

step "tree-sitter highlight --check"
check=$(cd tree-sitter-puppet && tree-sitter highlight --check test/highlight/classes.pp 2>&1 >/dev/null || true)
if [ -n "$check" ] && ! grep -q "All highlight captures conform" <<<"$check"; then
  echo "$check" >&2
  exit 1
fi
echo "All highlight captures conform to standards."

step "real-code corpus: every manifest parses with no ERROR or MISSING node"
cargo run --release -q -p tree-sitter-puppet --example corpus -- "$CORPUS/pp-files.txt"

step "fuzz: mutated corpus files and stress inputs through the parser (no crash, hang or bad tree)"
cargo run --release -q -p tree-sitter-puppet --example mutate -- --corpus "$CORPUS/pp-files.txt"
