#!/usr/bin/env bash
# Runs every test against an installed LayerKit and prints one closing line,
# `N passed, N failed`, that sums every C-level check. `make test` calls it
# after installing into build/test-prefix.
#
# usage: scripts/run-tests.sh PREFIX
#
# Stages, each printing its own PASS/FAIL lines and a `stage: N passed, N
# failed` line:
#   swift test      Core's unit tests (debug build in $SWIFT_TEST_SCRATCH);
#                   its own result lines are printed; if it fails, that counts
#                   as one failure here so the closing line never hides it
#   library         exports, SONAME, version node, no libswift (scripts/check-library.sh)
#   headers         the public headers as C99/C11/C++17 (Tests/Headers/run.sh)
#   c-tests         Tests/C/test_*.c and the symbol test (Tests/run-c-tests.sh)
#   software        the software backend's own tests (Tests/Software/run.sh), if present
#   gles            the same tests on the gles backend (llvmpipe, LIBGL_ALWAYS_SOFTWARE=1),
#                   then its own (Tests/GLES/run.sh: groups, failure paths, the renderer)
#   cross-backend   the C rendering tests and the random call sequences on gles, and
#                   software and gles frames of the reference-image tests compared
#                   pixel by pixel (Tests/GLES/cross-backend.sh)
#   gles-leaks      the gles plugin under valgrind: a small scene through every renderer
#                   path, Mesa's own allocations suppressed (Tests/GLES/memcheck.sh)
#   noswift         the library runs with the toolchain hidden (Tests/NoSwift/run.sh)
#   examples        README's example = Examples/hello.c; the examples build and run
#   leaks           the C tests again under valgrind: no leak, no invalid access
#   plugins         S8.2: broken plugins are reported by name, path and reason; auto falls back
#   tsan            the threaded Swift test under ThreadSanitizer
#   kms             the drm backend on a real kernel: a VM (qemu, no KVM) on vkms
#                   (Tests/KMS/run.sh); SKIPPED, saying why, without qemu or a kernel
#   bench-smoke     every program in Benchmarks/ builds and runs briefly (--smoke)
#
# Environment: SWIFT (default swift), SWIFT_TEST_SCRATCH (default .build-test),
# LK_SKIP_SWIFT_TEST=1 skips swift test, LK_STAGES="headers c-tests" runs only those.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
cd "$root" || exit 2

SWIFT=${SWIFT:-swift}
swift_scratch=${SWIFT_TEST_SCRATCH:-.build-test}
logs=$root/build/test-logs
mkdir -p "$logs"

total_pass=0
total_fail=0
summary=()

wanted() { [ -z "${LK_STAGES:-}" ] || [[ " $LK_STAGES " == *" $1 "* ]]; }

