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
#   bash bench/run.sh cli [RUNS]  # whole commands: `poppet parser validate` against `puppet parser
#                                 # validate`, over the corpus in one call and on one file, and
#                                 # `catalog compile` of the fixture control repo's nodes (best of RUNS,
#                                 # default 3; peak RSS by GNU time when /usr/bin/time is there)
#
# The corpus list defaults to $POPPET_CORPUS/pp-files.txt (POPPET_CORPUS=/tmp/puppet-corpus),
# which scripts/install-corpus.sh writes. Only reports; asserts nothing about the timings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${1:-}" = cli ]; then
  runs=${2:-3}
  cargo build --release -q -p poppet
  poppet=${CARGO_TARGET_DIR:-$root/target}/release/poppet
  list=${POPPET_CORPUS:-/tmp/puppet-corpus}/pp-files.txt
  mapfile -t files < "$list"
  one=$(mktemp --suffix=.pp)
  trap 'rm -f "$one"' EXIT
  echo 'notice(1)' > "$one"
  # best wall time of $runs runs (ms), and the peak RSS of the last (KB, or "?")
  measure() {
    local best="" ms rss="?" start end
    for _ in $(seq "$runs"); do
      start=$(date +%s%N)
      if [ -x /usr/bin/time ]; then
        # the command's messages and GNU time's line share stderr; the last line is time's
        rss=$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1) || true
      else
        "$@" >/dev/null 2>&1 || true
      fi
      end=$(date +%s%N)
      ms=$(( (end - start) / 1000000 ))
      if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    echo "$best $rss"
  }
  printf '%-34s %12s %12s %10s %10s %8s\n' workload "poppet ms" "puppet ms" "poppet KB" "puppet KB" ratio
  for workload in corpus one; do
    if [ "$workload" = corpus ]; then set -- "${files[@]}"; else set -- "$one"; fi
    read -r ours ours_rss < <(measure "$poppet" parser validate --color false "$@")
    read -r theirs theirs_rss < <(measure puppet parser validate --color false "$@")
    ratio=$(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.0fx", a / (b > 0 ? b : 1) }')
    label="parser validate ($workload: $# files)"
    printf '%-34s %12s %12s %10s %10s %8s\n' "$label" "$ours" "$theirs" "$ours_rss" "$theirs_rss" "$ratio"
  done
  # node catalogs of the fixture control repo (roles and profiles over corpus modules), with
  # the facts a server cached for them
  fixture=$root/tests/fixtures/control-repo
  settings=(--environmentpath "$fixture/environments" --environment site --hiera_config "$fixture/hiera.yaml"
    --vardir "$fixture/var" --facts_terminus yaml --confdir "$fixture" --codedir "$fixture")
  for node in web01.example.com db01.example.com; do
    read -r ours ours_rss < <(measure "$poppet" catalog compile "${settings[@]}" "$node")
    read -r theirs theirs_rss < <(measure puppet catalog compile "${settings[@]}" "$node")
    ratio=$(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.0fx", a / (b > 0 ? b : 1) }')
    printf '%-34s %12s %12s %10s %10s %8s\n' "catalog compile ($node)" "$ours" "$theirs" "$ours_rss" "$theirs_rss" "$ratio"
  done
  exit 0
fi

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
