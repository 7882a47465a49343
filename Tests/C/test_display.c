/*
 * Displays on the software backend with a manual clock: size, backend name,
 * backend choice (options, then $LAYERKIT_BACKEND: S8.2 errors name the
 * backend), root layer ownership, rendering and reading the frame (S1.0:
 * cleared to opaque black), PNG output, statistics and bad calls; a render
 * thread that cannot start.
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "lktest.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* A display of backend, w x h, with a manual clock or a real one. */
static lk_display *open_clocked(const char *backend, uint32_t w, uint32_t h, bool manual)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = backend;
    o.width = w;
    o.height = h;
    o.manual_clock = manual;
    return lk_display_open(&o);
}

static lk_display *open_with(const char *backend, uint32_t w, uint32_t h)
{
    return open_clocked(backend, w, h, true);
}

/* every pixel equal to (r, g, b, 255), within 1 */
static int all_pixels(const uint8_t *px, uint32_t w, uint32_t h, size_t stride, int r, int g,
                      int b, char *why, size_t why_size)
{
    uint32_t x, y;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            const uint8_t *p = px + (size_t)y * stride + (size_t)x * 4;
            if (abs(p[0] - r) > 1 || abs(p[1] - g) > 1 || abs(p[2] - b) > 1 || p[3] != 255) {
                snprintf(why, why_size, "pixel (%u,%u) is %u,%u,%u,%u, expected %d,%d,%d,255",
                         (unsigned)x, (unsigned)y, p[0], p[1], p[2], p[3], r, g, b);
                return 0;
            }
        }
    return 1;
}

static void check_open(void)
{
    lk_display *d = open_with("software", 64, 48);
    lk_size size;
    const char *name;

    if (!LKT_CHECK(d != NULL, "open a software display with a manual clock", "NULL: %s",
                   lk_last_error()))
        return;
    size = lk_display_get_size(d);
    LKT_CHECK(size.width == 64 && size.height == 48, "display size is the requested size",
              "got %s", lkt_fmt_size(size));
    name = lk_display_get_backend_name(d);
    LKT_CHECK(name && strcmp(name, "software") == 0, "backend name is \"software\"", "got \"%s\"",
              name ? name : "(null)");
    LKT_CHECK(lk_display_get_root_layer(d) == NULL, "a new display has no root layer", "got one");
    {
        double hz = lk_display_get_refresh_rate(d);
        LKT_CHECK(isfinite(hz) && hz >= 0, "refresh rate is a finite number", "got %g", hz);
    }
    lk_display_close(d);

    d = open_with("software", 0, 0);
    if (LKT_CHECK(d != NULL, "open a software display with the default size", "NULL: %s",
                  lk_last_error())) {
        size = lk_display_get_size(d);
        LKT_CHECK(size.width >= 1 && size.height >= 1 && size.width == floor(size.width) &&
                      size.height == floor(size.height),
                  "width and height 0 give the backend's default size", "got %s",
                  lkt_fmt_size(size));
        lk_display_close(d);
    }
    lk_display_close(NULL);
    LKT_CHECK(1, "lk_display_close(NULL) does nothing", "survived");
}

static void check_backend_choice(void)
{
    lk_display *d;
    const char *saved = getenv("LAYERKIT_BACKEND");
    char saved_copy[256] = "";
    int had = saved != NULL;

    if (had) snprintf(saved_copy, sizeof saved_copy, "%s", saved);

    lkt_error_mark();
    d = open_with("lktest-no-such-backend", 32, 32);
    LKT_CHECK(d == NULL, "S8.2 an unknown backend gives NULL", "got a display");
    LKT_CHECK_ERROR_MESSAGE("S8.2 an unknown backend is reported by name",
                            "lktest-no-such-backend");
    lk_display_close(d);

    setenv("LAYERKIT_BACKEND", "software", 1);
    d = open_with(NULL, 32, 32);
    LKT_CHECK(d && lk_display_get_backend_name(d) &&
                  strcmp(lk_display_get_backend_name(d), "software") == 0,
              "$LAYERKIT_BACKEND=software chooses the software backend", "%s",
              d ? lk_display_get_backend_name(d) : lk_last_error());
    lk_display_close(d);

    setenv("LAYERKIT_BACKEND", "lktest-env-backend", 1);
    lkt_error_mark();
    d = open_with(NULL, 32, 32);
    LKT_CHECK(d == NULL, "$LAYERKIT_BACKEND is honoured (an unknown one fails)", "got a display (%s)",
              d ? lk_display_get_backend_name(d) : "");
    LKT_CHECK_ERROR_MESSAGE("S8.2 the backend named by $LAYERKIT_BACKEND is reported by name",
                            "lktest-env-backend");
    lk_display_close(d);
    d = lk_display_open(NULL);
    LKT_CHECK(d == NULL, "NULL options use $LAYERKIT_BACKEND too", "got a display (%s)",
              d ? lk_display_get_backend_name(d) : "");
    lk_display_close(d);

    d = open_with("software", 32, 32);
    LKT_CHECK(d && lk_display_get_backend_name(d) &&
                  strcmp(lk_display_get_backend_name(d), "software") == 0,
              "the backend option wins over $LAYERKIT_BACKEND", "%s", d ? "" : lk_last_error());
    lk_display_close(d);

    if (had) setenv("LAYERKIT_BACKEND", saved_copy, 1);
    else unsetenv("LAYERKIT_BACKEND");
}

