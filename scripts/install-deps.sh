#!/usr/bin/env bash
# Installs the system packages Switchyard needs when they are missing (Debian/Ubuntu, as root or via sudo).
# Idempotent: does nothing when pkg-config already finds libcurl and zlib (bodies are decoded with zlib)
# and the Public Suffix List is installed.
set -euo pipefail

# The Public Suffix List the cookie jar reads (SwitchyardCookies) is Debian's publicsuffix package.
PSL=/usr/share/publicsuffix/public_suffix_list.dat
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl zlib && [ -f "$PSL" ]; then
  exit 0
fi
need=(libcurl4-openssl-dev zlib1g-dev publicsuffix)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! command -v apt-get >/dev/null 2>&1; then
  echo "libcurl or zlib development files are missing; install them with your package manager (e.g. 'brew install curl')." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "installing ${need[*]} with apt-get" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
