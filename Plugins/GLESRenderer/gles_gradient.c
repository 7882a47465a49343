/*
 * GRADIENT ops (ABI 3): the quad program with the gradient's colour in
 * place of a solid colour or an image, so coverage, rounded corners, clips
 * and blending are the same code as for every other op.
 *
 * Each fragment maps its pixel centre into the op's local space (as every
 * quad does) and finds its location there: axial by projection onto start ->
 * end, radial by the ellipse's normalised distance from the start, conic by
 * the angle from the direction of the end, clockwise (y down). The colour
 * between two stops interpolates the straight colour and the alpha, then
 * premultiplies: the ABI's rule, and pixman's (the software backend).
 *
 * Stops reach the shader two ways:
 *  - up to LKGL_MAX_UNIFORM_STOPS as uniforms, set when the batch is drawn
 *    (ops with other stops do not share a draw call): nothing is uploaded
 *    when the colours, the locations or the layer's size change;
 *  - more than that as a ramp: a 1-pixel-high texture of LKGL_RAMP_SIZE
 *    (4096) colours computed here, or as many as GL_MAX_TEXTURE_SIZE allows
 *    down to 1024, read with linear filtering (within a level of 8 bits of
 *    the exact colour, except within a texel of a hard stop: a gradient
 *    longer than the ramp spreads one over length / width pixels; 1024
 *    spread the stops of a 5000-pixel gradient over 5 pixels). Ramps are
 *    cached by a hash of the stops in a few slots, so an unchanged gradient
 *    uploads nothing.
 */
#include "gles_private.h"

#include <math.h>
#include <string.h>

#define STR2(x) #x
#define STR(x) STR2(x)

/* Put before the quad program's source (gles_programs.c), which calls
   gradient_color where GRADIENT is defined. */
const char lkgl_gradient_source[] =
    "#ifdef GL_FRAGMENT_PRECISION_HIGH\n"
    "precision highp float;\n"
    "#else\n"
    "precision mediump float;\n"
    "#endif\n"
    "#define MAX_STOPS " STR(LKGL_MAX_UNIFORM_STOPS) "\n"
    "#ifdef RAMP\n"
    "uniform sampler2D u_image;\n"
    "#else\n"
    "uniform vec4 u_stop_colors[MAX_STOPS];\n"
    "uniform float u_stop_locations[MAX_STOPS];\n"
    "uniform int u_stop_count;\n"
    "#endif\n"
    /* points: the start, and the vector from it to the end; kind as in
       lk_dl_gradient_kind. A location of 2 is beyond every stop: the last
       stop's colour (no extent). */
    "float gradient_location(vec2 p, vec4 points, float kind) {\n"
    "    vec2 d = points.zw, q = p - points.xy;\n"
    "    if (kind < 1.5) {\n"
    "        float l = dot(d, d);\n"
    "        return l > 0.0 ? dot(q, d) / l : 2.0;\n"
    "    }\n"
    "    if (kind < 2.5) {\n"
    "        vec2 r = abs(d);\n"
    "        return r.x > 0.0 && r.y > 0.0 ? length(q / r) : 2.0;\n"
    "    }\n"
    "    float l = length(d);\n"
    "    vec2 u = l > 0.0 ? d / l : vec2(1.0, 0.0);\n"
    "    float x = dot(q, u), y = dot(q, vec2(-u.y, u.x));\n"
    "    if (x == 0.0 && y == 0.0) return 0.0;\n"
    "    return fract(atan(y, x) / 6.283185307179586);\n"
    "}\n"
    "vec4 gradient_color(vec2 p, vec4 points, float kind) {\n"
    "    float t = gradient_location(p, points, kind);\n"
    "#ifdef RAMP\n"
    "    float at = (clamp(t, 0.0, 1.0) * (RAMP_SIZE - 1.0) + 0.5) / RAMP_SIZE;\n"
    "    return texture2D(u_image, vec2(at, 0.5));\n"
    "#else\n"
    "    vec4 c = u_stop_colors[0];\n"
    "    for (int i = 1; i < MAX_STOPS; i++) {\n"
    "        if (i >= u_stop_count) break;\n"
    "        float l0 = u_stop_locations[i - 1], l1 = u_stop_locations[i];\n"
    "        if (t >= l1) c = u_stop_colors[i];\n"
    "        else if (t > l0) c = mix(u_stop_colors[i - 1], u_stop_colors[i], (t - l0) / (l1 - l0));\n"
    "    }\n"
    "    return vec4(c.rgb * c.a, c.a);\n"
    "#endif\n"
    "}\n";

