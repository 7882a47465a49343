/* The software backend's renderer, compiled into this plugin as it is (see
   drm_dumb.c): its GRADIENT ops (ABI 3). */
#include "../Software/software_gradient.c"
