# The only set-up a user needs: `make site` builds, `make test` tests; both install what they need,
# at the exact versions and hashes of requirements/*.txt (written by scripts/lock.sh).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
PIP := $(PY) -m pip install --quiet --require-hashes --no-deps

.PHONY: site results test lint unit browser serve bench bench-scale chromium poppler clean lock pdf

$(PY):
	$(PYTHON) -m venv $(VENV)

# One stamp per requirement set: building needs site.txt only; the test tools come with `make test`.
$(VENV)/.site-stamp: requirements/site.txt | $(PY)
	$(PIP) -r requirements/site.txt
	touch $@

$(VENV)/.test-stamp: requirements/test.txt | $(PY)
	$(PIP) -r requirements/test.txt
	touch $@

$(VENV)/.serve-stamp: requirements/serve.txt | $(PY)
	$(PIP) -r requirements/serve.txt
	touch $@

$(VENV)/.bench-stamp: requirements/bench.txt | $(PY)
	$(PIP) -r requirements/bench.txt
	touch $@

# The whole site, the decks' PDFs included (printed in Chromium, kept between builds in .cache/).
site: $(VENV)/.site-stamp chromium
	$(PY) -m site_builder build

results: $(VENV)/.site-stamp
	$(PY) -m site_builder results

# The decks' PDFs are part of every build (site_builder/printing/store.py): `make pdf` is `make site`.
pdf: site

# Debian's Chromium prints the decks' PDFs in the build and drives the browser tests (Playwright cannot download
# browsers here).
chromium:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null 2>&1; } \
	  || { echo "make: /usr/bin/chromium: expected Debian's chromium, found apt-get could not install it" >&2; exit 1; }

# Debian's poppler-utils (pdftoppm) renders the PDFs' pages for the tests that look for the charts' traces.
poppler:
	@test -x /usr/bin/pdftoppm || { \
	  echo "installing Debian's poppler-utils"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq poppler-utils >/dev/null 2>&1; } \
	  || { echo "make: /usr/bin/pdftoppm: expected Debian's poppler-utils, found apt-get could not install it" >&2; exit 1; }

lint: $(VENV)/.test-stamp
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

# pytest-xdist with one worker more than the cores, at most 4: a browser test's worker waits on Chromium part of the
# time, but the suite is CPU-bound (on a 2-core machine both cores stay busy throughout: 3 workers took 7:18, 4 took
# 7:38). The site the browser tests read is built once for the run (tests/browser/conftest.py). A worker that
# finishes early takes tests from the others (worksteal), so the long browser tests do not leave a core idle.
JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); n=$$((n + 1)); [ $$n -gt 4 ] && n=4; echo $$n)
# The tests' temporary folders (sandbox copies of the project, built sites, Chromium's profiles) go to a RAM disk when
# the machine has one with 4 GB free (/dev/shm): creating and deleting their files there costs a fraction of what it
# costs on a disk, and a run that passes leaves nothing behind (tmp_path_retention_policy in pyproject.toml).
TEST_TMP := $(shell d=/dev/shm; [ -d $$d ] && [ -w $$d ] && \
  [ "$$(df -Pk $$d 2>/dev/null | awk 'NR==2 {print $$4}')" -gt 4194304 ] 2>/dev/null && echo $$d/site-builder-tests-$$(id -u))
IN_TEST_TMP := $(if $(TEST_TMP),mkdir -p $(TEST_TMP) && TMPDIR=$(TEST_TMP))
test: $(VENV)/.test-stamp chromium poppler lint
	$(IN_TEST_TMP) $(PY) -m pytest -q -n $(JOBS) --dist worksteal

unit: $(VENV)/.test-stamp chromium poppler
	$(IN_TEST_TMP) $(PY) -m pytest -q tests/unit tests/build

browser: $(VENV)/.test-stamp chromium poppler
	$(IN_TEST_TMP) $(PY) -m pytest -q tests/browser

# Builds, serves site/ and rebuilds on every change to content/, templates/, data/ or the static files.
serve: $(VENV)/.serve-stamp chromium
	$(PY) -m site_builder serve --port $(PORT)

bench: $(VENV)/.site-stamp $(VENV)/.bench-stamp chromium
	$(PY) scripts/bench_build.py

# Synthetic sites of 18 to 2,000 pages from the real content, against MkDocs (and Debian's Hugo when installed).
bench-scale: $(VENV)/.site-stamp $(VENV)/.bench-stamp chromium
	$(PY) scripts/bench_scale.py

lock:
	scripts/lock.sh

clean:
	rm -rf site .cache .pytest_cache
