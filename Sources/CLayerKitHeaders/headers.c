/* SwiftPM needs a source file in a C target; the headers are the point. */
#include "../../include/layerkit/layerkit.h"
#include "../../include/layerkit/layerkit_backend.h"
