#!/bin/sh
# Builds and runs bench_content (LayerKit's content rasterization against
# cairo and Pango drawing the same in the same run).
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${BENCH_BUILD_DIR:-$here/../../build/bench}
mkdir -p "$out"
${CC:-cc} -std=c99 -O2 -Wall -Wextra "$here/bench_content.c" $(pkg-config --cflags --libs layerkit pangocairo) -lm \
    -Wl,-rpath,"$(pkg-config --variable=libdir layerkit)" -o "$out/bench_content"
exec "$out/bench_content" "$@"
