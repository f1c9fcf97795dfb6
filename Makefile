# Hooray — the two commands: `make run` and `make test`.
# Both install the Debian packages they need (apt-get, as root or through sudo) and build first.
# `make install PREFIX=~/.local` installs from source; `make uninstall PREFIX=~/.local` undoes it.

SHELL        := /bin/bash
SWIFT        ?= swift
# Package.swift makes a target of every folder under Plugins/, but SwiftPM caches the evaluated
# manifest by its text alone: without this, a new plugin folder is not seen until Package.swift changes.
BUILD_FLAGS  ?= --manifest-cache none
BIN          := .build/debug

# bubblewrap: every plugin in another language runs in its sandbox (docs/protocol.md, "The sandbox").
RUNTIME_PKGS := pkg-config libnotify-dev libsqlite3-dev libcurl4-openssl-dev libsecret-1-dev zlib1g-dev bubblewrap \
                libgtk-4-dev libadwaita-1-dev
TEST_PKGS    := dbus dbus-daemon python3 python3-dbus-next faketime libnotify-bin gnome-keyring libsecret-tools dunst xvfb \
                libglib2.0-bin python3-dogtail at-spi2-core x11-utils gettext xclip \
                rofi xdotool syncthing poppler-utils

# At most this many tests run at once. Every end-to-end test starts its own dbus-daemon, and each
# takes one of the user's inotify instances (128 by default, fs.inotify.max_user_instances): with
# no limit the whole suite at once used them up, and hoorayd could not watch the time zone.
TEST_WIDTH   ?= 32

# The tests run in three phases, one after another, so that what is heavy or judged by the clock
# does not share two cores with everything else:
# 1. everything else, TEST_WIDTH at once;
# 2. WINDOW_TESTS, the desktop app's real windows: each suite has its own X server, accessibility
#    bus and dogtail, and beside the rest their 30-second waits for a window ran out, and the
#    windows' load kept other suites' daemons from their deadlines (CI once failed 16 tests so);
# 3. QUIET_TESTS, the tests of time limits: they judge a plugin or a follower by how many seconds
#    it took, and under the whole suite's load a 3-second limit was once passed by our own process
#    being slow, not the plugin. The coach's and the review's end-to-end suites join them: they judge
#    a stream by the [ai] section's seconds (a stall of 2 s, a service given 3 s) and run a faked
#    clock in real time to a notice.
# Every phase runs even when one before it failed, so that one run names every failure.
WINDOW_TESTS := EndToEndTests\.DesktopApp[A-Za-z]*Tests/|EndToEndTests\.QuickLogTests/
QUIET_TESTS  := HoorayEngineTests\.ConformanceKitTests/|HoorayEngineTests\.StatusBarTests/aFollowerGetsEachChangedLine|EndToEndTests\.WinsTests/aWinWhileTheServiceIsDown|EndToEndTests\.CoachTests/|EndToEndTests\.ReviewTests/|HoorayAITests\.ChatStreamTests/

# One phase of `make test`: $(1) names it, $(2) is its log under .build, $(3) selects its tests. A
# phase that failed prints what failed and adds its name to .build/test-failed.
define test_phase
	@echo "== $(1) =="
	set -o pipefail; HOORAY_BIN_DIR="$$(pwd)/$(BIN)" SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) \
		dbus-run-session -- $(SWIFT) test --skip-build $(BUILD_FLAGS) $(3) 2>&1 | tee .build/$(2) \
		|| { echo; echo "== What failed in $(1) (the whole output is in .build/$(2)) =="; \
		     grep -a -A4 -E '✘|recorded an issue|error:' .build/$(2) | head -150; echo "$(1)" >> .build/test-failed; }
endef

.PHONY: all build run test deps test-deps deb package-deps package-test format lint clean help docs doc-coverage \
        install install-files uninstall screenshots pot

all: build

