/*
 * Offscreen groups (ABI 2) on a backend plugin: group opacity, additive
 * blending, alpha masks, Gaussian shadows, nesting with clips, and the
 * validation of their nesting. Expected values are computed here from the
 * ABI's definitions (OVER, ADD, the Gaussian's CDF), not taken from a
 * backend.
 *
 * Runs against $LKTEST_PLUGIN (Tests/GLES/run.sh: the gles plugin).
 */
#include "lktest.h"

#define W 200
#define H 160

static const lk_backend *b;
static lk_backend_instance *inst;
static lkt_frame frame;

static int draw(const lk_dl_op *ops, uint32_t count, lk_dl_color clear)
{
    lk_display_list list = lkt_list(ops, count, W, H, clear);
    return lkt_render(b, inst, &list, &frame);
}

static lk_dl_op group(double x, double y, double w, double h, float opacity)
{
    lk_dl_op op = lkt_op(LK_DL_OP_PUSH_GROUP, x, y, w, h);
    op.opacity = opacity;
    return op;
}

static lk_dl_op pop(void) { return lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0); }

static lkt_rgba rgba(double r, double g, double bl, double a)
{
    return lkt_rgba_of(lkt_color((float)r, (float)g, (float)bl, (float)a));
}

/* Standard normal CDF. */
static double phi(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

static void test_group_opacity(void)
{
    lkt_begin("group_opacity_composites_once");
    lk_dl_op ops[4] = {
        group(0, 0, 100, 100, 0.5f),
        lkt_fill(10, 10, 30, 30, lkt_color(1, 0, 0, 1)),
        lkt_fill(20, 20, 30, 30, lkt_color(0, 0, 1, 1)),
        pop(),
    };
    lk_dl_color black = lkt_color(0, 0, 0, 1);
    if (draw(ops, 4, black)) {
        /* the overlap shows blue at half opacity, not blue over half red */
        lkt_expect(&frame, 25, 25, rgba(0, 0, 0.5, 1), 1, "overlap");
        lkt_expect(&frame, 12, 12, rgba(0.5, 0, 0, 1), 1, "red only");
        lkt_expect(&frame, 45, 45, rgba(0, 0, 0.5, 1), 1, "blue only");
        lkt_expect(&frame, 70, 70, rgba(0, 0, 0, 1), 0, "outside");
    }
    lkt_end();

    lkt_begin("nested_groups_multiply_opacity");
    lk_dl_op nested[5] = {
        group(0, 0, W, H, 0.5f), group(0, 0, W, H, 0.5f),
        lkt_fill(10, 10, 40, 40, lkt_color(0, 1, 0, 1)), pop(), pop(),
    };
    if (draw(nested, 5, black)) lkt_expect(&frame, 20, 20, rgba(0, 0.25, 0, 1), 1, "quarter green");
    lkt_end();
}

static void test_additive(void)
{
    lkt_begin("blend_add_adds_and_saturates");
    lk_dl_op ops[3] = {
        lkt_fill(0, 0, 50, 50, lkt_color(0.5f, 0, 0, 0.5f)),
        lkt_fill(25, 0, 50, 50, lkt_color(0.5f, 0, 0, 0.5f)),
        lkt_fill(100, 0, 50, 50, lkt_color(0.5f, 0.5f, 0, 0.5f)),
    };
    ops[0].flags |= LK_DL_FLAG_BLEND_ADD;
    ops[1].flags |= LK_DL_FLAG_BLEND_ADD;
    ops[2].flags |= LK_DL_FLAG_BLEND_ADD;
    lk_dl_color grey = lkt_color(0.25f, 0.25f, 0.25f, 1);
    if (draw(ops, 3, grey)) {
        lkt_expect(&frame, 10, 10, rgba(0.75, 0.25, 0.25, 1), 1, "one add");
        lkt_expect(&frame, 30, 10, rgba(1.0, 0.25, 0.25, 1), 1, "two adds saturate");
        lkt_expect(&frame, 110, 10, rgba(0.75, 0.75, 0.25, 1), 1, "add");
    }
    lkt_end();

    lkt_begin("group_with_blend_add");
    lk_dl_op g[3] = { group(0, 0, W, H, 0.5f), lkt_fill(0, 0, 50, 50, lkt_color(0, 1, 0, 1)), pop() };
    g[0].flags |= LK_DL_FLAG_BLEND_ADD;
    if (draw(g, 3, grey)) lkt_expect(&frame, 10, 10, rgba(0.25, 0.75, 0.25, 1), 1, "group added at half");
    lkt_end();
}

static void test_mask(void)
{
    lkt_begin("mask_multiplies_content_by_mask_alpha");
    lk_dl_op ops[6] = {
        group(0, 0, W, H, 1.0f),
        lkt_fill(0, 0, 50, 100, lkt_color(0, 0, 0, 1)),
        lkt_fill(50, 0, 50, 100, lkt_color(0.25f, 0.25f, 0.25f, 0.25f)),
        lkt_op(LK_DL_OP_GROUP_CONTENT, 0, 0, 0, 0),
        lkt_fill(0, 0, 150, 100, lkt_color(0, 1, 0, 1)),
        pop(),
    };
    ops[0].flags |= LK_DL_FLAG_GROUP_MASK;
    lk_dl_color black = lkt_color(0, 0, 0, 1);
    if (draw(ops, 6, black)) {
        lkt_expect(&frame, 20, 50, rgba(0, 1, 0, 1), 1, "opaque mask");
        lkt_expect(&frame, 70, 50, rgba(0, 0.25, 0, 1), 1, "quarter mask");
        lkt_expect(&frame, 120, 50, rgba(0, 0, 0, 1), 0, "no mask");
    }
    lkt_end();
}

static void test_shadow(void)
{
    const double sigma = 4.0, alpha = 0.8;
    lk_dl_color white = lkt_color(1, 1, 1, 1);

    lkt_begin("shadow_only_is_the_blurred_alpha");
    lk_dl_op ops[3] = { group(40, 40, 120, 80, 1.0f), lkt_fill(50, 50, 100, 60, lkt_color(1, 0, 0, 1)), pop() };
    ops[0].flags |= LK_DL_FLAG_SHADOW_ONLY;
    ops[0].shadow_color = lkt_color(0, 0, 0, (float)alpha);
    ops[0].shadow_sigma = sigma;
    if (draw(ops, 3, white)) {
        /* on white, a black shadow of alpha a leaves 1 - a */
        lkt_expect(&frame, 100, 80, rgba(1 - alpha, 1 - alpha, 1 - alpha, 1), 2, "deep inside");
        for (int k = -2; k <= 2; k++) {
            /* pixel centre 50 + k + 0.5 lies k + 0.5 inside the left edge */
            double a = alpha * phi((k + 0.5) / sigma);
            lkt_expect(&frame, 50 + k, 80, rgba(1 - a, 1 - a, 1 - a, 1), 3, "across the left edge");
        }
        lkt_expect(&frame, 20, 80, rgba(1, 1, 1, 1), 1, "far outside");
    }
    lkt_end();

    lkt_begin("shadow_offset_under_the_content");
    ops[0].flags &= ~(uint32_t)LK_DL_FLAG_SHADOW_ONLY;
    ops[0].shadow_offset_x = 6;
    ops[0].shadow_offset_y = 10;
    if (draw(ops, 3, white)) {
        lkt_expect(&frame, 100, 80, rgba(1, 0, 0, 1), 1, "content on top");
        double a = alpha * phi(0.5 / sigma);   /* pixel 155: 0.5 inside the moved right edge */
        lkt_expect(&frame, 155, 80, rgba(1 - a, 1 - a, 1 - a, 1), 3, "moved right edge");
        a = alpha * phi(-0.5 / sigma);
        lkt_expect(&frame, 100, 120, rgba(1 - a, 1 - a, 1 - a, 1), 3, "moved bottom edge");
    }
    lkt_end();

    lkt_begin("hard_shadow_with_sigma_0");
    ops[0].shadow_sigma = 0;
    if (draw(ops, 3, white)) {
        lkt_expect(&frame, 153, 80, rgba(1 - alpha, 1 - alpha, 1 - alpha, 1), 1, "inside the shadow");
        lkt_expect(&frame, 156, 80, rgba(1, 1, 1, 1), 1, "beyond it");
    }
    lkt_end();

    lkt_begin("wide_shadow_beyond_the_taps_of_one_pass");
    /* sigma 24 reaches 74 pixels, more than the 48 taps a side of a pass:
       every second pixel is sampled with the integral over two. Against
       the exact convolution of the rect, with the offset's fraction. */
    {
        const double wide = 24.0, ox = 3.3, oy = -2.6;
        lk_dl_op w[3] = { group(40, 40, 120, 80, 1.0f), lkt_fill(50, 50, 100, 60, lkt_color(1, 0, 0, 1)), pop() };
        w[0].flags |= LK_DL_FLAG_SHADOW_ONLY;
        w[0].shadow_color = lkt_color(0, 0, 0, 1);
        w[0].shadow_sigma = wide;
        w[0].shadow_offset_x = ox;
        w[0].shadow_offset_y = oy;
        if (draw(w, 3, white)) {
            for (int y = 0; y < H; y += 3)
                for (int x = 0; x < W; x += 3) {
                    double cx = x + 0.5 - ox, cy = y + 0.5 - oy;
                    double a = (phi((cx - 50) / wide) - phi((cx - 150) / wide)) *
                               (phi((cy - 50) / wide) - phi((cy - 110) / wide));
                    if (!lkt_expect(&frame, x, y, rgba(1 - a, 1 - a, 1 - a, 1), 2, "wide shadow")) goto wide_done;
                }
        }
    }
wide_done:
    lkt_end();

    lkt_begin("outer_clip_clips_the_shadow");
    lk_dl_op clipped[5] = {
        lkt_op(LK_DL_OP_PUSH_CLIP, 0, 0, 152, H), group(40, 40, 120, 80, 1.0f),
        lkt_fill(50, 50, 100, 60, lkt_color(1, 0, 0, 1)), pop(), lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0),
    };
    clipped[1].shadow_color = lkt_color(0, 0, 0, (float)alpha);
    clipped[1].shadow_offset_x = 6;
    if (draw(clipped, 5, white)) {
        lkt_expect(&frame, 151, 80, rgba(1 - alpha, 1 - alpha, 1 - alpha, 1), 1, "shadow inside the clip");
        lkt_expect(&frame, 153, 80, rgba(1, 1, 1, 1), 1, "shadow beyond the clip");
    }
    lkt_end();

    lkt_begin("clip_inside_a_group");
    lk_dl_op inner[6] = {
        group(0, 0, W, H, 0.5f), lkt_op(LK_DL_OP_PUSH_CLIP, 20, 20, 20, 20),
        lkt_fill(0, 0, 100, 100, lkt_color(0, 0, 1, 1)), lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0),
        lkt_fill(60, 60, 10, 10, lkt_color(0, 0, 1, 1)), pop(),
    };
    lk_dl_color black = lkt_color(0, 0, 0, 1);
    if (draw(inner, 6, black)) {
        lkt_expect(&frame, 30, 30, rgba(0, 0, 0.5, 1), 1, "inside the clip");
        lkt_expect(&frame, 50, 30, rgba(0, 0, 0, 1), 0, "outside the clip");
        lkt_expect(&frame, 65, 65, rgba(0, 0, 0.5, 1), 1, "after the clip, in the group");
    }
    lkt_end();
}

