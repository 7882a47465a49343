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

/* Positions are output pixels. The target drawn into has its pixel (0, 0)
   at output pixel u_origin (the output: (0, 0); offscreen targets: the
   output grown by the frame's margin, see gles_targets.c) and is u_target
   pixels big; offscreen textures are sampled at output pixel p as
   (p + u_offscreen.xy) / u_offscreen.zw. */
#define TARGET_UNIFORMS "uniform vec2 u_origin, u_target;\nuniform vec4 u_offscreen;\n"

static const char quad_vertex[] =
    "attribute vec2 a_pos;\n"
    "attribute vec3 a_h0, a_h1, a_h2;\n"
    "attribute vec4 a_shape, a_rect, a_color, a_uv, a_uv_clamp;\n"
    TARGET_UNIFORMS
    "varying vec3 v_h0, v_h1, v_h2;\n"
    "varying vec4 v_shape, v_rect, v_color, v_uv, v_uv_clamp;\n"
    "void main() {\n"
    "    v_h0 = a_h0; v_h1 = a_h1; v_h2 = a_h2;\n"
    "    v_shape = a_shape; v_rect = a_rect; v_color = a_color;\n"
    "    v_uv = a_uv; v_uv_clamp = a_uv_clamp;\n"
    "    gl_Position = vec4((a_pos - u_origin) / u_target * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

