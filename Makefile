# Table Companion for Small World: set-up, run and checks.
#
# `make run` and `make test` do all the set-up a fresh Debian 12 or Raspberry Pi OS
# (bookworm) machine needs: the Mesa GL/EGL libraries Kivy draws with, and for `make test`
# only, shellcheck and systemd, which the deploy tests run (installed with apt-get, through
# sudo when not root), a virtual environment in .venv, and the project
# installed in it, editable, with its [dev] extras. The install is redone only when
# pyproject.toml changes (a stamp file in .venv remembers the last one). `make drills` adds
# FUSE 3 (Debian's fuse3 and libfuse3-3) and the [drills] extras (the FUSE binding), which
# the power-loss drill needs and nothing else does.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-pyproject

# Extra arguments: `make run DB=/tmp/game.sqlite3 ARGS=--fullscreen`, `make test PYTEST_ARGS=-x`.
DB ?=
ARGS ?=
PYTEST_ARGS ?=
# `make test` and `make check` run pytest in one worker process per core (pytest-xdist),
# each test file whole in one worker, the slowest files first (tests/conftest.py);
# `make test PYTEST_PARALLEL=` runs it in one process.
PYTEST_PARALLEL ?= -n auto --dist loadfile --no-loadscope-reorder
BENCH_ARGS ?=
DRILLS_ARGS ?=

# What running needs from the system, all that `make run` installs: what Kivy's PyPI wheel
# needs (it bundles SDL2 itself): GL, GLES and EGL through libglvnd, Mesa's EGL and its
# drivers (llvmpipe draws when there is no GPU or no display), and mtdev, which Kivy's
# touchscreen input reads.
APT_PACKAGES := libegl1 libgl1 libgles2 libegl-mesa0 libgl1-mesa-dri libmtdev1
# What only the tests need besides (`make test`): shellcheck for the deploy scripts, and
# systemd's systemd-analyze, which checks the kiosk's unit (tests/test_deploy*.py).
APT_TEST_PACKAGES := shellcheck systemd
# What only the drills need besides (`make drills`): FUSE 3 (libfuse3, which the power-loss
# drill's file system loads through the mfusepy binding of the [drills] extras, and
# fusermount3, which unmounts it).
APT_DRILL_PACKAGES := fuse3 libfuse3-3
DRILLS_STAMP := $(VENV)/.installed-drills

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# apt-get install the packages given, or say what to install where apt-get is missing.
apt_install = if command -v apt-get >/dev/null 2>&1; then \
		echo "make: installing system packages: $(1)"; \
		$(SUDO) apt-get update -qq; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(1); \
	else \
		echo "make: no apt-get here; install these (or your system's equivalent) yourself: $(1)" >&2; \
	fi

# The checks: ruff everywhere; mypy --strict on the pure rules core and on the typed shell.
MYPY_TARGETS := companion/rules companion/store companion/session.py companion/boards.py companion/ui companion/__init__.py \
	companion/play.py companion/play_parts.py companion/scenario.py companion/score_parts.py companion/json_fields.py \
	companion/paths.py companion/cli.py companion/commands companion/app.py \
	companion/bgstats.py companion/story.py companion/config.py companion/i18n.py companion/cues.py companion/sounds.py companion/kivy_config.py companion/notify.py companion/records companion/grid.py companion/seating.py companion/usb.py companion/system_actions.py companion/sentence.py \
	hardware/__init__.py hardware/backlight.py hardware/button.py hardware/dispatch.py hardware/grid

# Tests run headless, away from the user's own Kivy config and data, with simulated pins.
headless = SDL_VIDEODRIVER=offscreen KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 KIVY_NO_FILELOG=1 \
	KIVY_HOME="$(1)/kivy" XDG_DATA_HOME="$(1)/data" GPIOZERO_PIN_FACTORY=mock
# The tests, besides, draw frames as fast as they come (no 60 fps cap: a pumped frame never
# waits); the benchmarks and drills keep Kivy's cap, as the kiosk has it.
test_headless = $(call headless,$(1)) KCFG_GRAPHICS_MAXFPS=0

