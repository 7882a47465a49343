/* The C tests' harness: checks, near-equality, error messages, helpers. */
#include "lktest.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed_count = 0;
static int failed_count = 0;

static void vcheck(int ok, const char *file, int line, const char *name, const char *fmt,
                   va_list ap)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (ok) {
        passed_count++;
        printf("PASS %s\n", name);
    } else {
        char message[8192];
        size_t i;
        failed_count++;
        vsnprintf(message, sizeof message, fmt, ap);
        /* one line per check */
        for (i = 0; message[i]; i++)
            if (message[i] == '\n' || message[i] == '\r') message[i] = ' ';
        printf("FAIL %s: %s:%d: %s\n", name, base, line, message);
    }
    fflush(stdout);
}

int lkt_check_at(int ok, const char *file, int line, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vcheck(ok, file, line, name, fmt, ap);
    va_end(ap);
    return ok;
}

int lkt_finish(void)
{
    fprintf(stderr, "# %d passed, %d failed\n", passed_count, failed_count);
    return failed_count ? 1 : 0;
}

int lkt_failures(void) { return failed_count; }

/* ---- near-equality ------------------------------------------------------ */

int lkt_near(double got, double want, double eps)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return fabs(got - want) <= eps;
}

int lkt_point_near(lk_point g, lk_point w, double eps)
{
    return lkt_near(g.x, w.x, eps) && lkt_near(g.y, w.y, eps);
}

int lkt_size_near(lk_size g, lk_size w, double eps)
{
    return lkt_near(g.width, w.width, eps) && lkt_near(g.height, w.height, eps);
}

int lkt_rect_near(lk_rect g, lk_rect w, double eps)
{
    return lkt_point_near(g.origin, w.origin, eps) && lkt_size_near(g.size, w.size, eps);
}

int lkt_color_near(lk_color g, lk_color w, double eps)
{
    return lkt_near(g.r, w.r, eps) && lkt_near(g.g, w.g, eps) && lkt_near(g.b, w.b, eps) &&
           lkt_near(g.a, w.a, eps);
}

static void t_to_array(lk_transform3d t, double m[16])
{
    m[0] = t.m11; m[1] = t.m12; m[2] = t.m13; m[3] = t.m14;
    m[4] = t.m21; m[5] = t.m22; m[6] = t.m23; m[7] = t.m24;
    m[8] = t.m31; m[9] = t.m32; m[10] = t.m33; m[11] = t.m34;
    m[12] = t.m41; m[13] = t.m42; m[14] = t.m43; m[15] = t.m44;
}

static lk_transform3d t_from_array(const double m[16])
{
    lk_transform3d t;
    t.m11 = m[0]; t.m12 = m[1]; t.m13 = m[2]; t.m14 = m[3];
    t.m21 = m[4]; t.m22 = m[5]; t.m23 = m[6]; t.m24 = m[7];
    t.m31 = m[8]; t.m32 = m[9]; t.m33 = m[10]; t.m34 = m[11];
    t.m41 = m[12]; t.m42 = m[13]; t.m43 = m[14]; t.m44 = m[15];
    return t;
}

int lkt_transform_near(lk_transform3d g, lk_transform3d w, double eps)
{
    double a[16], b[16];
    int i;
    t_to_array(g, a);
    t_to_array(w, b);
    for (i = 0; i < 16; i++)
        if (!lkt_near(a[i], b[i], eps)) return 0;
    return 1;
}

int lkt_affine_near(lk_affine g, lk_affine w, double eps)
{
    return lkt_near(g.a, w.a, eps) && lkt_near(g.b, w.b, eps) && lkt_near(g.c, w.c, eps) &&
           lkt_near(g.d, w.d, eps) && lkt_near(g.tx, w.tx, eps) && lkt_near(g.ty, w.ty, eps);
}

