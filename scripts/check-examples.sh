#!/usr/bin/env bash
# Checks the examples against an installed LayerKit: the README's C example is
# Examples/hello.c word for word and builds the way the README says; hello.c,
# demo.c, animations.c, content.c, particles.c, cube.c (C99) and cpp_demo.cpp (C++17) build
# with warnings as errors, run headless, and write their PNG files.
# usage: scripts/check-examples.sh PREFIX
# Prints PASS/FAIL lines and `examples: N passed, N failed`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
build=$root/build/examples-test
out=$root/out/test-results/examples
rm -rf "$out"
mkdir -p "$build" "$out"
CC=${CC:-cc}
CXX=${CXX:-c++}

passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export LAYERKIT_BACKEND=software SWIFT_BACKTRACE=enable=no
unset LAYERKIT_PLUGIN_PATH
read -r -a lk <<<"$(pkg-config --cflags --libs layerkit)"
rpath=-Wl,-rpath,$prefix/lib
strict=(-Wall -Wextra -Werror -pedantic)

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

build() { # build NAME COMPILER ARGS...: compile quietly, show errors
    local name=$1; shift
    if "$@" >"$build/$name.log" 2>&1; then
        pass "examples: $name builds"
        return 0
    fi
    sed -n '1,30p' "$build/$name.log" | sed 's/^/  | /'
    fail "examples: $name does not build"
    return 1
}

run() { # run NAME DIR COMMAND...: run in DIR with a time limit
    local name=$1 dir=$2 status; shift 2
    (cd "$dir" && timeout -k 5 120 sh -c '"$0" "$@"; exit $?' "$@") >"$build/$name.run.log" 2>&1 </dev/null
    status=$?
    sed 's/^/  /' "$build/$name.run.log"
    if [ $status -eq 0 ]; then
        pass "examples: $name runs"
        return 0
    fi
    fail "examples: $name exited with status $status"
    return 1
}

# The README's first ```c block is the hello example.
awk '/^```c$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' "$root/README.md" >"$build/readme_example.c"
if [ ! -s "$build/readme_example.c" ]; then
    fail "examples: README.md has no \`\`\`c code block"
elif diff -u "$root/Examples/hello.c" "$build/readme_example.c" >"$build/readme.diff"; then
    pass "examples: README's C example is Examples/hello.c"
else
    sed -n '1,30p' "$build/readme.diff" | sed 's/^/  | /'
    fail "examples: README's C example differs from Examples/hello.c"
fi
# built exactly as the README tells a user to (plus an rpath: this prefix is not in ld.so's path)
build readme-example "$CC" "$build/readme_example.c" "${lk[@]}" "$rpath" -o "$build/readme_example"

if build hello.c "$CC" -std=c99 "${strict[@]}" "$root/Examples/hello.c" "${lk[@]}" "$rpath" -o "$build/hello" &&
    run hello "$out" "$build/hello"; then
    if is_png "$out/hello.png"; then pass "examples: hello wrote hello.png"; else fail "examples: hello wrote no PNG file"; fi
fi

if build demo.c "$CC" -std=c99 "${strict[@]}" "$root/Examples/demo.c" "${lk[@]}" -lm "$rpath" -o "$build/demo" &&
    run demo "$root" "$build/demo" "$out"; then
    n=0
    for f in "$out"/demo.png "$out"/demo-card-y*.png; do is_png "$f" && n=$((n + 1)); done
    if [ $n -ge 2 ]; then pass "examples: demo wrote $n PNG files"; else fail "examples: demo wrote only $n PNG files"; fi
fi

if build cpp_demo.cpp "$CXX" -std=c++17 "${strict[@]}" "$root/Examples/cpp_demo.cpp" "${lk[@]}" "$rpath" -o "$build/cpp_demo" &&
    run cpp_demo "$root" "$build/cpp_demo" "$out"; then
    if is_png "$out/cpp_demo.png"; then pass "examples: cpp_demo wrote cpp_demo.png"; else fail "examples: cpp_demo wrote no PNG file"; fi
fi

if build animations.c "$CC" -std=c99 "${strict[@]}" -D_POSIX_C_SOURCE=200809L "$root/Examples/animations.c" \
        "$root/Examples/support/apng.c" "${lk[@]}" -lz -lm "$rpath" -o "$build/animations" &&
    run animations "$root" "$build/animations" "$out"; then
    for scene in keyframe-colours ship spring group transition-push transition-fade; do
        frames=$(ls "$out/animations/$scene"/frame-*.png 2>/dev/null | wc -l)
        # an APNG is a PNG with an acTL chunk right after IHDR (bytes 37-40)
        if is_png "$out/$scene.apng" && [ "$(dd if="$out/$scene.apng" bs=1 skip=37 count=4 2>/dev/null)" = acTL ] &&
            [ "$frames" -ge 25 ]; then
            pass "examples: animations wrote $scene.apng and $frames PNG frames"
        else
            fail "examples: animations: $scene.apng or its frames missing ($frames frames)"
        fi
    done
fi

if build content.c "$CC" -std=c99 "${strict[@]}" "$root/Examples/content.c" "${lk[@]}" "$rpath" -o "$build/content" &&
    run content "$root" "$build/content" "$out"; then
    if is_png "$out/content.png" && is_png "$out/content-snapshot.png"; then
        pass "examples: content wrote content.png and content-snapshot.png"
    else
        fail "examples: content did not write content.png and content-snapshot.png"
    fi
fi

if build particles.c "$CC" -std=c99 "${strict[@]}" -D_POSIX_C_SOURCE=200809L "$root/Examples/particles.c" \
        "$root/Examples/support/apng.c" "${lk[@]}" -lz -lm "$rpath" -o "$build/particles" &&
    run particles "$root" "$build/particles" "$out"; then
    for scene in snow fireworks spinner; do
        frames=$(ls "$out/particles/$scene"/frame-*.png 2>/dev/null | wc -l)
        if is_png "$out/$scene.apng" && [ "$frames" -gt 0 ]; then
            pass "examples: particles wrote $scene.apng and $frames PNG frames"
        else
            fail "examples: particles: $scene.apng or its frames missing ($frames frames)"
        fi
    done
fi
if build cube.c "$CC" -std=c99 "${strict[@]}" -D_POSIX_C_SOURCE=200809L "$root/Examples/cube.c" \
        "$root/Examples/support/apng.c" "${lk[@]}" -lz -lm "$rpath" -o "$build/cube" &&
    run cube "$root" "$build/cube" "$out"; then
    frames=$(ls "$out/cube"/frame-*.png 2>/dev/null | wc -l)
    if is_png "$out/cube.png" && is_png "$out/cube.apng" &&
        [ "$(dd if="$out/cube.apng" bs=1 skip=37 count=4 2>/dev/null)" = acTL ] && [ "$frames" -eq 100 ]; then
        pass "examples: cube wrote cube.png, cube.apng and $frames PNG frames"
    else
        fail "examples: cube: cube.png, cube.apng or its frames missing ($frames frames)"
    fi
fi

echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
