#!/usr/bin/env bash
# Builds the benchmark in release and runs it: parse throughput over the real-code corpus of
# our grammar, the public tree-sitter-puppet 1.3.0 grammar and `puppet parser validate`.
#
#   bash bench/run.sh [poppet-bench options]     # e.g. --runs 10, --parsers ours,theirs, --json
#   bash bench/run.sh fmt [poppet-bench-fmt options]   # the String.new format benchmark (bench/fmt/):
#                                                      # pfmt against Puppet's own, e.g. --count 10000
#   bash bench/run.sh eval [poppet-bench-eval options] # the evaluation benchmark (bench/eval): poppet's
#                                                      # evaluator against Puppet's compiler, e.g. --runs 20
#   bash bench/run.sh shell [poppet-bench-shell options] # the shell's highlighting per keystroke
#                                                        # (bench/shell), e.g. --runs 5000 --lines 200
#
# The corpus list defaults to $POPPET_CORPUS/pp-files.txt (POPPET_CORPUS=/tmp/puppet-corpus),
# which scripts/install-corpus.sh writes. Only reports; asserts nothing about the timings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${1:-}" = fmt ]; then
  shift
  cargo build --release -q -p poppet-bench --bin poppet-bench-fmt
  target=${CARGO_TARGET_DIR:-$root/target}
  rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ -n "$(git -C "$root" status --porcelain -- fmt types 2>/dev/null)" ]; then
    rev="$rev + uncommitted changes in fmt/ or types/"
  fi
  echo "pfmt = fmt/ at $rev; $(nproc) cores; $(uname -m)" >&2
  exec "$target/release/poppet-bench-fmt" "$@"
fi

if [ "${1:-}" = eval ]; then
  shift
  cargo build --release -q -p poppet-bench --bin poppet-bench-eval
  target=${CARGO_TARGET_DIR:-$root/target}
  # POPPET_REV, when set, names the commit instead of asking git.
  rev=${POPPET_REV:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}
  if [ -z "${POPPET_REV:-}" ] && [ -n "$(git -C "$root" status --porcelain -- repl syntax types fmt 2>/dev/null)" ]; then
    rev="$rev + uncommitted changes in repl/, syntax/, types/ or fmt/"
  fi
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
  echo "poppet = repl/ at $rev; ${cpu:-unknown CPU}, $(nproc) cores, $(uname -m); $(date -u +%Y-%m-%d)" >&2
  exec "$target/release/poppet-bench-eval" "$@"
fi

if [ "${1:-}" = shell ]; then
  shift
  cargo build --release -q -p poppet-bench --bin poppet-bench-shell -p poppet
  target=${CARGO_TARGET_DIR:-$root/target}
  # POPPET_REV, when set, names the commit instead of asking git.
  rev=${POPPET_REV:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}
  if [ -z "${POPPET_REV:-}" ] && [ -n "$(git -C "$root" status --porcelain -- repl tree-sitter-puppet queries 2>/dev/null)" ]; then
    rev="$rev + uncommitted changes in repl/, tree-sitter-puppet/ or queries/"
  fi
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
  echo "poppet = repl/ at $rev; ${cpu:-unknown CPU}, $(nproc) cores, $(uname -m); $(date -u +%Y-%m-%d)" >&2
  exec "$target/release/poppet-bench-shell" "$@"
fi

CORPUS=${POPPET_CORPUS:-/tmp/puppet-corpus}
if [ ! -s "$CORPUS/pp-files.txt" ]; then
  bash scripts/install-corpus.sh "$CORPUS"
fi

cargo build --release -q -p poppet-bench --bin poppet-bench -p poppet-bench-theirs
target=${CARGO_TARGET_DIR:-$root/target}

rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain -- tree-sitter-puppet 2>/dev/null)" ]; then
  rev="$rev + uncommitted changes in tree-sitter-puppet/"
fi
echo "ours = tree-sitter-puppet/ at $rev; $(nproc) cores; $(uname -m)" >&2

exec "$target/release/poppet-bench" --corpus "$CORPUS/pp-files.txt" --bin-dir "$target/release" "$@"