.PHONY: help run test check lint system-deps test-deps drill-deps venv clean distclean deploy-check bench drills locale explore

help:
	@echo "make run        start the app (simulated hardware, database in the user data directory)"
	@echo "                options: DB=PATH (another database), ARGS=--fullscreen,"
	@echo "                ARGS=\"--size 1024x600\" (the window; default 800x480, the table's screen)"
	@echo "make test       ruff, mypy --strict and the whole pytest suite, headless"
	@echo "make check      the quick loop: ruff, mypy --strict and the tests that draw no screen"
	@echo "                and start no process (about 90 s; make test runs them all)"
	@echo "make lint       ruff and mypy only"
	@echo "make bench      benchmarks against baselines, headless; writes bench-results.json"
	@echo "make drills     fault drills: power cut, serial abuse, unplug storm, button, bad input,"
	@echo "                damaged database, two instances, bad config, power loss on FUSE"
	@echo "                (DRILLS_ARGS=--help; DRILLS_ARGS=\"--only power_loss\")"
	@echo "make explore    the state explorer: seeded random games played through the screens,"
	@echo "                every state drawn at 800x480, 480x800 and 720x1280 in en, fr, de, qps"
	@echo "                and checked (EXPLORE_ARGS=\"--seeds 0-4 --pngs\"; make test runs a sample)"
	@echo "make deploy-check  run deploy/install.sh for real in a Debian 12 root (debootstrap;"
	@echo "                needs root and the network; not part of make test)"
	@echo "make locale     extract the strings to translate, update the catalogues in"
	@echo "                companion/locale/ and compile them (LOCALES=it starts a new language)"
	@echo "make clean      remove build output and caches (keeps .venv)"
	@echo "make distclean  clean, and remove .venv too"

run: system-deps $(STAMP)
	GPIOZERO_PIN_FACTORY=mock $(BIN)/companion run $(if $(DB),--db "$(DB)") $(ARGS)

# Every check runs even when an earlier one fails; pytest runs last so that its summary
# is the closing line, and the target fails when any check failed.
test: test-deps $(STAMP)
	@status=0; \
	echo "== ruff check ."; $(BIN)/ruff check . || status=1; \
	echo "== mypy --strict $(MYPY_TARGETS)"; $(BIN)/mypy --strict $(MYPY_TARGETS) || status=1; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "== pytest (headless)"; \
	$(call test_headless,$$tmp) $(BIN)/python -m pytest $(PYTEST_PARALLEL) $(PYTEST_ARGS) \
		|| status=1; \
	exit $$status

# The quick loop: the checks of `make test`, and the tests conftest.py marks neither `window`
# (they draw screens or start Kivy) nor `child` (they start other processes).
check: $(STAMP)
	@status=0; \
	echo "== ruff check ."; $(BIN)/ruff check . || status=1; \
	echo "== mypy --strict $(MYPY_TARGETS)"; $(BIN)/mypy --strict $(MYPY_TARGETS) || status=1; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "== pytest -m 'not window and not child' (headless)"; \
	$(call test_headless,$$tmp) $(BIN)/python -m pytest -m "not window and not child" \
		$(PYTEST_PARALLEL) $(PYTEST_ARGS) || status=1; \
	exit $$status

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict $(MYPY_TARGETS)

# Install the packages given that are missing; on a machine without dpkg check nothing.
apt_missing = if command -v dpkg-query >/dev/null 2>&1; then \
		missing=""; \
		for package in $(1); do \
			dpkg-query -W -f='$${db:Status-Status}' "$$package" 2>/dev/null | grep -qx installed \
				|| missing="$$missing $$package"; \
		done; \
		if [ -n "$$missing" ]; then $(call apt_install,$$missing); fi; \
	fi

# What running needs (make run, bench, drills); test-deps adds what the tests need.
system-deps:
	@$(call apt_missing,$(APT_PACKAGES))

