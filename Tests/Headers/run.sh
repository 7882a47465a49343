#!/usr/bin/env bash
# Compiles the public headers as every language a user may write in, with
# warnings as errors: both headers together (Tests/Headers/both.c) and each
# header alone as the first include of a file (so it carries its own
# includes). Also checks that layerkit.h includes only standard headers.
#
# usage: Tests/Headers/run.sh [PREFIX]
#   with PREFIX: the installed headers in PREFIX/include; without: include/.
# Prints PASS/FAIL lines and `headers: N passed, N failed`.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -ge 1 ]; then
    incdir=$(cd "$1" && pwd)/include
else
    incdir=$root/include
fi
CC=${CC:-cc}
CXX=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

warn=(-Wall -Wextra -Werror -pedantic)
# beyond the brief's set: old-style declarations, #if on undefined macros,
# shadowing and duplicate declarations are header bugs too
strict_c=(-Wstrict-prototypes -Wmissing-prototypes -Wundef -Wshadow -Wredundant-decls)

for h in layerkit.h layerkit_backend.h; do
    printf '#include <layerkit/%s>\nint layerkit_header_alone(void);\nint layerkit_header_alone(void) { return 0; }\n' \
        "$h" >"$work/alone_${h%.h}.c"
done

compile() { # compile NAME COMPILER LANGFLAGS... -- SOURCE
    local name=$1; shift
    local args=()
    while [ "$1" != "--" ]; do args+=("$1"); shift; done
    shift
    local src=$1
    if out=$("${args[@]}" "${warn[@]}" -I"$incdir" -c "$src" -o "$work/out.o" 2>&1); then
        pass "$name"
    else
        fail "$name: does not compile"
        printf '%s\n' "$out" | sed -n '1,30p' | sed 's/^/  | /'
    fi
}

sources=("$root/Tests/Headers/both.c" "$work/alone_layerkit.c" "$work/alone_layerkit_backend.c")
label() { case "$(basename "$1")" in both.c) echo both;; alone_layerkit.c) echo layerkit.h-alone;; *) echo layerkit_backend.h-alone;; esac; }

for src in "${sources[@]}"; do
    l=$(label "$src")
    for std in c99 c11 c17; do
        compile "headers $l $std ($CC)" "$CC" -std=$std -x c -- "$src"
    done
    compile "headers $l c99 strict ($CC)" "$CC" -std=c99 "${strict_c[@]}" -x c -- "$src"
    for std in c++11 c++17 c++20; do
        compile "headers $l $std ($CXX)" "$CXX" -std=$std -x c++ -Wundef -Wshadow -Wredundant-decls -- "$src"
    done
done

# A second compiler catches what one lets through; the Swift toolchain ships clang.
clang=$(command -v clang 2>/dev/null || true)
if [ -n "$clang" ]; then
    compile "headers both c99 (clang)" "$clang" -std=c99 "${strict_c[@]}" -x c -- "${sources[0]}"
    compile "headers both c++17 (clang)" "$clang" -std=c++17 -x c++ -- "${sources[0]}"
else
    echo "note: no clang on PATH, headers checked with $CC and $CXX only"
fi

# C-API.md: the umbrella header includes only standard headers.
others=$(grep -h '^[[:space:]]*#[[:space:]]*include' "$incdir/layerkit/layerkit.h" |
    grep -v -E '<(stdint|stddef|stdbool)\.h>|<layerkit/' || true)
if [ -z "$others" ]; then
    pass "headers layerkit.h includes only stdint.h, stddef.h, stdbool.h (and its own sub-headers)"
else
    fail "headers layerkit.h includes non-standard headers: $(echo "$others" | tr '\n' ' ')"
fi

echo "headers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
