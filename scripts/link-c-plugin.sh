#!/usr/bin/env bash
# Relinks a backend plugin written in C from the objects SwiftPM compiled, with
# the C compiler instead of swiftc.
#
# usage: scripts/link-c-plugin.sh SWIFTPM_SO OBJECT_LIST VERSION_SCRIPT OUTPUT_SO
#   OBJECT_LIST: SwiftPM's <product>.product/Objects.LinkFileList (one object a line)
#
# Why: SwiftPM links every dynamic library with swiftc, which adds swiftrt.o;
# with -static-stdlib that drags about 6 MB of the Swift runtime into a plugin
# that uses none of it, and without it the plugin needs libswiftCore.so from
# the toolchain. Linked with cc, the same objects make a plugin of a few dozen
# KiB that needs only its C libraries. The libraries are the ones SwiftPM's
# link named (its DT_NEEDED), less those the Swift runtime brought; -z defs
# makes a missing one an error here rather than at dlopen.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 SWIFTPM_SO OBJECT_LIST VERSION_SCRIPT OUTPUT_SO" >&2; exit 2; }
swiftpm_so=$1 list=$2 map=$3 out=$4
CC=${CC:-cc}

objects=()
while read -r object; do
    object=${object#\"}
    object=${object%\"}
    [ -n "$object" ] && objects+=("$object")
done <"$list"
if [ ${#objects[@]} -eq 0 ]; then
    echo "link-c-plugin: no objects listed in $list" >&2
    exit 1
fi
for object in "${objects[@]}"; do
    case "$object" in
        *.c.o) ;;
        *) echo "link-c-plugin: $object is not a C object; the plugin needs SwiftPM's own link" >&2; exit 1 ;;
    esac
done
libs=()
while read -r needed; do
    case "$needed" in
        libc.so.*|ld-linux*|libswift*|libdispatch*|libBlocksRuntime*|libFoundation*|libstdc++*|libgcc_s*|libdl.*|libpthread.*) ;;
        lib*.so*) n=${needed#lib}; libs+=("-l${n%%.so*}") ;;
    esac
done < <(readelf -d "$swiftpm_so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')

mkdir -p "$(dirname "$out")"
"$CC" -shared -o "$out" "${objects[@]}" "${libs[@]+"${libs[@]}"}" -lm \
    -Wl,--version-script="$map" -Wl,-z,defs -Wl,--as-needed -Wl,--gc-sections
