#!/bin/sh
# Builds the vkms module (virtual KMS) for the installed Debian kernel, out of
# tree, from the linux-source package: Debian's kernel does not ship vkms.
# The module is cached: a second run with the same kernel does nothing.
#
# usage: Tests/KMS/build-vkms.sh CACHE_DIR KERNEL_VERSION
#   prints the path of vkms.ko on its last line
set -eu
mkdir -p "$1"
cache=$(cd "$1" && pwd) kernel=$2
out=$cache/vkms-$kernel
if [ -f "$out/vkms.ko" ]; then
    echo "$out/vkms.ko"
    exit 0
fi
source_tar=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -1)
[ -n "$source_tar" ] || { echo "build-vkms: no /usr/src/linux-source-*.tar.xz (apt-get install linux-source-6.1)" >&2; exit 1; }
[ -d "/lib/modules/$kernel/build" ] || { echo "build-vkms: no /lib/modules/$kernel/build (apt-get install linux-headers-amd64)" >&2; exit 1; }
top=$(basename "$source_tar" .tar.xz)
rm -rf "$out.tmp"
mkdir -p "$out.tmp/src"
tar -xJf "$source_tar" -C "$out.tmp/src" --wildcards "$top/drivers/gpu/drm/vkms/*"
mkdir -p "$out.tmp/build"
cp "$out.tmp/src/$top/drivers/gpu/drm/vkms/"* "$out.tmp/build/"
make -s -C "/lib/modules/$kernel/build" M="$out.tmp/build" CONFIG_DRM_VKMS=m modules >&2
strip --strip-debug -o "$out.tmp/vkms.ko" "$out.tmp/build/vkms.ko"
rm -rf "$out"
mkdir -p "$out"
mv "$out.tmp/vkms.ko" "$out/vkms.ko"
rm -rf "$out.tmp"
echo "$out/vkms.ko"
