#!/bin/sh
# S8.2 plugin failures: builds broken plugins into a temporary folder, puts it
# first on LAYERKIT_PLUGIN_PATH and checks what lk_display_open reports.
# usage: Tests/Plugins/run.sh PREFIX       (an installed LayerKit)
set -u
prefix=$1
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
build() { # build NAME FLAGS
    if ! "$CC" -std=c99 -shared -fPIC -Wall -Wextra -Werror -I"$prefix/include" $2 \
        "$here/bad_plugin.c" -o "$dir/liblayerkit-$1.so"; then
        echo "FAIL build plugin $1"; fail=1
    fi
}
build wrongabi -DWRONG_ABI
build refuse -DREFUSE
build nullentry -DNULL_ENTRY
build failopen -DFAIL_OPEN
build noentry -DNO_ENTRY
build useshost -DUSES_HOST
echo "this is not a shared object" > "$dir/liblayerkit-garbage.so"
# a working plugin that fires output events on demand (exports its test hooks)
if ! "$CC" -std=c99 -shared -fPIC -Wall -Wextra -Werror -I"$prefix/include" -I"$here" \
    "$here/event_plugin.c" -o "$dir/liblayerkit-events.so" -lpthread; then
    echo "FAIL build plugin events"; fail=1
fi
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
if ! "$CC" -std=c99 -Wall -Wextra -Werror -pedantic "$here/test_plugin_errors.c" \
    $(pkg-config --cflags --libs layerkit) -Wl,-rpath,"$prefix/lib" -o "$dir/test_plugin_errors"; then
    echo "FAIL build test_plugin_errors"; echo "0 passed, 1 failed"; exit 1
fi
# The installed gles backend would open here; with EGL given no driver
# (libglvnd finds no vendor file) it fails as on a machine without one, so
# that "auto" has to reach software (Tests/GLES tests gles's own fallback).
out=$(LAYERKIT_PLUGIN_PATH="$dir" LKTEST_PLUGIN_DIR="$dir" __EGL_VENDOR_LIBRARY_FILENAMES="$dir/no-such-vendor.json" \
    "$dir/test_plugin_errors" 2>&1)
status=$?
echo "$out"
passed=$(echo "$out" | grep -c '^PASS')
failed=$(echo "$out" | grep -c '^FAIL')
if [ $status -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; echo "FAIL test_plugin_errors: exited with $status"; fi

# The core's side of output events (test_output_events.c), as C99 and C++17.
for lang in c99 c++17; do
    case $lang in c99) compiler=$CC; std="-std=c99" ;; *) compiler=${CXX:-c++}; std="-x c++ -std=c++17" ;; esac
    exe="$dir/test_output_events_${lang%%+*}"
    # shellcheck disable=SC2046,SC2086
    if ! $compiler $std -Wall -Wextra -Werror -pedantic -I"$here" "$here/test_output_events.c" \
        $(pkg-config --cflags --libs layerkit) -ldl -lpthread -Wl,-rpath,"$prefix/lib" -o "$exe"; then
        echo "FAIL build test_output_events ($lang)"; failed=$((failed + 1)); continue
    fi
    out=$(LAYERKIT_PLUGIN_PATH="$dir" LKTEST_EVENTS_PLUGIN="$dir/liblayerkit-events.so" "$exe" 2>&1)
    status=$?
    echo "$out" | sed "s/^\(PASS\|FAIL\) /\1 ($lang) /"
    p=$(echo "$out" | grep -c '^PASS')
    f=$(echo "$out" | grep -c '^FAIL')
    if [ $status -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL test_output_events ($lang): exited with $status"; fi
    passed=$((passed + p)); failed=$((failed + f))
done
# lk-info opens every plugin it finds with a host, as the core does: one
# that logs through it in open() crashed lk-info (it passed NULL)
info=$(LAYERKIT_PLUGIN_PATH="$dir" "$prefix/bin/lk-info" 2>&1)
status=$?
if [ $status -eq 0 ] && echo "$info" | grep -q "^useshost: " && echo "$info" | grep -q "cannot open: no such output"; then
    echo "PASS lk-info opens a plugin that logs through its host (and says why it cannot open)"; passed=$((passed + 1))
else
    echo "FAIL lk-info on a plugin that logs through its host: exit $status"; echo "$info" | tail -5; failed=$((failed + 1))
fi
[ $fail -eq 0 ] || failed=$((failed + 1))
echo "plugins: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
