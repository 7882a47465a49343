/* S8.2: a missing or incompatible plugin is reported by name, path and
   reason; "auto" takes the first backend that opens. The plugins are built
   by run.sh into $LKTEST_PLUGIN_DIR. */
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
    o.width = 64;
    o.height = 48;
    o.manual_clock = true;
    return lk_display_open(&o);
}

/* Opening `backend` fails and the message names each of `words`. */
static void expect_refused(const char *name, const char *backend, const char *w1, const char *w2, const char *w3)
{
    lk_display *d = open_backend(backend);
    const char *message = lk_last_error();
    char detail[1200];
    snprintf(detail, sizeof detail, "opened=%s message=\"%s\" wanted \"%s\", \"%s\", \"%s\"",
             d ? "yes" : "no", message, w1, w2, w3 ? w3 : "");
    check(d == NULL && strstr(message, w1) && strstr(message, w2) && (!w3 || strstr(message, w3)), name, detail);
    lk_display_close(d);
}

int main(void)
{
    const char *dir = getenv("LKTEST_PLUGIN_DIR");
    if (!dir) { printf("FAIL setup: LKTEST_PLUGIN_DIR is not set\n"); return 1; }
    char path[1024];

    expect_refused("S8.2 missing plugin names the file and the folders searched", "absent",
                   "liblayerkit-absent.so", dir, NULL);
    snprintf(path, sizeof path, "%s/liblayerkit-garbage.so", dir);
    expect_refused("S8.2 a file that is not a shared object: path and dlopen's reason", "garbage",
                   "\"garbage\"", path, "cannot load");
    snprintf(path, sizeof path, "%s/liblayerkit-noentry.so", dir);
    expect_refused("S8.2 no entry symbol: path and the symbol", "noentry", path, "lk_backend_entry", NULL);
    snprintf(path, sizeof path, "%s/liblayerkit-wrongabi.so", dir);
    expect_refused("S8.2 wrong ABI version: path and both versions", "wrongabi", path, "ABI version 4", "expected 3");
    expect_refused("S8.2 plugin refusing the host's ABI", "refuse", "liblayerkit-refuse.so", "does not support ABI version 3", NULL);
    expect_refused("S8.2 NULL function in the table", "nullentry", "liblayerkit-nullentry.so", "NULL entry", NULL);
    expect_refused("S8.2 open failure carries the plugin's reason", "failopen", "\"failopen\"",
                   "no such output: the test plugin never opens", NULL);
    expect_refused("S8.2 a backend name with a slash is refused", "../software", "not a valid backend name", "../software", NULL);

    /* auto tries drm, gles, software: here only software can open. */
    lk_display *d = open_backend("auto");
    check(d != NULL && strcmp(lk_display_get_backend_name(d), "software") == 0,
          "S8.2 auto falls back to the software backend", d ? lk_display_get_backend_name(d) : lk_last_error());
    lk_display_close(d);

    /* LAYERKIT_BACKEND chooses when the options do not. */
    setenv("LAYERKIT_BACKEND", "wrongabi", 1);
    d = open_backend(NULL);
    check(d == NULL && strstr(lk_last_error(), "wrongabi") != NULL,
          "S8.2 LAYERKIT_BACKEND names the backend", lk_last_error());
    lk_display_close(d);
    unsetenv("LAYERKIT_BACKEND");
    return failures ? 1 : 0;
}
