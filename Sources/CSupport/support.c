#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include "layerkit_support.h"

const char *layerkit_support_image_path(const void *address)
{
    Dl_info info;
    if (dladdr(address, &info) == 0)
        return NULL;
    return info.dli_fname;
}