int lkt_value_equal(const lk_value *a, const lk_value *b)
{
    if (a->type != b->type) return 0;
    switch (a->type) {
    case LK_VALUE_NONE: return 1;
    case LK_VALUE_NUMBER: return a->as.number == b->as.number;
    case LK_VALUE_BOOL: return a->as.boolean == b->as.boolean;
    case LK_VALUE_POINT: return lkt_point_near(a->as.point, b->as.point, 0);
    case LK_VALUE_SIZE: return lkt_size_near(a->as.size, b->as.size, 0);
    case LK_VALUE_RECT: return lkt_rect_near(a->as.rect, b->as.rect, 0);
    case LK_VALUE_COLOR: return lkt_color_near(a->as.color, b->as.color, 0);
    case LK_VALUE_TRANSFORM: return lkt_transform_near(a->as.transform, b->as.transform, 0);
    case LK_VALUE_IMAGE: return a->as.image == b->as.image;
    case LK_VALUE_PATH: return a->as.path == b->as.path;
    case LK_VALUE_LAYER: return a->as.layer == b->as.layer;
    case LK_VALUE_STRING:
        if (!a->as.string || !b->as.string) return a->as.string == b->as.string;
        return strcmp(a->as.string, b->as.string) == 0;
    }
    return 0;
}

/* ---- formatting ---------------------------------------------------------- */

static char *next_buffer(void)
{
    static char buffers[8][512];
    static int next = 0;
    char *b = buffers[next];
    next = (next + 1) % 8;
    return b;
}

const char *lkt_fmt_point(lk_point p)
{
    char *b = next_buffer();
    snprintf(b, 512, "(%.9g, %.9g)", p.x, p.y);
    return b;
}

const char *lkt_fmt_size(lk_size s)
{
    char *b = next_buffer();
    snprintf(b, 512, "(%.9g x %.9g)", s.width, s.height);
    return b;
}

const char *lkt_fmt_rect(lk_rect r)
{
    char *b = next_buffer();
    snprintf(b, 512, "(%.9g, %.9g, %.9g x %.9g)", r.origin.x, r.origin.y, r.size.width,
             r.size.height);
    return b;
}

const char *lkt_fmt_color(lk_color c)
{
    char *b = next_buffer();
    snprintf(b, 512, "rgba(%.6g, %.6g, %.6g, %.6g)", c.r, c.g, c.b, c.a);
    return b;
}

const char *lkt_fmt_transform(lk_transform3d t)
{
    char *b = next_buffer();
    snprintf(b, 512,
             "[%.6g %.6g %.6g %.6g | %.6g %.6g %.6g %.6g | %.6g %.6g %.6g %.6g | "
             "%.6g %.6g %.6g %.6g]",
             t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34,
             t.m41, t.m42, t.m43, t.m44);
    return b;
}

const char *lkt_fmt_affine(lk_affine m)
{
    char *b = next_buffer();
    snprintf(b, 512, "{a %.6g b %.6g c %.6g d %.6g tx %.6g ty %.6g}", m.a, m.b, m.c, m.d, m.tx,
             m.ty);
    return b;
}

const char *lkt_status_name(lk_status s)
{
    switch (s) {
    case LK_OK: return "LK_OK";
    case LK_ERROR_INVALID_ARGUMENT: return "LK_ERROR_INVALID_ARGUMENT";
    case LK_ERROR_UNKNOWN_KEY_PATH: return "LK_ERROR_UNKNOWN_KEY_PATH";
    case LK_ERROR_TYPE_MISMATCH: return "LK_ERROR_TYPE_MISMATCH";
    case LK_ERROR_HIERARCHY: return "LK_ERROR_HIERARCHY";
    case LK_ERROR_NOT_FOUND: return "LK_ERROR_NOT_FOUND";
    case LK_ERROR_IO: return "LK_ERROR_IO";
    case LK_ERROR_BACKEND: return "LK_ERROR_BACKEND";
    case LK_ERROR_STATE: return "LK_ERROR_STATE";
    case LK_ERROR_OUT_OF_MEMORY: return "LK_ERROR_OUT_OF_MEMORY";
    }
    return "(unknown status)";
}

