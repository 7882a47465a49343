/*
 * EGL with no window system and no display server.
 *
 * Displays on one platform and device are the same EGLDisplay for the whole
 * process, so eglTerminate would end every other instance's context too: the
 * displays this file initialised are counted and terminated with the last
 * instance.
 */
#include "gles_egl.h"
#include "gles_egl_names.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ------------------------------------------------------------------------ */
/* Display reference counts                                                  */

#define MAX_DISPLAYS 8
static pthread_mutex_t display_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { EGLDisplay display; int count; } displays[MAX_DISPLAYS];

/* eglInitialize, counted. */
static bool display_acquire(EGLDisplay display, EGLint *error)
{
    bool ok = true;
    pthread_mutex_lock(&display_lock);
    int free_slot = -1, found = -1;
    for (int i = 0; i < MAX_DISPLAYS; i++) {
        if (displays[i].count > 0 && displays[i].display == display) found = i;
        if (displays[i].count == 0 && free_slot < 0) free_slot = i;
    }
    if (found >= 0) {
        displays[found].count++;
    } else if (free_slot < 0) {
        *error = EGL_BAD_ALLOC;
        ok = false;
    } else if (eglInitialize(display, NULL, NULL)) {
        displays[free_slot].display = display;
        displays[free_slot].count = 1;
    } else {
        *error = eglGetError();
        ok = false;
    }
    pthread_mutex_unlock(&display_lock);
    return ok;
}

static void display_release(EGLDisplay display)
{
    pthread_mutex_lock(&display_lock);
    for (int i = 0; i < MAX_DISPLAYS; i++)
        if (displays[i].count > 0 && displays[i].display == display) {
            if (--displays[i].count == 0) {
                eglTerminate(display);
                eglReleaseThread();
            }
            break;
        }
    pthread_mutex_unlock(&display_lock);
}

/* ------------------------------------------------------------------------ */
/* Opening                                                                   */

static EGLDisplay surfaceless_display(PFNEGLGETPLATFORMDISPLAYEXTPROC get, char *why, size_t size)
{
    EGLDisplay d = get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d == EGL_NO_DISPLAY) snprintf(why, size, "eglGetPlatformDisplay: %s", egl_error_name(eglGetError()));
    return d;
}

static EGLDisplay device_display(PFNEGLGETPLATFORMDISPLAYEXTPROC get, char *why, size_t size)
{
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (!query) {
        snprintf(why, size, "eglQueryDevicesEXT is missing");
        return EGL_NO_DISPLAY;
    }
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (!query(8, devices, &count)) {
        snprintf(why, size, "eglQueryDevicesEXT: %s", egl_error_name(eglGetError()));
        return EGL_NO_DISPLAY;
    }
    if (count == 0) {
        snprintf(why, size, "no EGL device");
        return EGL_NO_DISPLAY;
    }
    EGLDisplay d = get(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
    if (d == EGL_NO_DISPLAY) snprintf(why, size, "eglGetPlatformDisplay: %s", egl_error_name(eglGetError()));
    return d;
}

static bool open_display(gles_egl *egl, const char *label, char *error, size_t error_size)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client) {
        snprintf(error, error_size,
                 "%s: EGL is unavailable: eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS) failed with %s "
                 "(no EGL driver found, or EGL older than 1.5 without EGL_EXT_client_extensions)",
                 label, egl_error_name(eglGetError()));
        return false;
    }
    if (!*client) {
        /* libglvnd answers with no extensions when it found no vendor library */
        snprintf(error, error_size,
                 "%s: EGL is unavailable: no EGL driver was found (no client extensions, %s; "
                 "is Mesa's libEGL_mesa installed and listed in the EGL vendor files?)",
                 label, egl_error_name(eglGetError()));
        return false;
    }
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get || !has_extension(client, "EGL_EXT_platform_base")) {
        snprintf(error, error_size, "%s: EGL has no EGL_EXT_platform_base (client extensions: %s)", label, client);
        return false;
    }
    static const struct {
        const char *extension;
        EGLDisplay (*display)(PFNEGLGETPLATFORMDISPLAYEXTPROC, char *, size_t);
    } platforms[] = {
        { "EGL_MESA_platform_surfaceless", surfaceless_display },
        { "EGL_EXT_platform_device", device_display },
    };
    char reasons[512] = "";
    for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++) {
        char why[160] = "";
        size_t n = strlen(reasons);
        if (!has_extension(client, platforms[i].extension)) {
            snprintf(reasons + n, sizeof reasons - n, "%s%s: not supported", n ? "; " : "",
                     platforms[i].extension);
            continue;
        }
        EGLDisplay d = platforms[i].display(get, why, sizeof why);
        EGLint e = EGL_SUCCESS;
        if (d != EGL_NO_DISPLAY && display_acquire(d, &e)) {
            egl->display = d;
            egl->platform = platforms[i].extension;
            return true;
        }
        if (d != EGL_NO_DISPLAY) snprintf(why, sizeof why, "eglInitialize: %s", egl_error_name(e));
        snprintf(reasons + n, sizeof reasons - n, "%s%s: %s", n ? "; " : "", platforms[i].extension, why);
    }
    snprintf(error, error_size, "%s: EGL has no display without a window system (%s)", label, reasons);
    return false;
}

