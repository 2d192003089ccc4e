#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, only those missing.
set -euo pipefail
packages=(
  cmake g++ clang libclang-rt-14-dev make
  libboost-dev libboost-program-options-dev libboost-iostreams-dev libboost-filesystem-dev
  pkg-config
  libxlsxwriter-dev libgnuplot-iostream-dev gnuplot-nox
  nlohmann-json3-dev libssl-dev zlib1g-dev libeigen3-dev
  catch2 libbenchmark-dev
  libreoffice-calc-nogui python3-openpyxl libxml2-utils
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
