# Entry points; each installs missing system packages first (scripts/install-deps.sh).
.PHONY: deps build demo test consumer lint format clean

deps:
	@scripts/install-deps.sh

# The integrations are package traits, off by default so an app resolves only the packages of the
# products it uses (Package.swift); developing Switchyard builds and tests all of them.
TRAITS = --enable-all-traits

build: deps
	swift build $(TRAITS)

demo: deps
	swift run $(TRAITS) yard demo

# Tests that measure the process's resident memory run in a second, serial pass: sharing the
# process with parallel 64 MiB conformance checks would make their figures meaningless. The
# CPU-bound codec suites and the 48 MiB sent-bytes suite join them: on two cores they kept the
# cooperative threads busy long enough to starve the loopback tests that wait on queues.
MEMORY_TESTS = InBoundedMemory|CodecStreamTests|CompressedResponseTests|SentBytesObserverTests

# A crash prints only the crashed thread's backtrace: the full one of a test process with hundreds
# of threads took 14 minutes and hid the cause at its top.
CRASH_REPORT = SWIFT_BACKTRACE=threads=crashed,registers=none,images=none

# The shared stores' tests run against a real PostgreSQL server on loopback, started here and stopped
# at the end (scripts/test-postgres.sh; it installs PostgreSQL when missing).
test: deps lint consumer
	@eval "$$(scripts/test-postgres.sh start)" && trap 'scripts/test-postgres.sh stop' EXIT && \
	  $(CRASH_REPORT) swift test $(TRAITS) --skip '$(MEMORY_TESTS)' && \
	  $(CRASH_REPORT) swift test $(TRAITS) --skip-build --no-parallel --filter '$(MEMORY_TESTS)'

# An app that depends on Switchyard by path builds with a plain `swift build` whichever traits it
# enables (Tests/ConsumerPackage, once per trait).
consumer: deps
	scripts/check-consumer.sh

# swift-format ships with the toolchain; .swift-format holds the rules (documentation on every public
# declaration among them). Version-like names (http1_1, v1_2) and the generator-shaped test client
# keep their spelling, hence AlwaysUseLowerCamelCase and TypeNamesShouldBeCapitalized are off.
lint:
	swift format lint --strict -r Sources Transports Plugins Layers Tests

format:
	swift format format -i -r --parallel Sources Transports Plugins Layers Tests

clean:
	rm -rf .build
