/*
 * What the software backend's benchmarks share: opening an instance of a
 * backend plugin at w x h, as the core's host would (a log callback, no
 * frame or output callbacks). The host struct is static: a plugin may keep
 * the pointer for the instance's life.
 */
#ifndef BENCH_HOST_H
#define BENCH_HOST_H

#include <string.h>

#include "layerkit/layerkit_backend.h"

static lk_backend_instance *bench_open_instance(const lk_backend *backend, uint32_t w, uint32_t h,
                                                void (*log)(void *, uint32_t, const char *), char *error,
                                                size_t error_size)
{
    static lk_backend_host host;
    memset(&host, 0, sizeof host);
    host.abi_version = LK_BACKEND_ABI_VERSION;
    host.struct_size = sizeof host;
    host.log = log;
    lk_backend_open_options options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.width = w;
    options.height = h;
    return backend->open(&host, &options, error, error_size);
}

#endif
