# Thin wrapper around CMake; see README.md.
BUILD       ?= build
BUILD_SAN   ?= build-sanitize
BUILD_CLANG ?= build-clang
BUILD_REL   ?= build-release
BUILD_FUZZ  ?= build-fuzz
# fuzz-smoke: how long libFuzzer runs (seconds), the longest input it makes.
FUZZ_TIME   ?= 60
FUZZ_LEN    ?= 4096
# fuzz_import's longest input: the largest seed config is 13 KB.
FUZZ_IMPORT_LEN ?= 16384
JOBS        ?= $(shell nproc)
ROOFLINE     = $(BUILD)/roofline
SCENARIO    ?= scenarios/roofline-exercises.roof
# WERROR=ON turns compiler warnings into errors (CI sets it); the default OFF
# never fails a build on a new compiler's warning.
WERROR      ?= OFF
# make install: where the binary (PREFIX/bin) and the templates
# (PREFIX/share/roofline/templates) go.
PREFIX      ?= /usr/local

.PHONY: all deps build install test test-sanitize test-clang build-release test-release report bench fuzz fuzz-smoke clean

all: build

deps:
	@scripts/install-deps.sh

# The WERROR a build folder was configured with: another value makes the
# folder's CMakeCache.txt out of date, so that it is configured again.
%/.werror-$(WERROR):
	@mkdir -p $*
	@rm -f $*/.werror-*
	@touch $@

$(BUILD)/CMakeCache.txt: $(BUILD)/.werror-$(WERROR)
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOFLINE_WERROR=$(WERROR)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole suite once more under AddressSanitizer + UndefinedBehaviorSanitizer.
test-sanitize: deps
	cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DROOFLINE_SANITIZE=ON -DROOFLINE_WERROR=$(WERROR)
	cmake --build $(BUILD_SAN) -j $(JOBS)
	cd $(BUILD_SAN) && ctest --output-on-failure -j $(JOBS)

# The whole suite built with clang++.
$(BUILD_CLANG)/CMakeCache.txt: $(BUILD_CLANG)/.werror-$(WERROR)
	CXX=clang++ cmake -S . -B $(BUILD_CLANG) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOFLINE_WERROR=$(WERROR)

test-clang: deps $(BUILD_CLANG)/CMakeCache.txt
	cmake --build $(BUILD_CLANG) -j $(JOBS)
	cd $(BUILD_CLANG) && ctest --output-on-failure -j $(JOBS)

# The optimized build a user's `cmake -DCMAKE_BUILD_TYPE=Release` makes (-O3),
# and the whole suite on it.
$(BUILD_REL)/CMakeCache.txt: $(BUILD_REL)/.werror-$(WERROR)
	cmake -S . -B $(BUILD_REL) -DCMAKE_BUILD_TYPE=Release -DROOFLINE_WERROR=$(WERROR)

build-release: deps $(BUILD_REL)/CMakeCache.txt
	cmake --build $(BUILD_REL) -j $(JOBS)

test-release: build-release
	cd $(BUILD_REL) && ctest --output-on-failure -j $(JOBS)

# The libFuzzer targets (clang, ASan + UBSan), in a build folder of its own:
# fuzz_scenario (a scenario's text) and fuzz_import (a config.json for
# `roofline import`); see docs/reliability.md, "Fuzzing".
$(BUILD_FUZZ)/CMakeCache.txt: $(BUILD_FUZZ)/.werror-$(WERROR)
	CXX=clang++ cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOFLINE_FUZZ=ON \
	  -DROOFLINE_BENCH=OFF -DROOFLINE_WERROR=$(WERROR)

fuzz: deps $(BUILD_FUZZ)/CMakeCache.txt
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_scenario fuzz_import

# FUZZ_TIME seconds of each target (about two minutes in all), from the seeds
# and, for fuzz_scenario, the kept corpus (fuzz/corpus, read only); new inputs
# are kept in $(BUILD_FUZZ)/corpus and $(BUILD_FUZZ)/import-corpus, a crash's
# input in $(BUILD_FUZZ)/crash-* (fuzz_import's: import-crash-*).
fuzz-smoke: fuzz
	fuzz/make-corpus.sh $(BUILD_FUZZ)/seeds
	mkdir -p $(BUILD_FUZZ)/corpus
	$(BUILD_FUZZ)/fuzz/fuzz_scenario $(BUILD_FUZZ)/corpus $(BUILD_FUZZ)/seeds fuzz/corpus -dict=fuzz/roof.dict \
	  -max_total_time=$(FUZZ_TIME) -max_len=$(FUZZ_LEN) -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(BUILD_FUZZ)/ -print_final_stats=1
	fuzz/make-import-corpus.sh $(BUILD_FUZZ)/import-seeds
	mkdir -p $(BUILD_FUZZ)/import-corpus
	$(BUILD_FUZZ)/fuzz/fuzz_import $(BUILD_FUZZ)/import-corpus $(BUILD_FUZZ)/import-seeds -dict=fuzz/json.dict \
	  -max_total_time=$(FUZZ_TIME) -max_len=$(FUZZ_IMPORT_LEN) -timeout=10 -rss_limit_mb=2048 \
	  -artifact_prefix=$(BUILD_FUZZ)/import- -print_final_stats=1

report: build
	$(ROOFLINE) run $(SCENARIO)
	@echo "reports are in out/$(basename $(notdir $(SCENARIO)))/latest"

bench: build
	$(BUILD)/bench/bench_core

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_CLANG) $(BUILD_REL) $(BUILD_FUZZ)
