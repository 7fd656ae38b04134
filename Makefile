# dpdesk: the two commands of the README.
#   make run   set everything up and start the app on the bundled example project
#   make test  set everything up and run the whole suite offscreen (screenshots go to a temporary folder)
#   make screenshots  rewrite docs/screenshots/ (the pictures of the README and the guide) and the guide's copy
# Prerequisites: make, Python >= 3.11 with its venv module (Debian/Ubuntu:
#   sudo apt-get install make python3 python3-venv). tools/venv.sh checks them, names the apt
# line for a missing one, and rebuilds a broken .venv (another Python, no pip, half-installed).
# Versions: everything installs through the lock, constraints.txt (make lock writes it).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
LOCK   := constraints.txt

.PHONY: run test setup syslibs clean lock test-floors test-wheel screenshots

setup:
	@sh tools/venv.sh $(VENV) $(PYTHON) $(LOCK)
	@sh tools/syslibs.sh

# Qt's xcb platform needs a few system libraries that minimal Debian images lack.
syslibs:
	@sh tools/syslibs.sh

run: setup
	@$(PY) -m dpdesk.launch

test: setup
	@sh tools/syslibs.sh readback
	QT_QPA_PLATFORM=offscreen MPLBACKEND=Agg $(PY) -m pytest -q

# The tests that take screenshots, writing them into docs/screenshots/ (DPDESK_SCREENSHOTS; without it
# they go to a temporary folder), then the guide's copy of the ones it shows (dpdesk/resources/guide/).
SHOT_TESTS = $(shell grep -lE '\bshot\b|SHOTS' tests/*/test_*.py)
screenshots: setup
	DPDESK_SCREENSHOTS=$(CURDIR)/docs/screenshots QT_QPA_PLATFORM=offscreen MPLBACKEND=Agg $(PY) -m pytest -q $(SHOT_TESTS)
	$(PY) tools/build_guide.py

# constraints.txt: a fresh venv of the newest allowed versions, the suite, then pip freeze (tools/lock.sh).
lock:
	PYTHON=$(PYTHON) sh tools/lock.sh

# The floors of pyproject.toml, exactly, in .venv-floors, and the whole suite there (slow).
test-floors:
	PYTHON=$(PYTHON) sh tools/test_floors.sh

# Build the sdist, the wheel from it, install it into a fresh venv, run dpdesk --selftest there
# (3-5 min, mostly pip's index look-ups; marker "wheel", left out of make test).
test-wheel: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -m wheel tests/release/test_wheel.py

clean:
	rm -rf $(VENV) .venv-floors build dist *.egg-info

# Installers (packaging/, docs/guide/install.md). PyInstaller is a build-only tool, installed here
# into the venv through the lock, never a runtime dependency. test-package needs root or sudo (apt-get install).
.PHONY: package test-package

package: setup guide
	$(PY) -m pip install --quiet -c $(LOCK) pyinstaller
	PY=$(PY) sh packaging/build.sh

test-package: package test-wheel
	sh packaging/linux/test_package.sh
	sh packaging/linux/test_portable.sh

# The user guide: docs/guide/*.md is copied into the package (dpdesk/resources/guide/), where the app's
# Help window reads it offline; tests/packaging/test_guide.py fails when the copy is out of date.
.PHONY: guide
guide:
	@$(if $(wildcard $(PY)),$(PY),$(PYTHON)) tools/build_guide.py
