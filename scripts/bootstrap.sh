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
python=${PYTHON:-python3}

# Install the Debian packages not installed yet (as root), or say which ones are missing.
updated=0
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    [ "$updated" = 1 ] || { apt-get update -qq; updated=1; }
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing Debian packages (install them with sudo apt-get install ${missing[*]})" >&2
  fi
}
have_dpkg=0
command -v dpkg-query >/dev/null 2>&1 && have_dpkg=1

# WeasyPrint's libraries and fonts (the PDF sheet). For the tests: Chromium for the browser
# journeys; libatomic1 and libstdc++6 for the node binary that drives it (Playwright's driver);
# poppler-utils (pdftotext) for the sheet tests; git for the repository checks; caddy, redis-server and
# libnss3-tools (certutil) for the https journey and the two app servers.
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
[ "$dev" = 1 ] && packages+=(chromium libatomic1 libstdc++6 poppler-utils git)
[ "$dev" = 1 ] && packages+=(caddy redis-server libnss3-tools)
# Debian ships venv's pip bootstrap (ensurepip) apart, in python3.X-venv (Debian's own Python only)
if ! "$python" -c "import ensurepip, venv" >/dev/null 2>&1 && [ "$("$python" -c 'import sys; print(sys.prefix)')" = /usr ]; then
  packages+=("python$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv")
fi
[ "$have_dpkg" = 1 ] && apt_install "${packages[@]}"

# Every Python package at the version pinned in constraints.txt (`make lock` makes it from
# pyproject.toml; the README's "Pinned versions"), the build requirement (setuptools) included: the
# same versions on every machine, whatever PyPI holds on the day.
pinned=(-c constraints.txt)
export PIP_BUILD_CONSTRAINT=constraints.txt  # the build environment of the editable install (setuptools)

# A virtual environment that has pip (one left half-made by a failed `venv` is made again).
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  rm -rf .venv
  "$python" -m venv .venv
  .venv/bin/python -m pip install -q "${pinned[@]}" --upgrade pip
fi
stamp=.venv/.installed
[ "$dev" = 1 ] && stamp=.venv/.installed-dev
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
  # The default (lenient) editable install: `scorer` is imported from this checkout, so the app finds
  # templates/ and static/ beside it; nothing needs the checkout itself on sys.path (no compat mode).
  # setuptools then prints a notice for every such install ("Editable installation … folders in your
  # working directory with the same name as your package"): here that folder is the package itself.
  extra=serve
  [ "$dev" = 1 ] && extra=dev
  PYTHONWARNINGS="${PYTHONWARNINGS:+$PYTHONWARNINGS,}ignore:Editable installation" \
    .venv/bin/python -m pip install -q "${pinned[@]}" -e ".[$extra]"
  touch "$stamp"
fi
# Bytecode for our own modules even where PYTHONDONTWRITEBYTECODE is set, so that a short
# command such as `scorer settle` does not compile the engine on every run.
.venv/bin/python -m compileall -q scorer >/dev/null
# The compiled catalogs (es, en) are built here from the committed .po, not committed (see scripts/i18n).
.venv/bin/python scripts/i18n compile >/dev/null

# node_modules/ from package.json / package-lock.json: Pyodide (the npm package `pyodide`), which the
# app serves to a phone that asks for payments offline, and for the tests axe-core too.
need_npm=0
[ -f node_modules/pyodide/pyodide.asm.wasm ] || need_npm=1
[ "$dev" = 1 ] && [ ! -f node_modules/axe-core/axe.min.js ] && need_npm=1
if [ "$need_npm" = 1 ]; then
  if ! command -v npm >/dev/null 2>&1 && [ "$have_dpkg" = 1 ]; then
    apt_install nodejs npm
  fi
  if command -v npm >/dev/null 2>&1; then
    if [ "$dev" = 1 ]; then npm ci --no-audit --no-fund; else npm ci --omit=dev --no-audit --no-fund; fi
  else
    echo "npm is missing: payments offline need node_modules/pyodide, the accessibility tests node_modules/axe-core" \
      "(sudo apt-get install nodejs npm; npm ci)" >&2
  fi
fi
# Pyodide's files as the app sends them (gzip), made once here rather than by the first page that lists them.
if [ -f node_modules/pyodide/pyodide.asm.wasm ]; then
  for f in pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json; do
    { [ -f node_modules/pyodide/$f.gz ] && ! [ node_modules/pyodide/$f -nt node_modules/pyodide/$f.gz ]; } || gzip -6 -k -f -n node_modules/pyodide/$f
  done
fi
