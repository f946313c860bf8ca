#!/usr/bin/env bash
# Set up everything Cartulina needs on a fresh Debian machine with only Python:
# the Debian packages (when run as root), a virtual environment in .venv with the
# project installed editable, and the vendored front-end files.
#   scripts/bootstrap.sh          # the app
#   scripts/bootstrap.sh --dev    # the app and everything the tests need
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[ "${1:-}" = "--dev" ] && dev=1

# Debian packages: WeasyPrint's libraries and fonts; Chromium for the browser tests.
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
[ "$dev" = 1 ] && packages+=(chromium poppler-utils)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing Debian packages (install them with sudo apt-get install ${missing[*]})" >&2
  fi
fi

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
stamp=.venv/.installed
[ "$dev" = 1 ] && stamp=.venv/.installed-dev
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  if [ "$dev" = 1 ]; then
    .venv/bin/python -m pip install -q -e '.[dev]' --config-settings editable_mode=compat
  else
    .venv/bin/python -m pip install -q -e '.[serve]' --config-settings editable_mode=compat
  fi
  touch "$stamp"
fi
# Bytecode for our own modules even where PYTHONDONTWRITEBYTECODE is set, so that a short
# command such as `scorer settle` does not compile the engine on every run.
.venv/bin/python -m compileall -q scorer >/dev/null

# Browser tests: axe-core (package.json / package-lock.json) into node_modules/.
if [ "$dev" = 1 ] && [ ! -f node_modules/axe-core/axe.min.js ]; then
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "Installing Debian packages: nodejs npm"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
  fi
  if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund
  else
    echo "npm is missing: the accessibility tests need node_modules/axe-core (sudo apt-get install nodejs npm; npm ci)" >&2
  fi
fi
