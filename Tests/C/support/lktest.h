/*
 * lktest: the small harness of LayerKit's C behaviour tests.
 *
 * Protocol (Tests/run-c-tests.sh relies on it): every check prints one line,
 * `PASS <name>` or `FAIL <name>: <file>:<line>: <reason>`, on stdout, and
 * lkt_finish() returns the exit status (non-zero if any check failed). Check
 * names cite the rule they prove (`S1.2 frame with rotation`).
 *
 * Written in the common subset of C99 and C++17: every test is compiled as
 * both.
 */
#ifndef LKTEST_H
#define LKTEST_H

#include <layerkit/layerkit.h>
#include <stddef.h>
#include <stdint.h>

#include "lkt_pixels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LKT_PI 3.14159265358979323846

#if defined(__GNUC__)
#define LKT_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define LKT_PRINTF(fmt_index, first_arg)
#endif

/* ---- checks ------------------------------------------------------------ */

/* Records a check; returns ok. The message (printf format, always given)
   says what was expected and what came instead. */
int lkt_check_at(int ok, const char *file, int line, const char *name,
                 const char *fmt, ...) LKT_PRINTF(5, 6);
#define LKT_CHECK(cond, name, ...) \
    lkt_check_at((cond) ? 1 : 0, __FILE__, __LINE__, name, __VA_ARGS__)

/* The exit status for main: 0 if every check passed. Prints a summary on
   stderr (stdout carries only PASS/FAIL lines). */
int lkt_finish(void);
/* Number of failed checks so far. */
int lkt_failures(void);

/* ---- near-equality ----------------------------------------------------- */

int lkt_near(double got, double want, double eps);
int lkt_point_near(lk_point got, lk_point want, double eps);
int lkt_size_near(lk_size got, lk_size want, double eps);
int lkt_rect_near(lk_rect got, lk_rect want, double eps);
int lkt_color_near(lk_color got, lk_color want, double eps);
int lkt_transform_near(lk_transform3d got, lk_transform3d want, double eps);
int lkt_affine_near(lk_affine got, lk_affine want, double eps);

/* Same type and value (strings by content, objects by pointer). */
int lkt_value_equal(const lk_value *a, const lk_value *b);

/* Formatting into a rotating set of static buffers (fine for one printf). */
const char *lkt_fmt_point(lk_point p);
const char *lkt_fmt_size(lk_size s);
const char *lkt_fmt_rect(lk_rect r);
const char *lkt_fmt_color(lk_color c);
const char *lkt_fmt_transform(lk_transform3d t);
const char *lkt_fmt_affine(lk_affine m);
const char *lkt_status_name(lk_status s);
const char *lkt_value_type_name(lk_value_type t);

int lkt_check_double_at(const char *file, int line, const char *name,
                        double got, double want, double eps);
int lkt_check_point_at(const char *file, int line, const char *name,
                       lk_point got, lk_point want, double eps);
int lkt_check_size_at(const char *file, int line, const char *name,
                      lk_size got, lk_size want, double eps);
int lkt_check_rect_at(const char *file, int line, const char *name,
                      lk_rect got, lk_rect want, double eps);
int lkt_check_color_at(const char *file, int line, const char *name,
                       lk_color got, lk_color want, double eps);
int lkt_check_transform_at(const char *file, int line, const char *name,
                           lk_transform3d got, lk_transform3d want, double eps);
int lkt_check_status_at(const char *file, int line, const char *name,
                        lk_status got, lk_status want);

#define LKT_CHECK_NEAR(name, got, want, eps) \
    lkt_check_double_at(__FILE__, __LINE__, name, got, want, eps)
#define LKT_CHECK_POINT(name, got, want, eps) \
    lkt_check_point_at(__FILE__, __LINE__, name, got, want, eps)
#define LKT_CHECK_SIZE(name, got, want, eps) \
    lkt_check_size_at(__FILE__, __LINE__, name, got, want, eps)
#define LKT_CHECK_RECT(name, got, want, eps) \
    lkt_check_rect_at(__FILE__, __LINE__, name, got, want, eps)
#define LKT_CHECK_COLOR(name, got, want, eps) \
    lkt_check_color_at(__FILE__, __LINE__, name, got, want, eps)
#define LKT_CHECK_TRANSFORM(name, got, want, eps) \
    lkt_check_transform_at(__FILE__, __LINE__, name, got, want, eps)
#define LKT_CHECK_STATUS(name, got, want) \
    lkt_check_status_at(__FILE__, __LINE__, name, got, want)

/* ---- error messages ---------------------------------------------------- */

