# dpdesk: the two commands of the README.
#   make run   set everything up and start the app on the bundled example project
#   make test  set everything up and run the whole suite offscreen

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test setup syslibs clean

setup: $(STAMP) syslibs

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# Qt's xcb platform needs a few system libraries that minimal Debian images lack.
syslibs:
	@sh tools/syslibs.sh

run: setup
	@$(PY) -m dpdesk.launch

test: setup
	QT_QPA_PLATFORM=offscreen MPLBACKEND=Agg $(PY) -m pytest -q

clean:
	rm -rf $(VENV) build dist *.egg-info

# Installers (packaging/, docs/readme/install.md). PyInstaller is a build-only tool, installed here
# into the venv, never a runtime dependency. test-package needs root or sudo (apt-get install).
.PHONY: package test-package

package: setup guide
	$(VENV)/bin/pip install --quiet pyinstaller
	PY=$(PY) sh packaging/build.sh

test-package: package
	sh packaging/linux/test_package.sh

# The user guide: docs/guide/*.md is copied into the package (dpdesk/resources/guide/), where the app's
# Help window reads it offline; tests/packaging/test_guide.py fails when the copy is out of date.
.PHONY: guide
guide:
	@$(if $(wildcard $(PY)),$(PY),$(PYTHON)) tools/build_guide.py
