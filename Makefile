# Entry points; each installs missing system packages first (scripts/install-deps.sh).
.PHONY: deps build demo test clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build

demo: deps
	swift run yard demo

# Tests that measure the process's resident memory run in a second, serial pass: sharing the
# process with parallel 64 MiB conformance checks would make their figures meaningless.
MEMORY_TESTS = InBoundedMemory

test: deps
	swift test --skip $(MEMORY_TESTS)
	swift test --skip-build --no-parallel --filter $(MEMORY_TESTS)

clean:
	rm -rf .build
