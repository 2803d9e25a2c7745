# The README's two commands live here:
#   make demo   installs missing Debian packages, builds the berth binary only (no test or
#               benchmark), runs it on the built-in fleet
#   make test   installs missing Debian packages (and Chromium, for the report.html test),
#               builds everything once with clang, warnings as errors and ASan+UBSan (unoptimized),
#               and runs every test: unit (one process per
#               test binary), end-to-end and benchmark smoke runs
#   make install   installs berth and its bash and zsh completions under $(DESTDIR)$(PREFIX)
# Everything else is plain CMake presets (CMakePresets.json); the build uses two jobs.

BERTH ?= build/release/src/cli/berth
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all deps test-deps build demo test test-release test-asan bench fuzz campaign clean install

all: build

deps:
	@bash scripts/install-deps.sh

test-deps:
	@bash scripts/install-deps.sh --test

# Only the berth binary: tests and benchmarks are built by `make test` (and test-release,
# test-asan, bench), so a first `make demo` compiles berth's own sources and nothing else.
build: deps
	cmake --preset release >/dev/null
	cmake --build --preset release --target berth

demo: build
	$(BERTH) demo

test: test-deps
	cmake --preset ci >/dev/null
	cmake --build --preset ci
	ctest --preset ci

# Without sanitizers, each unit test case in its own process (what developers run).
test-release: test-deps
	cmake --preset release >/dev/null
	cmake --build --preset release
	ctest --preset release

test-asan: test-deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan
	ctest --preset asan

bench: build
	cmake --build --preset release --target berth_binding_bench berth_io_bench
	build/release/bench/berth_binding_bench --scale
	build/release/bench/berth_io_bench --scale

# The libFuzzer targets (docs/fuzzing.md): builds them with clang (build/fuzz) and fuzzes
# each for FUZZ_SECONDS (default 60), two at a time; crashes land in fuzz/corpus/<target>/.
FUZZ_SECONDS ?= 60
fuzz: test-deps
	bash scripts/fuzz-ci.sh --seconds $(FUZZ_SECONDS)

# The bad-input campaign (issue 14, scripts/mutation_campaign.py): CAMPAIGN_RUNS mutated
# inputs from the fixtures, examples and golden inputs through the release berth, each under
# a 20 s timeout and a 2 GiB watch; findings land in build/campaign/. Needs python3-yaml.
CAMPAIGN_RUNS ?= 2000
campaign: build
	python3 scripts/mutation_campaign.py --berth $(BERTH) --count $(CAMPAIGN_RUNS) \
	  --out build/campaign tests/fixtures examples tests/e2e

# Installs the berth already built at $(BERTH) (building it first only when there is none):
# bin/berth, the completion scripts berth writes for itself (`berth completion bash|zsh`)
# where bash-completion and zsh look for them, and the doctor's rule pages and why's runbooks
# under share/doc/berth (berth doctor -o sarif's help URIs name /usr/local/share/doc/berth,
# CMake's default prefix). PREFIX (default /usr/local) and DESTDIR as
# GNU's conventions: `make install DESTDIR=pkg PREFIX=/usr`.
install:
	@test -x $(BERTH) || $(MAKE) build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 0755 $(BERTH) $(DESTDIR)$(PREFIX)/bin/berth
	$(BERTH) completion bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/berth
	$(BERTH) completion zsh >$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_berth
	chmod 0644 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/berth \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_berth
	install -d $(DESTDIR)$(PREFIX)/share/doc/berth/doctor $(DESTDIR)$(PREFIX)/share/doc/berth/runbooks
	install -m 0644 docs/doctor/*.md $(DESTDIR)$(PREFIX)/share/doc/berth/doctor/
	install -m 0644 docs/runbooks/*.md $(DESTDIR)$(PREFIX)/share/doc/berth/runbooks/

clean:
	rm -rf build
