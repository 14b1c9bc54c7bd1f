# Entry points; each installs missing system packages first (scripts/install-deps.sh).
.PHONY: deps build demo test clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build

demo: deps
	swift run yard demo

test: deps
	swift test

clean:
	rm -rf .build
