/* The software backend's table, compiled into this plugin to open a
   renderer instance that draws into dumb buffers (drm_dumb.c). Its entry
   point is renamed so that this plugin exports only its own; the version
   script (Plugins/plugin.map) keeps the renamed one private. */
#define lk_backend_entry drm_software_entry
#include "../Software/software_backend.c"
