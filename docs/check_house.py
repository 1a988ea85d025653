#!/usr/bin/env python3
"""The house rules a public header keeps (docs/design/README.md): it states a
contract and dispatches; how a family runs lives in detail/. Fails, naming
file and line, on a backend #if (SCANVEC_BACKEND), a kernel (__global__) or a
launch (<<<) in a public header of primitives/, algorithms/ or runtime/.

The runtime's backend layer is where the backend is chosen and is the one
exception: config.hpp (the backend's macros), backend.hpp, stream.hpp and
policy.hpp (each call's CUDA and host forms side by side), and
repeat_on_device.hpp (the device loop's graph). Usage: check_house.py ROOT
"""
import pathlib
import re
import sys

BACKEND_LAYER = {"config.hpp", "backend.hpp", "stream.hpp", "policy.hpp", "repeat_on_device.hpp"}
PATTERN = re.compile(r"SCANVEC_BACKEND|__global__|<<<")


def public_headers(root):
    for top in ("primitives", "algorithms", "runtime"):
        for path in sorted((root / top).rglob("*.hpp")):
            rel = path.relative_to(root)
            if "detail" in rel.parts:
                continue
            if top == "runtime" and rel.parent == pathlib.Path("runtime/scanvec/runtime") and path.name in BACKEND_LAYER:
                continue
            yield path, rel


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    found, checked = [], 0
    for path, rel in public_headers(root):
        checked += 1
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if PATTERN.search(code):
                found.append(f"{rel}:{number}: {line.strip()}")
    for f in found:
        print(f"{f}\n  a public header states the contract and dispatches: move this into detail/<family>/ "
              "(the family's dispatch.hpp holds its one backend #if; docs/design/adding.md)")
    print(f"check_house: {checked} public headers, {len(found)} backend lines")
    return 1 if found or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
