/*
 * The software and gles backends draw the same display lists (S6.4):
 * seeded random lists of fills, borders, images and nested clips, antialiased
 * or not, under translations (whole and fractional), scales, mirrors,
 * rotations and perspective, with rounded corners and opacities. Every pixel
 * of every frame is compared; the worst difference, where it is and both
 * values are printed, with how many pixels differ at all.
 *
 * Stated tolerance: at most 1 pixel in 20,000 may differ by more than
 * TOLERANCE in a channel (measured: 25 of 5,760,000). The pixels beyond it
 * are all-or-nothing choices made differently: nearest-filtered texels
 * whose sample point sits on a texel boundary (pixman's 16.16 fixed point
 * against the GPU's floats), pixel centres on the flattened arc of a
 * rounded rect drawn without antialiasing (software flattens it into
 * segments, gles tests the circle). (Before the software backend sampled
 * images under perspective itself, their edge pixels whose centres map
 * outside the image took the opposite edge's texels there: 1,027 pixels,
 * which this bound now catches.)
 *
 * Then the same again for lists of gradients (ABI 3) among fills and clips:
 * axial, radial and conic, 1 to 6 stops or 20 (gles's ramp texture), some
 * transparent, hard stops, rounded and rotated rects, perspective. Their
 * bound stays 1 pixel in 2,000 (measured: 1,160 of 5,760,000): centres on a
 * hard stop or on the conic's seam are all-or-nothing choices too.
 *
 * Last, lists of shadow groups (compare_shadows, its tolerance stated there).
 *
 * usage: compare_lists SOFTWARE_PLUGIN GLES_PLUGIN TOLERANCE [LISTS]
 */
#include "lktest.h"

#define W 160
#define H 120
#define MAX_OPS 10

static uint64_t rng = 0x1234567;

static uint32_t next_u32(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

static double uniform(double lo, double hi) { return lo + (hi - lo) * (next_u32() / 2147483648.0); }
static int chance(int percent) { return (int)(next_u32() % 100) < percent; }

static const lk_backend *load(const char *path)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        printf("FAIL compare: dlopen %s: %s\n", path, dlerror());
        return NULL;
    }
    void *symbol = dlsym(handle, LK_BACKEND_ENTRY_SYMBOL);
    lk_backend_entry_fn entry;
    if (!symbol) return NULL;
    memcpy(&entry, &symbol, sizeof entry);
    return entry(LK_BACKEND_ABI_VERSION);
}

static lkt_mat random_transform(double w, double h)
{
    lkt_mat m = lkt_translate(-w / 2, -h / 2, 0);
    switch (next_u32() % 6) {
    case 0: return lkt_translate(floor(uniform(0, 100)), floor(uniform(0, 70)), 0);
    case 1: return lkt_translate(uniform(0, 100), uniform(0, 70), 0);
    case 2:
        return lkt_mat_mul(lkt_scale_mat(uniform(-2, 2), uniform(-2, 2)), lkt_translate(uniform(20, 140), uniform(20, 100), 0));
    case 3:
        m = lkt_mat_mul(m, lkt_rotate_z(uniform(0, 7)));
        return lkt_mat_mul(m, lkt_translate(uniform(20, 140), uniform(20, 100), 0));
    default:
        m = lkt_mat_mul(m, lkt_rotate_y(uniform(-1.2, 1.2)));
        m = lkt_mat_mul(m, lkt_rotate_z(uniform(-1, 1)));
        m = lkt_mat_mul(m, lkt_perspective(uniform(150, 600)));
        return lkt_mat_mul(m, lkt_translate(uniform(40, 120), uniform(30, 90), 0));
    }
}

static lk_dl_color random_color(void)
{
    float a = chance(40) ? 1.0f : (float)uniform(0.1, 1);
    return lkt_color((float)uniform(0, a), (float)uniform(0, a), (float)uniform(0, a), a);
}

/* A gradient op's stops, from a pool that lives as long as the lists. */
static lk_dl_gradient_stop stop_pool[MAX_OPS + 4][20];

