/*
 * The renderer's shader programs, written in GLSL ES 1.00 so that one source
 * serves OpenGL ES 2.0 and 3.x.
 *
 * The quad program draws every FILL, BORDER and IMAGE op, and the clip
 * shapes: its vertices cover the op's pixel bounds and carry the inverse of
 * the op's transform, so each fragment maps its pixel centre back into the
 * op's local space and computes there what the software backend computes on
 * the CPU: the area of the pixel inside the (rounded) rect, exact for every
 * straight edge under any transform (the area of a unit square on one side
 * of a line, from the line's distance and direction in output pixels), the
 * border's band as the outer shape less the inner one, and the image sampled
 * at the mapped point. Variants: textured or solid, with or without a clip
 * mask.
 */
#include "gles_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRECISION \
    "#ifdef GL_FRAGMENT_PRECISION_HIGH\n" \
    "precision highp float;\n" \
    "#else\n" \
    "precision mediump float;\n" \
    "#endif\n"

static const char quad_vertex[] =
    "attribute vec2 a_pos;\n"
    "attribute vec3 a_h0, a_h1, a_h2;\n"
    "attribute vec4 a_shape, a_rect, a_color, a_uv, a_uv_clamp;\n"
    "uniform vec2 u_viewport;\n"
    "varying vec3 v_h0, v_h1, v_h2;\n"
    "varying vec4 v_shape, v_rect, v_color, v_uv, v_uv_clamp;\n"
    "void main() {\n"
    "    v_h0 = a_h0; v_h1 = a_h1; v_h2 = a_h2;\n"
    "    v_shape = a_shape; v_rect = a_rect; v_color = a_color;\n"
    "    v_uv = a_uv; v_uv_clamp = a_uv_clamp;\n"
    "    gl_Position = vec4(a_pos / u_viewport * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

static const char quad_fragment[] =
    PRECISION
    "varying vec3 v_h0, v_h1, v_h2;\n"
    "varying vec4 v_shape, v_rect, v_color, v_uv, v_uv_clamp;\n"
    "uniform vec2 u_viewport;\n"
    "#ifdef TEXTURED\n"
    "uniform sampler2D u_image;\n"
    "#endif\n"
    "#ifdef CLIP\n"
    "uniform sampler2D u_clip;\n"
    "#endif\n"
    /* The area of the unit pixel square on the inside of a straight edge at
       signed distance d from the pixel centre (pixels, > 0 inside), with
       unit normal n: linear while the edge crosses two opposite sides,
       quadratic where it cuts a corner. */
    "float edge_coverage(float d, vec2 n) {\n"
    "    n = abs(n);\n"
    "    float a = max(n.x, n.y), b = min(n.x, n.y);\n"
    "    float h = 0.5 * (a + b);\n"
    "    if (d >= h) return 1.0;\n"
    "    if (d <= -h) return 0.0;\n"
    "    if (abs(d) <= 0.5 * (a - b)) return 0.5 + d / a;\n"
    "    float e = min(h - abs(d), b);\n"
    "    float corner = e * e / (2.0 * a * b);\n"
    "    return d > 0.0 ? 1.0 - corner : corner;\n"
    "}\n"
    /* The pixel's area inside the line L.x X + L.y Y + L.z = 0 of output
       space (inside where it is positive). */
    "float line_coverage(vec3 l, vec3 dev) {\n"
    "    float len = length(l.xy);\n"
    "    if (len <= 0.0) return l.z > 0.0 ? 1.0 : 0.0;\n"
    "    return edge_coverage(dot(l, dev) / len, l.xy / len);\n"
    "}\n"
    /* Between two opposite edges the covered area is the sum of both sides
       less the whole pixel (exact for parallel edges); the two directions
       multiply (exact for axis-aligned rects; at the corners of rotated
       ones within a few percent). An edge x = x0 of local space is the line
       h0 - x0 h2 of output space, straight under perspective too. */
    "float shape_coverage(vec2 p, vec2 jx, vec2 jy, vec3 dev, vec4 rect, float radius, bool aa) {\n"
    "    vec2 c = clamp(p, rect.xy + radius, rect.zw - radius);\n"
    "    vec2 d = p - c;\n"
    "    bool corner = radius > 0.0 && d.x != 0.0 && d.y != 0.0;\n"
    "    if (!aa) {\n"
    /* pixel-centre sampling, [x0, x1) x [y0, y1) as the software backend */
    "        if (p.x < rect.x || p.x >= rect.z || p.y < rect.y || p.y >= rect.w) return 0.0;\n"
    "        return corner && length(d) > radius ? 0.0 : 1.0;\n"
    "    }\n"
    "    if (corner) {\n"
    /* the arc's distance, linearised at the pixel through its gradient */
    "        float len = length(d);\n"
    "        vec2 g = -(d.x * jx + d.y * jy) / len;\n"
    "        float gl = length(g);\n"
    "        return gl > 0.0 ? edge_coverage((radius - len) / gl, g / gl) : (len < radius ? 1.0 : 0.0);\n"
    "    }\n"
    "    float cx = line_coverage(v_h0 - rect.x * v_h2, dev) + line_coverage(rect.z * v_h2 - v_h0, dev) - 1.0;\n"
    "    float cy = line_coverage(v_h1 - rect.y * v_h2, dev) + line_coverage(rect.w * v_h2 - v_h1, dev) - 1.0;\n"
    "    return max(cx, 0.0) * max(cy, 0.0);\n"
    "}\n"
    "void main() {\n"
    "    vec3 dev = vec3(gl_FragCoord.xy, 1.0);\n"
    "    vec3 q = vec3(dot(v_h0, dev), dot(v_h1, dev), dot(v_h2, dev));\n"
    /* behind the eye */
    "    if (q.z <= 0.0) discard;\n"
    "    vec2 p = q.xy / q.z;\n"
    /* the local coordinates' gradients in output pixels */
    "    vec2 jx = (v_h0.xy - p.x * v_h2.xy) / q.z;\n"
    "    vec2 jy = (v_h1.xy - p.y * v_h2.xy) / q.z;\n"
    "    bool aa = v_shape.z > 0.5;\n"
    "    float cov = shape_coverage(p, jx, jy, dev, v_rect, v_shape.x, aa);\n"
    "    float bw = v_shape.y;\n"
    "    if (bw > 0.0 && bw < 0.5 * min(v_rect.z - v_rect.x, v_rect.w - v_rect.y))\n"
    "        cov *= 1.0 - shape_coverage(p, jx, jy, dev, v_rect + vec4(bw, bw, -bw, -bw),\n"
    "                                    max(v_shape.x - bw, 0.0), aa);\n"
    "#ifdef TEXTURED\n"
    "    vec2 uv = clamp(vec2(v_uv.x * p.x + v_uv.y, v_uv.z * p.y + v_uv.w), v_uv_clamp.xy, v_uv_clamp.zw);\n"
    /* ARGB32 words uploaded as RGBA bytes arrive as BGRA */
    "    vec4 color = texture2D(u_image, uv).bgra * v_color;\n"
    "#else\n"
    "    vec4 color = v_color;\n"
    "#endif\n"
    "#ifdef CLIP\n"
    "    cov *= texture2D(u_clip, gl_FragCoord.xy / u_viewport).a;\n"
    "#endif\n"
    "    gl_FragColor = color * cov;\n"
    "}\n";

