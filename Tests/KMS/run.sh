#!/bin/sh
# KMS tests on a real kernel: boots the installed Debian kernel under qemu
# (software emulation) with the vkms driver and an initramfs holding the
# installed LayerKit, its plugins and the test programs of this folder; the
# tests run inside the VM and print PASS/FAIL lines on the serial console,
# which this script copies out, ending with `kms: N passed, N failed`.
#
# usage: Tests/KMS/run.sh PREFIX          (an installed LayerKit)
# Environment: KMS_KERNEL (default: the newest kernel with modules and
# headers), KMS_CACHE (default build/kms: the built vkms module), KMS_TIMEOUT
# (seconds for the VM, default 600), KMS_TESTS (names of the test programs
# to run, default all), KMS_VM_ENV (NAME=value words for the kernel command
# line, which hands them to the VM's init as environment: e.g.
# KMS_PROGRAM_TIMEOUT=300 for each program's time limit, KMS_CAPTURE_QUICK=1
# for two short captures instead of six), CC, CXX.
#
# The VM has Mesa (kms_swrast, llvmpipe): test_drm_gles runs the drm
# backend's GBM + EGL + GLES path, the other programs run on dumb buffers
# (test_drm_paths hides Mesa's driver to check the fallback). KMS_GLES_FULL=1
# also runs test_drm_present and test_drm_capture on the GLES path, all
# their cases at 1024x768: LLVM compiling llvmpipe's shaders on the emulated
# CPU makes that take many minutes, so it is not part of `make test`
# (docs/drm.md has its figures). KMS_GLES_TIMEOUT: seconds for
# test_drm_gles (default 300).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prefix=$(cd "$1" && pwd) || exit 2
CC=${CC:-cc}
cache=${KMS_CACHE:-$root/build/kms}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
t0=$(date +%s)

fail_setup() { echo "FAIL kms setup: $*"; echo "kms: 0 passed, 1 failed"; exit 1; }

command -v qemu-system-x86_64 >/dev/null || fail_setup "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
kernel=${KMS_KERNEL:-}
if [ -z "$kernel" ]; then
    for k in $(ls /lib/modules 2>/dev/null | sort -V); do
        [ -f "/boot/vmlinuz-$k" ] && [ -d "/lib/modules/$k/build" ] && kernel=$k
    done
fi
[ -n "$kernel" ] || fail_setup "no kernel with /boot/vmlinuz-K and /lib/modules/K/build (apt-get install linux-image-amd64 linux-headers-amd64)"
[ -r "/boot/vmlinuz-$kernel" ] || fail_setup "/boot/vmlinuz-$kernel is not readable"

vkms=$("$here/build-vkms.sh" "$cache" "$kernel" | tail -1) || fail_setup "building vkms for $kernel failed"

# on the host first: the drm backend's decisions that vkms cannot show
# (host_*.c, built with the plugin's sources they test); their counts join
# the VM's in the closing line
host_passed=0
host_failed=0
for src in "$here"/host_*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c)
    case " ${KMS_TESTS:-$name} " in *" $name "*) ;; *) continue ;; esac
    if "$CC" -std=c99 -O1 -g -Wall -Wextra -Werror -pedantic -I"$root/include" -I"$root/Plugins/DRM" \
        -I/usr/include/libdrm "$src" "$root/Plugins/DRM/drm_rotation_plan.c" -o "$cache/$name"; then
        "$cache/$name" >"$cache/$name.out" 2>&1
        cat "$cache/$name.out"
        host_passed=$((host_passed + $(grep -c '^PASS' "$cache/$name.out")))
        f=$(grep -c '^FAIL' "$cache/$name.out")
        if [ "$f" -eq 0 ] && ! grep -q '^host: [0-9]* passed, 0 failed' "$cache/$name.out"; then
            echo "FAIL $name: it ended without its closing line"; f=1
        fi
        host_failed=$((host_failed + f))
    else
        echo "FAIL $name: does not build"
        host_failed=$((host_failed + 1))
    fi
done

