#!/usr/bin/env bash
# Installs what scanvec's build needs and is missing, from Debian's packages:
# cmake, ninja, g++, python3 (docs/check_api.py), doctest, and Open MPI (the
# distributed layer's tests).
# Safe to run again; installs nothing when all is there.
set -euo pipefail
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
command -v g++ >/dev/null || need+=(g++)
command -v python3 >/dev/null || need+=(python3)  # docs/check_api.py (CTest: docs_api_names)
[ -f /usr/include/doctest/doctest.h ] || [ -n "${DOCTEST_PREFIX:-}" ] || need+=(doctest-dev)
dpkg -s libopenmpi-dev >/dev/null 2>&1 || need+=(libopenmpi-dev)
command -v mpirun >/dev/null || need+=(openmpi-bin)
for extra in "$@"; do dpkg -s "$extra" >/dev/null 2>&1 || need+=("$extra"); done
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