static void expect_refused(const char *name, lk_dl_op *ops, uint32_t count, const char *needle)
{
    lkt_begin(name);
    lk_display_list list = lkt_list(ops, count, W, H, lkt_color(0, 0, 0, 1));
    char error[512] = "";
    if (b->render(inst, &list, error, sizeof error)) lkt_fail("the list was accepted");
    else if (!strstr(error, needle)) lkt_fail("error \"%s\" does not say \"%s\"", error, needle);
    lkt_end();
}

static void test_validation(void)
{
    lk_dl_op pop_only[1] = { pop() };
    expect_refused("pop_group_without_push_names_the_op", pop_only, 1, "op 0: POP_GROUP without a matching PUSH_GROUP");
    lk_dl_op content[2] = { group(0, 0, 10, 10, 1), lkt_op(LK_DL_OP_GROUP_CONTENT, 0, 0, 0, 0) };
    expect_refused("group_content_outside_a_mask_group", content, 2, "op 1: GROUP_CONTENT outside a group flagged GROUP_MASK");
    lk_dl_op crossed[4] = { group(0, 0, 10, 10, 1), lkt_op(LK_DL_OP_PUSH_CLIP, 0, 0, 5, 5), pop(),
                            lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0) };
    expect_refused("groups_and_clips_must_nest", crossed, 4, "op 2: POP_GROUP without a matching PUSH_GROUP");
    lkt_begin("mask_group_without_content_draws_nothing");
    lk_dl_op unfinished[3] = { group(0, 0, W, H, 1), lkt_fill(0, 0, 10, 10, lkt_color(1, 1, 1, 1)), pop() };
    unfinished[0].flags |= LK_DL_FLAG_GROUP_MASK;
    if (draw(unfinished, 3, lkt_color(0, 0, 0, 1))) lkt_expect(&frame, 5, 5, rgba(0, 0, 0, 1), 0, "no content");
    lkt_end();

    lkt_begin("open_group_ends_with_the_frame");
    lk_dl_op open_group[2] = { group(0, 0, W, H, 0.5f), lkt_fill(0, 0, 10, 10, lkt_color(1, 1, 1, 1)) };
    if (draw(open_group, 2, lkt_color(0, 0, 0, 1))) lkt_expect(&frame, 5, 5, rgba(0.5, 0.5, 0.5, 1), 1, "composited");
    lkt_end();
}

int main(void)
{
    b = lkt_load();
    if (!b) return 1;
    lkt_host_record record;
    memset(&record, 0, sizeof record);
    lk_backend_host host = lkt_host(&record);
    inst = lkt_open(b, &host, W, H);
    if (!inst) return 1;
    frame = lkt_frame_new(W, H);
    test_group_opacity();
    test_additive();
    test_mask();
    test_shadow();
    test_validation();
    b->close(inst);
    free(frame.pixels);
    return lkt_exit_code();
}
