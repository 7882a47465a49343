/* The software backend's renderer, compiled into this plugin as it is (see
   drm_dumb.c): its offscreen groups (ABI 2). */
#include "../Software/software_group.c"