static const char quad_fragment[] =
    PRECISION
    "varying vec3 v_h0, v_h1, v_h2;\n"
    "varying vec4 v_shape, v_rect, v_color, v_uv, v_uv_clamp;\n"
    TARGET_UNIFORMS
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
    "#ifdef GENERAL\n"
    /* Exact area of the pixel inside several lines at once: the region's
       boundary is the part of each square side inside every line, plus the
       part of each line inside the square and the other lines; the area is
       half the sum of cross products over those segments (Green). Each
       segment is clipped in closed form (an interval of its parameter), so
       no arrays are needed. Lines are relative to the pixel centre and
       normalised: l.xy the inward unit normal, l.z the centre's distance. */
    "vec2 clip(vec3 l, vec2 a, vec2 d, vec2 t) {\n"
    "    float fa = dot(l.xy, a) + l.z, fd = dot(l.xy, d);\n"
    "    if (abs(fd) < 1e-9) return fa >= 0.0 ? t : vec2(1.0, 0.0);\n"
    "    float r = -fa / fd;\n"
    "    if (fd > 0.0) t.x = max(t.x, r); else t.y = min(t.y, r);\n"
    "    return t;\n"
    "}\n"
    /* The same for a side of the square: one lying on a line (parallel, at
       distance 0) is that line's own piece, which line_piece counts; kept
       here too it was counted twice (a 0.5-pixel-wide rounded rect on a
       pixel's edge drew 191 instead of 128). */
    "vec2 clip_side(vec3 l, vec2 a, vec2 d, vec2 t) {\n"
    "    float fa = dot(l.xy, a) + l.z;\n"
    "    if (abs(dot(l.xy, d)) < 1e-9) return fa > 0.0 ? t : vec2(1.0, 0.0);\n"
    "    return clip(l, a, d, t);\n"
    "}\n"
    "vec2 clip_square(vec2 a, vec2 d, vec2 t) {\n"
    "    t = clip(vec3(1.0, 0.0, 0.5), a, d, t);\n"
    "    t = clip(vec3(-1.0, 0.0, 0.5), a, d, t);\n"
    "    t = clip(vec3(0.0, 1.0, 0.5), a, d, t);\n"
    "    return clip(vec3(0.0, -1.0, 0.5), a, d, t);\n"
    "}\n"
    "float piece(vec2 a, vec2 d, vec2 t) {\n"
    "    if (t.y <= t.x) return 0.0;\n"
    "    vec2 p = a + t.x * d, q = a + t.y * d;\n"
    "    return p.x * q.y - p.y * q.x;\n"
    "}\n"
    "float side_piece(vec2 a, vec2 b, vec3 l0, vec3 l1, vec3 l2, vec3 l3, vec3 l4) {\n"
    "    vec2 d = b - a, t = vec2(0.0, 1.0);\n"
    "    t = clip_side(l0, a, d, t); t = clip_side(l1, a, d, t); t = clip_side(l2, a, d, t);\n"
    "    t = clip_side(l3, a, d, t); t = clip_side(l4, a, d, t);\n"
    "    return piece(a, d, t);\n"
    "}\n"
    "float line_piece(vec3 l, vec3 m0, vec3 m1, vec3 m2, vec3 m3) {\n"
    "    if (dot(l.xy, l.xy) < 0.5) return 0.0;\n"   /* a disabled line */
    "    vec2 a = -l.z * l.xy, d = vec2(l.y, -l.x), t = vec2(-4.0, 4.0);\n"
    "    t = clip_square(a, d, t);\n"
    "    t = clip(m0, a, d, t); t = clip(m1, a, d, t); t = clip(m2, a, d, t); t = clip(m3, a, d, t);\n"
    "    return piece(a, d, t);\n"
    "}\n"
    "float exact_area(vec3 l0, vec3 l1, vec3 l2, vec3 l3, vec3 l4) {\n"
    "    vec2 c0 = vec2(-0.5, -0.5), c1 = vec2(0.5, -0.5), c2 = vec2(0.5, 0.5), c3 = vec2(-0.5, 0.5);\n"
    "    float s = side_piece(c0, c1, l0, l1, l2, l3, l4) + side_piece(c1, c2, l0, l1, l2, l3, l4)\n"
    "            + side_piece(c2, c3, l0, l1, l2, l3, l4) + side_piece(c3, c0, l0, l1, l2, l3, l4)\n"
    "            + line_piece(l0, l1, l2, l3, l4) + line_piece(l1, l0, l2, l3, l4)\n"
    "            + line_piece(l2, l0, l1, l3, l4) + line_piece(l3, l0, l1, l2, l4)\n"
    "            + line_piece(l4, l0, l1, l2, l3);\n"
    "    return clamp(0.5 * s, 0.0, 1.0);\n"
    "}\n"
    /* A line relative to the centre of a cell of the pixel (offset o, a
       1/cells.x by 1/cells.y rect), scaled so the cell is the unit square
       exact_area measures. */
    "vec3 cell_line(vec3 l, vec2 o, vec2 cells) {\n"
    "    vec2 n = l.xy / cells;\n"
    "    float len = length(n);\n"
    "    return len > 0.0 ? vec3(n, l.z + dot(l.xy, o)) / len : l;\n"
    "}\n"
    "#endif\n"
    /* a line of output space, relative to the pixel centre, normalised */
    "vec3 relative(vec3 l, vec3 dev) {\n"
    "    float len = length(l.xy);\n"
    "    return len > 0.0 ? vec3(l.xy, dot(l, dev)) / len : vec3(0.0, 0.0, l.z >= 0.0 ? 1.0 : -1.0);\n"
    "}\n"
    /* The rect's four edges are lines of output space, straight under
       perspective too: x = x0 of local space is h0 - x0 h2. In a rounded
       corner the arc is replaced, within the pixel, by its tangent at the
       point nearest the pixel centre. One line across the pixel has the
       closed-form coverage; several need exact_area. */
    "float shape_coverage(vec2 p, vec3 dev, float w, vec4 rect, float radius, bool aa) {\n"
    "    vec2 c = clamp(p, rect.xy + radius, rect.zw - radius);\n"
    "    vec2 d = p - c;\n"
    "    bool corner = radius > 0.0 && d.x != 0.0 && d.y != 0.0;\n"
    "    if (!aa) {\n"
    /* pixel-centre sampling, [x0, x1) x [y0, y1) as the software backend */
    "        if (p.x < rect.x || p.x >= rect.z || p.y < rect.y || p.y >= rect.w) return 0.0;\n"
    "        return corner && length(d) > radius ? 0.0 : 1.0;\n"
    "    }\n"
    "    vec3 l0 = relative(v_h0 - rect.x * v_h2, dev), l1 = relative(rect.z * v_h2 - v_h0, dev);\n"
    "    vec3 l2 = relative(v_h1 - rect.y * v_h2, dev), l3 = relative(rect.w * v_h2 - v_h1, dev);\n"
    "#ifndef GENERAL\n"
    /* axis-aligned in output space: each direction is a slab, exact */
    "    return max(edge_coverage(l0.z, l0.xy) + edge_coverage(l1.z, l1.xy) - 1.0, 0.0)\n"
    "         * max(edge_coverage(l2.z, l2.xy) + edge_coverage(l3.z, l3.xy) - 1.0, 0.0);\n"
    "#else\n"
    "    vec3 l4 = vec3(0.0, 0.0, 1.0);\n"
    "    if (corner) {\n"
    "        vec2 n = normalize(d);\n"
    "        l4 = relative(-n.x * v_h0 - n.y * v_h1 + (radius + dot(n, c)) * v_h2, dev);\n"
    "    }\n"
    "    const float reach = 0.7072;\n"   /* half the pixel's diagonal */
    "    if (min(min(min(l0.z, l1.z), min(l2.z, l3.z)), l4.z) <= -reach) return 0.0;\n"
    /* A small arc bends within the pixel: its quarters each take the
       tangent nearest their own centre. Every pixel that reaches into a
       corner's square (within reach of the lines x = x0 + r or x1 - r and
       of y = y0 + r or y1 - r) takes them, not only those whose centre is
       in it: the end pixels of a capsule one pixel thick, whose centres are
       level with its arcs' centres, and a pixel beside a small arc. */
    "    float i0 = relative(v_h0 - (rect.x + radius) * v_h2, dev).z, i1 = relative((rect.z - radius) * v_h2 - v_h0, dev).z;\n"
    "    float i2 = relative(v_h1 - (rect.y + radius) * v_h2, dev).z, i3 = relative((rect.w - radius) * v_h2 - v_h1, dev).z;\n"
    "    bool quarters = corner ? l4.z < reach : radius > 0.0 && min(i0, i1) < reach && min(i2, i3) < reach;\n"
    /* The tangent at the centre's nearest point in local space says where
       the arc is only while the map keeps circles round: squashed (a layer
       turned nearly edge-on), that point can be pixels away while the arc
       passes through the pixel (the end of a 30 x 0.9 ellipse: 187 for
       95). So a corner pixel takes the cells unless its four corners are
       inside the circle, and then all of it is (a disc is convex). */
    "    if (corner && !quarters) {\n"
    "        for (int k = 0; k < 4; k++) {\n"
    "            vec3 e = dev + vec3(k == 1 || k == 3 ? 0.5 : -0.5, k >= 2 ? 0.5 : -0.5, 0.0);\n"
    "            vec3 qe = vec3(dot(v_h0, e), dot(v_h1, e), dot(v_h2, e));\n"
    "            vec2 de = qe.xy / qe.z - c;\n"
    "            if (!(qe.z > 0.0 && dot(de, de) <= radius * radius)) quarters = true;\n"
    "        }\n"
    "    }\n"
    "    if (quarters) {\n"
    /* An arc under a pixel's radius (span: the local units one pixel
       spans, the larger gradient of p.x or p.y) bends too much for one
       tangent a quarter: 4x4 squares instead (a rounded speck half a pixel
       wide was up to 14 levels fuller than its area; now 6). A squashed
       map (singular values more than 2 apart: |J|^2 > 2.5 |det J|) bends
       the arc far more across the squashed direction, down to a curvature
       radius of r s_min^2 / s_max pixels: there each output axis is cut
       into cells a quarter of the radius long in local space (jx, jy: the
       local step of one pixel along x and y), up to 16 a side and 64 in
       all. */
    "        float span = max(length(v_h0.xy - p.x * v_h2.xy), length(v_h1.xy - p.y * v_h2.xy)) / w;\n"
    "        vec2 cells = vec2(radius < span ? 4.0 : 2.0);\n"
    "        vec2 jx = vec2(v_h0.x - p.x * v_h2.x, v_h1.x - p.y * v_h2.x) / w;\n"
    "        vec2 jy = vec2(v_h0.y - p.x * v_h2.y, v_h1.y - p.y * v_h2.y) / w;\n"
    "        if (dot(jx, jx) + dot(jy, jy) > 2.5 * abs(jx.x * jy.y - jx.y * jy.x)) {\n"
    "            cells = clamp(ceil(4.0 * vec2(length(jx), length(jy)) / radius), cells, vec2(16.0));\n"
    "            float fewer = min(cells.x, cells.y);\n"
    "            cells = fewer > 8.0 ? vec2(8.0) : min(cells, vec2(floor(64.0 / fewer)));\n"
    "        }\n"
    "        float count = cells.x * cells.y, sum = 0.0;\n"
    "        for (int k = 0; k < 64; k++) {\n"
    "            if (float(k) >= count) break;\n"
    "            float row = floor((float(k) + 0.5) / cells.x);\n"
    "            vec2 o = (vec2(float(k) - row * cells.x, row) + 0.5) / cells - 0.5;\n"
    "            vec3 sub = dev + vec3(o, 0.0);\n"
    "            vec3 qs = vec3(dot(v_h0, sub), dot(v_h1, sub), dot(v_h2, sub));\n"
    "            vec2 ps = qs.xy / qs.z;\n"
    "            vec2 cs = clamp(ps, rect.xy + radius, rect.zw - radius);\n"
    "            vec3 t = vec3(0.0, 0.0, 1.0);\n"
    /* (a square whose centre is behind the eye takes the tangent of
       whichever corner its mapped point names: any corner's tangent is a
       line the whole shape is inside, so it cuts only the arc) */
    "            if (ps.x != cs.x && ps.y != cs.y) {\n"
    "                vec2 m = normalize(ps - cs);\n"
    "                t = relative(-m.x * v_h0 - m.y * v_h1 + (radius + dot(m, cs)) * v_h2, sub);\n"
    "            }\n"
    "            sum += exact_area(cell_line(l0, o, cells), cell_line(l1, o, cells), cell_line(l2, o, cells),\n"
    "                              cell_line(l3, o, cells), cell_line(t, vec2(0.0), cells));\n"
    "        }\n"
    "        return sum / count;\n"
    "    }\n"
    "    int partial = 0;\n"
    "    vec3 one = vec3(0.0, 0.0, 1.0);\n"
    "    if (l0.z < reach) { partial++; one = l0; }\n"
    "    if (l1.z < reach) { partial++; one = l1; }\n"
    "    if (l2.z < reach) { partial++; one = l2; }\n"
    "    if (l3.z < reach) { partial++; one = l3; }\n"
    "    if (partial == 0) return 1.0;\n"
    "    if (partial == 1) return edge_coverage(one.z, one.xy);\n"
    "    return exact_area(l0, l1, l2, l3, l4);\n"
    "#endif\n"
    "}\n"
    "void main() {\n"
    "    vec3 dev = vec3(gl_FragCoord.xy + u_origin, 1.0);\n"
    "    vec3 q = vec3(dot(v_h0, dev), dot(v_h1, dev), dot(v_h2, dev));\n"
    "    bool aa = v_shape.z > 0.5;\n"
    /* The centre behind the eye (past the horizon, the line h2 . dev = 0):
       without antialiasing the pixel is out, as the centre decides. With
       it, the part of the pixel in front still counts: the edges' lines
       need no clipping at the horizon (x0 <= x <= x1 is h0 - x0 h2 >= 0 and
       x1 h2 - h0 >= 0, whose sum (x1 - x0) h2 >= 0 puts it in front), only
       the point that gives colour and corner must be in front, so it moves
       halfway from the horizon to the pixel's corner farthest in front. */
    "    if (q.z <= 0.0) {\n"
    "        vec3 horizon = relative(v_h2, dev);\n"
    "        float front = horizon.z + 0.5 * (abs(horizon.x) + abs(horizon.y));\n"
    "        if (!aa || front <= 0.0) discard;\n"
    "        vec3 at = dev + vec3(horizon.xy * (0.5 * front - horizon.z), 0.0);\n"
    "        q = vec3(dot(v_h0, at), dot(v_h1, at), dot(v_h2, at));\n"
    "    }\n"
    "    vec2 p = q.xy / q.z;\n"
    "    float cov = shape_coverage(p, dev, q.z, v_rect, v_shape.x, aa);\n"
    "    float bw = v_shape.y;\n"
    /* the border's band: the outside's area less the inside's (the inside
       lies within it), as the software backend takes the hole out of its
       mask; the product outer x (1 - inner) nearly doubled the ink of a
       border thinner than a pixel */
    "    if (bw > 0.0 && bw < 0.5 * min(v_rect.z - v_rect.x, v_rect.w - v_rect.y))\n"
    "        cov = max(cov - shape_coverage(p, dev, q.z, v_rect + vec4(bw, bw, -bw, -bw),\n"
    "                                       max(v_shape.x - bw, 0.0), aa), 0.0);\n"
    "#if defined(GRADIENT)\n"
    "    vec4 color = gradient_color(p, v_uv, v_uv_clamp.x) * v_color;\n"
    "#elif defined(TEXTURED)\n"
    "    vec2 at = vec2(v_uv.x * p.x + v_uv.y, v_uv.z * p.y + v_uv.w);\n"
    /* ARGB32 words uploaded as RGBA bytes arrive as BGRA */
    "    vec4 color = texture2D(u_image, clamp(at, v_uv_clamp.xy, v_uv_clamp.zw)).bgra * v_color;\n"
    "#else\n"
    "    vec4 color = v_color;\n"
    "#endif\n"
    "#ifdef CLIP\n"
    "    cov *= texture2D(u_clip, (dev.xy + u_offscreen.xy) / u_offscreen.zw).a;\n"
    "#endif\n"
    "    gl_FragColor = color * cov;\n"
    "}\n";

