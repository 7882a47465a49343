/* Rendering the scenes of lkt_scenes.c through LayerKit (lkt_scene_render.c). */
#ifndef LKT_SCENE_RENDER_H
#define LKT_SCENE_RENDER_H

#include "lkt_scenes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds scene `index` with the C API, renders it on the software backend
   and checks the frame against its reference (one PASS/FAIL line). */
void lkt_run_scene(int index);

/* Runs every scene of `suite` (LKT_SUITE_*). */
void lkt_run_scene_suite(int suite);

#ifdef __cplusplus
}
#endif

#endif
