/*
 * The GLES renderer on its own, in a context this test makes itself (EGL,
 * surfaceless, into an FBO of its own): the renderer needs nothing but a
 * current context and a target framebuffer. Checks its failure paths (a
 * shader that does not compile, an image larger than the GL allows) and its
 * work counters: ops of one state batch into one draw call, a static frame
 * uploads nothing, a changed image uploads once, groups and blurs count
 * their offscreen passes.
 *
 * Built by Tests/GLES/run.sh with the renderer's sources.
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include "lk_gles_renderer.h"
#include "lktest.h"

#define W 64
#define H 48

static lkgl_renderer *r;
static GLuint fbo;
static lkgl_stats last;

static int render(const lk_dl_op *ops, uint32_t count)
{
    lk_display_list list = lkt_list(ops, count, W, H, lkt_color(0, 0, 0, 1));
    char error[512] = "";
    if (!lkgl_renderer_render(r, &list, fbo, W, H, error, sizeof error)) {
        lkt_fail("render failed: %s", error);
        return 0;
    }
    lkgl_renderer_stats(r, &last, NULL);
    return 1;
}

static int make_context(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get) return 0;
    EGLDisplay d = get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API)) return 0;
    const EGLint attributes[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) return 0;
    GLuint texture;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

static void test_shader_failure(void)
{
    lkt_begin("a_shader_that_does_not_compile_is_an_error_with_the_log");
    char error[1024] = "";
    uint32_t p = lkgl_compile_program("test renderer", "broken", "void main() { gl_Position = vec4(0.0); }",
                                      "void main() { gl_FragColor = no_such_variable; }", error, sizeof error);
    if (p != 0) lkt_fail("the program compiled");
    else if (!strstr(error, "test renderer: the fragment shader of program broken does not compile: "))
        lkt_fail("error \"%s\"", error);
    else if (!strstr(error, "no_such_variable")) lkt_fail("the GL's log is missing: \"%s\"", error);
    lkt_end();
}

static void test_into_own_fbo(void)
{
    lkt_begin("draws_into_the_callers_framebuffer_top_row_first");
    lk_dl_op op = lkt_fill(0, 0, W, 10, lkt_color(1, 0, 0, 1));
    if (render(&op, 1)) {
        uint8_t px[2][4];
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glReadPixels(5, 5, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[0]);
        glReadPixels(5, 20, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[1]);
        if (px[0][0] != 255 || px[0][1] != 0 || px[0][3] != 255) lkt_fail("row 5 is not red");
        if (px[1][0] != 0 || px[1][3] != 255) lkt_fail("row 20 is not black");
    }
    lkt_end();
}

/* An image larger than GL_MAX_TEXTURE_SIZE is drawn from a reduced copy
   (it failed the whole frame): max + 1 texels wide, red on its left half
   and blue on its right, stretched over 40 pixels, shows red at the left
   and blue at the right. */
static void test_texture_too_large(void)
{
    lkt_begin("an_image_larger_than_the_gl_allows_is_drawn_reduced");
    GLint max = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    uint32_t width = (uint32_t)max + 1;
    lkt_image img = lkt_image_new(5, width, 2);
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < width; x++)
            ((uint32_t *)img.pixels)[(size_t)y * width + x] = x < width / 2 ? lkt_argb(255, 255, 0, 0) : lkt_argb(255, 0, 0, 255);
    lk_dl_op op = lkt_op(LK_DL_OP_IMAGE, 0, 0, 40, 10);
    op.image = &img.image;
    op.source = lkt_rect(0, 0, width, 2);
    lk_display_list list = lkt_list(&op, 1, W, H, lkt_color(0, 0, 0, 1));
    char error[512] = "";
    if (!lkgl_renderer_render(r, &list, fbo, W, H, error, sizeof error)) {
        lkt_fail("not rendered: %s", error);
    } else {
        uint8_t px[2][4];
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glReadPixels(2, 5, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[0]);
        glReadPixels(37, 5, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px[1]);
        if (px[0][0] < 250 || px[0][2] > 5 || px[1][2] < 250 || px[1][0] > 5)
            lkt_fail("left %u,%u,%u, right %u,%u,%u", px[0][0], px[0][1], px[0][2], px[1][0], px[1][1], px[1][2]);
    }
    free(img.pixels);
    lkt_end();
}

/* Only the plain solid program is built with the renderer; every other one
   when a frame first draws with it, once. */