static const char box_vertex[] =
    "attribute vec2 a_pos;\n"
    TARGET_UNIFORMS
    "void main() { gl_Position = vec4((a_pos - u_origin) / u_target * 2.0 - 1.0, 0.0, 1.0); }\n";

/* Offscreen targets onto the one below: a group times opacity (and a mask's
   alpha), or a shadow: the blurred alpha (already moved by the offset, and
   held as two bytes, see blur_fragment) tinted, pixel for pixel. */
static const char composite_fragment[] =
    PRECISION
    "uniform sampler2D u_source, u_mask, u_clip;\n"
    TARGET_UNIFORMS
    "uniform vec4 u_tint;\n"
    "uniform float u_opacity, u_mode, u_has_mask, u_has_clip;\n"
    "void main() {\n"
    "    vec2 t = (gl_FragCoord.xy + u_origin + u_offscreen.xy) / u_offscreen.zw;\n"
    "    vec4 c;\n"
    "    if (u_mode > 0.5) {\n"
    "        vec4 s = texture2D(u_source, t);\n"
    "        c = u_tint * clamp((s.r * 255.0 + s.g) / 255.0, 0.0, 1.0);\n"
    "    } else {\n"
    "        c = texture2D(u_source, t) * u_opacity;\n"
    "        if (u_has_mask > 0.5) c *= texture2D(u_mask, t).a;\n"
    "    }\n"
    "    if (u_has_clip > 0.5) c *= texture2D(u_clip, t).a;\n"
    "    gl_FragColor = c;\n"
    "}\n";