/* lk_last_error() keeps the message of the last *failed* call, so a getter
   that cannot return a status is checked like this:
       lkt_error_mark();            -- provokes a known, unique failure
       x = lk_layer_get_opacity(NULL);
       lkt_error_since_mark()       -- the message, or NULL if no call failed
                                       since the mark (the marker is still there)
   The marker is an unknown key path, which S1.6 says the message names. */
void lkt_error_mark(void);
const char *lkt_error_since_mark(void);

/* True if msg mentions one of the '|'-separated alternatives, case-
   insensitively; alternatives of one or two characters ("p", "r") must stand
   as a whole word. */
int lkt_mentions(const char *msg, const char *alternatives);

/* Checks a failed call: status == want, and a message set since the last
   lkt_error_mark() that mentions one of `mentions` (NULL: any non-empty). */
int lkt_check_error_at(const char *file, int line, const char *name,
                       lk_status got, lk_status want, const char *mentions);
#define LKT_CHECK_ERROR(name, got, want, mentions) \
    lkt_check_error_at(__FILE__, __LINE__, name, got, want, mentions)
/* As above for calls that return no status: only the message is checked. */
int lkt_check_error_message_at(const char *file, int line, const char *name,
                               const char *mentions);
#define LKT_CHECK_ERROR_MESSAGE(name, mentions) \
    lkt_check_error_message_at(__FILE__, __LINE__, name, mentions)

/* ---- layers and transforms the test's own way -------------------------- */

/* Places a layer with the default anchor point so that its frame is
   (x, y, w, h): bounds (0, 0, w, h), position at the centre. */
lk_status lkt_layer_place(lk_layer *layer, double x, double y, double w, double h);
/* A new layer placed as above, with a background colour, added to parent
   (if not NULL). The parent holds the only reference when parent != NULL. */
lk_layer *lkt_layer_new(lk_layer *parent, double x, double y, double w, double h,
                        lk_color background);

/* Row-vector transforms computed by the tests themselves (independent of
   the library's helpers). */
lk_transform3d lkt_t_identity(void);
lk_transform3d lkt_t_mul(lk_transform3d a, lk_transform3d b); /* a then b */
lk_transform3d lkt_t_translation(double tx, double ty, double tz);
lk_transform3d lkt_t_scale(double sx, double sy, double sz);
lk_transform3d lkt_t_rotation_z(double angle); /* m11=c m12=s m21=-s m22=c */
lk_transform3d lkt_t_rotation_x(double angle); /* m22=c m23=s m32=-s m33=c */
lk_transform3d lkt_t_rotation_y(double angle); /* m11=c m13=-s m31=s m33=c */
lk_transform3d lkt_t_perspective(double d);    /* m34 = -1/d */
/* [x y z 1] * t, divided by w */
void lkt_t_apply(lk_transform3d t, double x, double y, double z,
                 double *ox, double *oy, double *oz);

/* ---- display helpers ---------------------------------------------------- */

/* The backend the rendering tests draw with: $LKTEST_BACKEND, else "software". */
const char *lkt_backend(void);
/* A display of w x h on lkt_backend() with a manual clock, or NULL (and a
   FAIL line naming `why`). */
lk_display *lkt_open_display(uint32_t w, uint32_t h, const char *why);
/* The display's statistics (zeros but struct_size when the call fails). */
lk_display_stats lkt_stats(const lk_display *display);
/* Renders a frame well after every change made so far (so that anything
   time-dependent has settled) and reads it into a new RGBA8 buffer of
   w * h * 4 bytes (free with free()). NULL (and a FAIL line) on failure. */
uint8_t *lkt_render_and_read(lk_display *display, const char *why);

/* ---- reference images --------------------------------------------------- */

/* One check named `reference <reference_name>`: every channel within
   `tolerance` of $LKTEST_REFERENCE_DIR/<reference_name>.png, except at most
   max_bad_pixels pixels (see lkt_compare_to_reference_ex for the files
   written on failure). Returns 1 if it passed. */
int lkt_compare_to_reference(const uint8_t *rgba, uint32_t width, uint32_t height,
                             size_t stride, const char *reference_name,
                             int tolerance, int max_bad_pixels);
/* The same with a full tolerance and the check's own name. */
int lkt_check_reference_at(const char *file, int line, const char *name,
                           const uint8_t *rgba, uint32_t width, uint32_t height,
                           size_t stride, const char *reference_name,
                           lkt_tolerance tolerance);
#define LKT_CHECK_REFERENCE(name, rgba, w, h, stride, reference_name, tolerance) \
    lkt_check_reference_at(__FILE__, __LINE__, name, rgba, w, h, stride, reference_name, tolerance)

#ifdef __cplusplus
}
#endif

#endif