# the test programs, against the installed header and library
bin=$cache/bin
rm -rf "$bin"; mkdir -p "$bin"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
support="$root/Tests/C/support/lktest.c $root/Tests/C/support/lkt_pixels.c"
for src in "$here"/test_*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c)
    case " ${KMS_TESTS:-$name} " in *" $name "*) ;; *) continue ;; esac
    # shellcheck disable=SC2046
    "$CC" -std=c99 -O1 -g -Wall -Wextra -Werror -pedantic -I"$root/Tests/C/support" -I/usr/include/libdrm \
        "$src" $support $(pkg-config --cflags --libs layerkit) -lpng -ldrm -ldl -lm -o "$bin/$name" ||
        fail_setup "building $name failed"
    # also as C++17, as every C API test is (built and linked here; the VM
    # runs the C99 builds, to keep its time)
    # shellcheck disable=SC2046,SC2086
    "${CXX:-c++}" -std=c++17 -O1 -Wall -Wextra -Werror -pedantic -I"$root/Tests/C/support" -I/usr/include/libdrm \
        -x c++ "$src" $support -x none $(pkg-config --cflags --libs layerkit) -lpng -ldrm -ldl -lm \
        -o "$cache/$name-c++17" || fail_setup "building $name as C++17 failed"
    rm -f "$cache/$name-c++17"
done

# the drm benchmark prints its figures inside the VM too
case " ${KMS_TESTS:-bench_drm} " in *" bench_drm "*)
    # shellcheck disable=SC2046
    "$CC" -std=c99 -O2 -Wall -Wextra -Werror "$root"/Benchmarks/drm/*.c $(pkg-config --cflags --libs layerkit) \
        -o "$bin/bench_drm" || fail_setup "building Benchmarks/drm failed" ;;
esac

initrd=$cache/initramfs.cpio
vm_env="KMS_GLES_TIMEOUT=${KMS_GLES_TIMEOUT:-300} ${KMS_VM_ENV:-}"
vm_timeout=600
if [ "${KMS_GLES_FULL:-0}" = 1 ]; then
    vm_env="KMS_GLES_FULL=1 KMS_PROGRAM_TIMEOUT=1200 $vm_env"
    vm_timeout=3600
fi
"$here/build-initramfs.sh" "$cache/stage" "$initrd" "$kernel" "$vkms" "$prefix" "$bin" mesa ||
    fail_setup "building the initramfs failed"
t1=$(date +%s)

log=$cache/console.log
# no_timer_check: on a loaded host the emulated CPU is slow enough for the
# kernel's IO-APIC timer check to fail and panic at boot.
timeout "${KMS_TIMEOUT:-$vm_timeout}" qemu-system-x86_64 -m 1024 -smp 2 -kernel "/boot/vmlinuz-$kernel" \
    -initrd "$initrd" -append "console=ttyS0 quiet rdinit=/init panic=-1 no_timer_check $vm_env" \
    -nographic -vga none -net none -no-reboot >"$log" 2>&1
status=$?
t2=$(date +%s)
tr -d '\r' <"$log" | grep -E '^(PASS|FAIL|---|vm:|kms:|figure:|layerkit: (warning|error))'
echo "kms: prepare $((t1 - t0)) s, VM $((t2 - t1)) s (qemu status $status, console in $log)"
line=$(tr -d '\r' <"$log" | grep -E '^kms: [0-9]+ passed, [0-9]+ failed' | tail -1)
if [ -z "$line" ]; then
    # what ran before the VM stopped still counts
    tr -d '\r' <"$log" | tail -15
    echo "FAIL kms: the VM stopped before its closing line (qemu status $status)"
    p=$(tr -d '\r' <"$log" | grep -c '^PASS')
    f=$(tr -d '\r' <"$log" | grep -c '^FAIL')
    echo "kms: $((p + host_passed)) passed, $((f + 1 + host_failed)) failed"
    exit 1
fi
vm_passed=$(echo "$line" | sed 's/^kms: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/')
vm_failed=$(echo "$line" | sed 's/^kms: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/')
echo "kms: VM $vm_passed passed, $vm_failed failed; host $host_passed passed, $host_failed failed"
echo "kms: $((vm_passed + host_passed)) passed, $((vm_failed + host_failed)) failed"
[ $((vm_failed + host_failed)) -eq 0 ]
