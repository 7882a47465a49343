#!/bin/sh
# Builds bench_gles with the GLES renderer's sources and runs it on Mesa's
# llvmpipe (LIBGL_ALWAYS_SOFTWARE=1): GL work counted per frame.
#
# usage: Benchmarks/gles/run.sh [--smoke] [--frames N]        CC defaults to cc
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
CC=${CC:-cc}
out="$root/build/bench/gles"
mkdir -p "$out"
for source in "$root"/Plugins/GLESRenderer/*.c; do
    "$CC" -std=c11 -O2 -Wall -Wextra -I"$root/include" -I"$root/Plugins/GLESRenderer/include" \
        -I"$root/Plugins/GLESRenderer" -c "$source" -o "$out/$(basename "$source" .c).o"
done
"$CC" -std=c99 -O2 -Wall -Wextra -I"$root/include" -I"$root/Plugins/GLESRenderer/include" \
    "$here/bench_gles.c" "$out"/gles_*.o -lEGL -lGLESv2 -lm -o "$out/bench_gles"
LIBGL_ALWAYS_SOFTWARE=1 exec "$out/bench_gles" "$@"
