#!/usr/bin/env bash
# What an app pays to adopt Switchyard: a throwaway app that depends on a Switchyard checkout by
# path and uses only `Switchyard` and `SwitchyardCurl` (`Client(transport: CurlTransport())`).
# Prints the packages resolved, the modules compiled and the clean build time (noisy on a shared
# machine: run it more than once). Benchmarks/results/2026-11-26-adoption-cost.md has figures.
#
# Usage: scripts/adoption-cost.sh [SWITCHYARD_DIR] [WORK_DIR]
#   SWITCHYARD_DIR  the checkout to measure (default: this one; measure a committed copy, e.g.
#                   `git worktree add /tmp/sy HEAD`, not a tree with edits in progress)
#   WORK_DIR        where the app and its build go (default: a new directory under /tmp)
set -euo pipefail

switchyard=$(cd "${1:-$(dirname "$0")/..}" && pwd)
work=${2:-$(mktemp -d /tmp/adoption-cost.XXXXXX)}
identity=$(basename "$switchyard" | tr '[:upper:]' '[:lower:]')
app="$work/app"
scratch="$work/build"
rm -rf "$app" "$scratch"
mkdir -p "$app/Sources/AdoptApp"

cat >"$app/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "AdoptApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$switchyard")],
    targets: [
        .executableTarget(
            name: "AdoptApp",
            dependencies: [
                .product(name: "Switchyard", package: "$identity"),
                .product(name: "SwitchyardCurl", package: "$identity"),
            ]
        )
    ]
)
EOF
cat >"$app/Sources/AdoptApp/main.swift" <<'EOF'
import Switchyard
import SwitchyardCurl

let client = Client(transport: CurlTransport())
print(type(of: client))
EOF

cd "$app"
start=$(date +%s.%N)
swift package --scratch-path "$scratch" resolve >"$work/resolve.log" 2>&1
resolve_seconds=$(echo "$(date +%s.%N) - $start" | bc)
packages=$(grep -c '"identity"' Package.resolved || true)
load_before=$(cut -d' ' -f1 /proc/loadavg)
start=$(date +%s.%N)
swift build --scratch-path "$scratch" >"$work/build.log" 2>&1
build_seconds=$(echo "$(date +%s.%N) - $start" | bc)
load_after=$(cut -d' ' -f1 /proc/loadavg)
swift_modules=$(find "$scratch/debug/Modules" -maxdepth 1 -name '*.swiftmodule' | wc -l)
c_modules=$(grep -oE 'Compiling [A-Za-z0-9_]+ [^ ]+\.(c|cc|cpp|S)$' "$work/build.log" | awk '{print $2}' | sort -u | wc -l)
plugins=$(grep -c 'Compiling plugin' "$work/build.log" || true)

echo "switchyard:        $switchyard ($(git -C "$switchyard" rev-parse --short HEAD 2>/dev/null || echo 'not git'))"
echo "packages resolved: $packages (Package.resolved; Switchyard itself, by path, not counted)"
grep '"identity"' Package.resolved | sed 's/.*: "//; s/",//' | tr '\n' ' '
echo
echo "modules compiled:  $((swift_modules + c_modules)) ($swift_modules Swift incl. the app, $c_modules C), plus $plugins package plugins"
find "$scratch/debug/Modules" -maxdepth 1 -name '*.swiftmodule' -exec basename {} .swiftmodule \; | sort | tr '\n' ' '
echo
echo "resolve:           ${resolve_seconds}s"
echo "clean build:       ${build_seconds}s (load average ${load_before} before, ${load_after} after, $(nproc) cores)"
echo "logs:              $work/resolve.log $work/build.log"