const char *lkt_value_type_name(lk_value_type t)
{
    switch (t) {
    case LK_VALUE_NONE: return "NONE";
    case LK_VALUE_NUMBER: return "NUMBER";
    case LK_VALUE_BOOL: return "BOOL";
    case LK_VALUE_POINT: return "POINT";
    case LK_VALUE_SIZE: return "SIZE";
    case LK_VALUE_RECT: return "RECT";
    case LK_VALUE_COLOR: return "COLOR";
    case LK_VALUE_TRANSFORM: return "TRANSFORM";
    case LK_VALUE_IMAGE: return "IMAGE";
    case LK_VALUE_PATH: return "PATH";
    case LK_VALUE_STRING: return "STRING";
    case LK_VALUE_LAYER: return "LAYER";
    }
    return "(unknown type)";
}

/* ---- value checks -------------------------------------------------------- */

int lkt_check_double_at(const char *file, int line, const char *name, double got, double want,
                        double eps)
{
    return lkt_check_at(lkt_near(got, want, eps), file, line, name,
                        "expected %.9g (+-%g), got %.9g", want, eps, got);
}

int lkt_check_point_at(const char *file, int line, const char *name, lk_point got,
                       lk_point want, double eps)
{
    return lkt_check_at(lkt_point_near(got, want, eps), file, line, name,
                        "expected %s (+-%g), got %s", lkt_fmt_point(want), eps,
                        lkt_fmt_point(got));
}

int lkt_check_size_at(const char *file, int line, const char *name, lk_size got, lk_size want,
                      double eps)
{
    return lkt_check_at(lkt_size_near(got, want, eps), file, line, name,
                        "expected %s (+-%g), got %s", lkt_fmt_size(want), eps, lkt_fmt_size(got));
}

int lkt_check_rect_at(const char *file, int line, const char *name, lk_rect got, lk_rect want,
                      double eps)
{
    return lkt_check_at(lkt_rect_near(got, want, eps), file, line, name,
                        "expected %s (+-%g), got %s", lkt_fmt_rect(want), eps, lkt_fmt_rect(got));
}

int lkt_check_color_at(const char *file, int line, const char *name, lk_color got,
                       lk_color want, double eps)
{
    return lkt_check_at(lkt_color_near(got, want, eps), file, line, name,
                        "expected %s (+-%g), got %s", lkt_fmt_color(want), eps,
                        lkt_fmt_color(got));
}

int lkt_check_transform_at(const char *file, int line, const char *name, lk_transform3d got,
                           lk_transform3d want, double eps)
{
    return lkt_check_at(lkt_transform_near(got, want, eps), file, line, name,
                        "expected %s (+-%g), got %s", lkt_fmt_transform(want), eps,
                        lkt_fmt_transform(got));
}

int lkt_check_status_at(const char *file, int line, const char *name, lk_status got,
                        lk_status want)
{
    if (got == want) return lkt_check_at(1, file, line, name, "ok");
    return lkt_check_at(0, file, line, name, "expected %s, got %s (last error: \"%s\")",
                        lkt_status_name(want), lkt_status_name(got), lk_last_error());
}

/* ---- error messages ------------------------------------------------------ */

static char marker[64] = "";

void lkt_error_mark(void)
{
    static int counter = 0;
    static lk_layer *marker_layer = NULL;
    lk_value v;
    if (!marker_layer) marker_layer = lk_layer_create();
    snprintf(marker, sizeof marker, "lktestMarkerKeyPath%d", ++counter);
    memset(&v, 0, sizeof v);
    /* unknown key path: fails, and S1.6 says the message names it */
    (void)lk_layer_get_value(marker_layer, marker, &v);
}

const char *lkt_error_since_mark(void)
{
    const char *msg = lk_last_error();
    if (!msg || !*msg) return NULL;
    if (marker[0] && strstr(msg, marker)) return NULL;
    return msg;
}

static int word_char(int c) { return isalnum(c) || c == '_'; }

static int mentions_one(const char *msg, const char *word, size_t n)
{
    size_t len = strlen(msg), i, j;
    if (n == 0) return 0;
    for (i = 0; i + n <= len; i++) {
        for (j = 0; j < n; j++)
            if (tolower((unsigned char)msg[i + j]) != tolower((unsigned char)word[j])) break;
        if (j < n) continue;
        if (n > 2) return 1;
        if ((i == 0 || !word_char((unsigned char)msg[i - 1])) &&
            (i + n == len || !word_char((unsigned char)msg[i + n])))
            return 1;
    }
    return 0;
}