# run_stage NAME COMMAND...: runs it, shows its output, adds its counts.
run_stage() {
    local name=$1 start end status line p f secs
    shift
    wanted "$name" || return 0
    echo
    echo "=== $name: $*"
    start=$(date +%s)
    "$@" 2>&1 | tee "$logs/$name.log"
    status=${PIPESTATUS[0]}
    end=$(date +%s)
    secs=$((end - start))
    # the stage's closing line: `[words: ]N passed, N failed[ ...]`
    line=$(grep -E '^([A-Za-z][^:]*: )?[0-9]+ passed, [0-9]+ failed' "$logs/$name.log" | tail -1)
    if [ -n "$line" ]; then
        p=$(sed -E 's/^([A-Za-z][^:]*: )?([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
        f=$(sed -E 's/^([A-Za-z][^:]*: )?([0-9]+) passed, ([0-9]+) failed.*/\3/' <<<"$line")
    else
        p=$(grep -c '^PASS ' "$logs/$name.log")
        f=$(grep -c '^FAIL ' "$logs/$name.log")
    fi
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exited with status $status without reporting a failure"
        f=1
    fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    summary+=("$(printf '%-10s %4d passed, %3d failed  (%ds)' "$name" "$p" "$f" "$secs")")
}

# --- swift test ---------------------------------------------------------------
if wanted swift-test; then
    echo "=== swift test --scratch-path $swift_scratch"
    if [ "${LK_SKIP_SWIFT_TEST:-0}" = 1 ]; then
        echo "skipped (LK_SKIP_SWIFT_TEST=1)"
        summary+=("swift test skipped")
    elif [ -z "$(find Tests/CoreTests -name '*.swift' 2>/dev/null | head -1)" ]; then
        echo "skipped: Tests/CoreTests has no Swift tests yet"
        summary+=("swift test skipped: no tests in Tests/CoreTests")
    else
        start=$(date +%s)
        # SwiftPM would compile C with $CC (meant for the C tests): give it its clang.
        # The threading test draws through the software backend: build it too.
        env -u CC -u CXX "$SWIFT" build --scratch-path "$swift_scratch" --product layerkit-software >/dev/null 2>&1
        plugin_dir=$(env -u CC -u CXX "$SWIFT" build --scratch-path "$swift_scratch" --show-bin-path 2>/dev/null)
        env -u CC -u CXX LKTEST_SWIFT_PLUGIN_DIR="$plugin_dir" "$SWIFT" test --scratch-path "$swift_scratch" 2>&1 |
            tee "$logs/swift-test.log"
        status=${PIPESTATUS[0]}
        secs=$(($(date +%s) - start))
        results=$(grep -E "^(Executed [0-9]+ tests?, with|.*Test run with [0-9]+ tests?)" "$logs/swift-test.log" |
            sed -E 's/^[^A-Za-z]*//' | tail -3 | paste -sd';' -)
        if [ "$status" -eq 0 ]; then
            summary+=("swift test passed  (${secs}s): ${results:-no result line}")
        else
            echo "FAIL swift-test: swift test exited with status $status"
            total_fail=$((total_fail + 1))
            summary+=("swift test FAILED, status $status  (${secs}s): ${results:-no result line}")
        fi
    fi
fi

# --- C-level stages -----------------------------------------------------------
run_stage library scripts/check-library.sh "$prefix"
run_stage headers Tests/Headers/run.sh "$prefix"
run_stage c-tests Tests/run-c-tests.sh "$prefix"
run_stage leaks Tests/Leaks/run.sh
if [ -f Tests/Software/run.sh ]; then
    # the installed plugin and headers, not the build tree's
    run_stage software env LKTEST_PLUGIN="$prefix/lib/layerkit/backends/liblayerkit-software.so" \
        sh Tests/Software/run.sh "$prefix/include"
elif wanted software; then
    summary+=("software   skipped: no Tests/Software/run.sh yet")
fi
# The GPU path, on Mesa's llvmpipe: the software backend's tests run
# unchanged against the gles plugin (only the names differ), then its own.
run_stage gles Tests/GLES/run.sh "$prefix"
run_stage cross-backend Tests/GLES/cross-backend.sh "$prefix"
run_stage gles-leaks Tests/GLES/memcheck.sh "$prefix"
run_stage plugins Tests/Plugins/run.sh "$prefix"
run_stage noswift Tests/NoSwift/run.sh "$prefix"
run_stage examples scripts/check-examples.sh "$prefix"
# Issue 3 part 8: the threaded test under ThreadSanitizer (a report fails it).
if wanted tsan; then
    echo "=== tsan: swift test --sanitize=thread --filter ThreadingTests"
    start=$(date +%s)
    tsan_scratch=${TSAN_SCRATCH:-.build-tsan}
    env -u CC -u CXX "$SWIFT" build --scratch-path "$tsan_scratch" --sanitize=thread --product layerkit-software \
        >"$logs/tsan.log" 2>&1
    env -u CC -u CXX TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
        LKTEST_SWIFT_PLUGIN_DIR="$(env -u CC -u CXX "$SWIFT" build --scratch-path "$tsan_scratch" --show-bin-path)" \
        "$SWIFT" test --scratch-path "$tsan_scratch" --sanitize=thread --filter ThreadingTests >>"$logs/tsan.log" 2>&1
    status=$?
    secs=$(($(date +%s) - start))
    if [ $status -eq 0 ] && ! grep -q "ThreadSanitizer" "$logs/tsan.log"; then
        echo "PASS tsan: threaded changes while the render thread draws, no report"
        total_pass=$((total_pass + 1))
        summary+=("tsan           1 passed,   0 failed  (${secs}s)")
    else
        grep -m5 -A5 "ThreadSanitizer\|error:" "$logs/tsan.log"
        echo "FAIL tsan: status $status (see $logs/tsan.log)"
        total_fail=$((total_fail + 1))
        summary+=("tsan           0 passed,   1 failed  (${secs}s)")
    fi
fi
# KMS for real where this machine can boot a kernel under qemu.
if wanted kms; then
    kms_missing=""
    command -v qemu-system-x86_64 >/dev/null 2>&1 || kms_missing=" qemu-system-x86_64,"
    ls /boot/vmlinuz-* >/dev/null 2>&1 || kms_missing="$kms_missing a kernel in /boot,"
    ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 || kms_missing="$kms_missing linux-source,"
    kms_missing=${kms_missing%,}
    if [ -z "$kms_missing" ]; then
        run_stage kms Tests/KMS/run.sh "$prefix"
    else
        echo
        echo "=== kms: SKIPPED: no$kms_missing (make deps-kms installs them)"
        summary+=("kms        SKIPPED: no$kms_missing")
    fi
fi
# Benchmarks are not timed tests: here they only run in smoke mode, to prove
# they build and work.
run_stage bench-smoke scripts/bench.sh "$prefix" --smoke

echo
echo "=== summary (logs in build/test-logs)"
printf '  %s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
