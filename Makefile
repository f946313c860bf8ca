# Short commands; the README explains them.
PY := .venv/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
LOAD_SECONDS ?= 60

.PHONY: run serve setup setup-dev lock test test-fast lint format typecheck bench check-examples clean \
	i18n-extract i18n-build i18n-compile i18n-check

run:  ## set up and start the app on SQLite in instance/
	@HOST=$(HOST) PORT=$(PORT) scripts/run

serve: setup  ## the same app under gunicorn
	@echo "Cartulina: open http://$(HOST):$(PORT)/"
	@.venv/bin/gunicorn -c python:scorer.web.gunicorn_settings -w 2 -b $(HOST):$(PORT) 'scorer:create_app()'

setup:
	@scripts/bootstrap.sh

setup-dev:
	@scripts/bootstrap.sh --dev

lock:  ## constraints.txt from pyproject.toml: every package's version, as on PyPI now (then run the suite)
	python3 scripts/lock

test:  ## the whole test suite (engine, web, sheet, browser)
	scripts/test

test-fast:  ## everything but the browser journeys
	scripts/test -m "not browser"

lint: setup-dev
	.venv/bin/ruff check scorer tests bench scripts/check-examples scripts/lock
	.venv/bin/ruff format --check scorer tests bench scripts/check-examples scripts/lock
	.venv/bin/mypy

format: setup-dev
	.venv/bin/ruff format scorer tests bench scripts/check-examples
	.venv/bin/ruff check --fix scorer tests bench scripts/check-examples

typecheck: setup-dev
	.venv/bin/mypy

bench: setup-dev  ## print the performance figures (about 5 minutes; LOAD_SECONDS=60 by default)
	$(PY) bench/engine.py
	$(PY) bench/scale.py
	$(PY) bench/after_write.py  # the table page right after a write: 3,000 hands within 1.5× of 30
	$(PY) bench/cpu.py  # CPU per request: the fair comparison between versions on a busy machine
	$(PY) bench/web.py
	$(PY) bench/sheet.py 200
	$(PY) bench/sheet.py 5000 --target 20  # within the PDF child's time limit (FLASK_SHEET_PDF_TIMEOUT)
	$(PY) bench/hostile.py
	$(PY) bench/load.py --seconds $(LOAD_SECONDS)
	@pg="$$(scripts/ci-postgres.sh 2>/dev/null)" && $(PY) bench/load.py --seconds $(LOAD_SECONDS) --database "$$pg" \
	  || echo "PostgreSQL not available here (scripts/ci-postgres.sh): load test on SQLite only"
	@pg="$$(scripts/ci-postgres.sh 2>/dev/null)"; $(PY) bench/backup.py $${pg:+--database "$$pg"}

check-examples: setup
	scripts/check-examples $(PY)

clean:
	rm -rf .venv .pytest_cache .mypy_cache .ruff_cache artifacts

# Languages: Spanish msgids, English from translations/fragments/*.po; the .mo are built here
# and by scripts/bootstrap.sh, never committed.
i18n-extract: setup-dev  ## the sources' strings -> translations/messages.pot
	$(PY) scripts/i18n extract

i18n-build: setup-dev  ## es and en messages.po from the .pot (fails listing any msgid without English)
	$(PY) scripts/i18n build

i18n-compile: setup  ## messages.po -> messages.mo
	$(PY) scripts/i18n compile

i18n-check: setup-dev  ## no untranslated or fuzzy entry, catalogs up to date with the sources
	$(PY) scripts/i18n check
