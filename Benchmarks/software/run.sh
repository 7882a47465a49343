#!/bin/sh
# Builds the software backend in release mode (scratch path .build-sw, so the
# main .build is left alone) and bench_composite, then runs the benchmark.
#
# usage: Benchmarks/software/run.sh [--smoke] [--frames N] [--plugin PATH]
#   With --plugin (or $LKTEST_PLUGIN) that plugin is measured and nothing
#   is built but the benchmark itself. CC defaults to cc.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
CC=${CC:-cc}

case " $* " in
*" --plugin "*) ;;
*)
    if [ -z "${LKTEST_PLUGIN:-}" ]; then
        (cd "$root" && env -u CC -u CXX swift build -c release --scratch-path .build-sw \
            --product layerkit-software >&2)
        LKTEST_PLUGIN="$root/.build-sw/release/liblayerkit-software.so"
        export LKTEST_PLUGIN
    fi
    ;;
esac

out="$root/.build-sw/bench"
mkdir -p "$out"
# shellcheck disable=SC2046
"$CC" -std=c99 -O2 -Wall -Wextra -I"$root/include" "$here/bench_composite.c" \
    $(pkg-config --cflags --libs pixman-1) -ldl -lm -o "$out/bench_composite"
exec "$out/bench_composite" "$@"
