/*
 * $LAYERKIT_GLES_VERSION as both GPU backends (gles, drm's GBM path) read
 * it when they create their context: one reading, one warning.
 */
#include "lk_gles_renderer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool lkgl_es3_allowed_by_env(const char *label, char *warning, size_t warning_size)
{
    if (warning && warning_size) warning[0] = '\0';
    const char *v = getenv("LAYERKIT_GLES_VERSION");
    if (!v || !*v || strcmp(v, "3") == 0) return true;
    if (strcmp(v, "2") == 0) return false;
    /* S8.1: a value it does not take ("2.0", "es2") was the default, silently */
    if (warning && warning_size)
        snprintf(warning, warning_size,
                 "%s: LAYERKIT_GLES_VERSION=\"%s\" ignored: expected 2 (OpenGL ES 2 only) or 3 (ES 3, else ES 2: the default)",
                 label, v);
    return true;
}