help:
	@echo "make run    build and start hoorayd in the foreground"
	@echo "make test   build and run every test (unit and end-to-end)"
	@echo "make install PREFIX=~/.local  release build; install binaries, man pages, completions, user unit"
	@echo "make uninstall PREFIX=~/.local  remove exactly what make install put there"
	@echo "make deb    build dist/hooray_<version>_<arch>.deb"
	@echo "make package-test  build the .deb, lintian it, install, upgrade, remove and purge it"
	@echo "make bench  measure everything in BENCHMARKS.md (not a test; 12–14 minutes) and rewrite it"
	@echo "make bench-app  print the desktop app's cold start to its first drawn frame, and --quick's"
	@echo "make bench-start  print the start with 100,000 reminder rules and their config check, phase by phase"
	@echo "make pot   rewrite po/hooray.pot, the template of the app's translations (docs/translating.md)"
	@echo "make screenshots  every screen of hooray-app, light and dark, as PNGs in docs/screenshots/ (under Xvfb)"
	@echo "make lint   check formatting with swift format, that every target declares what it imports, and the executor's rules"
	@echo "make docs   build HoorayKit's documentation (DocC); DOCS_FLAGS=--warnings-as-errors to be strict"
	@echo "make doc-coverage  check that every public symbol of the plugin API has a doc comment (make test does)"
	@echo "make clean  remove build products"

deps:
	@./scripts/install-deps $(RUNTIME_PKGS)

test-deps: deps
	@./scripts/install-deps $(TEST_PKGS)

build: deps
	$(SWIFT) build $(BUILD_FLAGS) 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

run: build
	@echo "Starting hoorayd in the foreground; press Ctrl-C to stop."
	exec $(BIN)/hoorayd

