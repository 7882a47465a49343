/*
 * Software backend: the plugin table, open options, output info, display
 * list validation and error messages, frame callbacks, damage and
 * read_pixels.
 */
#include "lktest.h"

#define W 64
#define H 48

static int contains(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

/* Renders list and checks that it fails with an error containing part. */
static void expect_render_error(const lk_backend *b, lk_backend_instance *inst,
                                const lk_display_list *list, const char *part)
{
    char error[512] = "";
    if (b->render(inst, list, error, sizeof error))
        lkt_fail("render succeeded, expected an error containing \"%s\"", part);
    else if (!contains(error, part))
        lkt_fail("error \"%s\" does not contain \"%s\"", error, part);
}

/* Every line a host heard while an instance opened (last_log keeps only
   the last, and the gles backend logs what it opened after a warning). */
static char heard[4096];

static void hear(void *data, uint32_t level, const char *message)
{
    size_t n = strlen(heard);
    (void)data;
    (void)level;
    snprintf(heard + n, sizeof heard - n, "%s\n", message);
}

/* S8.1 on gles: LAYERKIT_GLES_VERSION with a value it does not take is
   reported by name, value and what it takes, and the default context is
   made (the instance opens); 2 and 3 are taken without a word. A typo
   ("2.0" for "2") was taken silently for the default. */
static void check_gles_version_variable(const lk_backend *b)
{
    static const char *const values[] = { "2.0", "es2", "4", "2", "3" };
    lkt_begin("gles_version_variable_unknown_value_is_reported");
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        int known = strcmp(values[i], "2") == 0 || strcmp(values[i], "3") == 0;
        lkt_host_record record;
        memset(&record, 0, sizeof record);
        lk_backend_host host = lkt_host(&record);
        host.log = hear;
        heard[0] = '\0';
        char error[512] = "";
        setenv("LAYERKIT_GLES_VERSION", values[i], 1);
        lk_backend_instance *inst = b->open(&host, NULL, error, sizeof error);
        unsetenv("LAYERKIT_GLES_VERSION");
        if (!inst) {
            lkt_fail("LAYERKIT_GLES_VERSION=%s: the instance did not open: %s", values[i], error);
            continue;
        }
        int named = strstr(heard, "LAYERKIT_GLES_VERSION=") != NULL;
        if (!known && !(named && strstr(heard, values[i]) && strstr(heard, "expected 2")))
            lkt_fail("LAYERKIT_GLES_VERSION=%s: no warning naming it and what it takes (heard \"%s\")", values[i], heard);
        if (known && named) lkt_fail("LAYERKIT_GLES_VERSION=%s was reported: \"%s\"", values[i], heard);
        b->close(inst);
    }
    lkt_end();
}

