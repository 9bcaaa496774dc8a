# The only set-up a user needs: `make site` builds, `make test` tests; both install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PORT ?= 8000

.PHONY: site results test lint unit browser serve bench chromium clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

site: $(STAMP)
	$(PY) -m site_builder build

results: $(STAMP)
	$(PY) -m site_builder results

# Debian's Chromium drives the browser tests (Playwright cannot download browsers here).
chromium:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

test: $(STAMP) chromium lint
	$(PY) -m pytest -q

unit: $(STAMP)
	$(PY) -m pytest -q tests/unit tests/build

browser: $(STAMP) chromium
	$(PY) -m pytest -q tests/browser

serve: site
	@echo "serving site/ on http://127.0.0.1:$(PORT)/"
	$(PY) -m http.server --bind 127.0.0.1 --directory site $(PORT)

bench: $(STAMP)
	$(PY) scripts/bench_build.py

clean:
	rm -rf site .pytest_cache
