/* Plugins that must be refused, chosen at build time:
   -DWRONG_ABI: the table says another ABI version;
   -DREFUSE: the entry returns NULL for the host's version;
   -DNULL_ENTRY: a function of the table is NULL;
   -DFAIL_OPEN: a well-formed plugin whose open() fails with a reason;
   -DUSES_HOST: the same, logging through the host first, as a plugin
    written to the header may (the ABI gives open a host);
   -DNO_ENTRY: no entry symbol at all. */
#include <stdio.h>
#include "layerkit/layerkit_backend.h"

#ifndef NO_ENTRY
static lk_backend_instance *open_output(const lk_backend_host *host, const lk_backend_open_options *options,
                                        char *error, size_t error_size)
{
    (void)host; (void)options;
#ifdef USES_HOST
    host->log(host->host_data, 2, "the test plugin is opening");
#endif
    snprintf(error, error_size, "no such output: the test plugin never opens");
    return NULL;
}
static void close_output(lk_backend_instance *i) { (void)i; }
static bool get_output(lk_backend_instance *i, lk_backend_output_info *o) { (void)i; (void)o; return false; }
static bool render(lk_backend_instance *i, const lk_display_list *l, char *e, size_t n)
{ (void)i; (void)l; (void)e; (void)n; return false; }
static bool read_pixels(lk_backend_instance *i, void *p, size_t s, char *e, size_t n)
{ (void)i; (void)p; (void)s; (void)e; (void)n; return false; }
#ifndef NULL_ENTRY
static void image_released(lk_backend_instance *i, uint64_t id) { (void)i; (void)id; }
#endif

static lk_backend table = {
#ifdef WRONG_ABI
    LK_BACKEND_ABI_VERSION + 1,
#else
    LK_BACKEND_ABI_VERSION,
#endif
    sizeof(lk_backend), "test", "a plugin for failure tests",
    open_output, close_output, get_output, render, read_pixels,
#ifdef NULL_ENTRY
    NULL,
#else
    image_released,
#endif
    NULL /* describe is optional */
};

const lk_backend *lk_backend_entry(uint32_t host_abi_version)
{
#ifdef REFUSE
    (void)host_abi_version;
    (void)table;
    return NULL;
#else
    /* A real plugin returns NULL for versions it cannot serve; this one
       hands its table over regardless, so the core's own checks are tested. */
    (void)host_abi_version;
    return &table;
#endif
}
#else
int lk_not_an_entry(void) { return 0; }
#endif
