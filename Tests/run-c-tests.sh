#!/usr/bin/env bash
# Builds and runs the C behaviour tests against an installed LayerKit, as a
# user's program would be built: with pkg-config, from the installed header.
#
# usage: Tests/run-c-tests.sh PREFIX [TEST ...]
#   PREFIX  an installed tree (make install PREFIX=...), e.g. build/test-prefix
#   TEST    run only these: test_hierarchy, hierarchy or test_hierarchy.c
#
# Every Tests/C/test_*.c, plus test_api_symbols.c generated from the installed
# header (scripts/gen-symbol-test.sh), is compiled twice, as C99 and as C++17,
# with -Wall -Wextra -Werror -pedantic, together with Tests/C/support/*.c in
# the same language, and run with a 60 s limit.
#
# Protocol: a test program prints `PASS <name>` or `FAIL <name>: <reason>`
# lines and exits non-zero if any failed. A program that does not compile or
# link, crashes, times out, or exits non-zero without a FAIL line counts as one
# failure, with a line that says which and why. The last line is
# `c-tests: N passed, N failed`; the exit status is 0 only if nothing failed.
#
# Environment: CC, CXX (compilers), LKTEST_CFLAGS (default -g -O1),
# LKTEST_TIMEOUT (seconds, default 60), LKTEST_BUILD_DIR (default
# build/c-tests), LKTEST_OUTPUT_DIR (default out/test-results; each language
# writes into its own folder below it), LKTEST_SOURCE_DIR (default Tests/C).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
    echo "usage: $0 PREFIX [TEST ...]" >&2
    exit 2
fi
prefix=$(cd "$1" 2>/dev/null && pwd) || { echo "error: no such prefix: $1" >&2; exit 2; }
shift

CC=${CC:-cc}
CXX=${CXX:-c++}
cflags=${LKTEST_CFLAGS:--g -O1}
limit=${LKTEST_TIMEOUT:-60}
build=${LKTEST_BUILD_DIR:-$root/build/c-tests}
results=${LKTEST_OUTPUT_DIR:-$root/out/test-results}
tests_dir=${LKTEST_SOURCE_DIR:-$root/Tests/C}
support_dir=$tests_dir/support
reference_dir=$tests_dir/reference
mkdir -p "$build" "$results"

passed=0
failed=0
failures=()

fail() { # fail "what: why": one counted failure that is not a test's own FAIL line
    echo "FAIL $1"
    failed=$((failed + 1))
    failures+=("$1")
}