bool lkgl_gradient_validate(const lkgl_renderer *r, const lk_dl_op *op, uint32_t index, char *error,
                            size_t error_size)
{
    if (op->gradient_kind < LK_DL_GRADIENT_AXIAL || op->gradient_kind > LK_DL_GRADIENT_CONIC) {
        lkgl_set_error(error, error_size, "%s: op %u: unknown gradient_kind %u", r->label, index,
                       op->gradient_kind);
        return false;
    }
    if (op->gradient_stop_count == 0 || !op->gradient_stops) {
        lkgl_set_error(error, error_size, "%s: op %u: GRADIENT without stops (gradient_stop_count %u%s)",
                       r->label, index, op->gradient_stop_count,
                       op->gradient_stops ? "" : ", gradient_stops NULL");
        return false;
    }
    double last = 0.0;
    for (uint32_t k = 0; k < op->gradient_stop_count; k++) {
        double l = op->gradient_stops[k].location;
        if (!(l >= 0.0 && l <= 1.0) || l < last) {
            lkgl_set_error(error, error_size, "%s: op %u: gradient stop %u location %g is %s", r->label, index,
                           k, l, (l >= 0.0 && l <= 1.0) ? "less than the one before it" : "outside 0...1");
            return false;
        }
        last = l;
    }
    return true;
}

