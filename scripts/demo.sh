#!/usr/bin/env bash
# Builds the examples against an installed LayerKit (with its pkg-config file,
# as a user would) and runs them headless, writing PNG files into OUTDIR.
# usage: scripts/demo.sh PREFIX OUTDIR        (`make demo` calls it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 PREFIX OUTDIR" >&2; exit 2; }
prefix=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
build=$root/build/examples
mkdir -p "$build"
CC=${CC:-cc}
CXX=${CXX:-c++}

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
read -r -a lk <<<"$(pkg-config --cflags --libs layerkit)"
rpath=-Wl,-rpath,$prefix/lib
strict=(-Wall -Wextra -Werror -pedantic -O2)

echo "building the examples against $prefix (pkg-config layerkit $(pkg-config --modversion layerkit))"
"$CC" -std=c99 "${strict[@]}" "$root/Examples/demo.c" "${lk[@]}" -lm "$rpath" -o "$build/demo"
"$CC" -std=c99 "${strict[@]}" "$root/Examples/hello.c" "${lk[@]}" "$rpath" -o "$build/hello"
"$CXX" -std=c++17 "${strict[@]}" "$root/Examples/cpp_demo.cpp" "${lk[@]}" "$rpath" -o "$build/cpp_demo"
"$CC" -std=c99 "${strict[@]}" -D_POSIX_C_SOURCE=200809L "$root/Examples/animations.c" "$root/Examples/support/apng.c" \
    "${lk[@]}" -lz -lm "$rpath" -o "$build/animations"
"$CC" -std=c99 "${strict[@]}" "$root/Examples/content.c" "${lk[@]}" "$rpath" -o "$build/content"
"$CC" -std=c99 "${strict[@]}" -D_POSIX_C_SOURCE=200809L "$root/Examples/particles.c" "$root/Examples/support/apng.c" \
    "${lk[@]}" -lz -lm "$rpath" -o "$build/particles"
"$CC" -std=c99 "${strict[@]}" -D_POSIX_C_SOURCE=200809L "$root/Examples/cube.c" "$root/Examples/support/apng.c" \
    "${lk[@]}" -lz -lm "$rpath" -o "$build/cube"

# the software backend, the one the installed tree carries; no plugin path:
# the library finds it beside itself
export LAYERKIT_BACKEND=software
unset LAYERKIT_PLUGIN_PATH
echo
"$build/demo" "$out"
(cd "$out" && "$build/hello")
"$build/cpp_demo" "$out"
"$build/animations" "$out"
"$build/content" "$out"
"$build/particles" "$out"
"$build/cube" "$out"
echo
echo "The images are in $out/: demo.png is the scene, demo-card-y*.png the card at"
echo "other angles about y, hello.png the README's example, cpp_demo.png the C++ one,"
echo "content.png shapes, text and gradients, content-snapshot.png a snapshot of them;"
echo "keyframe-colours.apng, ship.apng, spring.apng, group.apng, transition-push.apng and"
echo "transition-fade.apng play the animation scenes (any browser opens them); their"
echo "frames are in animations/<scene>/; snow.apng, fireworks.apng (emitter layers) and"
echo "spinner.apng (a replicator layer) likewise, their frames in particles/<scene>/;"
echo "cube.apng is the rotating cube of a transform layer (frames in cube/, cube.png one of them)."
