/*
 * Compares the frames two backends drew for the same tests, pixel by pixel.
 *
 * usage: compare_frames DIR_A DIR_B TOLERANCE
 *   every NAME.actual.png in DIR_A is compared with DIR_B/NAME.actual.png;
 *   a scene passes when no channel of any pixel differs by more than
 *   TOLERANCE (0..255). Prints, per scene and over all of them, the worst
 *   difference, where it is, and both pixel values.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkt_pixels.h"

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s DIR_A DIR_B TOLERANCE\n", argv[0]);
        return 2;
    }
    const char *dir_a = argv[1], *dir_b = argv[2];
    int tolerance = atoi(argv[3]);
    DIR *d = opendir(dir_a);
    if (!d) {
        printf("FAIL cross-backend: cannot open %s\n", dir_a);
        return 1;
    }
    char *names[512];
    int count = 0;
    struct dirent *e;
    const char *suffix = ".actual.png";
    while ((e = readdir(d)) && count < 512) {
        size_t n = strlen(e->d_name), s = strlen(suffix);
        if (n > s && strcmp(e->d_name + n - s, suffix) == 0) {
            names[count] = (char *)malloc(n - s + 1);
            memcpy(names[count], e->d_name, n - s);
            names[count][n - s] = '\0';
            count++;
        }
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], compare_names);

    int passed = 0, failed = 0, overall = -1;
    char overall_where[256] = "";
    for (int i = 0; i < count; i++) {
        char pa[1024], pb[1024];
        snprintf(pa, sizeof pa, "%s/%s%s", dir_a, names[i], suffix);
        snprintf(pb, sizeof pb, "%s/%s%s", dir_b, names[i], suffix);
        uint8_t *a = NULL, *b = NULL;
        uint32_t wa = 0, ha = 0, wb = 0, hb = 0;
        const char *err = NULL;
        if (lkt_png_read(pa, &a, &wa, &ha, &err) != 0 || lkt_png_read(pb, &b, &wb, &hb, &err) != 0) {
            printf("FAIL cross-backend %s: cannot read both frames (%s)\n", names[i], err ? err : "?");
            failed++;
        } else if (wa != wb || ha != hb) {
            printf("FAIL cross-backend %s: sizes differ, %ux%u and %ux%u\n", names[i], wa, ha, wb, hb);
            failed++;
        } else {
            int worst = 0;
            uint32_t wx = 0, wy = 0;
            size_t over = 0;
            for (uint32_t y = 0; y < ha; y++)
                for (uint32_t x = 0; x < wa; x++) {
                    const uint8_t *p = a + ((size_t)y * wa + x) * 4, *q = b + ((size_t)y * wa + x) * 4;
                    int diff = 0;
                    for (int c = 0; c < 4; c++) {
                        int dc = abs((int)p[c] - (int)q[c]);
                        if (dc > diff) diff = dc;
                    }
                    if (diff > 1) over++;
                    if (diff > worst) {
                        worst = diff;
                        wx = x;
                        wy = y;
                    }
                }
            const uint8_t *p = a + ((size_t)wy * wa + wx) * 4, *q = b + ((size_t)wy * wa + wx) * 4;
            char where[256];
            snprintf(where, sizeof where, "%s at (%u,%u): rgba(%u,%u,%u,%u) vs rgba(%u,%u,%u,%u)", names[i],
                     wx, wy, p[0], p[1], p[2], p[3], q[0], q[1], q[2], q[3]);
            printf("# %s: worst difference %d, %s; %zu of %u pixels differ by more than 1\n", names[i],
                   worst, where, over, wa * ha);
            if (worst > overall) {
                overall = worst;
                snprintf(overall_where, sizeof overall_where, "%s", where);
            }
            if (worst > tolerance) {
                printf("FAIL cross-backend %s: worst difference %d > %d\n", names[i], worst, tolerance);
                failed++;
            } else {
                printf("PASS cross-backend %s\n", names[i]);
                passed++;
            }
        }
        free(a);
        free(b);
        free(names[i]);
    }
    if (count == 0) {
        printf("FAIL cross-backend: no frames in %s\n", dir_a);
        failed++;
    }
    printf("# over all %d scenes: worst difference %d (tolerance %d), in %s\n", count, overall, tolerance,
           overall_where);
    printf("frames: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
