#!/usr/bin/env bash
# Checks an installed LayerKit as a packager would: what liblayerkit.so
# exports (only lk_*, every one declared in layerkit.h, nothing else, all under
# the version node LAYERKIT_0), its SONAME and symlinks, that it needs no
# Swift runtime library, that the software backend is installed where the core
# looks for it and exports only its entry point, and that pkg-config agrees.
#
# usage: scripts/check-library.sh PREFIX
# Prints PASS/FAIL lines and `library: N passed, N failed`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
libdir=$prefix/lib
header=$prefix/include/layerkit/layerkit.h
plugin=$libdir/layerkit/backends/liblayerkit-software.so
version_node=LAYERKIT_0
plugin_node=LAYERKIT_BACKEND_1

passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
finish() {
    echo "library: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}
# join lines with ", " (at most the first 40 names)
list() { head -40 | paste -sd, - | sed 's/,/, /g'; }

version=$(sed -n 's/.*define LK_VERSION_STRING "\(.*\)".*/\1/p' "$header")
soname_expected=liblayerkit.so.${version%%.*}

# --- files and symlinks -------------------------------------------------------
real=$libdir/liblayerkit.so.$version
if [ -f "$real" ] && [ ! -L "$real" ]; then
    pass "install: lib/liblayerkit.so.$version is a file"
else
    fail "install: lib/liblayerkit.so.$version is missing"
    finish
fi
for link in "$soname_expected:liblayerkit.so.$version" "liblayerkit.so:$soname_expected"; do
    name=${link%%:*} target=${link#*:}
    if [ -L "$libdir/$name" ] && [ "$(readlink "$libdir/$name")" = "$target" ]; then
        pass "install: lib/$name -> $target"
    else
        fail "install: lib/$name should be a symlink to $target (is: $(readlink "$libdir/$name" 2>/dev/null || echo missing))"
    fi
done
for h in layerkit.h layerkit_backend.h; do
    if cmp -s "$prefix/include/layerkit/$h" "$root/include/layerkit/$h"; then
        pass "install: include/layerkit/$h is the source tree's"
    else
        fail "install: include/layerkit/$h is missing or differs from include/layerkit/$h"
    fi
done

# --- SONAME -------------------------------------------------------------------
soname=$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = "$soname_expected" ]; then
    pass "soname: $soname"
else
    fail "soname: is '${soname:-none}', expected $soname_expected"
fi

# --- exports ------------------------------------------------------------------
declared=$(mktemp) exported=$(mktemp) versioned=$(mktemp)
trap 'rm -f "$declared" "$exported" "$versioned"' EXIT
"$here/list-api-functions.py" "$header" | sort -u >"$declared"
# nm prints name@@VERSION for versioned symbols; the version node itself shows
# up as an absolute (A) symbol of that name. Lower-case types are local symbols
# that the linker left in .dynsym: not exported (but i, u, v, w are).
exported_symbols() {
    nm -D --defined-only --with-symbol-versions "$1" |
        awk '$2 != "A" && ($2 ~ /^[A-Z]$/ || $2 ~ /^[iuvw]$/) { print $3 }'
}
exported_symbols "$real" >"$versioned"
sed 's/@.*//' "$versioned" | sort -u >"$exported"

others=$(grep -v '^lk_' "$exported" | list)
if [ -z "$others" ]; then
    pass "exports: only lk_* symbols ($(wc -l <"$exported") of them)"
else
    fail "exports: symbols other than lk_* are exported: $others"
fi
undeclared=$(grep '^lk_' "$exported" | comm -23 - "$declared" | list)
if [ -z "$undeclared" ]; then
    pass "exports: every exported lk_* symbol is declared in layerkit.h"
else
    fail "exports: exported but not declared in layerkit.h: $undeclared"
fi
missing=$(comm -13 "$exported" "$declared")
if [ -z "$missing" ]; then
    pass "exports: all $(wc -l <"$declared") functions declared in layerkit.h are exported"
else
    while read -r name; do
        fail "exports: $name is declared in layerkit.h but not exported by liblayerkit.so"
    done <<<"$missing"
fi
unversioned=$(grep -v -E "@@?${version_node}\$" "$versioned" | list)
if [ -z "$unversioned" ] && [ -s "$versioned" ]; then
    pass "exports: every symbol carries the version node $version_node"
else
    fail "exports: symbols without the version node $version_node: ${unversioned:-none exported}"
fi

# --- dependencies -------------------------------------------------------------
needed=$(readelf -d "$real" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | paste -sd' ' -)
swiftlibs=$( { echo "$needed" | tr ' ' '\n'; ldd "$real" 2>&1; } | grep -o 'lib\(swift\|Foundation\|dispatch\|BlocksRuntime\)[A-Za-z0-9_]*' | sort -u | list)
if [ -z "$swiftlibs" ]; then
    pass "deps: liblayerkit.so needs no Swift runtime library (NEEDED: $needed)"
else
    fail "deps: liblayerkit.so needs Swift libraries: $swiftlibs"
fi
notfound=$(ldd "$real" 2>&1 | grep 'not found' | list)
if [ -z "$notfound" ]; then
    pass "deps: ldd resolves every library liblayerkit.so needs"
else
    fail "deps: ldd cannot find: $notfound"
fi
if readelf -S "$real" | grep -q '\.symtab'; then
    fail "install: liblayerkit.so is not stripped"
else
    pass "install: liblayerkit.so is stripped ($(du -k "$real" | cut -f1) KiB)"
fi

# --- the software backend -----------------------------------------------------
if [ -f "$plugin" ]; then
    pass "plugin: lib/layerkit/backends/liblayerkit-software.so is installed"
    pexports=$(exported_symbols "$plugin" | paste -sd' ' -)
    if [ "$pexports" = "lk_backend_entry@@$plugin_node" ]; then
        pass "plugin: exports only lk_backend_entry@@$plugin_node"
    else
        fail "plugin: should export only lk_backend_entry@@$plugin_node, exports: ${pexports:-nothing}"
    fi
    pswift=$(ldd "$plugin" 2>&1 | grep -o 'libswift[A-Za-z0-9_]*' | sort -u | list)
    if [ -z "$pswift" ]; then
        pass "plugin: needs no Swift runtime library"
    else
        fail "plugin: needs Swift libraries: $pswift"
    fi
else
    fail "plugin: lib/layerkit/backends/liblayerkit-software.so is missing"
fi

# --- pkg-config ---------------------------------------------------------------
pc() { PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config "$@" layerkit 2>&1; }
if [ "$(pc --modversion)" = "$version" ]; then
    pass "pkg-config: layerkit $version"
else
    fail "pkg-config: --modversion says '$(pc --modversion)', the header says $version"
fi
if [ "$(pc --variable=prefix)" = "$prefix" ] && pc --libs | grep -q -- '-llayerkit' &&
    pc --cflags | grep -q -- "-I$prefix/include"; then
    pass "pkg-config: prefix, Cflags and Libs point into $prefix"
else
    fail "pkg-config: wrong prefix, Cflags or Libs: prefix=$(pc --variable=prefix) cflags=$(pc --cflags) libs=$(pc --libs)"
fi
if [ -z "$(pc --print-requires)" ]; then
    pass "pkg-config: layerkit requires no other .pc"
else
    fail "pkg-config: layerkit requires $(pc --print-requires)"
fi
# A program checked with valgrind takes the installed suppressions (README).
supp=$(pc --variable=valgrind_suppressions)
if [ "$supp" = "$prefix/share/layerkit/valgrind.supp" ] && grep -q 'Memcheck:Leak' "$supp" 2>/dev/null; then
    pass "pkg-config: valgrind_suppressions names the installed $supp"
else
    fail "pkg-config: valgrind_suppressions is '$supp', not an installed suppression file in $prefix/share/layerkit"
fi

finish