static float unit(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

void lkgl_gradient_set_stops(lkgl_renderer *r, const lkgl_program *p, const lk_dl_gradient_stop *stops,
                             uint32_t count)
{
    GLfloat colors[LKGL_MAX_UNIFORM_STOPS * 4], locations[LKGL_MAX_UNIFORM_STOPS];
    if (count > LKGL_MAX_UNIFORM_STOPS) count = LKGL_MAX_UNIFORM_STOPS;
    for (uint32_t k = 0; k < count; k++) {
        colors[k * 4 + 0] = unit(stops[k].color.r);
        colors[k * 4 + 1] = unit(stops[k].color.g);
        colors[k * 4 + 2] = unit(stops[k].color.b);
        colors[k * 4 + 3] = unit(stops[k].color.a);
        locations[k] = (GLfloat)stops[k].location;
    }
    glUniform4fv(p->u_stop_colors, (GLsizei)count, colors);
    glUniform1fv(p->u_stop_locations, (GLsizei)count, locations);
    glUniform1i(p->u_stop_count, (GLint)count);
    r->frame.state_changes++;
}

/* FNV-1a over the stops' bytes. */
static uint64_t stops_hash(const lk_dl_gradient_stop *stops, uint32_t count)
{
    uint64_t h = 1469598103934665603ull ^ count;
    for (uint32_t k = 0; k < count; k++) {
        double values[5] = { stops[k].location, stops[k].color.r, stops[k].color.g, stops[k].color.b,
                             stops[k].color.a };
        const unsigned char *bytes = (const unsigned char *)values;
        for (size_t i = 0; i < sizeof values; i++) h = (h ^ bytes[i]) * 1099511628211ull;
    }
    return h;
}

/* The straight colour at location t, premultiplied, as RGBA bytes. */
static void ramp_texel(const lk_dl_gradient_stop *stops, uint32_t count, double t, uint8_t out[4])
{
    lk_dl_color c = stops[0].color;
    for (uint32_t i = 1; i < count; i++) {
        double l0 = stops[i - 1].location, l1 = stops[i].location;
        if (t >= l1) {
            c = stops[i].color;
        } else if (t > l0) {
            float f = (float)((t - l0) / (l1 - l0));
            lk_dl_color a = stops[i - 1].color, b = stops[i].color;
            c.r = unit(a.r) + (unit(b.r) - unit(a.r)) * f;
            c.g = unit(a.g) + (unit(b.g) - unit(a.g)) * f;
            c.b = unit(a.b) + (unit(b.b) - unit(a.b)) * f;
            c.a = unit(a.a) + (unit(b.a) - unit(a.a)) * f;
        }
    }
    float a = unit(c.a);
    out[0] = (uint8_t)lrintf(unit(c.r) * a * 255.0f);
    out[1] = (uint8_t)lrintf(unit(c.g) * a * 255.0f);
    out[2] = (uint8_t)lrintf(unit(c.b) * a * 255.0f);
    out[3] = (uint8_t)lrintf(a * 255.0f);
}

int32_t lkgl_ramp_size(const lkgl_renderer *r)
{
    return r->max_texture_size < LKGL_RAMP_SIZE ? r->max_texture_size : LKGL_RAMP_SIZE;
}

const lkgl_texture *lkgl_gradient_ramp(lkgl_renderer *r, const lk_dl_op *op, char *error, size_t error_size)
{
    uint64_t hash = stops_hash(op->gradient_stops, op->gradient_stop_count);
    for (int i = 0; i < LKGL_RAMPS; i++)
        if (r->ramps[i].texture && r->ramps[i].id == hash) return &r->ramps[i];
    const int32_t size = lkgl_ramp_size(r);
    if (size < LKGL_RAMP_MIN_SIZE) {
        lkgl_set_error(error, error_size,
                       "%s: a gradient of %u stops needs a texture %d wide, larger than GL_MAX_TEXTURE_SIZE (%d)",
                       r->label, op->gradient_stop_count, LKGL_RAMP_MIN_SIZE, (int)r->max_texture_size);
        return NULL;
    }
    lkgl_texture *t = &r->ramps[r->next_ramp];
    r->next_ramp = (r->next_ramp + 1) % LKGL_RAMPS;
    lkgl_flush(r);   /* a pending batch may still sample this slot's old ramp */
    bool created = false;
    if (!t->texture) {
        glGenTextures(1, &t->texture);
        created = true;
    }
    uint8_t texels[LKGL_RAMP_SIZE * 4];
    for (int i = 0; i < size; i++)
        ramp_texel(op->gradient_stops, op->gradient_stop_count, (double)i / (size - 1), texels + i * 4);
    lkgl_bind_texture(r, 0, t->texture);
    while (glGetError() != GL_NO_ERROR) {}
    if (created) {
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, size, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    } else {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, size, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    }
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        lkgl_set_error(error, error_size, "%s: uploading a gradient ramp (%u stops) failed: %s", r->label,
                       op->gradient_stop_count, lkgl_gl_error_name(e));
        glDeleteTextures(1, &t->texture);
        t->texture = 0;
        r->state.texture[0] = 0;
        return NULL;
    }
    t->id = hash;
    t->width = (uint32_t)size;
    t->height = 1;
    r->frame.texture_uploads++;
    r->frame.upload_bytes += (size_t)size * 4;
    return t;
}

_Static_assert(sizeof lkgl_gradient_source + 128 <= LKGL_GRADIENT_SOURCE_MAX, "LKGL_GRADIENT_SOURCE_MAX is too small");

void lkgl_gradient_free(lkgl_renderer *r)
{
    for (int i = 0; i < LKGL_RAMPS; i++) {
        if (r->ramps[i].texture) glDeleteTextures(1, &r->ramps[i].texture);
        r->ramps[i].texture = 0;
    }
}
