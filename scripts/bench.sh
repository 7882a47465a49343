#!/usr/bin/env bash
# Builds and runs the programs in Benchmarks/ against an installed LayerKit.
# usage: scripts/bench.sh PREFIX [--smoke]     (make bench, make bench-smoke)
#
#   Benchmarks/NAME.c        one C program (linked with layerkit, and with
#                            pixman-1 when it includes pixman.h)
#   Benchmarks/NAME/run.sh   a folder that builds itself: run as
#                            `sh run.sh [--smoke]` with LKTEST_PLUGIN set to the
#                            installed software backend
#   Benchmarks/NAME/*.c      otherwise, one C program made of that folder's files
#   Benchmarks/NAME.sh       a script, run as `bash NAME.sh PREFIX [--smoke]`
#   Swift executables whose target lives under Benchmarks/ in Package.swift
# Each runs with --smoke when given (a few iterations: proves it works, measures
# nothing). What does not exist yet is skipped. Exits non-zero if one failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 PREFIX [--smoke]" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
shift
args=("$@")
CC=${CC:-cc}
SWIFT=${SWIFT:-swift}
SCRATCH=${SCRATCH:-.build}
build=$root/build/bench
mkdir -p "$build"
cd "$root" || exit 2

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export LAYERKIT_BACKEND=${LAYERKIT_BACKEND:-software}
# Swift benchmarks run from the build folder: point them at the installed backends.
export LAYERKIT_PLUGIN_PATH=$prefix/lib/layerkit/backends${LAYERKIT_PLUGIN_PATH:+:$LAYERKIT_PLUGIN_PATH}
read -r -a lk <<<"$(pkg-config --cflags --libs layerkit)"
ran=0
failed=0

run() { # run NAME COMMAND...
    local name=$1 status; shift
    echo "=== $name ${args[*]}"
    "$@" "${args[@]}"
    status=$?
    ran=$((ran + 1))
    if [ $status -ne 0 ]; then
        echo "FAIL bench $name: exited with status $status"
        failed=$((failed + 1))
    fi
}

build_c() { # build_c NAME SOURCES...
    local name=$1 extra=(); shift
    if grep -q '#include <pixman' "$@" 2>/dev/null; then
        read -r -a extra <<<"$(pkg-config --cflags --libs pixman-1)"
    fi
    if ! "$CC" -std=c99 -O2 -Wall -Wextra "$@" "${lk[@]}" "${extra[@]+"${extra[@]}"}" -lm \
        -Wl,-rpath,"$prefix/lib" -o "$build/$name"; then
        echo "FAIL bench $name: does not build"
        failed=$((failed + 1))
        return 1
    fi
}

for src in Benchmarks/*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c)
    build_c "$name" "$src" && run "$name" "$build/$name"
done
for dir in Benchmarks/*/; do
    [ -d "$dir" ] || continue
    name=$(basename "$dir")
    if [ -f "$dir/run.sh" ]; then
        # the folder knows how to build itself; measure the installed plugin
        run "$name" env LKTEST_PLUGIN="$prefix/lib/layerkit/backends/liblayerkit-software.so" \
            sh "$dir/run.sh"
        continue
    fi
    ls "$dir"*.c >/dev/null 2>&1 || continue
    build_c "$name" "$dir"*.c && run "$name" "$build/$name"
done
for script in Benchmarks/*.sh; do
    [ -f "$script" ] || continue
    run "$(basename "$script" .sh)" bash "$script" "$prefix"
done

# Swift executables whose sources live under Benchmarks/
products=$(env -u CC -u CXX "$SWIFT" package describe --type json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
targets = {t["name"]: t for t in d.get("targets", [])}
for p in d.get("products", []):
    if "executable" in p.get("type", {}) and any(
            targets.get(t, {}).get("path", "").startswith("Benchmarks") for t in p.get("targets", [])):
        print(p["name"])' 2>/dev/null)
for product in $products; do
    if env -u CC -u CXX "$SWIFT" build -c release -Xswiftc -static-stdlib --scratch-path "$SCRATCH" --product "$product"; then
        bin=$(env -u CC -u CXX "$SWIFT" build -c release -Xswiftc -static-stdlib --scratch-path "$SCRATCH" --show-bin-path)
        run "$product" "$bin/$product"
    else
        echo "FAIL bench $product: does not build"
        failed=$((failed + 1))
    fi
done

if [ $ran -eq 0 ] && [ $failed -eq 0 ]; then
    echo "bench: no benchmark programs in Benchmarks/ yet: nothing to run"
fi
echo "bench: $((ran - failed)) passed, $failed failed"
[ $failed -eq 0 ]