int lkt_mentions(const char *msg, const char *alternatives)
{
    const char *p = alternatives;
    if (!msg) return 0;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (mentions_one(msg, p, n)) return 1;
        if (!bar) break;
        p = bar + 1;
    }
    return 0;
}

int lkt_check_error_message_at(const char *file, int line, const char *name,
                               const char *mentions)
{
    const char *msg = lkt_error_since_mark();
    if (!msg)
        return lkt_check_at(0, file, line, name,
                            "no error message was set (lk_last_error() is \"%s\")",
                            lk_last_error());
    if (mentions && !lkt_mentions(msg, mentions))
        return lkt_check_at(0, file, line, name, "message \"%s\" does not mention %s", msg,
                            mentions);
    return lkt_check_at(1, file, line, name, "ok");
}

int lkt_check_error_at(const char *file, int line, const char *name, lk_status got,
                       lk_status want, const char *mentions)
{
    const char *msg = lkt_error_since_mark();
    if (got != want)
        return lkt_check_at(0, file, line, name, "expected %s, got %s (message \"%s\")",
                            lkt_status_name(want), lkt_status_name(got), lk_last_error());
    if (!msg)
        return lkt_check_at(0, file, line, name,
                            "%s but no error message was set (lk_last_error() is \"%s\")",
                            lkt_status_name(got), lk_last_error());
    if (mentions && !lkt_mentions(msg, mentions))
        return lkt_check_at(0, file, line, name, "message \"%s\" does not mention %s", msg,
                            mentions);
    return lkt_check_at(1, file, line, name, "ok");
}

/* ---- layers -------------------------------------------------------------- */

lk_status lkt_layer_place(lk_layer *layer, double x, double y, double w, double h)
{
    lk_status s = lk_layer_set_bounds(layer, lk_rect_make(0, 0, w, h));
    if (s != LK_OK) return s;
    return lk_layer_set_position(layer, lk_point_make(x + w / 2, y + h / 2));
}

lk_layer *lkt_layer_new(lk_layer *parent, double x, double y, double w, double h,
                        lk_color background)
{
    lk_layer *layer = lk_layer_create();
    if (!layer) return NULL;
    lkt_layer_place(layer, x, y, w, h);
    lk_layer_set_background_color(layer, background);
    if (parent) {
        lk_layer_add_sublayer(parent, layer);
        lk_release(layer);
    }
    return layer;
}

/* ---- transforms the tests' own way -------------------------------------- */

lk_transform3d lkt_t_identity(void)
{
    double m[16];
    memset(m, 0, sizeof m);
    m[0] = m[5] = m[10] = m[15] = 1;
    return t_from_array(m);
}

lk_transform3d lkt_t_mul(lk_transform3d ta, lk_transform3d tb)
{
    double a[16], b[16], r[16];
    int i, j, k;
    t_to_array(ta, a);
    t_to_array(tb, b);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            double s = 0;
            for (k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 4 + j];
            r[i * 4 + j] = s;
        }
    return t_from_array(r);
}

lk_transform3d lkt_t_translation(double tx, double ty, double tz)
{
    lk_transform3d t = lkt_t_identity();
    t.m41 = tx;
    t.m42 = ty;
    t.m43 = tz;
    return t;
}

lk_transform3d lkt_t_scale(double sx, double sy, double sz)
{
    lk_transform3d t = lkt_t_identity();
    t.m11 = sx;
    t.m22 = sy;
    t.m33 = sz;
    return t;
}

lk_transform3d lkt_t_rotation_z(double angle)
{
    lk_transform3d t = lkt_t_identity();
    t.m11 = cos(angle);
    t.m12 = sin(angle);
    t.m21 = -sin(angle);
    t.m22 = cos(angle);
    return t;
}

lk_transform3d lkt_t_rotation_x(double angle)
{
    lk_transform3d t = lkt_t_identity();
    t.m22 = cos(angle);
    t.m23 = sin(angle);
    t.m32 = -sin(angle);
    t.m33 = cos(angle);
    return t;
}

