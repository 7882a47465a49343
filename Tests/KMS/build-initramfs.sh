#!/bin/sh
# The KMS test VM's initramfs: busybox, the DRM modules of the kernel and
# vkms, the installed LayerKit under /lk, the test programs under /tests/bin,
# with `mesa`, Mesa for the drm backend's GBM + EGL + GLES path (libEGL_mesa,
# named by glvnd's vendor file, and the kms_swrast DRI driver: both are
# dlopen'ed, so ldd of the plugin does not find them), and every shared
# library they all need (found with ldd).
#
# usage: Tests/KMS/build-initramfs.sh STAGE OUTPUT KERNEL VKMS_KO PREFIX TEST_BIN [mesa]
#   mesa: with Mesa (without it the drm backend's GLES path cannot start)
set -eu
stage=$1 output=$2 kernel=$3 vkms=$4 prefix=$5 tests=$6 with_mesa=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/sbin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" \
    "$stage/lib/modules" "$stage/lk/lib/layerkit/backends" "$stage/tests/bin"
cp /bin/busybox "$stage/bin/busybox"
for applet in $("$stage/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$stage/bin/$applet"
done
for m in drm drm_kms_helper drm_shmem_helper; do
    file=$(modinfo -k "$kernel" -F filename "$m")
    case $file in
        *.ko) cp "$file" "$stage/lib/modules/$m.ko" ;;
        *.ko.xz) xz -dc "$file" >"$stage/lib/modules/$m.ko" ;;
        *) echo "build-initramfs: module $m of $kernel not found" >&2; exit 1 ;;
    esac
done
cp "$vkms" "$stage/lib/modules/vkms.ko"
cp -P "$prefix"/lib/liblayerkit.so* "$stage/lk/lib/"
cp "$prefix"/lib/layerkit/backends/*.so "$stage/lk/lib/layerkit/backends/"
for t in "$tests"/*; do [ -f "$t" ] && cp "$t" "$stage/tests/bin/"; done
cp "$here/init" "$stage/init"
cp "$here/in-vm.sh" "$stage/tests/in-vm.sh"
multiarch=/usr/lib/x86_64-linux-gnu
mesa=""
[ "$with_mesa" = mesa ] && mesa="$multiarch/libEGL_mesa.so.0 $multiarch/dri/kms_swrast_dri.so"
for f in $mesa; do
    [ -f "$f" ] || { echo "build-initramfs: $f is missing (apt-get install libegl-mesa0 libgl1-mesa-dri)" >&2; exit 1; }
    mkdir -p "$stage$(dirname "$f")"
    cp -L "$f" "$stage$f"
done
if [ -n "$mesa" ]; then
    mkdir -p "$stage/usr/share/glvnd/egl_vendor.d"
    cp /usr/share/glvnd/egl_vendor.d/50_mesa.json "$stage/usr/share/glvnd/egl_vendor.d/"
fi
for f in "$stage"/lk/lib/liblayerkit.so.*.* "$stage"/lk/lib/layerkit/backends/*.so "$stage"/tests/bin/* $mesa; do
    [ -f "$f" ] || continue
    LD_LIBRARY_PATH="$prefix/lib" ldd "$f" | awk '/=> \// {print $3} /^\t\/lib64/ {print $1}'
done | sort -u | grep -v "^$prefix" | while read -r lib; do
    mkdir -p "$stage$(dirname "$lib")"
    cp -L "$lib" "$stage$lib"
done
# the dynamic loader is found as /lib64/ld-linux-x86-64.so.2
# Not compressed: with Mesa (LLVM) the archive is about 230 MB, and
# gzip here and unpacking it on the emulated CPU cost more than loading it
(cd "$stage" && find . | cpio -o -H newc --quiet) >"$output"