test-deps:
	@$(call apt_missing,$(APT_PACKAGES) $(APT_TEST_PACKAGES))

drill-deps:
	@$(call apt_missing,$(APT_PACKAGES) $(APT_DRILL_PACKAGES))

venv: $(STAMP)

# Debian's python3 needs python3-venv to make a venv; install it the first time that fails.
$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
		rm -rf $(VENV); \
		$(call apt_install,python3-venv); \
		$(PYTHON) -m venv $(VENV); \
	}

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --editable '.[dev]'
	@touch $@

# The drills' own Python packages (the [drills] extras: the FUSE binding), on top of [dev].
$(DRILLS_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --editable '.[dev,drills]'
	@touch $@

clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis screenshots
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)

# The installer, run for real in a fresh Debian 12 root made with debootstrap.
deploy-check:
	deploy/deploy-check.sh

# The translations (companion/i18n.py): every string wrapped in the Python modules and the kv
# layouts is extracted to the template, each language's catalogue is updated from it (a new
# language in LOCALES gets a new one), then compiled; the .po and .mo files are committed.
# Entries no code uses any more are dropped, new ones are left empty (never guessed), and
# tests/test_i18n.py fails until each is translated. The names of the game's pieces come from
# companion/locale/names.toml alone and the races' and powers' summaries from the catalog's
# data: tools/locale_names.py's Babel extractors (babel.cfg) read them with their context
# (race, power... summary), and its `fill` puts the names' French and German in. LOCALES: every language that has a
# catalogue; `make locale LOCALES=it` starts a new one (then it is found like the others).
LOCALE_DIR := companion/locale
LOCALES ?= $(patsubst $(LOCALE_DIR)/%/LC_MESSAGES,%,$(wildcard $(LOCALE_DIR)/*/LC_MESSAGES))
POT := $(LOCALE_DIR)/companion.pot

locale: $(STAMP)
	PYTHONPATH=. $(BIN)/pybabel extract -F babel.cfg -k tr -k N_ -k said -k said_n:1,2 -c "TRANSLATORS:" --add-location=file \
		--sort-by-file --no-wrap --project="Table Companion for Small World" \
		--version=0.1 -o $(POT).new .
	@# The same strings as before: the template (and so each catalogue) keeps its date.
	@if [ -f $(POT) ] && diff -q -I '^"POT-Creation-Date:' $(POT) $(POT).new >/dev/null; \
		then rm $(POT).new; else mv $(POT).new $(POT); fi
	@for lang in $(LOCALES); do \
		if [ -f $(LOCALE_DIR)/$$lang/LC_MESSAGES/companion.po ]; then \
			$(BIN)/pybabel update -D companion -i $(POT) -d $(LOCALE_DIR) -l $$lang \
				--no-fuzzy-matching --ignore-obsolete --no-wrap; \
		else \
			$(BIN)/pybabel init -D companion -i $(POT) -d $(LOCALE_DIR) -l $$lang --no-wrap; \
		fi; \
	done
	$(BIN)/python tools/locale_names.py fill
	$(BIN)/pybabel compile -D companion -d $(LOCALE_DIR) --statistics

# Benchmarks and fault drills, headless like `make test`; not part of it (bench/README.md).
bench: system-deps $(STAMP)
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(call headless,$$tmp) $(BIN)/python bench/run.py $(BENCH_ARGS)

# The state explorer's full run (tests/explore.py); make test runs a bounded sample of it
# (tests/test_explore.py). Prints the states drawn per size and language and the
# violations by kind, each a replayable seed:step; fails on any violation.
EXPLORE_SEEDS ?= 11,4
explore: system-deps $(STAMP)
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(call test_headless,$$tmp) $(BIN)/python tests/explore.py explored --seeds $(EXPLORE_SEEDS) $(EXPLORE_ARGS)

drills: drill-deps $(STAMP) $(DRILLS_STAMP)
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(call headless,$$tmp) $(BIN)/python drills/run.py $(DRILLS_ARGS)