/* One direction of a separable Gaussian over alpha: output pixel p takes
   source pixels p - shift - d direction, tap k (in -count..count) standing
   for the step pixels d = k stride - half .. + step - 1, each weighing
   u_weights[k + count]; pixels outside u_bounds (x0, y0, x1, y1) read as
   transparent. A wide blur runs it twice a direction (gles_targets.c,
   blur_direction): the averages of step pixels (count 0), then taps of
   one pixel each, stride apart (step 1, half 0), on those averages. An
   8-bit intermediate would cost up to a level per pass, so
   the result is written as two bytes, r the whole levels and g the
   fraction of a level; u_decode reads the source that way (else its alpha). */
#define STR2(x) #x
#define STR(x) STR2(x)
static const char blur_fragment[] =
    PRECISION
    "#define TAPS " STR(LKGL_MAX_TAPS) "\n"
    "#define MAX_STEP " STR(LKGL_MAX_STEP) "\n"
    "uniform sampler2D u_source;\n"
    TARGET_UNIFORMS
    "uniform vec2 u_direction, u_shift;\n"
    "uniform vec4 u_bounds;\n"
    "uniform float u_weights[2 * TAPS + 1];\n"
    "uniform float u_decode;\n"
    "uniform int u_count, u_step;\n"
    "uniform float u_stride, u_half;\n"
    "float alpha_at(vec2 p) {\n"
    "    if (p.x < u_bounds.x || p.y < u_bounds.y || p.x > u_bounds.z || p.y > u_bounds.w) return 0.0;\n"
    "    vec4 c = texture2D(u_source, (p + u_offscreen.xy) / u_offscreen.zw);\n"
    "    return u_decode > 0.5 ? (c.r * 255.0 + c.g) / 255.0 : c.a;\n"
    "}\n"
    "void main() {\n"
    "    vec2 p = gl_FragCoord.xy + u_origin - u_shift;\n"
    "    float a = 0.0;\n"
    "    for (int i = 0; i <= 2 * TAPS; i++) {\n"
    "        if (i > 2 * u_count) break;\n"
    "        float first = float(i - u_count) * u_stride - u_half, sum = 0.0;\n"
    "        for (int j = 0; j < MAX_STEP; j++) {\n"
    "            if (j >= u_step) break;\n"
    "            sum += alpha_at(p - u_direction * (first + float(j)));\n"
    "        }\n"
    "        a += sum * u_weights[i];\n"
    "    }\n"
    "    float v = clamp(a, 0.0, 1.0) * 255.0;\n"
    "    float whole = floor(v);\n"
    "    gl_FragColor = vec4(whole / 255.0, v - whole, 0.0, 0.0);\n"
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
    p->failed = false;
    p->u_origin = glGetUniformLocation(id, "u_origin");
    p->u_target = glGetUniformLocation(id, "u_target");
    p->u_offscreen = glGetUniformLocation(id, "u_offscreen");
    p->space[0] = -1.0f;   /* none set yet */
    p->u_image = glGetUniformLocation(id, "u_image");
    p->u_clip = glGetUniformLocation(id, "u_clip");
    p->u_source = glGetUniformLocation(id, "u_source");
    p->u_mask = glGetUniformLocation(id, "u_mask");
    p->u_opacity = glGetUniformLocation(id, "u_opacity");
    p->u_shift = glGetUniformLocation(id, "u_shift");
    p->u_bounds = glGetUniformLocation(id, "u_bounds");
    p->u_decode = glGetUniformLocation(id, "u_decode");
    p->u_tint = glGetUniformLocation(id, "u_tint");
    p->u_mode = glGetUniformLocation(id, "u_mode");
    p->u_has_mask = glGetUniformLocation(id, "u_has_mask");
    p->u_has_clip = glGetUniformLocation(id, "u_has_clip");
    p->u_weights = glGetUniformLocation(id, "u_weights");
    p->u_count = glGetUniformLocation(id, "u_count");
    p->u_step = glGetUniformLocation(id, "u_step");
    p->u_stride = glGetUniformLocation(id, "u_stride");
    p->u_half = glGetUniformLocation(id, "u_half");
    p->u_direction = glGetUniformLocation(id, "u_direction");
    p->u_stop_colors = glGetUniformLocation(id, "u_stop_colors");
    p->u_stop_locations = glGetUniformLocation(id, "u_stop_locations");
    p->u_stop_count = glGetUniformLocation(id, "u_stop_count");
    /* Samplers never change unit: image/source on 0, clip on 1, mask on 2. */
    glUseProgram(id);
    if (p->u_image >= 0) glUniform1i(p->u_image, 0);
    if (p->u_source >= 0) glUniform1i(p->u_source, 0);
    if (p->u_clip >= 0) glUniform1i(p->u_clip, 1);
    if (p->u_mask >= 0) glUniform1i(p->u_mask, 2);
    glUseProgram(0);
    return true;
}

