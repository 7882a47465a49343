/*
 * The drm backend's rotation decision (Plugins/DRM/drm_rotation_plan.c) on
 * the host, with made-up property data: the test VM's vkms (Linux 6.1) has
 * no rotation property, so the plane's side of the decision is checked
 * here. Built and run by Tests/KMS/run.sh before the VM boots.
 */
#include "drm_private.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *name, const char *detail)
{
    printf("%s host: rotation plan: %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : detail);
    if (ok) passed++;
    else failed++;
}

/* A plane's "rotation" property as the kernel describes it: a bitmask whose
   enum values are bit numbers. */
static uint64_t supported_of(const unsigned *bits, int count)
{
    struct drm_mode_property_enum enums[8];
    memset(enums, 0, sizeof enums);
    static const char *const names[6] = { "rotate-0", "rotate-90", "rotate-180", "rotate-270", "reflect-x",
                                          "reflect-y" };
    for (int i = 0; i < count; i++) {
        enums[i].value = bits[i];
        snprintf(enums[i].name, sizeof enums[i].name, "%s", names[bits[i]]);
    }
    drmModePropertyRes p;
    memset(&p, 0, sizeof p);
    p.flags = DRM_MODE_PROP_BITMASK;
    snprintf(p.name, sizeof p.name, "rotation");
    p.count_enums = count;
    p.enums = enums;
    return drm_rotation_supported(&p);
}

int main(void)
{
    char detail[256];
    const unsigned all[6] = { 0, 1, 2, 3, 4, 5 }, only_0_180[2] = { 0, 2 }, reflect[3] = { 0, 4, 5 };
    uint64_t full = supported_of(all, 6), half = supported_of(only_0_180, 2), mirror = supported_of(reflect, 3);

    snprintf(detail, sizeof detail, "0x%llx", (unsigned long long)full);
    check(full == 0x3f, "every bit of a full property is read", detail);
    snprintf(detail, sizeof detail, "0x%llx", (unsigned long long)half);
    check(half == (DRM_MODE_ROTATE_0 | DRM_MODE_ROTATE_180), "rotate-0 and rotate-180 only", detail);
    drmModePropertyRes range;
    memset(&range, 0, sizeof range);
    range.flags = DRM_MODE_PROP_RANGE;
    check(drm_rotation_supported(&range) == 0 && drm_rotation_supported(NULL) == 0,
          "a property that is no bitmask offers nothing", "");

    /* clockwise 90 is KMS's counter-clockwise rotate-270, and so on */
    drm_rotation_plan_t p = drm_rotation_plan(90, true, true, full, NULL);
    snprintf(detail, sizeof detail, "by_plane %d value 0x%llx: %s", p.by_plane, (unsigned long long)p.plane_value,
             p.reason);
    check(p.by_plane && p.plane_value == DRM_MODE_ROTATE_270 && strstr(p.reason, "by the plane (rotate-270)"),
          "90 clockwise: the plane, rotate-270", detail);
    p = drm_rotation_plan(270, true, true, full, NULL);
    snprintf(detail, sizeof detail, "by_plane %d value 0x%llx: %s", p.by_plane, (unsigned long long)p.plane_value,
             p.reason);
    check(p.by_plane && p.plane_value == DRM_MODE_ROTATE_90, "270 clockwise: the plane, rotate-90", detail);
    p = drm_rotation_plan(180, true, true, half, NULL);
    snprintf(detail, sizeof detail, "by_plane %d value 0x%llx: %s", p.by_plane, (unsigned long long)p.plane_value,
             p.reason);
    check(p.by_plane && p.plane_value == DRM_MODE_ROTATE_180, "180: the plane, rotate-180", detail);
    p = drm_rotation_plan(180, true, true, mirror, NULL);
    snprintf(detail, sizeof detail, "by_plane %d value 0x%llx: %s", p.by_plane, (unsigned long long)p.plane_value,
             p.reason);
    check(p.by_plane && p.plane_value == (DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_X | DRM_MODE_REFLECT_Y),
          "180 on a plane that only reflects: both reflections", detail);

    /* the renderer, each time saying why */
    p = drm_rotation_plan(90, true, true, half, NULL);
    snprintf(detail, sizeof detail, "by_plane %d: %s", p.by_plane, p.reason);
    check(!p.by_plane && p.plane_value == DRM_MODE_ROTATE_0 &&
              strstr(p.reason, "by the renderer (the plane's rotation property has no rotate-270)"),
          "90 where the property has no rotate-270: the renderer, saying so", detail);
    p = drm_rotation_plan(90, true, false, 0, NULL);
    snprintf(detail, sizeof detail, "by_plane %d: %s", p.by_plane, p.reason);
    check(!p.by_plane && strstr(p.reason, "by the renderer (the plane has no rotation property)"),
          "no rotation property (vkms on Linux 6.1): the renderer", detail);
    p = drm_rotation_plan(90, false, true, full, NULL);
    snprintf(detail, sizeof detail, "by_plane %d: %s", p.by_plane, p.reason);
    check(!p.by_plane && strstr(p.reason, "legacy modesetting"), "legacy modesetting: the renderer", detail);
    p = drm_rotation_plan(270, true, true, full, "renderer");
    snprintf(detail, sizeof detail, "by_plane %d: %s", p.by_plane, p.reason);
    check(!p.by_plane && strstr(p.reason, "LAYERKIT_DRM_ROTATION=renderer"),
          "LAYERKIT_DRM_ROTATION=renderer: the renderer though the plane could", detail);
    p = drm_rotation_plan(270, true, true, full, "auto");
    check(p.by_plane, "LAYERKIT_DRM_ROTATION=auto: the plane where it can", p.reason);
    p = drm_rotation_plan(0, true, true, full, NULL);
    snprintf(detail, sizeof detail, "by_plane %d value 0x%llx: %s", p.by_plane, (unsigned long long)p.plane_value,
             p.reason);
    check(!p.by_plane && p.plane_value == DRM_MODE_ROTATE_0 && strcmp(p.reason, "none") == 0,
          "no rotation: rotate-0 on the plane, nothing turned", detail);

    char names[120];
    drm_rotation_names(full, names, sizeof names);
    check(strcmp(names, "rotate-0 rotate-90 rotate-180 rotate-270 reflect-x reflect-y") == 0,
          "the bits are named as the kernel names them", names);
    drm_rotation_names(0, names, sizeof names);
    check(strcmp(names, "none") == 0, "no bits: none", names);

    printf("host: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