static bool create_context(gles_egl *egl, const char *label, bool allow_es3, char *error, size_t error_size)
{
    const char *extensions = eglQueryString(egl->display, EGL_EXTENSIONS);
    if (!has_extension(extensions, "EGL_KHR_surfaceless_context")) {
        snprintf(error, error_size, "%s: EGL display (%s) lacks EGL_KHR_surfaceless_context", label,
                 egl->platform);
        return false;
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        snprintf(error, error_size, "%s: eglBindAPI(EGL_OPENGL_ES_API) failed: %s (no OpenGL ES in this EGL)",
                 label, egl_error_name(eglGetError()));
        return false;
    }
    EGLConfig config = EGL_NO_CONFIG_KHR;
    if (!has_extension(extensions, "EGL_KHR_no_config_context")) {
        const EGLint attributes[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE };
        EGLint count = 0;
        if (!eglChooseConfig(egl->display, attributes, &config, 1, &count) || count < 1) {
            snprintf(error, error_size, "%s: no EGL config for OpenGL ES 2 (eglChooseConfig: %s)", label,
                     egl_error_name(eglGetError()));
            return false;
        }
    }
    EGLint e3 = EGL_SUCCESS;
    if (allow_es3) {
        const EGLint es3[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
        egl->context = eglCreateContext(egl->display, config, EGL_NO_CONTEXT, es3);
        if (egl->context != EGL_NO_CONTEXT) {
            egl->es3 = true;
            return true;
        }
        e3 = eglGetError();
    }
    const EGLint es2[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    egl->context = eglCreateContext(egl->display, config, EGL_NO_CONTEXT, es2);
    if (egl->context == EGL_NO_CONTEXT) {
        EGLint e2 = eglGetError();
        snprintf(error, error_size,
                 "%s: no OpenGL ES context: eglCreateContext failed for ES 3 (%s) and ES 2 (%s)", label,
                 allow_es3 ? egl_error_name(e3) : "not asked for", egl_error_name(e2));
        egl->context = NULL;
        return false;
    }
    return true;
}

bool gles_egl_open(gles_egl *egl, const char *label, bool allow_es3, char *error, size_t error_size)
{
    memset(egl, 0, sizeof *egl);
    if (!open_display(egl, label, error, error_size)) return false;
    if (!create_context(egl, label, allow_es3, error, error_size)) {
        gles_egl_close(egl);
        return false;
    }
    return true;
}

void gles_egl_close(gles_egl *egl)
{
    if (!egl->display) return;
    if (egl->context) {
        if (eglGetCurrentContext() == egl->context)
            eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(egl->display, egl->context);
    }
    display_release(egl->display);
    memset(egl, 0, sizeof *egl);
}

bool gles_egl_make_current(gles_egl *egl, char *error, size_t error_size)
{
    if (eglGetCurrentContext() == egl->context) return true;
    if (!eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
        snprintf(error, error_size, "gles backend: eglMakeCurrent failed: %s", egl_error_name(eglGetError()));
        return false;
    }
    return true;
}

void gles_egl_release(gles_egl *egl)
{
    if (eglGetCurrentContext() == egl->context)
        eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void gles_egl_describe(const gles_egl *egl, char *text, size_t text_size)
{
    size_t n = strlen(text);
    if (n >= text_size) return;
    const char *extensions = eglQueryString(egl->display, EGL_EXTENSIONS);
    static const char *const wanted[] = {
        "EGL_KHR_surfaceless_context", "EGL_KHR_no_config_context", "EGL_KHR_image_base",
        "EGL_EXT_image_dma_buf_import", "EGL_EXT_image_dma_buf_import_modifiers",
        "EGL_KHR_fence_sync", "EGL_ANDROID_native_fence_sync", "EGL_EXT_buffer_age",
    };
    char found[512] = "";
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        size_t k = strlen(found);
        snprintf(found + k, sizeof found - k, "%s%s%s", k ? " " : "",
                 has_extension(extensions, wanted[i]) ? "" : "!", wanted[i]);
    }
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    char platforms[256] = "";
    static const char *const platform_names[] = {
        "EGL_MESA_platform_surfaceless", "EGL_EXT_platform_device", "EGL_KHR_platform_gbm",
        "EGL_MESA_platform_gbm", "EGL_KHR_platform_wayland", "EGL_KHR_platform_x11",
    };
    for (size_t i = 0; i < sizeof platform_names / sizeof platform_names[0]; i++)
        if (has_extension(client, platform_names[i])) {
            size_t k = strlen(platforms);
            snprintf(platforms + k, sizeof platforms - k, "%s%s", k ? " " : "", platform_names[i]);
        }
    snprintf(text + n, text_size - n,
             "EGL platform: %s\nEGL vendor: %s\nEGL version: %s\nEGL client APIs: %s\n"
             "EGL platforms available: %s\nEGL extensions that matter (! = missing): %s\n"
             "context: OpenGL ES %s\n",
             egl->platform, eglQueryString(egl->display, EGL_VENDOR),
             eglQueryString(egl->display, EGL_VERSION), eglQueryString(egl->display, EGL_CLIENT_APIS),
             platforms, found, egl->es3 ? "3" : "2");
}
