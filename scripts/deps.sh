#!/usr/bin/env bash
# Installs the Debian packages ptosim builds with, and any named as arguments, if one is missing.
#   scripts/deps.sh [PACKAGE...]
set -euo pipefail

packages=(cmake ninja-build g++ clang binutils libgtest-dev libbenchmark-dev libhwy-dev libcli11-dev libopenblas-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ptosim: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
