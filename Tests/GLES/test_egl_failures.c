/*
 * S8.2 for the gles backend: when EGL cannot give it a context, opening
 * "gles" fails with a message that names the backend, EGL and the reason,
 * and "auto" falls back to the software backend.
 *
 * Tests/GLES/run.sh runs this twice with EGL broken from the environment,
 * the way a machine without a working driver would be:
 *   LKTEST_EGL_FAILURE=no-egl-driver  __EGL_VENDOR_LIBRARY_FILENAMES names
 *       no vendor file: libglvnd finds no EGL driver at all;
 *   LKTEST_EGL_FAILURE=no-gl-driver   LIBGL_DRIVERS_PATH names an empty
 *       folder: Mesa's EGL loads but finds no GL driver, eglInitialize fails;
 * and once with EGL working on llvmpipe (LKTEST_EGL_FAILURE=llvmpipe): auto
 * then takes the software backend.
 */
#define _POSIX_C_SOURCE 200809L
#include <layerkit/layerkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int ok, const char *name, const char *detail)
{
    if (ok) printf("PASS %s\n", name);
    else { printf("FAIL %s: %s\n", name, detail); failures++; }
}

static lk_display *open_backend(const char *backend)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = backend;
    o.width = 32;
    o.height = 32;
    o.manual_clock = true;
    return lk_display_open(&o);
}

/* LKTEST_EGL_FAILURE=llvmpipe: EGL works, on a GL that rasterizes on the
   CPU. "gles" opens (named), "auto" passes it by for the software backend,
   which draws turned layers 35-200 times faster there. */
static int llvmpipe(void)
{
    lk_display *d = open_backend("gles");
    check(d != NULL && strcmp(lk_display_get_backend_name(d), "gles") == 0,
          "S8.2 gles on llvmpipe opens when named", d ? lk_display_get_backend_name(d) : lk_last_error());
    lk_display_close(d);
    d = open_backend("auto");
    check(d != NULL && strcmp(lk_display_get_backend_name(d), "software") == 0,
          "S8.2 auto passes gles on llvmpipe by for the software backend", d ? lk_display_get_backend_name(d) : lk_last_error());
    lk_display_close(d);
    return failures ? 1 : 0;
}

/* LKTEST_EGL_FAILURE=gles-only: llvmpipe, and no software plugin beside
   the library: auto takes gles after all (it opened nothing). */
static int gles_only(void)
{
    lk_display *d = open_backend("auto");
    check(d != NULL && strcmp(lk_display_get_backend_name(d), "gles") == 0,
          "S8.2 auto takes gles on llvmpipe when no software backend opens", d ? lk_display_get_backend_name(d) : lk_last_error());
    lk_display_close(d);
    return failures ? 1 : 0;
}

int main(void)
{
    const char *mode = getenv("LKTEST_EGL_FAILURE");
    const char *reason = NULL;
    if (mode && strcmp(mode, "llvmpipe") == 0) return llvmpipe();
    if (mode && strcmp(mode, "gles-only") == 0) return gles_only();
    if (mode && strcmp(mode, "no-egl-driver") == 0) reason = "EGL is unavailable: no EGL driver was found";
    if (mode && strcmp(mode, "no-gl-driver") == 0) reason = "eglInitialize: EGL_NOT_INITIALIZED";
    if (!reason) {
        printf("FAIL setup: LKTEST_EGL_FAILURE is \"%s\", not no-egl-driver or no-gl-driver\n", mode ? mode : "");
        return 1;
    }
    char name[128], detail[1024];

    lk_display *d = open_backend("gles");
    snprintf(name, sizeof name, "S8.2 gles without EGL (%s): an error naming EGL and the reason", mode);
    snprintf(detail, sizeof detail, "%s", d ? "the display opened" : lk_last_error());
    check(d == NULL && strstr(lk_last_error(), "backend \"gles\": cannot open: gles backend: ") != NULL &&
              strstr(lk_last_error(), reason) != NULL,
          name, detail);
    lk_display_close(d);

    d = open_backend("auto");
    snprintf(name, sizeof name, "S8.2 gles without EGL (%s): auto falls back to software", mode);
    check(d != NULL && strcmp(lk_display_get_backend_name(d), "software") == 0, name,
          d ? lk_display_get_backend_name(d) : lk_last_error());
    lk_display_close(d);
    return failures ? 1 : 0;
}