/* Builds program `index` (its variant's defines on the shared sources). */
static bool build_index(lkgl_renderer *r, int index, char *error, size_t error_size)
{
    static const char *const quad_names[8] = {
        "solid", "textured", "solid+clip", "textured+clip",
        "solid general", "textured general", "solid+clip general", "textured+clip general",
    };
    /* the same with the gradient's colour (gles_gradient.c): + 1 ramp */
    static const char *const gradient_names[8] = {
        "gradient", "gradient ramp", "gradient+clip", "gradient ramp+clip",
        "gradient general", "gradient ramp general", "gradient+clip general", "gradient ramp+clip general",
    };
    if (index == LKGL_PROG_COMPOSITE)
        return build(r, index, "composite", "", box_vertex, composite_fragment, error, error_size);
    if (index == LKGL_PROG_BLUR) return build(r, index, "blur", "", box_vertex, blur_fragment, error, error_size);
    if (index >= LKGL_PROG_QUAD && index < LKGL_PROG_QUAD + 8) {
        int i = index - LKGL_PROG_QUAD;
        char defines[128];
        snprintf(defines, sizeof defines, "%s%s%s", (i & 1) ? "#define TEXTURED 1\n" : "",
                 (i & 2) ? "#define CLIP 1\n" : "", (i & 4) ? "#define GENERAL 1\n" : "");
        return build(r, index, quad_names[i], defines, quad_vertex, quad_fragment, error, error_size);
    }
    if (index >= LKGL_PROG_GRADIENT && index < LKGL_PROG_GRADIENT + 8) {
        int i = index - LKGL_PROG_GRADIENT;
        char defines[LKGL_GRADIENT_SOURCE_MAX];
        snprintf(defines, sizeof defines, "#define GRADIENT 1\n#define RAMP_SIZE %d.0\n%s%s%s%s", (int)lkgl_ramp_size(r),
                 (i & 1) ? "#define RAMP 1\n" : "", (i & 2) ? "#define CLIP 1\n" : "", (i & 4) ? "#define GENERAL 1\n" : "",
                 lkgl_gradient_source);
        return build(r, index, gradient_names[i], defines, quad_vertex, quad_fragment, error, error_size);
    }
    lkgl_set_error(error, error_size, "%s: no program %d", r->label, index);
    return false;
}

