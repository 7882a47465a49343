/*
 * Reading a display list's ops, for the plugins that draw them (software,
 * and the GLES renderer the gles and drm plugins share): private to the
 * project's plugins, not part of the installed plugin ABI.
 */
#ifndef LAYERKIT_PLUGINS_DISPLAY_LIST_OPS_H
#define LAYERKIT_PLUGINS_DISPLAY_LIST_OPS_H

#include <stdint.h>
#include <string.h>

#include "layerkit/layerkit_backend.h"

/* Op index of list where it lies when its address keeps lk_dl_op's
   alignment (the core's lists do: their stride is its sizeof(lk_dl_op)),
   else copied into *scratch: ops sit op_size bytes apart, which need not
   keep doubles aligned. (Copying every op, 352 bytes, into a local at each
   pass over the list was about 2% of a 10,000-particle frame's CPU on the
   software backend, in a profile.) */
static inline const lk_dl_op *dl_op_at(const lk_display_list *list, uint32_t index, lk_dl_op *scratch)
{
    const char *at = (const char *)list->ops + (size_t)index * list->op_size;
    if (((uintptr_t)at & (_Alignof(lk_dl_op) - 1)) == 0) return (const lk_dl_op *)(const void *)at;
    memcpy(scratch, at, sizeof *scratch);
    return scratch;
}

#endif
