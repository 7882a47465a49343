#!/usr/bin/env bash
# The gles backend's tests, on Mesa's llvmpipe (LIBGL_ALWAYS_SOFTWARE=1 so a
# machine with a GPU tests the same driver):
#   1. every test of the software backend (Tests/Software), unchanged, on the
#      gles plugin, in an OpenGL ES 3 context and again (draw tests) in ES 2.0
#   2. Tests/GLES/test_groups.c: groups, masks, shadows, additive blending
#   3. Tests/GLES/test_renderer.c: the renderer alone in a context of the
#      test's own; shader and texture failures; batching and upload counters
#   3b. Tests/GLES/test_out_of_memory.c: a real GL_OUT_OF_MEMORY (address
#      space capped), its message, and the plugin still working after
#   4. Tests/GLES/test_egl_failures.c: EGL broken from the environment, the
#      error names EGL and the reason, and auto falls back to software
#   4b. Tests/GLES/test_offscreen_shadow.c: a layer's shadow cast from off
#      the output onto it, gles against software through the C API
#   5. lk-info: plugins found, rejected with their reasons, gles's description
#
# usage: Tests/GLES/run.sh PREFIX       (an installed LayerKit)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
plugin=$prefix/lib/layerkit/backends/liblayerkit-gles.so
CC=${CC:-cc}
export LIBGL_ALWAYS_SOFTWARE=1 LKTEST_BACKEND=gles LKTEST_PLUGIN="$plugin"
build=$(mktemp -d "${TMPDIR:-/tmp}/lktest-gles.XXXXXX")
trap 'rm -rf "$build"' EXIT INT TERM

