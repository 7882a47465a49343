/* Small C helpers for the core that Swift cannot express directly.
   Not part of the public API (the library exports only lk_*). */
#ifndef LAYERKIT_SUPPORT_H
#define LAYERKIT_SUPPORT_H

/* The file name of the shared object containing address, or NULL. */
const char *layerkit_support_image_path(const void *address);

#endif
