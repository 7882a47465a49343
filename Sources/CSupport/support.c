#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <malloc.h>
#include <sys/eventfd.h>
#include "layerkit_support.h"

const char *layerkit_support_image_path(const void *address)
{
    Dl_info info;
    if (dladdr(address, &info) == 0)
        return NULL;
    return info.dli_fname;
}

size_t layerkit_support_heap_bytes_in_use(void)
{
    struct mallinfo2 info = mallinfo2();
    return info.uordblks;
}

int layerkit_support_eventfd(void)
{
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