bool lkgl_programs_create(lkgl_renderer *r, char *error, size_t error_size)
{
    /* Only the plain solid program now: it proves the GL compiles and links
       the renderer's sources; the others when a frame first needs them
       (lkgl_program_ready). */
    return lkgl_program_ready(r, LKGL_PROG_QUAD, error, error_size);
}

bool lkgl_program_ready(lkgl_renderer *r, int index, char *error, size_t error_size)
{
    lkgl_program *p = &r->programs[index];
    if (p->id) return true;
    if (p->failed) {
        /* a program that did not build is not tried again every frame */
        lkgl_set_error(error, error_size, "%s", r->program_error);
        return false;
    }
    if (build_index(r, index, error, error_size)) {
        r->frame.programs_built++;
        return true;
    }
    p->failed = true;
    snprintf(r->program_error, sizeof r->program_error, "%s", error ? error : "");
    return false;
}

bool lkgl_renderer_build_programs(lkgl_renderer *r, char *error, size_t error_size)
{
    if (!r) {
        lkgl_set_error(error, error_size, "gles renderer: build_programs called without a renderer");
        return false;
    }
    uint64_t before = r->frame.programs_built;
    bool ok = true;
    for (int i = 0; i < LKGL_PROG_COUNT && ok; i++) ok = lkgl_program_ready(r, i, error, error_size);
    r->total.programs_built += r->frame.programs_built - before;
    r->frame.programs_built = before;
    r->state.program = -1;   /* building leaves no program in use */
    return ok;
}

void lkgl_programs_destroy(lkgl_renderer *r)
{
    for (int i = 0; i < LKGL_PROG_COUNT; i++) {
        if (r->programs[i].id) glDeleteProgram(r->programs[i].id);
        r->programs[i].id = 0;
    }
}
