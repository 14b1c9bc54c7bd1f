#!/usr/bin/env bash
# Installs the system packages Switchyard needs when they are missing (Debian/Ubuntu, as root or via sudo).
# Idempotent: does nothing when pkg-config already finds libcurl, zlib (gzip/deflate bodies), brotli and zstd
# (SwitchyardCompression: br and zstd bodies, zstd request bodies) and the Public Suffix List, GNU time and
# the curl tool are installed.
set -euo pipefail

# The Public Suffix List the cookie jar reads (SwitchyardCookies) is Debian's publicsuffix package.
PSL=/usr/share/publicsuffix/public_suffix_list.dat
# GNU time measures the peak memory of `yard request` in the memory tests (/usr/bin/time -f %M).
# The curl command-line tool is the reference client of the yard tests (cookie jars, a 1 GiB digest).
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl zlib libbrotlidec libbrotlienc libzstd \
  && [ -f "$PSL" ] && [ -x /usr/bin/time ] && command -v curl >/dev/null 2>&1; then
  exit 0
fi
need=(libcurl4-openssl-dev zlib1g-dev libbrotli-dev libzstd-dev publicsuffix time curl)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! command -v apt-get >/dev/null 2>&1; then
  echo "libcurl, zlib, brotli or zstd development files are missing; install them with your package manager (e.g. 'brew install curl brotli zstd')." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "installing ${need[*]} with apt-get" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