int main(void)
{
    lk_backend_entry_fn entry = lkt_load_entry();
    if (!entry) return 1;

    lkt_begin("entry_rejects_other_abi_versions");
    if (entry(LK_BACKEND_ABI_VERSION + 1) != NULL) lkt_fail("entry(%u) is not NULL", LK_BACKEND_ABI_VERSION + 1);
    if (entry(0) != NULL) lkt_fail("entry(0) is not NULL");
    lkt_end();

    const lk_backend *b = entry(LK_BACKEND_ABI_VERSION);
    lkt_begin("entry_table");
    if (!b) {
        lkt_fail("entry(%u) returned NULL", LK_BACKEND_ABI_VERSION);
        lkt_end();
        return lkt_exit_code();
    }
    if (b->abi_version != LK_BACKEND_ABI_VERSION) lkt_fail("abi_version %u", b->abi_version);
    if (b->struct_size < sizeof(lk_backend)) lkt_fail("struct_size %u", b->struct_size);
    if (!b->name || strcmp(b->name, lkt_backend_name()) != 0) lkt_fail("name is \"%s\"", b->name ? b->name : "(null)");
    if (!b->open || !b->close || !b->get_output || !b->render || !b->read_pixels || !b->image_released)
        lkt_fail("a function pointer is NULL");
    lkt_end();

    lkt_host_record record;
    memset(&record, 0, sizeof record);
    lk_backend_host host = lkt_host(&record);
    char error[512];

    lkt_begin("open_defaults_and_output_info");
    {
        lk_backend_instance *inst = b->open(&host, NULL, error, sizeof error);
        if (!inst) {
            lkt_fail("open with NULL options failed: %s", error);
        } else {
            lk_backend_output_info info;
            memset(&info, 0, sizeof info);
            info.struct_size = sizeof info;
            if (!b->get_output(inst, &info)) lkt_fail("get_output failed");
            else if (info.width != 1280 || info.height != 720) lkt_fail("size %ux%u, expected 1280x720", info.width, info.height);
            else if (fabs(info.refresh_rate - 60.0) > 1e-9) lkt_fail("refresh %g, expected 60", info.refresh_rate);
            else if (!info.name || strcmp(info.name, lkt_output_name()) != 0) lkt_fail("name \"%s\"", info.name ? info.name : "(null)");
            b->close(inst);
        }
    }
    lkt_end();

    lkt_begin("get_output_honours_short_struct_size");
    {
        lk_backend_instance *inst = lkt_open(b, &host, 320, 200);
        lk_backend_output_info info;
        memset(&info, 0xAB, sizeof info);
        info.struct_size = (uint32_t)(offsetof(lk_backend_output_info, height) + sizeof info.height);
        if (!inst) lkt_fail("open failed");
        else if (!b->get_output(inst, &info)) lkt_fail("get_output failed");
        else if (info.width != 320 || info.height != 200) lkt_fail("size %ux%u", info.width, info.height);
        else {
            unsigned char fill;
            memcpy(&fill, (const char *)&info + offsetof(lk_backend_output_info, refresh_rate), 1);
            if (fill != 0xAB) lkt_fail("wrote refresh_rate beyond struct_size");
        }
        if (inst) b->close(inst);
    }
    lkt_end();

    lkt_begin("rotation_90_refused");
    {
        lk_backend_open_options o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.rotation = 90;
        error[0] = '\0';
        lk_backend_instance *inst = b->open(&host, &o, error, sizeof error);
        if (inst) {
            lkt_fail("open with rotation 90 succeeded");
            b->close(inst);
        } else {
            char expected[128];
            snprintf(expected, sizeof expected, "%s backend: rotation 90 is not supported (only 0)",
                     lkt_backend_name());
            if (strcmp(error, expected) != 0) lkt_fail("error \"%s\"", error);
        }
    }
    lkt_end();

    lkt_begin("oversized_output_refused");
    {
        lk_backend_open_options o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.width = 20000;
        o.height = 100;
        error[0] = '\0';
        lk_backend_instance *inst = b->open(&host, &o, error, sizeof error);
        if (inst) {
            lkt_fail("open 20000x100 succeeded");
            b->close(inst);
        } else if (!contains(error, "20000x100") || !contains(error, "too large")) {
            lkt_fail("error \"%s\"", error);
        }
    }
    lkt_end();

    lk_backend_instance *inst = lkt_open(b, &host, W, H);
    if (!inst) return 1;
    lkt_frame frame = lkt_frame_new(W, H);

    lkt_begin("read_pixels_before_render_fails");
    error[0] = '\0';
    if (b->read_pixels(inst, frame.pixels, W * 4, error, sizeof error)) lkt_fail("read_pixels succeeded");
    else if (!contains(error, "no frame has been rendered yet")) lkt_fail("error \"%s\"", error);
    lkt_end();

    lkt_begin("clear_color_and_frame_done");
    {
        lk_display_list list = lkt_list(NULL, 0, W, H, lkt_color(0.2f, 0.4f, 0.6f, 1.0f));
        list.frame_number = 42;
        list.target_time = 12.5;
        if (lkt_render(b, inst, &list, &frame)) {
            lkt_rgba want = { 255, 51, 102, 153 };
            for (int y = 0; y < H; y += 7)
                for (int x = 0; x < W; x += 5) lkt_expect(&frame, x, y, want, 0, "clear");
            if (record.frames_done != 1 || record.last_frame != 42 || record.last_time != 12.5)
                lkt_fail("frame_done: %d calls, last frame %llu at %g", record.frames_done,
                         (unsigned long long)record.last_frame, record.last_time);
        }
    }
    lkt_end();

    lkt_begin("read_pixels_with_padded_stride");
    {
        size_t stride = W * 4 + 12;
        unsigned char *buf = (unsigned char *)malloc(stride * H);
        memset(buf, 0x5A, stride * H);
        if (!b->read_pixels(inst, buf, stride, error, sizeof error)) lkt_fail("read_pixels: %s", error);
        else {
            uint32_t p;
            memcpy(&p, buf + stride * 3 + 4 * 2, 4);
            if (p != lkt_argb(255, 51, 102, 153)) lkt_fail("pixel (2,3) = %08x", p);
            if (buf[stride * 3 + W * 4] != 0x5A) lkt_fail("wrote into the row padding");
        }
        if (b->read_pixels(inst, buf, W * 4 - 4, error, sizeof error)) lkt_fail("stride smaller than a row accepted");
        free(buf);
    }
    lkt_end();

    lk_dl_op ops[4];
    ops[0] = lkt_fill(0, 0, 10, 10, lkt_color(1, 0, 0, 1));
    ops[1] = lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0);

    lkt_begin("bad_abi_version_rejected");
    {
        lk_display_list list = lkt_list(ops, 1, W, H, lkt_color(0, 0, 0, 1));
        list.abi_version = 7;
        expect_render_error(b, inst, &list, "abi_version 7");
    }
    lkt_end();

    lkt_begin("bad_struct_size_rejected");
    {
        lk_display_list list = lkt_list(ops, 1, W, H, lkt_color(0, 0, 0, 1));
        list.struct_size = 8;
        expect_render_error(b, inst, &list, "struct_size 8");
    }
    lkt_end();

    lkt_begin("bad_op_size_rejected");
    {
        lk_display_list list = lkt_list(ops, 1, W, H, lkt_color(0, 0, 0, 1));
        list.op_size = (uint32_t)sizeof(lk_dl_op) - 8;
        char part[64];
        snprintf(part, sizeof part, "op_size %u", list.op_size);
        expect_render_error(b, inst, &list, part);
    }
    lkt_end();

    lkt_begin("null_ops_rejected");
    {
        lk_display_list list = lkt_list(NULL, 3, W, H, lkt_color(0, 0, 0, 1));
        expect_render_error(b, inst, &list, "ops is NULL");
    }
    lkt_end();

    lkt_begin("pop_without_push_names_the_op");
    {
        lk_display_list list = lkt_list(ops, 2, W, H, lkt_color(0, 0, 0, 1));
        expect_render_error(b, inst, &list, "op 1: POP_CLIP without a matching PUSH_CLIP");
    }
    lkt_end();

    lkt_begin("unknown_op_kind_rejected");
    {
        lk_dl_op bad = lkt_op(99, 0, 0, 1, 1);
        lk_display_list list = lkt_list(&bad, 1, W, H, lkt_color(0, 0, 0, 1));
        expect_render_error(b, inst, &list, "op 0: unknown op kind 99");
    }
    lkt_end();

    lkt_begin("image_errors_name_the_op");
    {
        lkt_image img = lkt_image_new(5, 4, 4);
        lk_dl_op iops[2];
        iops[0] = lkt_fill(0, 0, 1, 1, lkt_color(0, 0, 0, 1));
        iops[1] = lkt_op(LK_DL_OP_IMAGE, 0, 0, 4, 4);
        iops[1].source = lkt_rect(0, 0, 4, 4);
        lk_display_list list = lkt_list(iops, 2, W, H, lkt_color(0, 0, 0, 1));
        expect_render_error(b, inst, &list, "op 1: IMAGE without an image");
        iops[1].image = &img.image;
        img.image.pixels = NULL;
        expect_render_error(b, inst, &list, "op 1: image 5 has no pixels");
        img.image.pixels = img.pixels;
        img.image.format = 9;
        expect_render_error(b, inst, &list, "op 1: image 5 has unsupported pixel format 9");
        img.image.format = LK_DL_FORMAT_ARGB32_PREMULTIPLIED;
        img.image.stride = 8;
        expect_render_error(b, inst, &list, "op 1: image 5 stride 8");
        free(img.pixels);
    }
    lkt_end();

    lkt_begin("rejected_list_keeps_last_frame");
    {
        /* The last good frame was the 0.2/0.4/0.6 clear. */
        if (b->read_pixels(inst, frame.pixels, W * 4, error, sizeof error))
            lkt_expect(&frame, 10, 10, lkt_rgba_of(lkt_color(0.2f, 0.4f, 0.6f, 1.0f)), 1, "after errors");
        else
            lkt_fail("read_pixels: %s", error);
        if (record.frames_done != 1) lkt_fail("frame_done called for rejected lists (%d)", record.frames_done);
    }
    lkt_end();

    lkt_begin("larger_op_size_is_the_stride");
    {
        /* A newer core's ops may be longer; the plugin must step by op_size. */
        size_t stride = sizeof(lk_dl_op) + 24;
        char *raw = (char *)calloc(2, stride);
        lk_dl_op a = lkt_fill(0, 0, 8, 8, lkt_color(1, 0, 0, 1));
        lk_dl_op c = lkt_fill(8, 0, 8, 8, lkt_color(0, 1, 0, 1));
        memcpy(raw, &a, sizeof a);
        memcpy(raw + stride, &c, sizeof c);
        lk_display_list list = lkt_list((const lk_dl_op *)(const void *)raw, 2, W, H, lkt_color(0, 0, 0, 1));
        list.op_size = (uint32_t)stride;
        if (lkt_render(b, inst, &list, &frame)) {
            lkt_expect(&frame, 4, 4, lkt_rgba_of(lkt_color(1, 0, 0, 1)), 0, "first op");
            lkt_expect(&frame, 12, 4, lkt_rgba_of(lkt_color(0, 1, 0, 1)), 0, "second op");
        }
        free(raw);
    }
    lkt_end();

    lkt_begin("unaligned_op_stride_is_read_the_same");
    {
        /* Ops are read in place when the array keeps lk_dl_op's alignment;
           a stride (or array) that does not is copied op by op, and draws
           the same: a background, a turned translucent fill (the sprite
           path's preparation reads it) and a plain fill. */
        lk_dl_op ops[3] = { lkt_fill(0, 0, W, H, lkt_color(0, 0, 1, 1)),
                            lkt_fill(-10, -10, 20, 20, lkt_color(1, 0.5, 0, 0.6)),
                            lkt_fill(4, 4, 8, 8, lkt_color(0, 1, 0, 0.5)) };
        lkt_set_transform(&ops[1], lkt_mat_mul(lkt_rotate_z(0.4), lkt_translate(W / 2.0, H / 2.0, 0)));
        lk_display_list list = lkt_list(ops, 3, W, H, lkt_color(0, 0, 0, 1));
        lkt_frame want = lkt_frame_new(W, H);
        if (lkt_render(b, inst, &list, &want)) {
            size_t stride = sizeof(lk_dl_op) + 4;
            char *raw = (char *)calloc(3 * stride + 8, 1);
            for (int i = 0; i < 3; i++) memcpy(raw + 4 + (size_t)i * stride, &ops[i], sizeof ops[i]);
            list.ops = (const lk_dl_op *)(const void *)(raw + 4);
            list.op_size = (uint32_t)stride;
            if (lkt_render(b, inst, &list, &frame)) lkt_same_frame(&frame, &want, "from ops 4 bytes off alignment");
            free(raw);
        }
        free(want.pixels);
    }
    lkt_end();

    lkt_begin("damage_limits_clear_and_drawing");
    {
        lk_dl_op red = lkt_fill(0, 0, W, H, lkt_color(1, 0, 0, 1));
        lk_display_list list = lkt_list(&red, 1, W, H, lkt_color(0, 0, 0, 1));
        lkt_render(b, inst, &list, &frame);
        lk_dl_op green = lkt_fill(0, 0, W, H, lkt_color(0, 1, 0, 1));
        list = lkt_list(&green, 1, W, H, lkt_color(0, 0, 1, 1));
        list.damage.x = 10; list.damage.y = 5; list.damage.width = 20; list.damage.height = 10;
        if (lkt_render(b, inst, &list, &frame)) {
            lkt_expect(&frame, 10, 5, lkt_rgba_of(lkt_color(0, 1, 0, 1)), 0, "inside damage");
            lkt_expect(&frame, 29, 14, lkt_rgba_of(lkt_color(0, 1, 0, 1)), 0, "inside damage");
            lkt_expect(&frame, 9, 5, lkt_rgba_of(lkt_color(1, 0, 0, 1)), 0, "left of damage");
            lkt_expect(&frame, 30, 14, lkt_rgba_of(lkt_color(1, 0, 0, 1)), 0, "right of damage");
            lkt_expect(&frame, 15, 15, lkt_rgba_of(lkt_color(1, 0, 0, 1)), 0, "below damage");
        }
        /* Damage hanging off the output is clipped to it. */
        list.damage.x = -100; list.damage.y = -100; list.damage.width = 1000000; list.damage.height = 1000000;
        list.clear_color = lkt_color(0, 0, 1, 1);
        list.op_count = 0;
        if (lkt_render(b, inst, &list, &frame)) {
            lkt_expect(&frame, 0, 0, lkt_rgba_of(lkt_color(0, 0, 1, 1)), 0, "oversized damage");
            lkt_expect(&frame, W - 1, H - 1, lkt_rgba_of(lkt_color(0, 0, 1, 1)), 0, "oversized damage");
        }
    }
    lkt_end();

    lkt_begin("image_released_unknown_id_is_harmless");
    b->image_released(inst, 12345);
    b->image_released(inst, 0);
    lkt_end();

    lkt_begin("short_host_struct_is_honoured");
    {
        /* A host that only fills the fields up to log: frame_done must not be read. */
        lk_backend_host old = host;
        old.struct_size = (uint32_t)offsetof(lk_backend_host, frame_done);
        int before = record.frames_done;
        lk_backend_instance *i2 = b->open(&old, NULL, error, sizeof error);
        if (!i2) lkt_fail("open: %s", error);
        else {
            lk_display_list list = lkt_list(NULL, 0, W, H, lkt_color(0, 0, 0, 1));
            if (!b->render(i2, &list, error, sizeof error)) lkt_fail("render: %s", error);
            else if (record.frames_done != before) lkt_fail("frame_done beyond struct_size was called");
            b->close(i2);
        }
    }
    lkt_end();

    if (strcmp(lkt_backend_name(), "gles") == 0) check_gles_version_variable(b);

    b->close(inst);
    b->close(NULL);
    free(frame.pixels);
    return lkt_exit_code();
}
