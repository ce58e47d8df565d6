# slicewise quick start: `make run` (the bundled example) and `make test` (every test).
# Both install the Debian packages if missing, configure, and build with -j2.
PRESET ?= ci
BUILD := build/$(PRESET)
# The seed case (dedicated vs time-slicing on L40S) and the A100 case (dedicated, time-slicing, MPS, MIG).
EXAMPLES ?= examples/seed-l40s-timeslicing.json examples/ten-light-jobs-a100.json

.PHONY: all deps configure build run test clean

all: build

deps:
	@scripts/install-deps

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET)

run: build
	$(BUILD)/cli/slicewise validate $(EXAMPLES)
	@for example in $(EXAMPLES); do echo; $(BUILD)/cli/slicewise simulate $$example --jobs 2 || exit 1; done

test: build
	ctest --preset $(PRESET)

clean:
	rm -rf build
