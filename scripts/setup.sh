#!/usr/bin/env bash
# Install everything evalcore needs on a fresh machine, from the project's own files.
#   scripts/setup.sh app   -> system graphviz + the package with the app extras
#   scripts/setup.sh dev   -> also Debian's chromium (for the Playwright test) + test/lint tools
set -euo pipefail
what="${1:-dev}"
cd "$(dirname "$0")/.."

apt_pkgs=(graphviz)
[ "$what" = dev ] && apt_pkgs+=(chromium fonts-dejavu-core fonts-noto-core)

missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing Debian packages: ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: please install these Debian packages: ${missing[*]} (continuing without them)" >&2
  fi
fi

python3 -m pip install --quiet --disable-pip-version-check -e ".[$what]"