passed=0
failed=0
add_closing() { # add_closing LOG: the last `... N passed, N failed` line of LOG
    local line
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
    if [ -z "$line" ]; then
        echo "FAIL $2: no result line"
        failed=$((failed + 1))
        return
    fi
    passed=$((passed + $(sed -E 's/.*[^0-9]([0-9]+) passed, ([0-9]+) failed.*/\1/' <<<"$line")))
    failed=$((failed + $(sed -E 's/.*[^0-9]([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")))
}
run() { # run NAME COMMAND...: prints PASS/FAIL lines prefixed, counts them
    local name=$1 out status p f
    shift
    out=$("$@" 2>&1)
    status=$?
    echo "$out" | grep -E '^(PASS|FAIL) ' | sed -E "s/^(PASS|FAIL) /\1 $name: /"
    p=$(grep -c '^PASS ' <<<"$out")
    f=$(grep -c '^FAIL ' <<<"$out")
    if [ $status -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exited with status $status"
        echo "$out" | tail -20 | sed 's/^/    /'
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
}

echo "== 1. the software backend's tests on gles (OpenGL ES 3)"
mkdir -p "$build/es3"
cp "$root"/Tests/Software/*.h "$root"/Tests/Software/valgrind.supp "$root"/Tests/Software/run.sh \
    "$root"/Tests/Software/test_*.c "$build/es3/"
sh "$build/es3/run.sh" "$prefix/include" >"$build/software-es3.log" 2>&1
grep -E '^(FAIL|gles backend tests)' "$build/software-es3.log"
add_closing "$build/software-es3.log" "software tests on gles"
# Mesa gives an ES 3.2 context for an ES 2 request; MESA_GLES_VERSION_OVERRIDE
# makes it a real ES 2.0 one (GLSL ES 1.00), the renderer's lower bound.
echo "== 1b. the drawing tests again in an OpenGL ES 2.0 context"
mkdir -p "$build/es2"
cp "$root"/Tests/Software/*.h "$root"/Tests/Software/valgrind.supp "$root"/Tests/Software/run.sh "$build/es2/"
cp "$root"/Tests/Software/test_fill.c "$root"/Tests/Software/test_image.c "$root"/Tests/Software/test_clip.c \
    "$root"/Tests/Software/test_gradient.c "$build/es2/"
LAYERKIT_GLES_VERSION=2 MESA_GLES_VERSION_OVERRIDE=2.0 sh "$build/es2/run.sh" "$prefix/include" >"$build/software-es2.log" 2>&1
grep -E '^(FAIL|gles backend tests)' "$build/software-es2.log" | sed 's/^/ES 2: /'
add_closing "$build/software-es2.log" "software tests on gles ES 2"

flags=(-Wall -Wextra -Werror -pedantic -g -O1 -D_DEFAULT_SOURCE -I"$prefix/include" -I"$root/Tests/Software")
echo "== 2. groups"
if $CC -std=c99 "${flags[@]}" "$here/test_groups.c" -ldl -lm -o "$build/test_groups" 2>"$build/groups.log"; then
    run groups "$build/test_groups"
else
    cat "$build/groups.log"; echo "FAIL groups: does not compile"; failed=$((failed + 1))
fi

echo "== 3. the renderer alone"
ok=1
for source in "$root"/Plugins/GLESRenderer/*.c; do
    $CC -std=c11 -O1 -g -Wall -Wextra -Werror -I"$prefix/include" -I"$root/Plugins/GLESRenderer/include" \
        -I"$root/Plugins/GLESRenderer" -c "$source" -o "$build/$(basename "$source" .c).o" 2>>"$build/renderer.log" || ok=0
done
if [ $ok = 1 ] && $CC -std=c99 "${flags[@]}" -I"$root/Plugins/GLESRenderer/include" "$here/test_renderer.c" \
    "$build"/gles_*.o -lEGL -lGLESv2 -ldl -lm -o "$build/test_renderer" 2>>"$build/renderer.log"; then
    run renderer "$build/test_renderer"
else
    cat "$build/renderer.log"; echo "FAIL renderer: does not compile"; failed=$((failed + 1))
fi

echo "== 3b. a texture the GL has no memory for (the address space capped)"
if $CC -std=c99 "${flags[@]}" "$here/test_out_of_memory.c" -ldl -lm -o "$build/test_out_of_memory" 2>"$build/oom.log"; then
    run "out of memory" "$build/test_out_of_memory"
else
    cat "$build/oom.log"; echo "FAIL out of memory: does not compile"; failed=$((failed + 1))
fi

echo "== 4. EGL unavailable: the error and the fallback"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
if $CC -std=c99 -Wall -Wextra -Werror -pedantic "$here/test_egl_failures.c" $(pkg-config --cflags --libs layerkit) \
    -Wl,-rpath,"$prefix/lib" -o "$build/test_egl_failures" 2>"$build/egl.log"; then
    mkdir -p "$build/no-drivers"
    run "EGL without a driver" env -u LAYERKIT_PLUGIN_PATH LKTEST_EGL_FAILURE=no-egl-driver \
        __EGL_VENDOR_LIBRARY_FILENAMES="$build/no-drivers/none.json" "$build/test_egl_failures"
    run "EGL without a GL driver" env -u LAYERKIT_PLUGIN_PATH LKTEST_EGL_FAILURE=no-gl-driver \
        LIBGL_DRIVERS_PATH="$build/no-drivers" EGL_LOG_LEVEL=fatal "$build/test_egl_failures"
    run "auto on llvmpipe" env -u LAYERKIT_PLUGIN_PATH LKTEST_EGL_FAILURE=llvmpipe "$build/test_egl_failures"
    # the library alone with the gles plugin beside it, no software plugin
    mkdir -p "$build/gles-only/layerkit/backends"
    cp -L "$prefix/lib/liblayerkit.so.0" "$build/gles-only/liblayerkit.so.0"
    cp "$plugin" "$build/gles-only/layerkit/backends/"
    run "auto with gles only" env -u LAYERKIT_PLUGIN_PATH LD_LIBRARY_PATH="$build/gles-only" \
        LKTEST_EGL_FAILURE=gles-only "$build/test_egl_failures"
else
    cat "$build/egl.log"; echo "FAIL egl failures: does not compile"; failed=$((failed + 1))
fi

echo "== 4b. a shadow cast onto the output by content off it, through the C API, against software"
# shellcheck disable=SC2046
if $CC -std=c99 -Wall -Wextra -Werror -pedantic "$here/test_offscreen_shadow.c" $(pkg-config --cflags --libs layerkit) \
    -Wl,-rpath,"$prefix/lib" -o "$build/test_offscreen_shadow" 2>"$build/offscreen.log"; then
    run "offscreen shadow" env -u LAYERKIT_PLUGIN_PATH "$build/test_offscreen_shadow"
else
    cat "$build/offscreen.log"; echo "FAIL offscreen shadow: does not compile"; failed=$((failed + 1))
fi

echo "== 5. lk-info"
# expect NAME PATTERN TEXT: a check that TEXT matches the extended regex PATTERN
expect() {
    if grep -Eq -- "$2" <<<"$3"; then echo "PASS lk-info: $1"; passed=$((passed + 1))
    else echo "FAIL lk-info: $1: no line matches /$2/"; failed=$((failed + 1)); fi
}
mkdir -p "$build/plugins"
echo "not a shared object" >"$build/plugins/liblayerkit-garbage.so"
cp "$prefix/lib/layerkit/backends/liblayerkit-software.so" "$build/plugins/liblayerkit-software.so"
info=$(LAYERKIT_PLUGIN_PATH="$build/plugins" "$prefix/bin/lk-info" 2>&1)
status=$?
echo "$info" | sed 's/^/    /' | head -60
expect "exits 0 when a backend is usable" "^0$" "$status"
expect "a rejected plugin with its path and reason" "^garbage: $build/plugins/liblayerkit-garbage.so\$" "$info"
expect "the rejection says why" "rejected: backend \"garbage\": .*cannot load: " "$info"
expect "a later file of a found name is shadowed" "rejected: shadowed by $build/plugins/liblayerkit-software.so" "$info"
expect "gles is usable with its output" "usable: output \"offscreen\" 1280x720 at 60 Hz" "$info"
expect "gles describes EGL" "EGL platform: EGL_MESA_platform_surfaceless" "$info"
expect "gles describes GL" "GL renderer: llvmpipe" "$info"
expect "the GL version" "GL version: OpenGL ES [23]" "$info"
expect "the extensions that matter" "GL extensions that matter \\(! = missing\\): " "$info"
info=$(__EGL_VENDOR_LIBRARY_FILENAMES="$build/no-drivers/none.json" "$prefix/bin/lk-info" 2>&1)
expect "gles unusable without EGL, with the reason" "unusable: cannot open: gles backend: EGL is unavailable" "$info"
expect "software still usable then" "usable: output \"memory\"" "$info"

echo "gles: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
