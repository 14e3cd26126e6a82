#!/usr/bin/env bash
# Installs what the corpus checks need: Puppet 7.23 (Debian's `puppet-agent` package, the
# oracle's Puppet) and a corpus of real Puppet code (every `puppet-module-*` package Debian
# has: 93 modules, ~1,920 .pp files, ~165k lines, ~50 .epp templates, under
# /usr/share/puppet/modules.available), then lists the manifests, one path a line,
# de-duplicated (some modules ship symlinks).
#
#   bash scripts/install-corpus.sh [OUT_DIR]     # default OUT_DIR: /tmp/puppet-corpus
#
# Writes OUT_DIR/pp-files.txt and OUT_DIR/epp-files.txt. Installing needs root (apt-get); with
# Puppet and the modules already there it only writes the lists.
set -euo pipefail
out="${1:-/tmp/puppet-corpus}"
modules=/usr/share/puppet/modules.available
mkdir -p "$out"

if [ ! -d "$modules" ] || ! command -v puppet >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  sudo=
  if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
  fi
  $sudo apt-get update -qq
  packages=$(apt-cache search --names-only '^puppet-module-' | awk '{print $1}')
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends puppet-agent $packages >/dev/null
fi

# list EXT: every file of the modules with that extension, as a real path, sorted, once each.
list() {
  find -L "$modules" -name "*.$1" -type f -print0 | xargs -0 -n 200 readlink -f | sort -u
}
list pp > "$out/pp-files.txt"
list epp > "$out/epp-files.txt"
echo "corpus: $(wc -l < "$out/pp-files.txt") .pp files, $(wc -l < "$out/epp-files.txt") .epp files listed in $out"