static const char box_vertex[] =
    "attribute vec2 a_pos;\n"
    "uniform vec2 u_viewport;\n"
    "void main() { gl_Position = vec4(a_pos / u_viewport * 2.0 - 1.0, 0.0, 1.0); }\n";

/* Offscreen targets onto the one below: a group times opacity (and a mask's
   alpha), or a shadow: the (blurred) alpha moved by offset, tinted. */
static const char composite_fragment[] =
    PRECISION
    "uniform sampler2D u_source, u_mask, u_clip;\n"
    "uniform vec2 u_viewport, u_offset;\n"
    "uniform vec4 u_tint;\n"
    "uniform float u_opacity, u_mode, u_has_mask, u_has_clip;\n"
    "float inside(vec2 t) { return t.x >= 0.0 && t.y >= 0.0 && t.x <= 1.0 && t.y <= 1.0 ? 1.0 : 0.0; }\n"
    "void main() {\n"
    "    vec2 t = gl_FragCoord.xy / u_viewport;\n"
    "    vec4 c;\n"
    "    if (u_mode > 0.5) {\n"
    "        vec2 s = (gl_FragCoord.xy - u_offset) / u_viewport;\n"
    "        c = u_tint * (texture2D(u_source, s).a * inside(s));\n"
    "    } else {\n"
    "        c = texture2D(u_source, t) * u_opacity;\n"
    "        if (u_has_mask > 0.5) c *= texture2D(u_mask, t).a;\n"
    "    }\n"
    "    if (u_has_clip > 0.5) c *= texture2D(u_clip, t).a;\n"
    "    gl_FragColor = c;\n"
    "}\n";

/* One direction of a separable Gaussian over alpha; taps beyond the target
   read as transparent. */
#define STR2(x) #x
#define STR(x) STR2(x)
static const char blur_fragment[] =
    PRECISION
    "#define TAPS " STR(LKGL_MAX_TAPS) "\n"
    "uniform sampler2D u_source;\n"
    "uniform vec2 u_viewport, u_direction;\n"
    "uniform float u_weights[TAPS + 1];\n"
    "uniform int u_count;\n"
    "float alpha_at(vec2 p) {\n"
    "    vec2 t = p / u_viewport;\n"
    "    return t.x >= 0.0 && t.y >= 0.0 && t.x <= 1.0 && t.y <= 1.0 ? texture2D(u_source, t).a : 0.0;\n"
    "}\n"
    "void main() {\n"
    "    vec2 p = gl_FragCoord.xy;\n"
    "    float a = alpha_at(p) * u_weights[0];\n"
    "    for (int i = 1; i <= TAPS; i++) {\n"
    "        if (i > u_count) break;\n"
    "        vec2 o = u_direction * float(i);\n"
    "        a += (alpha_at(p + o) + alpha_at(p - o)) * u_weights[i];\n"
    "    }\n"
    "    gl_FragColor = vec4(a);\n"
    "}\n";

