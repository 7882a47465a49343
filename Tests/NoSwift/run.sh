#!/usr/bin/env bash
# Proves the installed liblayerkit.so runs on a machine with no Swift toolchain.
#
# usage: Tests/NoSwift/run.sh PREFIX
#
# Builds Tests/NoSwift/noswift.c against PREFIX with pkg-config, then runs it
# in a private mount namespace where an empty folder is bind-mounted over the
# toolchain's usr/ (so no libswift*.so can be found) and with a clean
# environment (env -i: no LD_LIBRARY_PATH, no LAYERKIT_PLUGIN_PATH). Then again
# with the installed lib/ copied to another folder and the original hidden:
# the library must find its backend beside itself wherever the tree is moved.
# If mount namespaces are not permitted here, it says so and falls back to a
# weaker check: ldd names no libswift. Prints PASS/FAIL lines and
# `noswift: N passed, N failed`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
CC=${CC:-cc}
build=$root/build/noswift
mkdir -p "$build"

passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
finish() {
    echo "noswift: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}
count_output() { # count the program's own PASS/FAIL lines (file)
    sed 's/^/  /' "$1"
    passed=$((passed + $(grep -c '^PASS ' "$1")))
    failed=$((failed + $(grep -c '^FAIL ' "$1")))
}

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
if ! "$CC" -std=c99 -Wall -Wextra -Werror -pedantic "$here/noswift.c" \
    $(pkg-config --cflags --libs layerkit) -Wl,-rpath,"$prefix/lib" -o "$build/noswift" 2>"$build/compile.log"; then
    sed 's/^/  | /' "$build/compile.log"
    fail "noswift: the test program does not build against $prefix"
    finish
fi
lib=$(readlink -f "$prefix/lib/liblayerkit.so")

swift=$(command -v swift 2>/dev/null || true)
[ -n "$swift" ] || [ ! -x /opt/swift/usr/bin/swift ] || swift=/opt/swift/usr/bin/swift
if [ -z "$swift" ]; then
    echo "method: no Swift toolchain on this machine: the program runs as it is"
    env -i PATH=/usr/bin:/bin sh -c '"$0"; exit $?' "$build/noswift" >"$build/run.log" 2>&1
    status=$?
    count_output "$build/run.log"
    [ $status -eq 0 ] || [ "$(grep -c '^FAIL ' "$build/run.log")" -gt 0 ] ||
        fail "noswift: the program exited with status $status"
    finish
fi

# the toolchain's usr/ (…/usr/bin/swift -> …/usr)
toolchain=$(dirname "$(dirname "$(readlink -f "$swift")")")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/empty" "$scratch/empty2"

# Inside the namespace: hide the toolchain (and, for the relocation run, the
# original lib/ folder), show that they are hidden, then run the program.
# $1 empty folder, $2 toolchain usr/, $3 library, $4 program,
# $5 empty folder, $6 folder to hide too ("" for none), $7 LD_LIBRARY_PATH
inner='mount --bind "$1" "$2" || exit 90
if [ -n "$(ls -A "$2")" ] || [ -e "$2/bin/swift" ]; then echo "toolchain still visible at $2"; exit 91; fi
if [ -n "$6" ]; then
    mount --bind "$5" "$6" || exit 90
    if [ -n "$(ls -A "$6")" ]; then echo "$6 still visible"; exit 91; fi
fi
if env LD_LIBRARY_PATH="$7" ldd "$3" | grep -q "libswift"; then echo "ldd still finds libswift:"; ldd "$3"; exit 92; fi
env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$7" "$4"
exit $?'

method=""
for how in "unshare -m" "unshare -m -r"; do
    # shellcheck disable=SC2086
    if $how true 2>/dev/null; then
        method=$how
        break
    fi
done

# hidden_run LABEL LIBRARY HIDE LD_LIBRARY_PATH: runs the program in the namespace
hidden_run() {
    local label=$1 library=$2 hide=$3 libpath=$4 status log=$build/run-$1.log
    # shellcheck disable=SC2086
    $method sh -c "$inner" sh "$scratch/empty" "$toolchain" "$library" "$build/noswift" \
        "$scratch/empty2" "$hide" "$libpath" >"$log" 2>&1
    status=$?
    case $status in
        90) sed 's/^/  /' "$log"; fail "$label: could not bind-mount an empty folder" ;;
        91|92) sed 's/^/  /' "$log"; fail "$label: hiding the toolchain or the original prefix did not work" ;;
        *)
            sed -i "s/^\(PASS\|FAIL\) noswift /\1 $label /" "$log"
            count_output "$log"
            if [ $status -gt 128 ]; then
                fail "$label: the program crashed (signal $((status - 128)))"
            elif [ $status -ne 0 ] && [ "$(grep -c '^FAIL ' "$log")" -eq 0 ]; then
                fail "$label: the program exited with status $status"
            fi
            ;;
    esac
}

if [ -n "$method" ]; then
    echo "method: $method, an empty folder bind-mounted over $toolchain, env -i"
    pass "noswift: the Swift toolchain ($toolchain) is hidden in the test's mount namespace"
    hidden_run noswift "$lib" "" ""

    # Relocated: the installed lib/ copied elsewhere and the original hidden;
    # the library must find its backend beside its new self.
    moved=$scratch/moved/prefix/lib
    mkdir -p "$moved"
    cp -a "$prefix/lib/." "$moved/"
    echo "relocated: $prefix/lib copied to $moved, the original hidden, LD_LIBRARY_PATH=$moved"
    hidden_run relocated "$moved/liblayerkit.so" "$prefix/lib" "$moved"
else
    echo "method: mount namespaces are not permitted here (unshare -m failed);" \
         "checked only that ldd of the installed library names no libswift," \
         "and did not check relocation"
    if ldd "$lib" | grep -q libswift; then
        fail "noswift: ldd $lib names libswift: $(ldd "$lib" | grep libswift | tr -s ' \n' ' ')"
    else
        pass "noswift: ldd $lib names no libswift (weaker check: toolchain not hidden)"
    fi
fi
finish
