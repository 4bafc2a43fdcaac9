#!/usr/bin/env bash
# Install everything evalcore needs, from the project's own files, into a
# project-local virtual environment (.venv/).  Nothing is installed into a
# system interpreter or the user site; the only system-wide installs are
# Debian packages, and only when run as root.
#
#   scripts/setup.sh app   -> Debian graphviz; .venv with the app set (uv.lock, extra "app")
#   scripts/setup.sh dev   -> also Debian chromium + fonts (Playwright test); extra "dev"
#   scripts/setup.sh experiments -> the app set plus spaCy (extra "experiments")
#
# Re-running reuses .venv and reinstalls only when pyproject.toml or uv.lock
# changed (a stamp in .venv records what was installed from which files).
# Environment: VENV (default .venv), PYTHON (an interpreter to use instead of
# the first python3 >= 3.11 on PATH).
set -euo pipefail
what="${1:-dev}"
cd "$(dirname "$0")/.."

UV_VERSION=0.13.9          # the uv that wrote uv.lock; bootstrapped inside .venv only
VENV="${VENV:-.venv}"

case "$what" in
  app) apt_pkgs=(graphviz) ;;
  dev) apt_pkgs=(graphviz chromium fonts-dejavu-core fonts-noto-core) ;;
  experiments) apt_pkgs=(graphviz) ;;
  *) echo "setup: unknown set '$what' (app, dev or experiments)" >&2; exit 2 ;;
esac

# --- the interpreter: the first python3 >= 3.11 on PATH -------------------
find_python() {
  local c
  for c in ${PYTHON:-} python3 python3.14 python3.13 python3.12 python3.11; do
    command -v "$c" >/dev/null 2>&1 || continue
    if "$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      command -v "$c"
      return 0
    fi
  done
  return 1
}
if ! py="$(find_python)"; then
  echo "setup: evalcore needs Python >= 3.11; none of python3, python3.11 .. python3.14 on PATH is." >&2
  echo "setup: on Debian/Ubuntu: apt-get install python3 python3-venv (Debian 12 / Ubuntu 24.04 ship 3.11 / 3.12)" >&2
  exit 1
fi

# --- Debian packages (root only) ----------------------------------------
have_venv() { "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; }
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ! [ -x "$VENV/bin/python" ] && ! have_venv; then
  # Debian splits venv/ensurepip out of the interpreter: python3-venv (or python3.X-venv).
  ver="$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
  if [ "$py" = /usr/bin/python3 ] || [ "$py" = "/usr/bin/python$ver" ]; then
    missing+=("python$ver-venv")
  else
    missing+=(python3-venv)
  fi
fi
if command -v dpkg >/dev/null 2>&1 && [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing Debian packages: ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: please install these Debian packages (as root): apt-get install ${missing[*]}" >&2
    echo "setup: continuing without them" >&2
  fi
fi

# --- the project-local environment ----------------------------------------
if ! [ -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
  if ! have_venv; then
    echo "setup: $py cannot create a virtual environment; install python3-venv (Debian/Ubuntu) and rerun" >&2
    exit 1
  fi
  echo "setup: creating $VENV with $py"
  rm -rf "$VENV"
  "$py" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -m uv --version 2>/dev/null | grep -q "^uv $UV_VERSION"; then
  echo "setup: bootstrapping uv $UV_VERSION inside $VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" 2> >(grep -v "^WARNING: Location" >&2)
fi

# What is installed is recorded in a stamp: the set and the hash of the files
# that define it.  "dev" includes "app"; every set includes the package itself.
stamp_of() { cat pyproject.toml uv.lock | sha256sum | cut -d' ' -f1; }
stamp="$(stamp_of)"
satisfied() {
  local f="$VENV/.evalcore-setup-$1"
  [ -f "$f" ] && [ "$(cat "$f")" = "$stamp" ]
}
if satisfied "$what" || { [ "$what" = app ] && satisfied dev; }; then
  exit 0
fi
echo "setup: installing the locked '$what' set into $VENV (uv.lock)"
# --frozen: use uv.lock exactly as committed (refresh it with `make lock`);
# --inexact: keep packages of another set installed earlier (app after dev).
VIRTUAL_ENV="$PWD/$VENV" UV_PROJECT_ENVIRONMENT="$PWD/$VENV" \
  "$VENV/bin/python" -m uv sync --quiet --frozen --inexact --extra "$what" --python "$VENV/bin/python"
for f in "$VENV"/.evalcore-setup-*; do
  [ -f "$f" ] && [ "$(cat "$f")" != "$stamp" ] && rm -f "$f"
done
echo "$stamp" > "$VENV/.evalcore-setup-$what"
