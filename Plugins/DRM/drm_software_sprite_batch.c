/* The software backend's renderer, compiled into this plugin as it is (see
   drm_dumb.c): one file of it per file here, so its static helpers stay
   apart as they are in the software plugin. */
#include "../Software/software_sprite_batch.c"
