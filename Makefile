# slicewise quick start: `make run` (the bundled example) and `make test` (every test).
# Both install the Debian packages if missing, configure, and build with -j2.
PRESET ?= ci
BUILD := build/$(PRESET)
EXAMPLE ?= examples/seed-l40s-timeslicing.json

.PHONY: all deps configure build run test clean

all: build

deps:
	@scripts/install-deps

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET)

run: build
	$(BUILD)/cli/slicewise validate $(EXAMPLE)
	$(BUILD)/cli/slicewise simulate $(EXAMPLE) --progress=none

test: build
	ctest --preset $(PRESET)

clean:
	rm -rf build