static void check_frames(void)
{
    lk_display *d = open_with("software", 40, 30);
    uint8_t *px, *padded;
    char why[256] = "", path[1024];
    lk_layer *root;
    lk_status s;
    int i, pad_ok = 1;

    if (!LKT_CHECK(d != NULL, "open a display for frames", "NULL: %s", lk_last_error())) return;
    px = (uint8_t *)calloc(40 * 30 * 4, 1);
    padded = (uint8_t *)calloc(50 * 4 * 30, 1);

    lkt_error_mark();
    s = lk_display_read_pixels(d, px, 160);
    LKT_CHECK_ERROR("reading pixels before any frame is a state error", s, LK_ERROR_STATE, NULL);
    lkt_error_mark();
    lkt_output_path(path, sizeof path, "lktest-display-before.png");
    s = lk_display_write_png(d, path);
    LKT_CHECK_ERROR("writing a PNG before any frame is a state error", s, LK_ERROR_STATE, NULL);

    s = lk_display_render_frame_at(d, lk_media_time());
    LKT_CHECK_STATUS("render a frame with no root layer", s, LK_OK);
    s = lk_display_read_pixels(d, px, 160);
    LKT_CHECK(s == LK_OK && all_pixels(px, 40, 30, 160, 0, 0, 0, why, sizeof why),
              "S1.0 with no root layer the frame is opaque black", "%s %s", lkt_status_name(s),
              why);

    /* a root filling the display */
    root = lk_layer_create();
    lkt_layer_place(root, 0, 0, 40, 30);
    lk_layer_set_background_color(root, lk_color_make(1, 0, 0, 1));
    s = lk_display_set_root_layer(d, root);
    LKT_CHECK(s == LK_OK && lk_display_get_root_layer(d) == root, "set the root layer",
              "%s", lkt_status_name(s));
    lk_release(root); /* the display retains it */
    s = lk_display_render_frame_at(d, lk_media_time() + 60);
    if (s == LK_OK) s = lk_display_read_pixels(d, px, 160);
    LKT_CHECK(s == LK_OK && all_pixels(px, 40, 30, 160, 255, 0, 0, why, sizeof why),
              "the display keeps the root alive and draws it", "%s %s", lkt_status_name(s), why);

    /* the model as it is at the next frame */
    lk_layer_set_background_color(root, lk_color_make(0, 0, 1, 1));
    s = lk_display_render_frame_at(d, lk_media_time() + 120);
    if (s == LK_OK) s = lk_display_read_pixels(d, px, 160);
    LKT_CHECK(s == LK_OK && all_pixels(px, 40, 30, 160, 0, 0, 255, why, sizeof why),
              "a change to the root shows in the next frame", "%s %s", lkt_status_name(s), why);

    /* translucent root over the black clear colour */
    lk_layer_set_background_color(root, lk_color_make(1, 1, 1, 0.5));
    s = lk_display_render_frame_at(d, lk_media_time() + 180);
    if (s == LK_OK) s = lk_display_read_pixels(d, px, 160);
    LKT_CHECK(s == LK_OK && all_pixels(px, 40, 30, 160, 128, 128, 128, why, sizeof why),
              "S1.0 a half transparent white root over black is grey, opaque", "%s %s",
              lkt_status_name(s), why);

    /* S6.1: a hidden root draws nothing */
    lk_layer_set_hidden(root, true);
    s = lk_display_render_frame_at(d, lk_media_time() + 190);
    if (s == LK_OK) s = lk_display_read_pixels(d, px, 160);
    LKT_CHECK(s == LK_OK && all_pixels(px, 40, 30, 160, 0, 0, 0, why, sizeof why),
              "S6.1 a hidden root layer draws nothing, black", "%s %s", lkt_status_name(s), why);
    lk_layer_set_hidden(root, false);
    s = lk_display_render_frame_at(d, lk_media_time() + 200);

    /* a larger stride: rows placed by stride, the padding left alone */
    memset(padded, 0x5a, 50 * 4 * 30);
    s = lk_display_read_pixels(d, padded, 200);
    for (i = 0; i < 30 && pad_ok; i++) {
        int k;
        for (k = 160; k < 200; k++)
            if (padded[i * 200 + k] != 0x5a) pad_ok = 0;
    }
    LKT_CHECK(s == LK_OK && all_pixels(padded, 40, 30, 200, 128, 128, 128, why, sizeof why) && pad_ok,
              "read_pixels with a padded stride", "%s %s%s", lkt_status_name(s), why,
              pad_ok ? "" : " (padding overwritten)");

    lkt_error_mark();
    s = lk_display_read_pixels(d, px, 100);
    LKT_CHECK_ERROR("S8.1 read_pixels with stride < width * 4 is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "stride");
    lkt_error_mark();
    s = lk_display_read_pixels(d, NULL, 160);
    LKT_CHECK_ERROR("S8.1 read_pixels into NULL is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "rgba8|pixels|buffer");

    /* PNG of the frame */
    lkt_output_path(path, sizeof path, "lktest-display.png");
    remove(path);
    s = lk_display_write_png(d, path);
    if (LKT_CHECK_STATUS("lk_display_write_png", s, LK_OK)) {
        uint8_t *back = NULL;
        uint32_t w = 0, h = 0;
        const char *err = NULL;
        int r = lkt_png_read(path, &back, &w, &h, &err);
        LKT_CHECK(r == 0 && w == 40 && h == 30 && all_pixels(back, 40, 30, 160, 128, 128, 128, why, sizeof why),
                  "write_png writes a readable PNG of the frame, at the display's size",
                  "read %d (%s), %ux%u %s", r, err ? err : "", (unsigned)w, (unsigned)h, why);
        free(back);
    }
    lkt_error_mark();
    s = lk_display_write_png(d, "/nonexistent-lktest-dir/frame.png");
    LKT_CHECK_ERROR("S8.1 write_png where it cannot be written is an I/O error naming the file",
                    s, LK_ERROR_IO, "/nonexistent-lktest-dir/frame.png");

    /* detaching the root */
    s = lk_display_set_root_layer(d, NULL);
    LKT_CHECK(s == LK_OK && lk_display_get_root_layer(d) == NULL, "set_root_layer(NULL) detaches it",
              "%s", lkt_status_name(s));
    s = lk_display_render_frame_at(d, lk_media_time() + 240);
    if (s == LK_OK) s = lk_display_read_pixels(d, px, 160);
    LKT_CHECK(s == LK_OK && all_pixels(px, 40, 30, 160, 0, 0, 0, why, sizeof why),
              "S1.0 after detaching the root the frame is black again", "%s %s",
              lkt_status_name(s), why);

    free(px);
    free(padded);
    lk_display_close(d);
}

/* S1.3: a layer is in one tree. A layer with a superlayer, or another
   layer's mask, is refused as a display's root (it was drawn twice, under
   its tree's timing on one display and the media time on the other; a
   mask as an ordinary layer), naming root, and the display keeps its root.
   One root on two displays (a mirror) is one tree, and is taken. */
static void check_root_in_one_tree(void)
{
    lk_display *d = open_with("software", 16, 16), *e = open_with("software", 16, 16);
    lk_layer *top = lk_layer_create(), *sub = lk_layer_create(), *mask = lk_layer_create();
    if (d && e) {
        lk_layer_add_sublayer(top, sub);
        lk_layer_set_mask(top, mask);
        LKT_CHECK_STATUS("S1.0 a layer is shown as a root", lk_display_set_root_layer(d, top), LK_OK);
        lkt_error_mark();
        LKT_CHECK_ERROR("S1.3 S8.1 a sublayer of another layer is refused as a root",
                        lk_display_set_root_layer(e, sub), LK_ERROR_HIERARCHY, "root");
        lkt_error_mark();
        LKT_CHECK_ERROR("S1.3 S8.1 another layer's mask is refused as a root", lk_display_set_root_layer(e, mask),
                        LK_ERROR_HIERARCHY, "root|mask");
        LKT_CHECK(lk_display_get_root_layer(e) == NULL, "S8.1 the refusals leave the display without a root", "%p",
                  (void *)lk_display_get_root_layer(e));
        LKT_CHECK_STATUS("S1.0 the same root on a second display (a mirror) is taken", lk_display_set_root_layer(e, top),
                         LK_OK);
        lk_layer_remove_from_superlayer(sub);
        LKT_CHECK_STATUS("S1.3 removed from its superlayer, the layer is taken as a root", lk_display_set_root_layer(e, sub),
                         LK_OK);
    }
    lk_release(mask);
    lk_release(sub);
    lk_release(top);
    if (e) lk_display_close(e);
    if (d) lk_display_close(d);
}

/* S1.3: the reverse of the above. An open display's root is refused as a
   sublayer (add, insert, insert above/below, replace) or as a mask, naming
   the argument, and nothing changes (it was taken, and the layer was then
   in two trees); once no open display shows it (another root, or the
   displays closed) it is taken. */
static void refused_as_root(const char *name, lk_status s, const char *argument)
{
    LKT_CHECK_ERROR(name, s, LK_ERROR_HIERARCHY, argument);
    const char *msg = lkt_error_since_mark();
    LKT_CHECK(msg && lkt_mentions(msg, "root layer of an open display"),
              "S8.1 ... saying the layer is an open display's root", "%s", msg ? msg : "(no error)");
}

static void check_root_not_adopted(void)
{
    lk_display *d = open_with("software", 16, 16), *e = open_with("software", 16, 16);
    lk_layer *root = lk_layer_create(), *other = lk_layer_create();
    lk_layer *parent = lk_layer_create(), *sibling = lk_layer_create();
    if (d && e) {
        lk_layer_add_sublayer(parent, sibling);
        lk_display_set_root_layer(d, root);
        lk_display_set_root_layer(e, root);   /* a mirror: shown until both let go */
        lkt_error_mark();
        refused_as_root("S1.3 S8.1 an open display's root is refused as a sublayer", lk_layer_add_sublayer(parent, root),
                        "child");
        lkt_error_mark();
        refused_as_root("S1.3 S8.1 ... inserted at an index", lk_layer_insert_sublayer(parent, root, 0), "child");
        lkt_error_mark();
        refused_as_root("S1.3 S8.1 ... inserted above a sibling", lk_layer_insert_sublayer_above(parent, root, sibling),
                        "child");
        lkt_error_mark();
        refused_as_root("S1.3 S8.1 ... inserted below a sibling", lk_layer_insert_sublayer_below(parent, root, sibling),
                        "child");
        lkt_error_mark();
        refused_as_root("S1.3 S8.1 ... replacing a sublayer", lk_layer_replace_sublayer(parent, sibling, root),
                        "new_child");
        lkt_error_mark();
        refused_as_root("S1.3 S8.1 ... as a mask", lk_layer_set_mask(parent, root), "mask");
        lkt_error_mark();
        refused_as_root("S1.3 S8.1 ... as a mask by key path", lk_layer_set_value(parent, "mask", lk_value_layer(root)),
                        "mask");
        LKT_CHECK(lk_layer_get_superlayer(root) == NULL && lk_layer_get_mask(parent) == NULL &&
                      lk_layer_get_sublayer_count(parent) == 1 && lk_layer_get_sublayer(parent, 0) == sibling &&
                      lk_layer_get_superlayer(sibling) == parent && lk_display_get_root_layer(d) == root &&
                      lk_display_get_root_layer(e) == root,
                  "S8.1 the refusals change nothing", "superlayer %p, mask %p, %zu sublayers",
                  (void *)lk_layer_get_superlayer(root), (void *)lk_layer_get_mask(parent),
                  lk_layer_get_sublayer_count(parent));
        lk_display_set_root_layer(d, other);
        lkt_error_mark();
        refused_as_root("S1.3 ... while another open display still shows it", lk_layer_add_sublayer(parent, root), "child");
        lk_display_close(e);
        e = NULL;
        LKT_CHECK_STATUS("S1.3 no longer a root (another root set, the other display closed), it is taken as a sublayer",
                         lk_layer_add_sublayer(parent, root), LK_OK);
        lk_layer_remove_from_superlayer(root);
        lk_display_close(d);
        d = NULL;
        LKT_CHECK_STATUS("S1.3 a closed display's root is taken as a mask", lk_layer_set_mask(parent, other), LK_OK);
    }
    lk_release(sibling);
    lk_release(parent);
    lk_release(other);
    lk_release(root);
    if (e) lk_display_close(e);
    if (d) lk_display_close(d);
}

static void check_root_survives_close(void)
{
    lk_display *d = open_with("software", 16, 16);
    lk_layer *root = lk_layer_create();
    if (!d) {
        lk_release(root);
        return;
    }
    lk_layer_set_name(root, "survivor");
    lk_display_set_root_layer(d, root);
    lk_display_close(d); /* releases its reference, ours remains */
    LKT_CHECK(lk_layer_get_name(root) && strcmp(lk_layer_get_name(root), "survivor") == 0,
              "closing a display releases only its own reference to the root", "name lost");
    lk_release(root);
}

static void check_stats(void)
{
    lk_display *d = open_with("software", 16, 16);
    lk_display_stats st, st2;
    lk_status s;
    if (!d) return;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    lk_display_render_frame_at(d, lk_media_time());
    s = lk_display_get_stats(d, &st);
    LKT_CHECK(s == LK_OK && st.frames_presented >= 1, "stats count the frames rendered",
              "%s, frames_presented %llu", lkt_status_name(s),
              (unsigned long long)st.frames_presented);
    lk_display_render_frame_at(d, lk_media_time() + 1);
    memset(&st2, 0, sizeof st2);
    st2.struct_size = sizeof st2;
    s = lk_display_get_stats(d, &st2);
    LKT_CHECK(s == LK_OK && st2.frames_presented == st.frames_presented + 1 &&
                  st2.render_seconds_total >= st.render_seconds_total,
              "stats count one more frame per frame rendered",
              "%s, frames_presented %llu then %llu", lkt_status_name(s),
              (unsigned long long)st.frames_presented, (unsigned long long)st2.frames_presented);
    lkt_error_mark();
    s = lk_display_get_stats(d, NULL);
    LKT_CHECK_ERROR("S8.1 stats into NULL is an invalid argument", s, LK_ERROR_INVALID_ARGUMENT,
                    NULL);
    {
        /* C-API.md's lk_display_stats, the first: three counters, 32 bytes.
           A program built against it gets them and nothing past its end. */
        union {
            lk_display_stats now;
            unsigned char bytes[sizeof(lk_display_stats)];
        } first;
        size_t first_size = offsetof(lk_display_stats, render_seconds_total) + sizeof(double), i, untouched = 0;
        memset(&first, 0xab, sizeof first);
        first.now.struct_size = (uint32_t)first_size;
        s = lk_display_get_stats(d, &first.now);
        for (i = first_size; i < sizeof first; i++) untouched += first.bytes[i] == 0xab;
        LKT_CHECK(s == LK_OK && first_size == 32 && first.now.frames_presented == st2.frames_presented &&
                      untouched == sizeof first - first_size,
                  "stats into the first, 32-byte lk_display_stats (C-API.md) fill it and nothing after it",
                  "%s (%s), %u bytes, frames_presented %llu, %u of the %u bytes after it untouched",
                  lkt_status_name(s), lk_last_error(), (unsigned)first_size,
                  (unsigned long long)first.now.frames_presented, (unsigned)untouched,
                  (unsigned)(sizeof first - first_size));
        lkt_error_mark();
        first.now.struct_size = (uint32_t)first_size - 8;
        s = lk_display_get_stats(d, &first.now);
        LKT_CHECK_ERROR("S8.1 stats into a struct smaller than the first is an invalid argument", s,
                        LK_ERROR_INVALID_ARGUMENT, "struct_size");
    }
    lk_display_close(d);
}

static void check_null_display(void)
{
    lk_size size;
    lk_status s;
    uint8_t px[4];

    lkt_error_mark();
    LKT_CHECK(lk_display_get_backend_name(NULL) == NULL, "S8.1 backend name of NULL is NULL",
              "got a name");
    LKT_CHECK_ERROR_MESSAGE("S8.1 backend name of NULL sets the message", "display");
    lkt_error_mark();
    size = lk_display_get_size(NULL);
    LKT_CHECK(size.width == 0 && size.height == 0, "S8.1 size of NULL is zero", "got %s",
              lkt_fmt_size(size));
    LKT_CHECK_ERROR_MESSAGE("S8.1 size of NULL sets the message", "display");
    lkt_error_mark();
    s = lk_display_render_frame_at(NULL, 0);
    LKT_CHECK_ERROR("S8.1 render_frame_at(NULL) is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "display");
    lkt_error_mark();
    s = lk_display_read_pixels(NULL, px, 4);
    LKT_CHECK_ERROR("S8.1 read_pixels(NULL display) is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "display");
    lkt_error_mark();
    s = lk_display_set_root_layer(NULL, NULL);
    LKT_CHECK_ERROR("S8.1 set_root_layer(NULL display) is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "display");
    {
        lk_display *d = open_with("software", 8, 8);
        if (d) {
            lkt_error_mark();
            s = lk_display_render_frame_at(d, NAN);
            LKT_CHECK_ERROR("S8.1 render_frame_at(NaN) is an invalid argument", s,
                            LK_ERROR_INVALID_ARGUMENT, "time|nan|finite");
            lk_display_close(d);
        }
    }
}

/* S8.1: a display with a real clock whose render thread cannot start (the
   address space limited to 1 MB beyond what the process holds: no room
   for a thread's stack) is an error that says so, not a display that never
   draws, whose close then joined a thread that was never made. Not under
   valgrind, which needs room of its own. */
static void check_render_thread_refused(void)
{
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "vgpreload")) return;
    lk_display *warm = open_with("software", 16, 16);   /* everything loaded before the limit */
    if (warm) lk_display_close(warm);
    struct rlimit saved, limit;
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || getrlimit(RLIMIT_AS, &saved) != 0) {
        if (f) fclose(f);
        return;
    }
    if (fscanf(f, "%ld", &pages) != 1) pages = 0;
    fclose(f);
    if (pages <= 0) return;
    limit = saved;
    limit.rlim_cur = (rlim_t)pages * 4096 + (1 << 20);
    if (setrlimit(RLIMIT_AS, &limit) != 0) return;
    lkt_error_mark();
    lk_display *d = open_clocked("software", 16, 16, false);
    setrlimit(RLIMIT_AS, &saved);
    if (!d) {
        LKT_CHECK_ERROR_MESSAGE("S8.1 a render thread that cannot start is an error naming it", "render thread");
        return;
    }
    /* it opened: then its render thread runs, and draws what is committed */
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, 16, 16));
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();
    lk_display_stats st = lkt_stats(d);
    for (int waited = 0; waited < 100 && st.frames_presented == 0; waited++) {
        struct timespec ten_ms = { 0, 10000000 };
        nanosleep(&ten_ms, NULL);
        st = lkt_stats(d);
    }
    LKT_CHECK(st.frames_presented > 0, "S8.1 a display that opens under a tight limit draws",
              "no frame in 1 s: it opened without a render thread");
    lk_display_close(d);
    lk_release(root);
}

