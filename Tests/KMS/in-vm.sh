#!/bin/sh
# Runs inside the VM: every KMS test program, then the closing line
# `kms: N passed, N failed` that Tests/KMS/run.sh reads from the console.
export LD_LIBRARY_PATH=/lk/lib
export LKTEST_OUTPUT_DIR=/tmp/results
export SWIFT_BACKTRACE=enable=no
export LAYERKIT_DEBUG=1
export LKTEST_REQUIRE_DRM=1
export LKTEST_DRM_PLUGIN=/lk/lib/layerkit/backends/liblayerkit-drm.so
passed=0
failed=0
check() { # check NAME COMMAND...: one PASS/FAIL line from a shell condition
    name=$1; shift
    if "$@"; then echo "PASS $name"; passed=$((passed + 1)); else echo "FAIL $name"; failed=$((failed + 1)); fi
}
check "vm: vkms created a DRM device" test -e /dev/dri/card0
check "vm: the DRM device is vkms" sh -c 'readlink -f /sys/class/drm/card0/device | grep -q vkms'

# each program prints PASS/FAIL lines; a crash counts as a failure. The
# tests first, the benchmark (figures only) last.
for t in /tests/bin/test_* /tests/bin/bench_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    args=""
    case $name in bench_*) args=--smoke ;; esac
    start=$(cut -d' ' -f1 /proc/uptime)
    echo "--- $name $args (at $start s)"
    # a test that hangs is stopped (and fails) instead of eating the VM's time
    (timeout 90 "$t" $args 2>&1; echo "status $?" >/tmp/status) | tee /tmp/out.txt
    status=$(sed -n 's/^status //p' /tmp/status)
    p=$(grep -c '^PASS' /tmp/out.txt)
    f=$(grep -c '^FAIL' /tmp/out.txt)
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then echo "FAIL $name: exited with status $status"; f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
    echo "--- $name: $p passed, $f failed, $(cut -d' ' -f1 /proc/uptime) s"
done
echo "kms: $passed passed, $failed failed"
dmesg | grep -iE "vkms|drm|warn|bug" | grep -v "Command line" | tail -n 12
