/*
 * What the drm backend puts on screen, captured by vkms's writeback
 * connector (the CRTC composes the planes and writes the result into a
 * buffer; read_pixels of a display on "Writeback-1" returns it), compared
 * with the software backend's rendering of the same scene, frame after
 * frame: with two and three buffers (damage redrawn by buffer age), and
 * turned by 90, 180 and 270 degrees in the renderer. Run once per render
 * path (LAYERKIT_DRM_PATH=gles, dumb: Tests/KMS/in-vm.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include "kms_capture.h"

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* The dumb path draws with the software renderer itself: equal frames.
       The GLES path (LAYERKIT_DRM_PATH=gles) is held to the cross-backend
       tolerance of the gles backend (Tests/GLES): channels within 8/255, at
       most 1 pixel in 2,000 beyond (all-or-nothing choices on edges). */
    const char *path = getenv("LAYERKIT_DRM_PATH");
    int gles = path && strcmp(path, "gles") == 0;
    int same = gles ? 8 : 0, turned = gles ? 8 : 1;
    long beyond = gles ? 1024L * 768 / 2000 : 0;
    if (getenv("KMS_CAPTURE_QUICK")) {
        /* a short run (llvmpipe on the emulated CPU takes seconds a frame):
           both buffers, then turned */
        kms_check_capture("double buffered", 0, 0, 0, same, beyond, 3, 1);
        kms_check_capture("rotation 90", 0, 0, 90, turned, beyond, 2, 1);
        return lkt_finish();
    }
    kms_check_capture("double buffered", 0, 0, 0, same, beyond, 6, 1);
    kms_check_capture("double buffered, frames back to back", 0, 0, 0, same, beyond, 9, 3);
    setenv("LAYERKIT_DRM_BUFFERS", "3", 1);
    kms_check_capture("triple buffered, frames back to back", 0, 0, 0, same, beyond, 12, 4);
    unsetenv("LAYERKIT_DRM_BUFFERS");
    /* turned: the same shapes rasterized in another orientation (pixel
       centres map onto pixel centres, so only rounding may differ) */
    kms_check_capture("rotation 90", 0, 0, 90, turned, beyond, 6, 2);
    kms_check_capture("rotation 180", 0, 0, 180, turned, beyond, 6, 2);
    kms_check_capture("rotation 270", 0, 0, 270, turned, beyond, 6, 2);
    return lkt_finish();
}
