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
# On the emulated CPU LLVM compiling llvmpipe's shader variants is what
# costs most (then a frame of a small moving layer takes tens of
# milliseconds, a whole 640x480 frame still seconds): its optimization
# passes are skipped (GALLIVM_PERF=nopt: a cold first flip in about 24 s
# instead of 65 s at 640x480, measured), and the few vertices a frame has
# are run by the draw module's interpreter instead of compiled
# (DRAW_USE_LLVM=0). The code compiled for each variant goes to the shader
# cache (on the tmpfs), which later displays of the boot reuse.
export GALLIVM_PERF=nopt DRAW_USE_LLVM=0
export MESA_SHADER_CACHE_DIR=/tmp/mesa-shader-cache

# run PROGRAM PATH [ARGS]: one program, its PASS/FAIL lines labelled with the
# render path it was given (LAYERKIT_DRM_PATH; "default": the backend's
# choice); a crash counts as a failure.
run() {
    t=$1 path=$2; shift 2
    name=$(basename "$t")
    limit=${KMS_PROGRAM_TIMEOUT:-90}
    case $name in test_drm_gles) limit=${KMS_GLES_TIMEOUT:-$limit} ;; esac
    start=$(cut -d' ' -f1 /proc/uptime)
    echo "--- $name [$path] $* (at $start s)"
    # a test that hangs is stopped (and fails) instead of eating the VM's time
    # its lines go to the console as they come (a slow program shows where it is)
    if [ "$path" = default ]; then
        (timeout "$limit" "$t" "$@" 2>&1; echo "status $?" >/tmp/status) | tee /tmp/out.txt |
            sed "s/^\(PASS\|FAIL\) /\1 [$path] /"
    else
        (LAYERKIT_DRM_PATH=$path timeout "$limit" "$t" "$@" 2>&1; echo "status $?" >/tmp/status) |
            tee /tmp/out.txt | sed "s/^\(PASS\|FAIL\) /\1 [$path] /"
    fi
    status=$(sed -n 's/^status //p' /tmp/status)
    p=$(grep -c '^PASS' /tmp/out.txt)
    f=$(grep -c '^FAIL' /tmp/out.txt)
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then echo "FAIL $name [$path]: exited with status $status"; f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
    echo "--- $name [$path]: $p passed, $f failed, $(cut -d' ' -f1 /proc/uptime) s"
}

check "vm: Mesa's kms_swrast is here" test -f "$LIBGL_DRIVERS_PATH/kms_swrast_dri.so"
# The GBM + EGL + GLES path, which the backend takes first where Mesa is, in
# one program (test_drm_gles: its shaders are compiled once); the choice of
# path when GLES cannot start (test_drm_paths); every other program on dumb
# buffers; the benchmark (figures only) last. (Those KMS_TESTS chose.)
[ -x /tests/bin/test_drm_gles ] && run /tests/bin/test_drm_gles default
[ -x /tests/bin/test_drm_paths ] && run /tests/bin/test_drm_paths default
for t in /tests/bin/test_*; do
    case $t in */test_drm_gles | */test_drm_paths) continue ;; esac
    [ -x "$t" ] && run "$t" dumb
done
[ -x /tests/bin/bench_drm ] && run /tests/bin/bench_drm dumb --smoke
if [ "${KMS_GLES_FULL:-0}" = 1 ]; then
    # the long run (KMS_GLES_FULL=1, not in make test): the present and
    # capture programs, all their cases at 1024x768, on the GLES path too
    [ -x /tests/bin/test_drm_present ] && run /tests/bin/test_drm_present gles
    [ -x /tests/bin/test_drm_capture ] && run /tests/bin/test_drm_capture gles
fi
echo "kms: $passed passed, $failed failed"
dmesg | grep -iE "vkms|drm|warn|bug" | grep -v "Command line" | tail -n 12