finish() {
    echo
    if [ ${#failures[@]} -gt 0 ]; then
        echo "Failures:"
        printf '  %s\n' "${failures[@]}"
    fi
    echo "c-tests: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
if ! lk_flags=$(pkg-config --cflags --libs layerkit 2>&1); then
    fail "pkg-config: layerkit not found in $prefix/lib/pkgconfig: $lk_flags"
    finish
fi
header=$prefix/include/layerkit/layerkit.h

# The symbol test is generated from the installed header each run.
if ! gen_out=$("$root/scripts/gen-symbol-test.sh" "$header" "$build/generated/test_api_symbols.c" 2>&1); then
    fail "test_api_symbols.c: could not be generated from $header: $gen_out"
fi

tests=()
for f in "$tests_dir"/test_*.c "$build/generated/test_api_symbols.c"; do
    [ -f "$f" ] || continue
    # should a copy of the generated test ever be committed, run that one only
    if [ "$f" = "$build/generated/test_api_symbols.c" ] && [ -f "$tests_dir/test_api_symbols.c" ]; then
        continue
    fi
    tests+=("$f")
done

if [ $# -gt 0 ]; then
    selected=()
    for want in "$@"; do
        want=${want%.c}
        want=${want#test_}
        found=0
        for f in "${tests[@]}"; do
            if [ "$(basename "$f" .c)" = "test_$want" ]; then
                selected+=("$f")
                found=1
            fi
        done
        [ $found -eq 1 ] || fail "test_$want: no such test (Tests/C/test_$want.c)"
    done
    tests=("${selected[@]+"${selected[@]}"}")
fi

support=()
if [ -d "$support_dir" ]; then
    for f in "$support_dir"/*.c; do
        [ -f "$f" ] && support+=("$f")
    done
fi

warnings=(-Wall -Wextra -Werror -pedantic)
includes=(-I"$tests_dir")
[ -d "$support_dir" ] && includes+=(-I"$support_dir")
# shellcheck disable=SC2206,SC2054 # pkg-config and the flags are meant to split
link=($lk_flags -lpng -lm -Wl,-rpath,"$prefix/lib")
# Tests that draw their expected images with cairo (an independent reference
# renderer) get its flags; its headers go in as system headers, so that
# -Werror -pedantic judges the tests, not cairo.
if grep -q -E '#[[:space:]]*include[[:space:]]*[<"](cairo/)?cairo\.h' \
    "${tests[@]+"${tests[@]}"}" "${support[@]+"${support[@]}"}" "$support_dir"/*.h 2>/dev/null; then
    if cairo_flags=$(pkg-config --cflags --libs cairo 2>&1); then
        # shellcheck disable=SC2207
        link+=($(sed 's/-I/-isystem /g' <<<"$cairo_flags"))
    else
        fail "cairo: a test includes cairo.h but pkg-config cannot find cairo: $cairo_flags"
    fi
fi
# Text references are drawn with Pango directly (not through LayerKit).
if grep -q -E '#[[:space:]]*include[[:space:]]*[<"]pango/pangocairo\.h' \
    "${tests[@]+"${tests[@]}"}" "${support[@]+"${support[@]}"}" 2>/dev/null; then
    if pango_flags=$(pkg-config --cflags --libs pangocairo 2>&1); then
        # shellcheck disable=SC2207
        link+=($(sed 's/-I/-isystem /g' <<<"$pango_flags"))
    else
        fail "pangocairo: a test includes pango/pangocairo.h but pkg-config cannot find it: $pango_flags"
    fi
fi
# shellcheck disable=SC2206
opt=($cflags)

# Why a link failed, in one line: the lk_ functions it could not find, if any.
link_reason() {
    local missing
    missing=$(grep -o "undefined reference to \`lk_[A-Za-z0-9_]*'" "$1" |
        sed "s/.*\`\(.*\)'/\1/" | sort -u | tr '\n' ' ' | sed 's/ $//')
    if [ -n "$missing" ]; then
        echo "does not link: declared in layerkit.h but not in liblayerkit.so: $missing"
    elif grep -q "undefined reference" "$1"; then
        echo "does not link: $(grep -m1 -o "undefined reference to .*" "$1")"
    else
        echo "does not compile (compiler output above)"
    fi
}

run_one() { # run_one SOURCE LANG
    local src=$1 lang=$2 name bin log status start end n_pass n_fail label
    name=$(basename "$src" .c)
    label="$name.c [$lang]"
    bin="$build/$lang/$name"
    log="$build/$lang/$name.log"
    mkdir -p "$build/$lang" "$results/$lang"

    local compile
    if [ "$lang" = c99 ]; then
        compile=("$CC" -std=c99 "${warnings[@]}" "${opt[@]}" "${includes[@]}" "$src"
                 "${support[@]+"${support[@]}"}" "${link[@]}" -o "$bin")
    else
        compile=("$CXX" -std=c++17 "${warnings[@]}" "${opt[@]}" "${includes[@]}" -x c++ "$src"
                 "${support[@]+"${support[@]}"}" -x none "${link[@]}" -o "$bin")
    fi
    echo "== $label"
    rm -f "$bin"
    if ! "${compile[@]}" >"$build/$lang/$name.compile.log" 2>&1; then
        sed -n '1,40p' "$build/$lang/$name.compile.log" | sed 's/^/  | /'
        fail "$label: $(link_reason "$build/$lang/$name.compile.log")"
        return
    fi

    start=$(date +%s.%N)
    # sh waits for the test and exits with its status, so a crash is reported
    # (by sh, into the log) as a status rather than by bash as a job notice
    (
        cd "$root" &&
        env -u LAYERKIT_PLUGIN_PATH \
            LKTEST_REFERENCE_DIR="$reference_dir" \
            LKTEST_OUTPUT_DIR="$results/$lang" \
            LAYERKIT_BACKEND=software \
            SWIFT_BACKTRACE=enable=no \
            timeout -k 5 "$limit" sh -c '"$0"; exit $?' "$bin"
    ) >"$log" 2>&1 </dev/null
    status=$?
    end=$(date +%s.%N)
    sed 's/^/  /' "$log"

    n_pass=$(grep -c '^PASS ' "$log")
    n_fail=$(grep -c '^FAIL ' "$log")
    passed=$((passed + n_pass))
    failed=$((failed + n_fail))
    while IFS= read -r line; do
        failures+=("$label: ${line#FAIL }")
    done < <(grep '^FAIL ' "$log")

    if [ $status -eq 124 ] || [ $status -eq 137 ]; then
        fail "$label: timed out after ${limit} s"
    elif [ $status -gt 128 ]; then
        fail "$label: crashed (signal $((status - 128)), $(kill -l $((status - 128)) 2>/dev/null || echo '?'))"
    elif [ $status -ne 0 ] && [ "$n_fail" -eq 0 ]; then
        fail "$label: exited with status $status without a FAIL line"
    elif [ $status -eq 0 ] && [ "$n_pass" -eq 0 ] && [ "$n_fail" -eq 0 ]; then
        fail "$label: ran but printed no PASS or FAIL line"
    fi
    printf -- '-- %s: %d passed, %d failed, exit %d, %s s\n' "$label" "$n_pass" "$n_fail" \
        "$status" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
}

if [ ${#tests[@]} -eq 0 ]; then
    echo "no C tests found (Tests/C/test_*.c)"
fi
for src in "${tests[@]+"${tests[@]}"}"; do
    run_one "$src" c99
    run_one "$src" c++17
done

finish
