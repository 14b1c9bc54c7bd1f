#!/usr/bin/env bash
# Builds Tests/ConsumerPackage — an app that depends on Switchyard by path, as the README says — with
# a plain `swift build` for no trait, for each trait alone, and for an app's usual mix, so that an
# app's ordinary build works whichever traits it enables. One scratch folder serves every run: the
# dependencies build once, Switchyard's own modules again for each set of traits.
# Usage: scripts/check-consumer.sh [TRAITS…]   (each argument a comma-separated set; default: all below)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/consumer-package
if [ "$#" -gt 0 ]; then
  sets=("$@")
else
  sets=("" AsyncHTTPClient OpenAPI WebSocket Tracing ServiceLifecycle Cache Signing Postgres TestServer Tools
    "Cache,AsyncHTTPClient,Tracing,ServiceLifecycle")
fi
for traits in "${sets[@]}"; do
  echo "== consumer app, traits: ${traits:-none}" >&2
  started=$SECONDS
  SWITCHYARD_TRAITS="$traits" swift build --package-path Tests/ConsumerPackage --scratch-path "$scratch" -q
  "$scratch/debug/ConsumerApp" >/dev/null
  echo "== built and ran in $((SECONDS - started)) s" >&2
done