test: test-deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS) 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	./scripts/check-doc-coverage --build-flags "$(BUILD_FLAGS)"
	./scripts/check-targets --build-flags "$(BUILD_FLAGS)"
	@rm -f .build/test-failed
	$(call test_phase,Every test but the windows and the time limits,test.log,--skip '$(WINDOW_TESTS)|$(QUIET_TESTS)')
	$(call test_phase,The desktop app's windows,test-windows.log,--filter '$(WINDOW_TESTS)')
	$(call test_phase,The tests of time limits,test-quiet.log,--filter '$(QUIET_TESTS)')
	@if [ -e .build/test-failed ]; then echo; echo "== Failed: $$(paste -sd ';' .build/test-failed | sed 's/;/; /g') =="; exit 1; fi

# The template of the desktop app's translations, from the texts its sources pass to `localized`.
pot: test-deps
	/usr/bin/python3 scripts/make-pot

# Every screen of the window, light and dark, as docs/screenshots/*.png: the debug build against a real
# hoorayd in a temporary world, on an X server of its own (scripts/screenshots.py says which screens).
SCREENSHOT_PKGS := imagemagick optipng fonts-noto-color-emoji

screenshots: build test-deps
	@./scripts/install-deps $(SCREENSHOT_PKGS)
	/usr/bin/python3 scripts/screenshots.py --bin-dir $(BIN) --output docs/screenshots

# Installing from source: the binaries the Debian package ships (scripts/build-release, shared with
# packaging/debian/rules), under PREFIX, with their man pages, completions, icon, desktop entry and
# the systemd user unit (its ExecStart pointed at PREFIX/bin). The release build goes to .build-release
# like `make deb`'s; the man pages come from the debug build `make run` and `make test` use.
PREFIX   ?= /usr/local
# A shell that leaves `~` in `PREFIX=~/.local` as it is (zsh does): the home folder, and an absolute
# path, as the unit's ExecStart needs.
override PREFIX := $(abspath $(patsubst ~%,$(HOME)%,$(PREFIX)))
DESTDIR  ?=
STRIP    ?= strip
RELEASE  ?= .build-release
GENERATED ?= $(RELEASE)/generated
# The manual plugin's (debug) build: the one `make run` and `make test` keep warm.
MANUAL_SCRATCH ?= .build
ROOT      = $(DESTDIR)$(PREFIX)
INSTALLED = $(ROOT)/bin/hooray $(ROOT)/bin/hoorayd $(ROOT)/bin/hooray-app $(ROOT)/libexec/hooray/hooray-cli $(ROOT)/lib/hooray/hooray-sandbox \
            $(ROOT)/share/man/man1/hooray.1 $(ROOT)/share/man/man1/hoorayd.1 \
            $(ROOT)/share/bash-completion/completions/hooray $(ROOT)/share/zsh/site-functions/_hooray \
            $(ROOT)/share/fish/vendor_completions.d/hooray.fish \
            $(ROOT)/share/systemd/user/hooray.service \
            $(ROOT)/share/icons/hicolor/scalable/apps/hooray.svg $(ROOT)/share/applications/hooray.desktop \
            $(ROOT)/share/applications/org.hooray.Hooray.desktop $(ROOT)/share/man/man1/hooray-app.1 \
            $(ROOT)/share/dbus-1/services/org.hooray.Hooray.service \
            $(ROOT)/share/dbus-1/services/org.hooray.Hoorayd.service \
            $(ROOT)/share/gnome-shell/search-providers/org.hooray.Hoorayd.search-provider.ini \
            $(ROOT)/share/krunner/dbusplugins/org.hooray.Hoorayd.desktop

install: deps
	./scripts/build-release $(RELEASE) $(GENERATED) $(MANUAL_SCRATCH)
	@$(MAKE) --no-print-directory install-files

# The copying alone, from binaries and generated files already built (scripts/package-test uses it).
# The programs are stripped as they are installed, as Debian's packaging does: no debug information
# or symbol tables in the installed files (`make install STRIP=true` keeps them).
install-files:
	install -D -m 0755 -s --strip-program=$(STRIP) $(RELEASE)/release/hooray $(ROOT)/bin/hooray
	install -D -m 0755 -s --strip-program=$(STRIP) $(RELEASE)/release/hoorayd $(ROOT)/bin/hoorayd
	install -D -m 0755 -s --strip-program=$(STRIP) $(RELEASE)/release/hooray-app $(ROOT)/bin/hooray-app
	# `hooray` is the front door; the full program it runs for all but a command hoorayd takes.
	install -D -m 0755 -s --strip-program=$(STRIP) $(RELEASE)/release/hooray-cli $(ROOT)/libexec/hooray/hooray-cli
	# What hoorayd starts around each plugin in another language; it looks in ../lib/hooray of itself.
	install -D -m 0755 -s --strip-program=$(STRIP) $(RELEASE)/release/hooray-sandbox $(ROOT)/lib/hooray/hooray-sandbox
	install -D -m 0644 $(GENERATED)/man/hooray.1 $(ROOT)/share/man/man1/hooray.1
	install -D -m 0644 $(GENERATED)/man/hoorayd.1 $(ROOT)/share/man/man1/hoorayd.1
	install -D -m 0644 $(GENERATED)/completions/hooray.bash $(ROOT)/share/bash-completion/completions/hooray
	install -D -m 0644 $(GENERATED)/completions/_hooray $(ROOT)/share/zsh/site-functions/_hooray
	install -D -m 0644 $(GENERATED)/completions/hooray.fish $(ROOT)/share/fish/vendor_completions.d/hooray.fish
	install -d $(ROOT)/share/systemd/user
	sed 's|^ExecStart=/usr/bin/hoorayd|ExecStart=$(PREFIX)/bin/hoorayd|' packaging/debian/hooray.user.service \
		> $(ROOT)/share/systemd/user/hooray.service
	chmod 0644 $(ROOT)/share/systemd/user/hooray.service
	install -D -m 0644 packaging/hooray.svg $(ROOT)/share/icons/hicolor/scalable/apps/hooray.svg
	install -D -m 0644 packaging/hooray.desktop $(ROOT)/share/applications/hooray.desktop
	install -D -m 0644 packaging/org.hooray.Hooray.desktop $(ROOT)/share/applications/org.hooray.Hooray.desktop
	install -D -m 0644 packaging/hooray-app.1 $(ROOT)/share/man/man1/hooray-app.1
	# The session bus starts the app with it (D-Bus activation): for its desktop entry, and for
	# the celebration window hoorayd asks for at a milestone.
	install -d $(ROOT)/share/dbus-1/services
	sed 's|^Exec=/usr/bin/hooray-app|Exec=$(PREFIX)/bin/hooray-app|' packaging/org.hooray.Hooray.service \
		> $(ROOT)/share/dbus-1/services/org.hooray.Hooray.service
	chmod 0644 $(ROOT)/share/dbus-1/services/org.hooray.Hooray.service
	# hoorayd's own, for the launchers: GNOME Shell's search and KRunner call it, and the bus starts
	# it (through systemd's hooray.service where there is one) when it is not running.
	sed 's|^Exec=/usr/bin/hoorayd|Exec=$(PREFIX)/bin/hoorayd|' packaging/org.hooray.Hoorayd.service \
		> $(ROOT)/share/dbus-1/services/org.hooray.Hoorayd.service
	chmod 0644 $(ROOT)/share/dbus-1/services/org.hooray.Hoorayd.service
	install -D -m 0644 packaging/org.hooray.Hoorayd.search-provider.ini \
		$(ROOT)/share/gnome-shell/search-providers/org.hooray.Hoorayd.search-provider.ini
	install -D -m 0644 packaging/org.hooray.Hoorayd.krunner.desktop \
		$(ROOT)/share/krunner/dbusplugins/org.hooray.Hoorayd.desktop
	@echo
	@echo "Installed hooray and hoorayd in $(ROOT)/bin (make sure it is on your PATH)."
	@echo "Start the scheduler now and at every login: systemctl --user daemon-reload && systemctl --user enable --now hooray"

# The folders install may have made, deepest first; each is removed only when nothing else is left in it.
INSTALLED_DIRS = $(ROOT)/bin $(ROOT)/libexec/hooray $(ROOT)/libexec $(ROOT)/lib/hooray $(ROOT)/lib \
            $(ROOT)/share/man/man1 $(ROOT)/share/man \
            $(ROOT)/share/bash-completion/completions $(ROOT)/share/bash-completion \
            $(ROOT)/share/zsh/site-functions $(ROOT)/share/zsh $(ROOT)/share/fish/vendor_completions.d \
            $(ROOT)/share/fish $(ROOT)/share/systemd/user $(ROOT)/share/systemd \
            $(ROOT)/share/icons/hicolor/scalable/apps $(ROOT)/share/icons/hicolor/scalable \
            $(ROOT)/share/icons/hicolor $(ROOT)/share/icons $(ROOT)/share/applications \
            $(ROOT)/share/dbus-1/services $(ROOT)/share/dbus-1 \
            $(ROOT)/share/gnome-shell/search-providers $(ROOT)/share/gnome-shell \
            $(ROOT)/share/krunner/dbusplugins $(ROOT)/share/krunner

# Exactly the files install put there, and its folders when they are empty now.
uninstall:
	rm -f $(INSTALLED)
	-@for folder in $(INSTALLED_DIRS); do [ ! -d "$$folder" ] || rmdir --ignore-fail-on-non-empty "$$folder"; done
	@echo "Removed Hooray from $(ROOT). If the user service ran: systemctl --user disable --now hooray"

PACKAGE_PKGS := debhelper dpkg-dev fakeroot lintian man-db bash-completion

package-deps: deps
	@./scripts/install-deps $(PACKAGE_PKGS)

deb: package-deps
	./scripts/build-deb

package-test: package-deps test-deps
	./scripts/package-test

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Plugins Tests sdk/swift
	./scripts/check-targets --build-flags "$(BUILD_FLAGS)"

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Plugins Tests sdk/swift

# The plugin API's documentation, with the article "Writing a Hooray plugin", as DocC archives in
# .build/plugins/Swift-DocC/outputs/ (HoorayKit, HoorayCalendar, HoorayCommandLine).
# DOCS_FLAGS="--warnings-as-errors" fails on
# a broken link; "--analyze" also notes what is not curated on the landing page.
DOCS_FLAGS ?=

docs:
	set -o pipefail; $(SWIFT) package generate-documentation --target HoorayKit --target HoorayCalendar \
		--target HoorayCommandLine $(DOCS_FLAGS) 2>&1 \
		| { grep -v 'prohibited flag' || true; }

# Every public symbol of the plugin API (HoorayKit, HoorayCalendar, HoorayCommandLine, which needs
# the other two) has a doc comment of its own: read from the built modules with
# swift-symbolgraph-extract, in about a second each once they are built. `make test` runs it.
doc-coverage:
	$(SWIFT) build --target HoorayCommandLine $(BUILD_FLAGS) 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	./scripts/check-doc-coverage --build-flags "$(BUILD_FLAGS)"

clean:
	rm -rf .build .build-release .build-release-manual .build-deb .build-bench Benchmarks/.build Benchmarks/.build-dynamic dist

# Benchmarks (not tests: they measure and never fail because something is slow; `make test` runs none).
# One release build for all of them, made the way the Debian package makes its binaries
# (packaging/debian/rules), in a scratch folder of its own so it clobbers no other build.
BENCH_PKGS    := dbus-daemon python3 python3-dbus-next libnotify-bin faketime xvfb gcc libc6-dev dunst remind
BENCH_SCRATCH := .build-bench
# The release build's flags are scripts/release-flags' (the Debian package's, and `make install`'s).
BENCH_BUILD   := $(SWIFT) build -c release --manifest-cache none --scratch-path $(BENCH_SCRATCH) \
                 $(shell ./scripts/release-flags)
BENCH_BIN     := $(BENCH_SCRATCH)/release
BENCH_FLAGS   ?=

.PHONY: bench bench-quick bench-deps bench-build bench-feedback bench-habits bench-start bench-app order-file

bench-deps: deps
	@./scripts/install-deps $(BENCH_PKGS)

bench-build: bench-deps
	set -o pipefail; $(BENCH_BUILD) 2>&1 | { grep -v 'prohibited flag' || true; }

# Every figure of BENCHMARKS.md, each beside its reference, in one run (12–14 minutes here,
# build included); rewrites BENCHMARKS.md and BENCHMARKS.json (every raw figure and the table's rows). BENCH_FLAGS="--only idle,memory --json out.json".
bench: bench-deps
	@mkdir -p $(BENCH_SCRATCH) && date +%s > $(BENCH_SCRATCH)/started
	set -o pipefail; $(BENCH_BUILD) 2>&1 | { grep -v 'prohibited flag' || true; }
	@echo "Building the reference programs of the idle and memory figures (Benchmarks/)"
	set -o pipefail; for product in IdleReference EssentialsReference PlainReference; do \
		$(SWIFT) build --package-path Benchmarks -c release --static-swift-stdlib \
		--product $$product 2>&1 | { grep -v 'prohibited flag' || true; } || exit 1; done
	@echo "The same three linked dynamically to the toolchain's Swift libraries (a reference row of the memory figure)"
	set -o pipefail; for product in IdleReference EssentialsReference PlainReference; do \
		$(SWIFT) build --package-path Benchmarks -c release --scratch-path Benchmarks/.build-dynamic \
		--product $$product 2>&1 | { grep -v 'prohibited flag' || true; } || exit 1; done
	/usr/bin/python3 scripts/bench/run.py --bin-dir $(BENCH_BIN) --started-at $$(cat $(BENCH_SCRATCH)/started) \
		--build-description "$(subst $(SWIFT),swift,$(BENCH_BUILD))" \
		--reference Benchmarks/.build/release/IdleReference $(BENCH_FLAGS)

# Figures 1, 2 and 4 (feedback, idle, start with 10,000 rules, next due × 1,000,000) in under 3 minutes
# once built, beside the last full run's BENCHMARKS.json: run it before every change to the engine.
# Writes .build-bench/BENCHMARKS-quick.md and .json; BENCHMARKS.md stays as `make bench` wrote it.
bench-quick: bench-deps
	set -o pipefail; $(BENCH_BUILD) 2>&1 | { grep -v 'prohibited flag' || true; }
	set -o pipefail; $(SWIFT) build --package-path Benchmarks -c release --static-swift-stdlib \
		--product IdleReference 2>&1 | { grep -v 'prohibited flag' || true; }
	/usr/bin/python3 scripts/bench/run.py --quick --bin-dir $(BENCH_BIN) \
		--build-description "$(subst $(SWIFT),swift,$(BENCH_BUILD))" \
		--reference Benchmarks/.build/release/IdleReference $(BENCH_FLAGS)

# packaging/hooray.order anew: the functions hoorayd and hooray-cli run (under valgrind's callgrind),
# which the release build puts side by side at the start of .text (scripts/release-flags).
order-file: bench-build
	@./scripts/install-deps valgrind
	cd scripts/bench && /usr/bin/python3 order_file.py --bin-dir ../../$(BENCH_BIN) --output ../../packaging/hooray.order

# Time from `hooray win` to its notification on a headless server, beside notify-send; p50/p95 as
# a Markdown table. BENCH_FLAGS="--runs 100 --json out.json".
bench-feedback: bench-build
	/usr/bin/python3 scripts/bench/feedback.py --bin-dir $(BENCH_BIN) $(BENCH_FLAGS)

# Figure 4's start alone: hoorayd with 100,000 reminder rules (first start, restart) and `hooray config
# check` of them, phase by phase, beside the start with none. BENCH_FLAGS="--steps 10000,1000000".
bench-start: bench-build
	/usr/bin/python3 scripts/bench/scale.py start --bin-dir $(BENCH_BIN) --steps "" $(BENCH_FLAGS) > /dev/null

# The desktop app's cold start to its first drawn frame (Home, and `--quick`) under Xvfb, beside a
# minimal GTK 4 program built the same way; median and min–max of 10. BENCH_FLAGS="--runs 20 --json out.json".
bench-app: bench-build
	/usr/bin/python3 scripts/bench/app_start.py --bin-dir $(BENCH_BIN) $(BENCH_FLAGS)

# `hooray habit list` with 1,000 habits of a year's history each.
bench-habits: bench-build
	/usr/bin/python3 scripts/bench/habit_list.py --bin-dir $(BENCH_BIN) $(BENCH_FLAGS)
