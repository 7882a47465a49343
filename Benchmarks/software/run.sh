#!/bin/sh
# Builds the software backend in release mode (scratch path .build-sw, so the
# main .build is left alone), bench_composite and bench_peer_fills, then runs
# bench_composite (and, in a smoke run, bench_peer_fills once).
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
# The peer scene's list on the plugin alone (a tool for A/B runs of two
# plugins): built each time, so that it keeps building; run once in smoke runs.
"$CC" -std=c99 -O2 -Wall -Wextra -I"$root/include" "$here/bench_peer_fills.c" -ldl -lm -o "$out/bench_peer_fills"
case " $* " in
*" --smoke "*) [ -n "${LKTEST_PLUGIN:-}" ] && "$out/bench_peer_fills" --smoke 1000 2 "$LKTEST_PLUGIN" ;;
esac
exec "$out/bench_composite" "$@"
