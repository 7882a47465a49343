/*
 * The rotation decision from property data alone (no device: the host test
 * Tests/KMS/host_rotation_plan.c calls it with made-up properties); see
 * drm_rotation.c for what the values mean and how a plane's choice is
 * confirmed on the device.
 */
#include "drm_private.h"

#include <stdio.h>
#include <string.h>

uint64_t drm_rotation_supported(const drmModePropertyRes *property)
{
    if (!property || !(property->flags & DRM_MODE_PROP_BITMASK)) return 0;
    uint64_t mask = 0;
    /* a bitmask property's enum values are bit numbers */
    for (int i = 0; i < property->count_enums; i++)
        if (property->enums[i].value < 64) mask |= 1ull << property->enums[i].value;
    return mask;
}

void drm_rotation_names(uint64_t mask, char *text, size_t size)
{
    static const char *const names[6] = { "rotate-0", "rotate-90", "rotate-180", "rotate-270", "reflect-x",
                                          "reflect-y" };
    size_t used = 0;
    text[0] = 0;
    for (int bit = 0; bit < 6; bit++)
        if (mask & (1ull << bit)) {
            int n = snprintf(text + used, size - used, "%s%s", used ? " " : "", names[bit]);
            if (n < 0 || (size_t)n >= size - used) break;
            used += (size_t)n;
        }
    if (!used) snprintf(text, size, "none");
}

drm_rotation_plan_t drm_rotation_plan(uint32_t rotation, bool atomic, bool has_property, uint64_t supported,
                                      const char *forced)
{
    drm_rotation_plan_t plan;
    memset(&plan, 0, sizeof plan);
    plan.plane_value = DRM_MODE_ROTATE_0;
    if (rotation == 0) {
        snprintf(plan.reason, sizeof plan.reason, "none");
        return plan;
    }
    if (forced && strcmp(forced, "renderer") == 0) {
        snprintf(plan.reason, sizeof plan.reason, "by the renderer (LAYERKIT_DRM_ROTATION=renderer)");
        return plan;
    }
    if (!atomic) {
        snprintf(plan.reason, sizeof plan.reason, "by the renderer (legacy modesetting)");
        return plan;
    }
    if (!has_property) {
        snprintf(plan.reason, sizeof plan.reason, "by the renderer (the plane has no rotation property)");
        return plan;
    }
    uint64_t want = rotation == 90 ? DRM_MODE_ROTATE_270 : rotation == 270 ? DRM_MODE_ROTATE_90 : DRM_MODE_ROTATE_180;
    const char *name = rotation == 90 ? "rotate-270" : rotation == 270 ? "rotate-90" : "rotate-180";
    if ((supported & want) == want) {
        plan.by_plane = true;
        plan.plane_value = want;
        snprintf(plan.reason, sizeof plan.reason, "by the plane (%s)", name);
        return plan;
    }
    uint64_t both = DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_X | DRM_MODE_REFLECT_Y;
    if (rotation == 180 && (supported & both) == both) {
        plan.by_plane = true;
        plan.plane_value = both;
        snprintf(plan.reason, sizeof plan.reason, "by the plane (reflect-x and reflect-y)");
        return plan;
    }
    snprintf(plan.reason, sizeof plan.reason, "by the renderer (the plane's rotation property has no %s)", name);
    return plan;
}