static void random_gradient(lk_dl_op *op, uint32_t index, double w, double h)
{
    op->kind = LK_DL_OP_GRADIENT;
    op->gradient_kind = 1 + next_u32() % 3;
    uint32_t n = chance(15) ? 20 : 1 + next_u32() % 6;
    lk_dl_gradient_stop *s = stop_pool[index];
    double location = chance(30) ? 0 : uniform(0, 0.4);
    for (uint32_t k = 0; k < n; k++) {
        if (k > 0 && !chance(10)) location = fmin(1.0, location + uniform(0, 1.4 / n));
        s[k].location = location;
        s[k].color = lkt_color((float)uniform(0, 1), (float)uniform(0, 1), (float)uniform(0, 1),
                               chance(60) ? 1.0f : (float)uniform(0, 1));
    }
    op->gradient_stops = s;
    op->gradient_stop_count = n;
    op->gradient_start_x = uniform(-0.2, 1.2) * w;
    op->gradient_start_y = uniform(-0.2, 1.2) * h;
    op->gradient_end_x = uniform(-0.2, 1.2) * w;
    op->gradient_end_y = uniform(-0.2, 1.2) * h;
}

/* S6.1 shadows, S6.4: both backends blur a group's alpha with the same
   integrated Gaussian, grouping pixels alike beyond 48 taps a side. Lists
   of one to three shadow groups (sigma 0 to 16 with one pixel a tap, 16 to
   60 grouped, 100, 300 and 1000; fractional offsets; content partly off
   the output; the shadow alone or under its content, whole-pixel fills so
   that only the shadows can differ): every pixel within SHADOW_TOLERANCE
   (measured: worst 4, about 1% of the pixels more than 1 apart, the same
   before the software blur grouped wide kernels; the backends round the
   blurred alpha and the composite differently). */