static const char *const attribute_names[LKGL_ATTR_COUNT] = {
    "a_pos", "a_h0", "a_h1", "a_h2", "a_shape", "a_rect", "a_color", "a_uv", "a_uv_clamp",
};

static GLuint compile_shader(const char *label, const char *name, GLenum kind, const char *source,
                             char *error, size_t error_size)
{
    GLuint shader = glCreateShader(kind);
    if (!shader) {
        lkgl_set_error(error, error_size, "%s: glCreateShader failed for program %s (%s)", label,
                       name, lkgl_gl_error_name(glGetError()));
        return 0;
    }
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        size_t n = strlen(log);
        while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' ')) log[--n] = '\0';
        lkgl_set_error(error, error_size, "%s: the %s shader of program %s does not compile: %s",
                       label, kind == GL_VERTEX_SHADER ? "vertex" : "fragment", name,
                       log[0] ? log : "(no info log)");
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

uint32_t lkgl_compile_program(const char *label, const char *name, const char *vertex_source,
                              const char *fragment_source, char *error, size_t error_size)
{
    GLuint vs = compile_shader(label, name, GL_VERTEX_SHADER, vertex_source, error, error_size);
    if (!vs) return 0;
    GLuint fs = compile_shader(label, name, GL_FRAGMENT_SHADER, fragment_source, error, error_size);
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    for (GLuint i = 0; i < LKGL_ATTR_COUNT; i++) glBindAttribLocation(program, i, attribute_names[i]);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        lkgl_set_error(error, error_size, "%s: program %s does not link: %s", label, name,
                       log[0] ? log : "(no info log)");
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

static bool build(lkgl_renderer *r, int index, const char *name, const char *defines,
                  const char *vertex, const char *fragment, char *error, size_t error_size)
{
    size_t n = strlen(defines) + strlen(fragment) + 1;
    char *source = malloc(n);
    if (!source) {
        lkgl_set_error(error, error_size, "%s: out of memory building program %s", r->label, name);
        return false;
    }
    snprintf(source, n, "%s%s", defines, fragment);
    GLuint id = lkgl_compile_program(r->label, name, vertex, source, error, error_size);
    free(source);
    if (!id) return false;
    lkgl_program *p = &r->programs[index];
    p->id = id;
    p->u_viewport = glGetUniformLocation(id, "u_viewport");
    p->u_image = glGetUniformLocation(id, "u_image");
    p->u_clip = glGetUniformLocation(id, "u_clip");
    p->u_source = glGetUniformLocation(id, "u_source");
    p->u_mask = glGetUniformLocation(id, "u_mask");
    p->u_opacity = glGetUniformLocation(id, "u_opacity");
    p->u_offset = glGetUniformLocation(id, "u_offset");
    p->u_tint = glGetUniformLocation(id, "u_tint");
    p->u_mode = glGetUniformLocation(id, "u_mode");
    p->u_has_mask = glGetUniformLocation(id, "u_has_mask");
    p->u_has_clip = glGetUniformLocation(id, "u_has_clip");
    p->u_weights = glGetUniformLocation(id, "u_weights");
    p->u_count = glGetUniformLocation(id, "u_count");
    p->u_direction = glGetUniformLocation(id, "u_direction");
    /* Samplers never change unit: image/source on 0, clip on 1, mask on 2. */
    glUseProgram(id);
    if (p->u_image >= 0) glUniform1i(p->u_image, 0);
    if (p->u_source >= 0) glUniform1i(p->u_source, 0);
    if (p->u_clip >= 0) glUniform1i(p->u_clip, 1);
    if (p->u_mask >= 0) glUniform1i(p->u_mask, 2);
    glUseProgram(0);
    return true;
}

bool lkgl_programs_create(lkgl_renderer *r, char *error, size_t error_size)
{
    static const char *const quad_names[4] = { "solid", "textured", "solid+clip", "textured+clip" };
    static const char *const quad_defines[4] = {
        "", "#define TEXTURED 1\n", "#define CLIP 1\n", "#define TEXTURED 1\n#define CLIP 1\n",
    };
    for (int i = 0; i < 4; i++)
        if (!build(r, LKGL_PROG_QUAD + i, quad_names[i], quad_defines[i], quad_vertex, quad_fragment,
                   error, error_size))
            return false;
    return build(r, LKGL_PROG_COMPOSITE, "composite", "", box_vertex, composite_fragment, error,
                 error_size) &&
           build(r, LKGL_PROG_BLUR, "blur", "", box_vertex, blur_fragment, error, error_size);
}

void lkgl_programs_destroy(lkgl_renderer *r)
{
    for (int i = 0; i < LKGL_PROG_COUNT; i++) {
        if (r->programs[i].id) glDeleteProgram(r->programs[i].id);
        r->programs[i].id = 0;
    }
}