static void test_programs_built_lazily(void)
{
    lkt_begin("programs_are_built_when_a_frame_first_needs_them");
    lkgl_stats total;
    lkgl_renderer_stats(r, NULL, &total);
    if (total.programs_built != 1)
        lkt_fail("%llu programs built by create, expected 1 (solid)", (unsigned long long)total.programs_built);
    lk_dl_op fill = lkt_fill(0, 0, 8, 8, lkt_color(1, 0, 0, 1));
    if (render(&fill, 1) && last.programs_built != 0)
        lkt_fail("a solid fill built %llu programs", (unsigned long long)last.programs_built);
    lkt_image img = lkt_image_new(7, 4, 4);
    lk_dl_op op = lkt_op(LK_DL_OP_IMAGE, 10, 10, 8, 8);
    op.image = &img.image;
    op.source = lkt_rect(0, 0, 4, 4);
    if (render(&op, 1) && last.programs_built != 1)
        lkt_fail("the first image built %llu programs, expected 1 (textured)", (unsigned long long)last.programs_built);
    if (render(&op, 1) && last.programs_built != 0)
        lkt_fail("the second frame with an image built %llu programs", (unsigned long long)last.programs_built);
    lkgl_renderer_image_released(r, 7);
    free(img.pixels);
    lkgl_renderer_stats(r, NULL, &total);
    if (total.programs_built != 2) lkt_fail("%llu built in all, expected 2", (unsigned long long)total.programs_built);
    lkt_end();

    lkt_begin("every_program_builds");
    char error[1024] = "";
    if (!lkgl_renderer_build_programs(r, error, sizeof error)) lkt_fail("%s", error);
    lkgl_renderer_stats(r, NULL, &total);
    if (total.programs_built != 18)
        lkt_fail("%llu built in all, expected all 18", (unsigned long long)total.programs_built);
    if (render(&op, 0) && last.programs_built != 0) lkt_fail("a frame after that built one");
    lkt_end();
}

static void test_counters(void)
{
    lkt_begin("ops_of_one_state_draw_in_one_call");
    lk_dl_op many[100];
    for (int i = 0; i < 100; i++) {
        many[i] = lkt_fill(i % 10 * 6, i / 10 * 4, 5, 3, lkt_color(0.5f, 0.5f, 0, 0.5f));
        many[i].opacity = 0.5f + 0.005f * (float)i;   /* per-op values ride in the vertices */
    }
    if (render(many, 100) && last.draw_calls != 1)
        lkt_fail("%llu draw calls for 100 fills", (unsigned long long)last.draw_calls);
    lkt_end();

    lkt_begin("a_static_frame_uploads_nothing");
    lkt_image imgs[3] = { lkt_image_new(11, 8, 8), lkt_image_new(12, 8, 8), lkt_image_new(13, 8, 8) };
    lk_dl_op ops[3];
    for (int i = 0; i < 3; i++) {
        ops[i] = lkt_op(LK_DL_OP_IMAGE, i * 10, 0, 8, 8);
        ops[i].image = &imgs[i].image;
        ops[i].source = lkt_rect(0, 0, 8, 8);
    }
    if (render(ops, 3) && last.texture_uploads != 3)
        lkt_fail("first frame: %llu uploads, expected 3", (unsigned long long)last.texture_uploads);
    if (render(ops, 3) && last.texture_uploads != 0)
        lkt_fail("static frame: %llu uploads", (unsigned long long)last.texture_uploads);
    imgs[1].pixels[5] = lkt_argb(255, 1, 2, 3);
    imgs[1].image.generation++;
    if (render(ops, 3) && last.texture_uploads != 1)
        lkt_fail("one image changed: %llu uploads", (unsigned long long)last.texture_uploads);
    imgs[1].image.generation++;
    if (render(ops, 3) && last.texture_uploads != 0)
        lkt_fail("a new generation with the same pixels: %llu uploads", (unsigned long long)last.texture_uploads);
    lkgl_renderer_image_released(r, 12);
    if (render(ops, 3) && last.texture_uploads != 1)
        lkt_fail("after release: %llu uploads", (unsigned long long)last.texture_uploads);
    for (int i = 0; i < 3; i++) free(imgs[i].pixels);
    lkt_end();

    lkt_begin("a_changed_image_uploads_only_its_changed_tiles");
    lkt_image big = lkt_image_new(20, 256, 256);
    lk_dl_op op = lkt_op(LK_DL_OP_IMAGE, 0, 0, 32, 32);
    op.image = &big.image;
    op.source = lkt_rect(0, 0, 256, 256);
    if (render(&op, 1) && last.upload_bytes != 256 * 256 * 4)
        lkt_fail("first upload: %llu bytes", (unsigned long long)last.upload_bytes);
    big.pixels[130 * 256 + 70] = lkt_argb(255, 255, 255, 255);   /* in tile (1, 2) */
    big.image.generation++;
    if (render(&op, 1) && (last.texture_uploads != 1 || last.upload_bytes != 64 * 64 * 4))
        lkt_fail("one pixel changed: %llu uploads of %llu bytes, expected one 64x64 tile",
                 (unsigned long long)last.texture_uploads, (unsigned long long)last.upload_bytes);
    big.pixels[0] = lkt_argb(255, 1, 1, 1);                       /* tile (0, 0) */
    big.pixels[255 * 256 + 255] = lkt_argb(255, 1, 1, 1);         /* tile (3, 3) */
    big.image.generation++;
    if (render(&op, 1) && last.upload_bytes != 256 * 256 * 4)
        lkt_fail("opposite corners changed: %llu bytes, expected the box of both", (unsigned long long)last.upload_bytes);
    free(big.pixels);
    lkt_end();

    lkt_begin("offscreen_passes_are_counted");
    lk_dl_op g[3] = { lkt_op(LK_DL_OP_PUSH_GROUP, 0, 0, 32, 32), lkt_fill(4, 4, 8, 8, lkt_color(1, 1, 1, 1)),
                      lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0) };
    if (render(g, 3) && last.offscreen_passes != 1)
        lkt_fail("group: %llu passes", (unsigned long long)last.offscreen_passes);
    g[0].shadow_color = lkt_color(0, 0, 0, 0.5f);
    g[0].shadow_sigma = 2.0;
    if (render(g, 3) && last.offscreen_passes != 3)
        lkt_fail("group with a blurred shadow: %llu passes, expected 3", (unsigned long long)last.offscreen_passes);
    lk_dl_op c[3] = { lkt_op(LK_DL_OP_PUSH_CLIP, 0, 0, 20, 20), lkt_fill(0, 0, 30, 30, lkt_color(1, 1, 1, 1)),
                      lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0) };
    if (render(c, 3) && last.offscreen_passes != 0)
        lkt_fail("pixel-aligned clip: %llu passes (a scissor needs none)", (unsigned long long)last.offscreen_passes);
    c[0].corner_radius = 4;
    if (render(c, 3) && last.offscreen_passes != 1)
        lkt_fail("rounded clip: %llu passes", (unsigned long long)last.offscreen_passes);
    lkt_end();
}

