#!/usr/bin/env bash
# Prints the -l flags for the shared libraries a built .so needs (its DT_NEEDED
# entries, less libc and the dynamic loader): the Libs.private of layerkit.pc.
# usage: scripts/libs-private.sh LIBRARY.so
set -euo pipefail
readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | while read -r needed; do
    case "$needed" in
        libc.so.*|ld-linux*|ld64.so*) ;;
        lib*.so*) name=${needed#lib}; printf -- '-l%s ' "${name%%.so*}" ;;
    esac
done | sed 's/ $//'