#define SHADOW_TOLERANCE 4
static void compare_shadows(const lk_backend *sb, lk_backend_instance *si, const lk_backend *gb,
                            lk_backend_instance *gi, lkt_frame *fs, lkt_frame *fg)
{
    lkt_begin("software_and_gles_draw_the_same_shadows");
    int worst = 0, worst_list = 0, wx = 0, wy = 0;
    uint32_t ws = 0, wg = 0;
    long differing = 0;
    const double wide[3] = { 100, 300, 1000 };
    for (int l = 0; l < 60; l++) {
        lk_dl_op ops[9];
        uint32_t n = 0;
        int groups = 1 + (int)(next_u32() % 3);
        for (int g = 0; g < groups; g++) {
            double x = floor(uniform(-40, W - 10)), y = floor(uniform(-30, H - 10));
            double w = floor(uniform(10, 120)), h = floor(uniform(10, 90));
            lk_dl_op push = lkt_op(LK_DL_OP_PUSH_GROUP, x, y, w, h);
            push.shadow_color = random_color();
            if (push.shadow_color.a < 0.3f) push.shadow_color.a = 0.3f;
            push.shadow_offset_x = uniform(-20, 20);
            push.shadow_offset_y = uniform(-20, 20);
            uint32_t r = next_u32() % 100;
            push.shadow_sigma = r < 30 ? uniform(0, 6) : r < 60 ? uniform(6, 16) : r < 85 ? uniform(16, 60)
                                                                                       : wide[next_u32() % 3];
            if (chance(50)) push.flags |= LK_DL_FLAG_SHADOW_ONLY;
            lk_dl_op fill = lkt_fill(x, y, w, h, random_color());
            fill.color.a = 1;
            ops[n++] = push;
            ops[n++] = fill;
            ops[n++] = lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0);
        }
        lk_display_list list = lkt_list(ops, n, W, H, lkt_color(0.9f, 0.9f, 0.9f, 1));
        if (!lkt_render(sb, si, &list, fs) || !lkt_render(gb, gi, &list, fg)) break;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint32_t a = lkt_pixel(fs, x, y), b = lkt_pixel(fg, x, y);
                int d = 0;
                for (int c = 0; c < 32; c += 8) {
                    int dc = abs((int)((a >> c) & 255) - (int)((b >> c) & 255));
                    if (dc > d) d = dc;
                }
                if (d > 1) differing++;
                if (d > worst) {
                    worst = d; worst_list = l; wx = x; wy = y; ws = a; wg = b;
                }
            }
    }
    printf("# shadows: 60 lists: %ld pixels differ by more than 1; worst difference %d in list %d at (%d,%d): "
           "software %08x, gles %08x\n", differing, worst, worst_list, wx, wy, ws, wg);
    if (worst > SHADOW_TOLERANCE) lkt_fail("a shadow pixel differs by %d (at most %d may)", worst, SHADOW_TOLERANCE);
    lkt_end();
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s SOFTWARE_PLUGIN GLES_PLUGIN TOLERANCE [LISTS]\n", argv[0]);
        return 2;
    }
    const lk_backend *sb = load(argv[1]), *gb = load(argv[2]);
    int tolerance = atoi(argv[3]), lists = argc > 4 ? atoi(argv[4]) : 300;
    if (!sb || !gb) return 1;
    lk_backend_instance *si = lkt_open(sb, NULL, W, H), *gi = lkt_open(gb, NULL, W, H);
    if (!si || !gi) return 1;
    lkt_frame fs = lkt_frame_new(W, H), fg = lkt_frame_new(W, H);
    lkt_image images[3];
    for (int k = 0; k < 3; k++) {
        uint32_t iw = 4 + next_u32() % 40, ih = 4 + next_u32() % 40;
        images[k] = lkt_image_new(500 + (uint64_t)k, iw, ih);
        for (uint32_t i = 0; i < iw * ih; i++) {
            uint32_t a = chance(50) ? 255 : next_u32() % 256;
            images[k].pixels[i] = lkt_argb(a, next_u32() % (a + 1), next_u32() % (a + 1), next_u32() % (a + 1));
        }
    }

    for (int gradients = 0; gradients < 2; gradients++) {
        int worst = -1, worst_list = 0, wx = 0, wy = 0;
        uint32_t ws = 0, wg = 0;
        long differing = 0, over_tolerance = 0, pixels = 0;
        lkt_begin(gradients ? "software_and_gles_draw_the_same_gradients" : "software_and_gles_draw_the_same_lists");
        for (int l = 0; l < lists && !lkt()->reason[0]; l++) {
            lk_dl_op ops[MAX_OPS + 4];
            uint32_t n = 0;
            int depth = 0;
            uint32_t count = 1 + next_u32() % MAX_OPS;
            for (uint32_t i = 0; i < count; i++) {
                uint32_t r = next_u32() % 100, kind = r < 40 ? LK_DL_OP_FILL : r < 65 ? LK_DL_OP_IMAGE
                                                      : r < 80 ? LK_DL_OP_BORDER : r < 90 ? LK_DL_OP_PUSH_CLIP
                                                      : depth > 0 ? LK_DL_OP_POP_CLIP : LK_DL_OP_FILL;
                double w = uniform(4, 90), h = uniform(4, 70);
                lk_dl_op op = lkt_op(kind, 0, 0, w, h);
                lkt_set_transform(&op, random_transform(w, h));
                if (chance(15)) op.flags = 0;
                if (chance(40)) op.corner_radius = uniform(0, 30);
                op.border_width = uniform(0.5, 12);
                op.color = random_color();
                if (chance(40)) op.opacity = (float)uniform(0.2, 1);
                if (gradients && kind != LK_DL_OP_PUSH_CLIP && kind != LK_DL_OP_POP_CLIP && !chance(25))
                    random_gradient(&op, n, w, h);
                else if (kind == LK_DL_OP_IMAGE) {
                    const lkt_image *img = &images[next_u32() % 3];
                    op.image = &img->image;
                    op.source = lkt_rect(0, 0, img->image.width, img->image.height);
                    if (chance(20)) op.flags |= LK_DL_FLAG_FILTER_NEAREST;
                    /* ABI 3: particle and replicator colours (in the first
                       phase: the gradient phase keeps its own lists) */
                    if (!gradients && chance(30)) {
                        op.flags |= LK_DL_FLAG_TINT;
                        op.tint = random_color();
                    }
                }
                if (kind == LK_DL_OP_PUSH_CLIP) depth++;
                if (kind == LK_DL_OP_POP_CLIP) depth--;
                ops[n++] = op;
            }
            lk_display_list list = lkt_list(ops, n, W, H, lkt_color(0.1f, 0.1f, 0.1f, 1));
            /* debugging: LKTEST_ONLY_OP=k draws only op k of each list,
               LKTEST_FIRST_OPS=n the first n, LKTEST_DUMP_LIST=l prints list l
               and its pixels beyond the tolerance, LKTEST_VERBOSE=1 the lists
               beyond it */
            if (getenv("LKTEST_ONLY_OP")) {
                uint32_t k = (uint32_t)atoi(getenv("LKTEST_ONLY_OP"));
                if (k >= n) continue;
                list.ops = &ops[k];
                list.op_count = 1;
            }
            if (getenv("LKTEST_FIRST_OPS") && (uint32_t)atoi(getenv("LKTEST_FIRST_OPS")) < list.op_count)
                list.op_count = (uint32_t)atoi(getenv("LKTEST_FIRST_OPS"));
            if (!lkt_render(sb, si, &list, &fs) || !lkt_render(gb, gi, &list, &fg)) break;
            int list_worst = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    uint32_t a = lkt_pixel(&fs, x, y), b = lkt_pixel(&fg, x, y);
                    int d = 0;
                    for (int c = 0; c < 32; c += 8) {
                        int dc = abs((int)((a >> c) & 255) - (int)((b >> c) & 255));
                        if (dc > d) d = dc;
                    }
                    pixels++;
                    if (d > 1) differing++;
                    if (d > tolerance) over_tolerance++;
                    if (d > list_worst) list_worst = d;
                    if (d > worst) {
                        worst = d; worst_list = l; wx = x; wy = y; ws = a; wg = b;
                    }
                }
            if (getenv("LKTEST_DUMP_LIST") && atoi(getenv("LKTEST_DUMP_LIST")) == l) {
                for (uint32_t i = 0; i < n; i++) {
                    const lk_dl_op *o = &ops[i];
                    printf("op %u kind %u flags %u rect %g %g %g %g radius %g opacity %g", i, o->kind, o->flags, o->rect.x,
                           o->rect.y, o->rect.width, o->rect.height, o->corner_radius, o->opacity);
                    if (o->kind == LK_DL_OP_GRADIENT) {
                        printf(" gradient %u from %g %g to %g %g, stops", o->gradient_kind, o->gradient_start_x,
                               o->gradient_start_y, o->gradient_end_x, o->gradient_end_y);
                        for (uint32_t k = 0; k < o->gradient_stop_count; k++)
                            printf(" %g:(%g %g %g %g)", o->gradient_stops[k].location, o->gradient_stops[k].color.r,
                                   o->gradient_stops[k].color.g, o->gradient_stops[k].color.b,
                                   o->gradient_stops[k].color.a);
                    }
                    if (o->image) printf(" image %ux%u source %g %g %g %g", o->image->width, o->image->height,
                                         o->source.x, o->source.y, o->source.width, o->source.height);
                    printf("\n  t");
                    for (int k = 0; k < 16; k++) printf(" %g", o->transform[k]);
                    printf("\n");
                }
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++) {
                        uint32_t a = lkt_pixel(&fs, x, y), b = lkt_pixel(&fg, x, y);
                        int d = 0;
                        for (int c = 0; c < 32; c += 8) {
                            int dc = abs((int)((a >> c) & 255) - (int)((b >> c) & 255));
                            if (dc > d) d = dc;
                        }
                        if (d > tolerance) printf("  (%d,%d) %08x %08x\n", x, y, a, b);
                    }
            }
            if (list_worst > tolerance && getenv("LKTEST_VERBOSE")) {
                printf("# list %d: worst %d;", l, list_worst);
                for (uint32_t i = 0; i < n; i++)
                    printf(" %u:k%u f%u r%.1f t[%.2f %.2f %.2f %.4f]", i, ops[i].kind, ops[i].flags, ops[i].corner_radius,
                           ops[i].transform[0], ops[i].transform[1], ops[i].transform[2], ops[i].transform[11]);
                printf("\n");
            }
        }
        printf("# %s%d lists, %ld pixels: %ld differ by more than 1, %ld by more than %d; worst difference %d "
               "in list %d at (%d,%d): software %08x, gles %08x\n", gradients ? "gradients: " : "",
               lists, pixels, differing, over_tolerance, tolerance, worst, worst_list, wx, wy, ws, wg);
        long one_in = gradients ? 2000 : 20000;
        if (over_tolerance * one_in > pixels)
            lkt_fail("%ld of %ld pixels differ by more than %d (at most 1 in %ld may)", over_tolerance, pixels,
                     tolerance, one_in);
        lkt_end();
    }
    compare_shadows(sb, si, gb, gi, &fs, &fg);
    sb->close(si);
    gb->close(gi);
    free(fs.pixels);
    free(fg.pixels);
    for (int k = 0; k < 3; k++) free(images[k].pixels);
    return lkt_exit_code();
}
