# Thin wrapper around CMake; see README.md.
BUILD      ?= build
BUILD_SAN  ?= build-sanitize
JOBS       ?= $(shell nproc)
ROOFLINE    = $(BUILD)/roofline
SCENARIO   ?= scenarios/roofline-exercises.roof

.PHONY: all deps build test test-sanitize report bench clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole suite once more under AddressSanitizer + UndefinedBehaviorSanitizer.
test-sanitize: deps
	cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DROOFLINE_SANITIZE=ON
	cmake --build $(BUILD_SAN) -j $(JOBS)
	cd $(BUILD_SAN) && ctest --output-on-failure -j $(JOBS)

report: build
	$(ROOFLINE) run $(SCENARIO)
	@echo "reports are in out/$(basename $(notdir $(SCENARIO)))/latest"

bench: build
	$(BUILD)/bench/bench_core

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
