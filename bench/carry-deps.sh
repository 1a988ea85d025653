#!/usr/bin/env bash
# Copies doctest (header + CMake package) into .deps/, which the device tool
# carries to the GPU machine (that machine cannot fetch packages).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
rm -rf .deps && mkdir -p .deps/include .deps/lib/cmake
cp -r /usr/include/doctest .deps/include/
cp -r /usr/lib/cmake/doctest .deps/lib/cmake/
