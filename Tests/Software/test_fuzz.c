/*
 * Software backend: random display lists, in the spirit of pixman's fuzz
 * tests. Transforms range from plain translations to perspective, NaN,
 * infinity and 1e300; rects, radii, widths, colours and opacities include
 * garbage. Every list is valid, so every render must succeed, and:
 *  - every pixel stays a valid premultiplied colour (r, g, b <= a),
 *  - pixels outside the damage box keep the previous frame's value,
 *  - a second instance fed the same lists produces the same pixels.
 * The sequence is seeded, so a failure names a reproducible frame.
 */
#include "lktest.h"

#define W 96
#define H 80
#define FRAMES 160
#define MAX_OPS 48

static uint64_t rng = 0x853c49e6748fea9bull;

static uint32_t next_u32(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (next_u32() / 2147483648.0);
}

static int chance(int percent)
{
    return (int)(next_u32() % 100) < percent;
}

/* Mostly sensible numbers, sometimes garbage. */
static double wild(double lo, double hi)
{
    switch (next_u32() % 40) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 1e300;
    case 4: return -1e300;
    case 5: return 0;
    case 6: return 1e-300;
    default: return uniform(lo, hi);
    }
}

static lkt_mat random_transform(void)
{
    lkt_mat m = lkt_mat_identity();
    switch (next_u32() % 8) {
    case 0:
        return lkt_translate(floor(uniform(-40, 100)), floor(uniform(-40, 80)), 0);
    case 1:
        return lkt_translate(uniform(-40, 100), uniform(-40, 80), 0);
    case 2:
        m = lkt_mat_mul(lkt_scale_mat(uniform(-3, 3), uniform(-3, 3)), lkt_translate(uniform(0, 90), uniform(0, 70), 0));
        return m;
    case 3:
        m = lkt_mat_mul(lkt_translate(-30, -30, 0), lkt_rotate_z(uniform(0, 7)));
        return lkt_mat_mul(m, lkt_translate(uniform(0, 90), uniform(0, 70), 0));
    case 4:
        m = lkt_mat_mul(lkt_translate(uniform(-60, 0), uniform(-60, 0), 0), lkt_rotate_y(uniform(-3.2, 3.2)));
        m = lkt_mat_mul(m, lkt_rotate_z(uniform(-1, 1)));
        m = lkt_mat_mul(m, lkt_perspective(uniform(10, 600)));
        return lkt_mat_mul(m, lkt_translate(uniform(0, 90), uniform(0, 70), 0));
    case 5:
        for (int i = 0; i < 16; i++) m.m[i] = wild(-3, 3);
        return m;
    case 6:
        m.m[next_u32() % 16] = wild(-1e6, 1e6);
        return m;
    default:
        return m;
    }
}

static lk_dl_color random_color(void)
{
    float a = (float)uniform(0, 1);
    lk_dl_color c = lkt_color((float)uniform(0, a), (float)uniform(0, a), (float)uniform(0, a), a);
    if (chance(5)) c = lkt_color((float)wild(-1, 2), (float)wild(-1, 2), (float)wild(-1, 2), (float)wild(-1, 2));
    if (chance(10)) c.a = 1;
    return c;
}

typedef struct scene {
    lk_dl_op ops[MAX_OPS];
    lkt_image images[4];
} scene;

static uint32_t random_ops(scene *s)
{
    uint32_t count = 1 + next_u32() % MAX_OPS;
    int depth = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t kind;
        uint32_t r = next_u32() % 100;
        if (r < 35) kind = LK_DL_OP_FILL;
        else if (r < 55) kind = LK_DL_OP_IMAGE;
        else if (r < 70) kind = LK_DL_OP_BORDER;
        else if (r < 85) kind = LK_DL_OP_PUSH_CLIP;
        else kind = depth > 0 ? LK_DL_OP_POP_CLIP : LK_DL_OP_FILL;
        if (kind == LK_DL_OP_PUSH_CLIP) depth++;
        if (kind == LK_DL_OP_POP_CLIP) depth--;

        lk_dl_op *op = &s->ops[i];
        *op = lkt_op(kind, uniform(-30, 90), uniform(-30, 70), uniform(-20, 110), uniform(-20, 90));
        if (chance(10)) op->rect = lkt_rect(wild(-100, 100), wild(-100, 100), wild(-100, 200), wild(-100, 200));
        lkt_set_transform(op, random_transform());
        op->flags = next_u32() % 4;
        op->corner_radius = chance(50) ? 0 : wild(0, 60);
        op->border_width = wild(-2, 30);
        op->color = random_color();
        op->opacity = chance(50) ? 1.0f : (float)wild(-0.5, 1.5);
        if (kind == LK_DL_OP_IMAGE) {
            const lkt_image *img = &s->images[next_u32() % 4];
            op->image = &img->image;
            double iw = img->image.width, ih = img->image.height;
            op->source = chance(60) ? lkt_rect(0, 0, iw, ih)
                                    : lkt_rect(uniform(-5, iw), uniform(-5, ih), uniform(-5, iw + 5), uniform(-5, ih + 5));
            if (chance(5)) op->source = lkt_rect(wild(-10, 10), wild(-10, 10), wild(-10, 40), wild(-10, 40));
        }
    }
    return count;
}

