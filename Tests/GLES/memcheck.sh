#!/usr/bin/env bash
# The gles plugin under valgrind's memcheck: Tests/GLES/memcheck_scene.c
# (every renderer path once, a few frames, then close) built against the
# installed LayerKit and run on llvmpipe. A definite or indirect leak, or a
# memory error, outside Mesa's own driver (gles.supp) fails it. llvmpipe is
# slow under memcheck (about 2-3 minutes here), so the scene is small; the
# behaviour tests run on gles without valgrind in the gles stage.
# usage: Tests/GLES/memcheck.sh PREFIX
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
CC=${CC:-cc}
logs="$root/build/test-logs/gles-leaks"
mkdir -p "$logs"
bin="$logs/memcheck_scene"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "FAIL gles-leaks: valgrind is not installed (make deps installs it)"
    echo "gles-leaks: 0 passed, 1 failed"; exit 1
fi
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs layerkit)
# shellcheck disable=SC2086
if ! $CC -std=c99 -g -O1 -Wall -Wextra -Werror -pedantic -o "$bin" "$here/memcheck_scene.c" $flags \
        -Wl,-rpath,"$prefix/lib" >"$logs/compile.log" 2>&1; then
    echo "FAIL gles-leaks: memcheck_scene.c does not build (see $logs/compile.log)"
    echo "gles-leaks: 0 passed, 1 failed"; exit 1
fi
# Mesa's shader cache (a thread compressing with zstd) is off: its own
# uninitialised reads are not ours, and every run compiles the same way.
MESA_SHADER_CACHE_DISABLE=true LIBGL_ALWAYS_SOFTWARE=1 LAYERKIT_PLUGIN_PATH="$prefix/lib/layerkit/backends" timeout 1200 \
    valgrind --quiet --leak-check=full --num-callers=40 --keep-debuginfo=yes \
    --suppressions="$here/gles.supp" --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
    "$bin" >"$logs/memcheck.log" 2>&1
status=$?
passed=0; failed=0
grep -E '^(PASS|FAIL) ' "$logs/memcheck.log" | sed -E 's/^(PASS|FAIL) /\1 gles-leaks: /'
passed=$(grep -c '^PASS ' "$logs/memcheck.log")
failed=$(grep -c '^FAIL ' "$logs/memcheck.log")
if [ $status -eq 0 ]; then
    echo "PASS gles-leaks: no leak or memory error in the gles plugin's scene"
    passed=$((passed + 1))
else
    reason="exit $status"
    [ $status -eq 99 ] && reason=$(grep -m1 -E "definitely lost|indirectly lost|Invalid|uninitialised" "$logs/memcheck.log")
    echo "FAIL gles-leaks: $reason (see $logs/memcheck.log)"
    failed=$((failed + 1))
fi
echo "gles-leaks: $passed passed, $failed failed"
[ $failed -eq 0 ]
