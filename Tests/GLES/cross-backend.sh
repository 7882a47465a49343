#!/usr/bin/env bash
# The reference-image tests of the C API (Tests/C/test_render*.c) on the gles
# backend, then the software and gles frames of the same tests compared with
# each other pixel by pixel (S6.4): the worst difference and where it is are
# printed per scene and over the whole suite (the gles run also takes the
# random call sequences, which draw no reference). Last, both backends draw the
# same 300 random display lists (Tests/GLES/compare_lists.c, its tolerance
# stated there).
#
# usage: Tests/GLES/cross-backend.sh PREFIX
# Tolerance: LKTEST_CROSS_TOLERANCE (default 8 of 255 in any channel of any
# pixel; the two differ in how they round, sample images and cover corners).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
tolerance=${LKTEST_CROSS_TOLERANCE:-8}
out=$root/out/cross-backend
build=$root/build/cross-backend
rm -rf "$out"
mkdir -p "$build"
export LIBGL_ALWAYS_SOFTWARE=1

passed=0
failed=0
count() { # count LOG: adds the log's closing `c-tests: N passed, N failed`
    local line
    line=$(grep -E '^c-tests: [0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
    if [ -z "$line" ]; then
        echo "FAIL cross-backend: $1 has no closing line"
        failed=$((failed + 1))
        return
    fi
    passed=$((passed + $(sed -E 's/^c-tests: ([0-9]+) passed.*/\1/' <<<"$line")))
    failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
}

# gles: every test that draws and reads frames, and the random call
# sequences (S8.1: no crash, leak or inconsistency on gles either);
# software: the ones with references
for backend in gles software; do
    tests=(render render_3d gradient_layer emitter_layer replicator_layer)
    [ "$backend" = gles ] && tests+=(render_thread time preserves_depth transform_layer damage contents_filters call_sequences)
    echo "== the C rendering tests on $backend: ${tests[*]}"
    LKTEST_BACKEND=$backend LKTEST_KEEP_ACTUAL=1 LKTEST_BUILD_DIR="$build/$backend" \
        LKTEST_OUTPUT_DIR="$out/$backend" "$root/Tests/run-c-tests.sh" "$prefix" "${tests[@]}" \
        >"$build/$backend.log" 2>&1
    grep -E '^(  )?(PASS|FAIL|  #)' "$build/$backend.log" | sed -E "s/^  (PASS|FAIL) /\1 $backend: /" | grep -E '^(PASS|FAIL)'
    grep -E '^c-tests:' "$build/$backend.log" | sed "s/^/  $backend /"
    count "$build/$backend.log"
done

echo "== software and gles frames of the same tests, tolerance $tolerance"
cc=${CC:-cc}
if ! "$cc" -std=c99 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -I"$root/Tests/C/support" \
    "$root/Tests/GLES/compare_frames.c" "$root/Tests/C/support/lkt_pixels.c" -lpng -lm \
    -o "$build/compare_frames" 2>"$build/compare.log"; then
    cat "$build/compare.log"
    echo "FAIL cross-backend: compare_frames does not compile"
    failed=$((failed + 1))
else
    for lang in c99 c++17; do
        "$build/compare_frames" "$out/software/$lang" "$out/gles/$lang" "$tolerance" >"$build/compare-$lang.log"
        sed -E "s/^(PASS|FAIL) cross-backend /\1 cross-backend [$lang] /" "$build/compare-$lang.log" | grep -v '^frames:'
        line=$(grep -E '^frames: ' "$build/compare-$lang.log")
        if [ -z "$line" ]; then
            echo "FAIL cross-backend [$lang]: compare_frames gave no result"
            failed=$((failed + 1))
        else
            passed=$((passed + $(sed -E 's/^frames: ([0-9]+) passed.*/\1/' <<<"$line")))
            failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
        fi
    done
fi
echo "== software and gles drawing the same random display lists (Tests/GLES/compare_lists.c)"
if "$cc" -std=c99 -Wall -Wextra -Werror -pedantic -D_DEFAULT_SOURCE -I"$prefix/include" -I"$root/Tests/Software" \
    "$root/Tests/GLES/compare_lists.c" -ldl -lm -o "$build/compare_lists" 2>"$build/compare_lists.log"; then
    out=$("$build/compare_lists" "$prefix/lib/layerkit/backends/liblayerkit-software.so" \
        "$prefix/lib/layerkit/backends/liblayerkit-gles.so" "$tolerance" 300 2>&1)
    status=$?
    echo "$out" | grep -E '^(#|PASS|FAIL)' | sed -E 's/^(PASS|FAIL) /\1 cross-backend lists: /'
    p=$(grep -c '^PASS ' <<<"$out")
    f=$(grep -c '^FAIL ' <<<"$out")
    [ $status -ne 0 ] && [ "$f" -eq 0 ] && { echo "FAIL cross-backend lists: exited with $status"; f=1; }
    passed=$((passed + p))
    failed=$((failed + f))
else
    cat "$build/compare_lists.log"
    echo "FAIL cross-backend lists: compare_lists does not compile"
    failed=$((failed + 1))
fi
echo "cross-backend: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