/* Ops are read where they lie when the list keeps lk_dl_op's alignment; a
   list whose ops are not aligned (an odd stride, from elsewhere than the
   core) is read op by op through a copy, and draws the same: a group with
   a shadow (the frame's margin reads it), a fill in it, a translucent fill
   over both. */
static void test_unaligned_ops(void)
{
    lkt_begin("ops_off_their_alignment_are_read_the_same");
    lk_dl_op ops[4] = { lkt_op(LK_DL_OP_PUSH_GROUP, 4, 4, 40, 30), lkt_fill(8, 8, 20, 12, lkt_color(1, 0, 0, 1)),
                        lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0), lkt_fill(20, 14, 30, 20, lkt_color(0, 0.4f, 0, 0.5f)) };
    ops[0].shadow_color = lkt_color(0, 0, 0.5f, 0.5f);
    ops[0].shadow_offset_x = 3;
    ops[0].shadow_sigma = 2.0;
    static uint8_t want[W * H * 4], got[W * H * 4];
    if (render(ops, 4)) {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, want);
        size_t stride = sizeof(lk_dl_op) + 4;
        char *raw = (char *)calloc(4 * stride + 8, 1);
        for (int i = 0; i < 4; i++) memcpy(raw + 4 + (size_t)i * stride, &ops[i], sizeof ops[i]);
        lk_display_list list = lkt_list((const lk_dl_op *)(const void *)(raw + 4), 4, W, H, lkt_color(0, 0, 0, 1));
        list.op_size = (uint32_t)stride;
        char error[512] = "";
        if (!lkgl_renderer_render(r, &list, fbo, W, H, error, sizeof error)) {
            lkt_fail("render of the unaligned list failed: %s", error);
        } else {
            glBindFramebuffer(GL_FRAMEBUFFER, fbo);
            glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, got);
            if (memcmp(want, got, sizeof want) != 0) lkt_fail("the unaligned list drew other pixels");
            if (want[(12 * W + 10) * 4] == 0) lkt_fail("the scene drew nothing where the red fill is");
        }
        free(raw);
    }
    lkt_end();
}

int main(void)
{
    if (!make_context()) {
        printf("FAIL context: no surfaceless EGL context for the test\n");
        return 1;
    }
    char error[512] = "";
    r = lkgl_renderer_create("test renderer", error, sizeof error);
    if (!r) {
        printf("FAIL renderer_create: %s\n", error);
        return 1;
    }
    test_programs_built_lazily();
    test_shader_failure();
    test_into_own_fbo();
    test_texture_too_large();
    test_counters();
    test_unaligned_ops();
    lkgl_renderer_destroy(r);
    return lkt_exit_code();
}
