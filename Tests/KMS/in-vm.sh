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

# Mesa (kms_swrast through GBM) for the GLES path: its DRI driver is where
# build-initramfs.sh put it
export LIBGL_DRIVERS_PATH=/usr/lib/x86_64-linux-gnu/dri
# llvmpipe keeps the code LLVM compiled for each shader variant in the
# shader cache: on the emulated CPU compiling is what costs, so every
# display after the first one reuses it (on the tmpfs)
export MESA_SHADER_CACHE_DIR=/tmp/mesa-shader-cache

# run PROGRAM PATH [ARGS]: one program, its PASS/FAIL lines labelled with the
# render path it was given (LAYERKIT_DRM_PATH; "default": the backend's
# choice); a crash counts as a failure.
run() {
    t=$1 path=$2; shift 2
    name=$(basename "$t")
    start=$(cut -d' ' -f1 /proc/uptime)
    echo "--- $name [$path] $* (at $start s)"
    # a test that hangs is stopped (and fails) instead of eating the VM's time
    if [ "$path" = default ]; then
        (timeout "${KMS_PROGRAM_TIMEOUT:-90}" "$t" "$@" 2>&1; echo "status $?" >/tmp/status) >/tmp/out.txt
    else
        (LAYERKIT_DRM_PATH=$path timeout "${KMS_PROGRAM_TIMEOUT:-90}" "$t" "$@" 2>&1; echo "status $?" >/tmp/status) >/tmp/out.txt
    fi
    sed "s/^\(PASS\|FAIL\) /\1 [$path] /" /tmp/out.txt
    status=$(sed -n 's/^status //p' /tmp/status)
    p=$(grep -c '^PASS' /tmp/out.txt)
    f=$(grep -c '^FAIL' /tmp/out.txt)
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then echo "FAIL $name [$path]: exited with status $status"; f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
    echo "--- $name [$path]: $p passed, $f failed, $(cut -d' ' -f1 /proc/uptime) s"
}

if [ "${KMS_GLES:-0}" = 1 ]; then
    # Mesa is here (KMS_GLES=1): the GBM + EGL + GLES path, which the
    # backend takes first, on its own (llvmpipe on the emulated CPU is slow:
    # the programs are given 20 minutes each)
    check "vm: Mesa's kms_swrast is here" test -f "$LIBGL_DRIVERS_PATH/kms_swrast_dri.so"
    # (those KMS_TESTS chose)
    [ -x /tests/bin/test_drm_paths ] && run /tests/bin/test_drm_paths default
    [ -x /tests/bin/test_drm_present ] && run /tests/bin/test_drm_present gles
    [ -x /tests/bin/test_drm_capture ] && run /tests/bin/test_drm_capture gles
else
    # No Mesa: the GLES path cannot start (test_drm_paths checks that this is
    # reported), every program runs on dumb buffers. The benchmark (figures
    # only) last.
    for t in /tests/bin/test_*; do
        [ -x "$t" ] && run "$t" default
    done
    [ -x /tests/bin/bench_drm ] && run /tests/bin/bench_drm default --smoke
fi
echo "kms: $passed passed, $failed failed"
dmesg | grep -iE "vkms|drm|warn|bug" | grep -v "Command line" | tail -n 12
