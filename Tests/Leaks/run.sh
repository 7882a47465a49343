#!/bin/sh
# No leak and no invalid access from any call sequence: runs the C behaviour
# tests (as built by Tests/run-c-tests.sh into build/c-tests/c99) under
# valgrind's memcheck. A definite or indirect leak, or any memory error,
# fails the test; the program's own checks are judged by the c-tests stage
# (under valgrind, timing checks such as the render thread's frame count
# cannot hold).
# usage: Tests/Leaks/run.sh [TEST...]     (default: every built test)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/build/c-tests/c99"
# the suppressions a user's program would take (share/layerkit/valgrind.supp,
# installed; scripts/check-library.sh checks the install names it)
supp="$root/share/layerkit/valgrind.supp"
logs="$root/build/test-logs/leaks"
mkdir -p "$logs"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "FAIL leaks: valgrind is not installed (make deps installs it)"
    echo "leaks: 0 passed, 1 failed"; exit 1
fi
if [ $# -gt 0 ]; then tests="$*"; else tests=$(cd "$bin" 2>/dev/null && ls test_* | grep -v '\.log$'); fi
[ -n "$tests" ] || { echo "FAIL leaks: no tests built in $bin"; echo "leaks: 0 passed, 1 failed"; exit 1; }
passed=0; failed=0
for t in $tests; do
    log="$logs/$t.log"
    LKTEST_REFERENCE_DIR="$root/Tests/C/reference" LKTEST_OUTPUT_DIR="$root/out/test-results/leaks" \
    LAYERKIT_BACKEND=software timeout 600 valgrind --quiet --leak-check=full --suppressions="$supp" \
        --errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$bin/$t" >"$log" 2>&1
    status=$?
    if [ $status -ne 99 ] && [ $status -lt 128 ]; then
        echo "PASS leaks: $t"; passed=$((passed + 1))
    else
        reason="exit $status"
        [ $status -eq 99 ] && reason=$(grep -m1 -E "definitely lost|indirectly lost|Invalid|uninitialised" "$log")
        echo "FAIL leaks: $t: $reason (see $log)"; failed=$((failed + 1))
    fi
done
echo "leaks: $passed passed, $failed failed"
[ $failed -eq 0 ]