lk_transform3d lkt_t_rotation_y(double angle)
{
    lk_transform3d t = lkt_t_identity();
    t.m11 = cos(angle);
    t.m13 = -sin(angle);
    t.m31 = sin(angle);
    t.m33 = cos(angle);
    return t;
}

lk_transform3d lkt_t_perspective(double d)
{
    lk_transform3d t = lkt_t_identity();
    t.m34 = -1.0 / d;
    return t;
}

void lkt_t_apply(lk_transform3d t, double x, double y, double z, double *ox, double *oy,
                 double *oz)
{
    double X = x * t.m11 + y * t.m21 + z * t.m31 + t.m41;
    double Y = x * t.m12 + y * t.m22 + z * t.m32 + t.m42;
    double Z = x * t.m13 + y * t.m23 + z * t.m33 + t.m43;
    double W = x * t.m14 + y * t.m24 + z * t.m34 + t.m44;
    if (ox) *ox = X / W;
    if (oy) *oy = Y / W;
    if (oz) *oz = Z / W;
}

/* ---- displays ------------------------------------------------------------ */

const char *lkt_backend(void)
{
    const char *name = getenv("LKTEST_BACKEND");
    return name && *name ? name : "software";
}

lk_display_stats lkt_stats(const lk_display *display)
{
    lk_display_stats st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    lk_display_get_stats(display, &st);
    return st;
}

lk_display *lkt_open_display(uint32_t w, uint32_t h, const char *why)
{
    lk_display_options o;
    lk_display *d;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = lkt_backend();
    o.width = w;
    o.height = h;
    o.manual_clock = true;
    d = lk_display_open(&o);
    if (!d)
        LKT_CHECK(0, why, "lk_display_open(%s, %ux%u, manual clock) failed: %s",
                  lkt_backend(), (unsigned)w, (unsigned)h, lk_last_error());
    return d;
}

uint8_t *lkt_render_and_read(lk_display *display, const char *why)
{
    lk_size size = lk_display_get_size(display);
    uint32_t w = (uint32_t)size.width, h = (uint32_t)size.height;
    uint8_t *pixels;
    lk_status s;
    /* well after now: whatever may animate towards the model values has
       finished by then */
    s = lk_display_render_frame_at(display, lk_media_time() + 60.0);
    if (s != LK_OK) {
        LKT_CHECK(0, why, "lk_display_render_frame_at: %s: %s", lkt_status_name(s),
                  lk_last_error());
        return NULL;
    }
    pixels = (uint8_t *)calloc((size_t)w * h * 4 + 4, 1);
    if (!pixels) return NULL;
    s = lk_display_read_pixels(display, pixels, (size_t)w * 4);
    if (s != LK_OK) {
        LKT_CHECK(0, why, "lk_display_read_pixels: %s: %s", lkt_status_name(s), lk_last_error());
        free(pixels);
        return NULL;
    }
    return pixels;
}

/* ---- reference images ---------------------------------------------------- */

int lkt_check_reference_at(const char *file, int line, const char *name, const uint8_t *rgba,
                           uint32_t width, uint32_t height, size_t stride,
                           const char *reference_name, lkt_tolerance tolerance)
{
    lkt_compare_result r;
    lkt_compare_to_reference_ex(rgba, width, height, stride, reference_name, tolerance, &r);
    if (r.ok) fprintf(stderr, "# %s: %s\n", reference_name, r.message);
    return lkt_check_at(r.ok, file, line, name, "%s", r.message);
}

int lkt_compare_to_reference(const uint8_t *rgba, uint32_t width, uint32_t height,
                             size_t stride, const char *reference_name, int tolerance,
                             int max_bad_pixels)
{
    char name[300];
    lkt_tolerance t;
    t.flat = tolerance;
    t.edge = tolerance;
    t.max_edge_pixels = 0;
    t.max_bad_pixels = max_bad_pixels;
    snprintf(name, sizeof name, "reference %s", reference_name);
    return lkt_check_reference_at(__FILE__, __LINE__, name, rgba, width, height, stride,
                                  reference_name, t);
}
