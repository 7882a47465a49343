/*
 * S1.0, S6 pixel tests of the software backend through the public API: each
 * 2D scene of support/lkt_scenes.c is built with LayerKit's C calls,
 * rendered, and compared with Tests/C/reference/<scene>.png, which
 * Tests/C/refgen draws with cairo from the same description (never from
 * LayerKit's output). Each scene states its tolerance where it is described;
 * on failure the actual image and a difference image are written to
 * $LKTEST_OUTPUT_DIR.
 */
#include "lktest.h"
#include "lkt_scene_render.h"

int main(void)
{
    lkt_run_scene_suite(LKT_SUITE_RENDER);
    return lkt_finish();
}