/* S8.1, S8.2: the drm backend refuses a LAYERKIT_DRM_PATH it does not take
   by name, value and what it takes, before it looks for a device, as it
   refuses LAYERKIT_DRM_ROTATION and _BUFFERS (and now _ATOMIC, which took
   any value but 0 for "atomic" without a word): where no device opens (this
   machine, without /dev/dri) the error said only that. Refused the same
   on a machine with one (docs/drm.md). */
/* The drm backend with $name=value set: no display, and the error says why. */
static void check_drm_refuses(const char *name, const char *value, const char *what, const char *message)
{
    char label[160];
    setenv(name, value, 1);
    lkt_error_mark();
    lk_display *d = open_with("drm", 32, 32);
    snprintf(label, sizeof label, "S8.1 the drm backend with %s=%s does not open", name, value);
    LKT_CHECK(d == NULL, label, "got a display");
    snprintf(label, sizeof label, "S8.1 ... and says %s", what);
    LKT_CHECK_ERROR_MESSAGE(label, message);
    lk_display_close(d);
    unsetenv(name);
}

static void check_drm_path_variable(void)
{
    check_drm_refuses("LAYERKIT_DRM_PATH", "gbm", "LAYERKIT_DRM_PATH=gbm is not a render path it takes",
                      "LAYERKIT_DRM_PATH=gbm: expected gles or dumb");
    check_drm_refuses("LAYERKIT_DRM_ATOMIC", "yes", "LAYERKIT_DRM_ATOMIC takes 0 or 1",
                      "LAYERKIT_DRM_ATOMIC=yes: expected 0 (legacy modesetting) or 1");
}

int main(void)
{
    check_open();
    check_backend_choice();
    check_drm_path_variable();
    check_frames();
    check_root_in_one_tree();
    check_root_not_adopted();
    check_root_survives_close();
    check_stats();
    check_null_display();
    check_render_thread_refused();
    return lkt_finish();
}
