#!/bin/sh
# Builds every Tests/Software/test_*.c twice, as C99 and as C++17 (the plugin
# ABI header must serve both), runs each against the software backend plugin
# and prints the PASS/FAIL lines and the totals. Exits non-zero on any
# failure, build failures included.
#
# usage: Tests/Software/run.sh [include-dir]
#   include-dir      the directory holding layerkit/ (default: $LKTEST_INCLUDE,
#                    else the repository's include/)
#   LKTEST_PLUGIN    the plugin to dlopen (default: the first that exists of
#                    .build-sw/debug, .build/debug, .build/release)
#   LKTEST_BACKEND   the backend that plugin is (default software); the same
#                    tests run on gles (scripts/run-tests.sh does both)
#   LKTEST_VALGRIND  set to 1 to run each program under
#                    valgrind --leak-check=full --error-exitcode=99
#   CC, CXX          compilers (default cc, c++)
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
include=${1:-${LKTEST_INCLUDE:-$root/include}}

if [ -z "${LKTEST_PLUGIN:-}" ]; then
    for candidate in "$root/.build-sw/debug" "$root/.build/debug" "$root/.build/release"; do
        if [ -f "$candidate/liblayerkit-software.so" ]; then
            LKTEST_PLUGIN="$candidate/liblayerkit-software.so"
            break
        fi
    done
fi
if [ -z "${LKTEST_PLUGIN:-}" ] || [ ! -f "$LKTEST_PLUGIN" ]; then
    echo "FAIL software-tests: plugin not found (set LKTEST_PLUGIN)"
    exit 1
fi
export LKTEST_PLUGIN

CC=${CC:-cc}
CXX=${CXX:-c++}
flags="-Wall -Wextra -Werror -pedantic -g -O1 -I$include -I$here"
runner=""
if [ "${LKTEST_VALGRIND:-0}" = 1 ]; then
    runner="valgrind -q --leak-check=full --error-exitcode=99 --suppressions=$here/valgrind.supp"
fi

build=$(mktemp -d "${TMPDIR:-/tmp}/lktest-software.XXXXXX")
trap 'rm -rf "$build"' EXIT INT TERM

if [ -n "$runner" ] && command -v objcopy >/dev/null 2>&1; then
    # Older valgrind cannot read the DWARF 5 forms the Swift toolchain's
    # clang emits and gives up; a copy without debug info keeps the symbols.
    objcopy --strip-debug "$LKTEST_PLUGIN" "$build/liblayerkit-software.so" &&
        LKTEST_PLUGIN="$build/liblayerkit-software.so"
fi

passed=0
failed=0
for source in "$here"/test_*.c; do
    name=$(basename "$source" .c)
    for lang in c99 c++17; do
        exe="$build/$name-$lang"
        if [ "$lang" = c99 ]; then
            $CC -std=c99 $flags -o "$exe" "$source" -ldl -lm 2>"$exe.log"
        else
            $CXX -std=c++17 $flags -o "$exe" -x c++ "$source" -ldl -lm 2>"$exe.log"
        fi
        if [ $? -ne 0 ]; then
            echo "FAIL $name ($lang): does not compile"
            sed 's/^/    /' "$exe.log"
            failed=$((failed + 1))
            continue
        fi
        $runner "$exe" >"$exe.out" 2>"$exe.err"
        status=$?
        sed -E "s/^(PASS|FAIL) /\1 $name\/$lang\//" "$exe.out"
        p=$(grep -c '^PASS ' "$exe.out")
        f=$(grep -c '^FAIL ' "$exe.out")
        passed=$((passed + p))
        failed=$((failed + f))
        if [ $status -ne 0 ] && [ "$f" -eq 0 ]; then
            echo "FAIL $name ($lang): exited with status $status"
            sed 's/^/    /' "$exe.err" | tail -n 40
            failed=$((failed + 1))
        fi
    done
done

echo "${LKTEST_BACKEND:-software} backend tests: $passed passed, $failed failed (plugin $LKTEST_PLUGIN)"
[ "$failed" -eq 0 ]
