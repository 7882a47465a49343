/*
 * An image the GL runs out of memory for (issue 6, graceful failure): the
 * gles plugin's render fails with the GL's reason, GL_OUT_OF_MEMORY, naming
 * the image and the op, and the next list draws. llvmpipe allocates textures with malloc, so capping the process's
 * address space (RLIMIT_AS, the soft limit only, raised again after) a
 * little above what it uses makes a 64 MB texture a real GL_OUT_OF_MEMORY,
 * with no test hook in the plugin.
 */
#include "lktest.h"

#include <sys/resource.h>

#define W 64
#define H 64

/* The process's virtual size in bytes (/proc/self/status VmSize), 0 if unknown. */
static unsigned long long virtual_size(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmSize:", 7) == 0) kb = strtoull(line + 7, NULL, 10);
    fclose(f);
    return kb * 1024;
}

int main(void)
{
    const lk_backend *b = lkt_load();
    if (!b) return 1;
    lk_backend_instance *inst = lkt_open(b, NULL, W, H);
    if (!inst) return 1;
    lkt_frame frame = lkt_frame_new(W, H);
    lkt_image big = lkt_image_new(7, 4096, 4096);
    lk_dl_op image = lkt_op(LK_DL_OP_IMAGE, 0, 0, W, H);
    image.image = &big.image;
    image.source = lkt_rect(0, 0, 4096, 4096);
    lk_dl_op red = lkt_fill(0, 0, W, H, lkt_color(1, 0, 0, 1)), blue = lkt_fill(0, 0, W, H, lkt_color(0, 0, 1, 1));
    lk_display_list first = lkt_list(&red, 1, W, H, lkt_color(0, 0, 0, 1));
    lk_display_list huge = lkt_list(&image, 1, W, H, lkt_color(0, 0, 0, 1));
    lk_display_list next = lkt_list(&blue, 1, W, H, lkt_color(0, 0, 0, 1));
    lkt_rgba want_blue = { 255, 0, 0, 255 };

    lkt_begin("an_image_the_gl_has_no_memory_for_is_an_error_with_GL_OUT_OF_MEMORY");
    struct rlimit saved, capped;
    unsigned long long size = virtual_size();
    if (lkt_render(b, inst, &first, &frame) && getrlimit(RLIMIT_AS, &saved) == 0) {
        if (size == 0) {
            lkt_fail("cannot read VmSize from /proc/self/status");
        } else {
            capped = saved;
            capped.rlim_cur = (rlim_t)(size + 32ull * 1024 * 1024);
            if (saved.rlim_max != RLIM_INFINITY && capped.rlim_cur > saved.rlim_max) capped.rlim_cur = saved.rlim_max;
            char error[512] = "";
            int drawn = setrlimit(RLIMIT_AS, &capped) == 0 ? b->render(inst, &huge, error, sizeof error) : -1;
            setrlimit(RLIMIT_AS, &saved);
            if (drawn < 0)
                lkt_fail("setrlimit(RLIMIT_AS) failed");
            else if (drawn)
                lkt_fail("a 4096x4096 image was drawn with the address space capped at %llu MB",
                         (unsigned long long)capped.rlim_cur >> 20);
            else if (!strstr(error, "GL_OUT_OF_MEMORY") || !strstr(error, "image 7") || !strstr(error, "(op 0)"))
                lkt_fail("the error does not give GL_OUT_OF_MEMORY, the image and the op: %s", error);
            else
                printf("# %s\n", error);
        }
    }
    lkt_end();

    /* (the failed frame itself may be partly drawn: the failure came while drawing it) */
    lkt_begin("after_running_out_of_memory_the_next_list_draws");
    if (lkt_render(b, inst, &next, &frame)) lkt_expect(&frame, 10, 10, want_blue, 0, "the next list");
    lkt_end();

    b->close(inst);
    free(frame.pixels);
    free(big.pixels);
    return lkt_exit_code();
}