static int check_premultiplied(const lkt_frame *f, int frame_index)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t p = lkt_pixel(f, x, y);
            uint32_t a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, bl = p & 255;
            if (r > a || g > a || bl > a) {
                lkt_fail("frame %d: pixel (%d,%d) = %08x is not premultiplied", frame_index, x, y, p);
                return 0;
            }
        }
    return 1;
}

int main(void)
{
    const lk_backend *b = lkt_load();
    if (!b) return 1;
    lk_backend_instance *one = lkt_open(b, NULL, W, H);
    lk_backend_instance *two = lkt_open(b, NULL, W, H);
    if (!one || !two) return 1;
    lkt_frame f1 = lkt_frame_new(W, H), f2 = lkt_frame_new(W, H), previous = lkt_frame_new(W, H);

    scene *s = (scene *)calloc(1, sizeof *s);
    for (int k = 0; k < 4; k++) {
        uint32_t iw = 1 + next_u32() % 40, ih = 1 + next_u32() % 40;
        s->images[k] = lkt_image_new(100 + (uint64_t)k, iw, ih);
        for (uint32_t i = 0; i < iw * ih; i++) {
            uint32_t a = next_u32() % 256;
            s->images[k].pixels[i] = lkt_argb(a, next_u32() % (a + 1), next_u32() % (a + 1), next_u32() % (a + 1));
        }
    }

    lkt_begin("fuzz_random_display_lists");
    int have_previous = 0;
    for (int frame = 0; frame < FRAMES && !lkt()->reason[0]; frame++) {
        uint32_t count = random_ops(s);
        lk_display_list list = lkt_list(s->ops, count, W, H, random_color());
        if (chance(30)) {
            list.damage.x = (int32_t)(next_u32() % W) - 10;
            list.damage.y = (int32_t)(next_u32() % H) - 10;
            list.damage.width = (int32_t)(next_u32() % W);
            list.damage.height = (int32_t)(next_u32() % H);
        }
        list.frame_number = (uint64_t)frame;
        if (chance(10)) {
            /* Images change behind the same ids. */
            int k = (int)(next_u32() % 4);
            s->images[k].pixels[0] = lkt_argb(255, 255, 0, 0);
            s->images[k].image.generation++;
            if (chance(50)) b->image_released(one, s->images[k].image.id);
        }
        if (!lkt_render(b, one, &list, &f1) || !lkt_render(b, two, &list, &f2)) {
            fprintf(stderr, "frame %d\n", frame);
            break;
        }
        check_premultiplied(&f1, frame);
        if (memcmp(f1.pixels, f2.pixels, (size_t)W * H * 4) != 0)
            lkt_fail("frame %d: two instances drew the same list differently", frame);
        if (have_previous) {
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    int inside = x >= list.damage.x && x < list.damage.x + list.damage.width &&
                                 y >= list.damage.y && y < list.damage.y + list.damage.height;
                    if (!inside && lkt_pixel(&f1, x, y) != lkt_pixel(&previous, x, y)) {
                        lkt_fail("frame %d: pixel (%d,%d) outside the damage changed", frame, x, y);
                        y = H;
                        break;
                    }
                }
        }
        memcpy(previous.pixels, f1.pixels, (size_t)W * H * 4);
        have_previous = 1;
    }
    lkt_end();

    for (int k = 0; k < 4; k++) free(s->images[k].pixels);
    free(s);
    b->close(one);
    b->close(two);
    free(f1.pixels);
    free(f2.pixels);
    free(previous.pixels);
    return lkt_exit_code();
}
