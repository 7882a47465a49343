/* Both public headers in one translation unit, the way a backend author or a
   program that inspects display lists would include them. Compiled (not run)
   by Tests/Headers/run.sh as C and C++ with -Wall -Wextra -Werror -pedantic. */
#include <layerkit/layerkit.h>
#include <layerkit/layerkit_backend.h>
#include <layerkit/layerkit.h> /* the include guards make a second include harmless */

int layerkit_headers_compile(void);

int layerkit_headers_compile(void)
{
    lk_value value;
    lk_display_options options;
    lk_dl_op op;
    lk_backend backend;
    lk_backend_entry_fn entry = 0;

    value.type = LK_VALUE_NUMBER;
    value.as.number = 1.0;
    options.struct_size = (uint32_t)sizeof options;
    op.kind = LK_DL_OP_FILL;
    backend.abi_version = LK_BACKEND_ABI_VERSION;
    (void)entry;
    return (int)value.as.number + (int)options.struct_size + (int)op.kind +
           (int)backend.abi_version + LK_VERSION_MAJOR + LK_VERSION_MINOR + LK_VERSION_MICRO +
           (int)sizeof LK_VERSION_STRING + (int)sizeof LK_BACKEND_ENTRY_SYMBOL;
}
