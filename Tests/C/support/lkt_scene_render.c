/*
 * Renders a 2D scene of lkt_scenes.c through LayerKit's C API and compares
 * the frame with Tests/C/reference/<scene>.png (drawn by Tests/C/refgen with
 * cairo from the same description, never from LayerKit's output), within the
 * tolerance the scene states. Used by test_render.c and test_decorations.c.
 */
#include "lkt_scene_render.h"
#include "lktest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lk_transform3d from_affine(lkt_affine2 m)
{
    lk_transform3d t = lkt_t_identity();
    t.m11 = m.a;
    t.m12 = m.b;
    t.m21 = m.c;
    t.m22 = m.d;
    t.m41 = m.tx;
    t.m42 = m.ty;
    return t;
}

static lk_color color4(const double c[4]) { return lk_color_make(c[0], c[1], c[2], c[3]); }

/* Records the first failing call of the setup. */
static void step(lk_status s, const char *call, char *failure, size_t size)
{
    if (s != LK_OK && failure[0] == '\0')
        snprintf(failure, size, "%s: %s: %s", call, lkt_status_name(s), lk_last_error());
}

/* The scene's layers through the C API; returns the root (+1) or NULL. */
static lk_layer *build_scene(const lkt_scene *scene, char *failure, size_t size)
{
    lk_layer *layers[LKT_SCENE_MAX_LAYERS];
    lk_image *images[LKT_SCENE_MAX_IMAGES];
    lk_layer *root;
    int i;

    for (i = 0; i < scene->image_count; i++) {
        const lkt_scene_image *im = &scene->images[i];
        images[i] = lk_image_create_from_pixels(im->width, im->height, (size_t)im->width * 4,
                                                LK_PIXEL_FORMAT_RGBA8, im->rgba);
        if (!images[i]) step(LK_ERROR_INVALID_ARGUMENT, "lk_image_create_from_pixels", failure, size);
    }
    for (i = 0; i < scene->layer_count; i++) {
        const lkt_scene_layer *d = &scene->layers[i];
        lk_layer *l = lk_layer_create();
        layers[i] = l;
        if (!l) {
            step(LK_ERROR_OUT_OF_MEMORY, "lk_layer_create", failure, size);
            continue;
        }
        step(lk_layer_set_bounds(l, lk_rect_make(d->bounds[0], d->bounds[1], d->bounds[2],
                                                 d->bounds[3])),
             "set_bounds", failure, size);
        step(lk_layer_set_anchor_point(l, lk_point_make(d->anchor[0], d->anchor[1])),
             "set_anchor_point", failure, size);
        step(lk_layer_set_position(l, lk_point_make(d->position[0], d->position[1])),
             "set_position", failure, size);
        if (!lkt_affine2_is_identity(d->transform))
            step(lk_layer_set_transform(l, from_affine(d->transform)), "set_transform", failure,
                 size);
        if (!lkt_affine2_is_identity(d->sublayer_transform))
            step(lk_layer_set_sublayer_transform(l, from_affine(d->sublayer_transform)),
                 "set_sublayer_transform", failure, size);
        if (d->opacity != 1) step(lk_layer_set_opacity(l, d->opacity), "set_opacity", failure, size);
        if (d->hidden) step(lk_layer_set_hidden(l, true), "set_hidden", failure, size);
        if (d->background[3] > 0)
            step(lk_layer_set_background_color(l, color4(d->background)), "set_background_color",
                 failure, size);
        if (d->border_width > 0) {
            step(lk_layer_set_border_width(l, d->border_width), "set_border_width", failure, size);
            step(lk_layer_set_border_color(l, color4(d->border_color)), "set_border_color",
                 failure, size);
        }
        if (d->corner_radius > 0)
            step(lk_layer_set_corner_radius(l, d->corner_radius), "set_corner_radius", failure,
                 size);
        if (d->masks_to_bounds)
            step(lk_layer_set_masks_to_bounds(l, true), "set_masks_to_bounds", failure, size);
        if (d->z_position != 0)
            step(lk_layer_set_z_position(l, d->z_position), "set_z_position", failure, size);
        if (d->contents >= 0) {
            step(lk_layer_set_contents(l, images[d->contents]), "set_contents", failure, size);
            step(lk_layer_set_contents_gravity(l, (lk_contents_gravity)d->gravity),
                 "set_contents_gravity", failure, size);
            step(lk_layer_set_contents_rect(l, lk_rect_make(d->contents_rect[0], d->contents_rect[1],
                                                            d->contents_rect[2], d->contents_rect[3])),
                 "set_contents_rect", failure, size);
            step(lk_layer_set_contents_scale(l, d->contents_scale), "set_contents_scale", failure,
                 size);
        }
        if (!d->allows_group_opacity)
            step(lk_layer_set_allows_group_opacity(l, false), "set_allows_group_opacity", failure, size);
        if (d->shadow_opacity > 0) {
            step(lk_layer_set_shadow_opacity(l, d->shadow_opacity), "set_shadow_opacity", failure, size);
            step(lk_layer_set_shadow_color(l, color4(d->shadow_color)), "set_shadow_color", failure, size);
            step(lk_layer_set_shadow_offset(l, lk_size_make(d->shadow_offset[0], d->shadow_offset[1])),
                 "set_shadow_offset", failure, size);
            step(lk_layer_set_shadow_radius(l, d->shadow_radius), "set_shadow_radius", failure, size);
        }
        if (d->shadow_path != LKT_SHADOW_PATH_NONE) {
            lk_path *path = lk_path_create();
            lk_rect r = lk_rect_make(d->shadow_path_rect[0], d->shadow_path_rect[1],
                                     d->shadow_path_rect[2], d->shadow_path_rect[3]);
            if (d->shadow_path == LKT_SHADOW_PATH_RECT)
                step(lk_path_add_rect(path, r), "path_add_rect", failure, size);
            else if (d->shadow_path == LKT_SHADOW_PATH_ROUNDED_RECT)
                step(lk_path_add_rounded_rect(path, r, d->shadow_path_radius, d->shadow_path_radius),
                     "path_add_rounded_rect", failure, size);
            else
                step(lk_path_add_ellipse(path, r), "path_add_ellipse", failure, size);
            step(lk_layer_set_shadow_path(l, path), "set_shadow_path", failure, size);
            lk_release(path);
        }
        if (d->contents_center[0] != 0 || d->contents_center[1] != 0 || d->contents_center[2] != 1 ||
            d->contents_center[3] != 1)
            step(lk_layer_set_contents_center(l, lk_rect_make(d->contents_center[0], d->contents_center[1],
                                                              d->contents_center[2], d->contents_center[3])),
                 "set_contents_center", failure, size);
        if (d->parent >= 0 && layers[d->parent])
            step(lk_layer_add_sublayer(layers[d->parent], l), "add_sublayer", failure, size);
    }
    for (i = 0; i < scene->layer_count; i++)
        if (layers[i] && scene->layers[i].mask >= 0 && layers[scene->layers[i].mask])
            step(lk_layer_set_mask(layers[i], layers[scene->layers[i].mask]), "set_mask", failure, size);
    root = scene->layer_count > 0 ? layers[0] : NULL;
    for (i = 1; i < scene->layer_count; i++)
        if (layers[i]) lk_release(layers[i]); /* their superlayers hold them */
    for (i = 0; i < scene->image_count; i++)
        if (images[i]) lk_release(images[i]); /* the layers hold them */
    return root;
}

void lkt_run_scene(int index)
{
    lkt_scene scene;
    lk_display *display;
    lk_layer *root;
    uint8_t *pixels;
    char failure[1024] = "";
    lkt_tolerance tol;

    if (lkt_scene_build(index, &scene) != 0) return;
    display = lkt_open_display(scene.width, scene.height, scene.title);
    if (!display) {
        lkt_scene_free(&scene);
        return;
    }
    root = build_scene(&scene, failure, sizeof failure);
    if (failure[0]) {
        LKT_CHECK(0, scene.title, "building the scene failed: %s", failure);
    } else {
        lk_status s = lk_display_set_root_layer(display, root);
        if (s != LK_OK) {
            LKT_CHECK(0, scene.title, "set_root_layer: %s: %s", lkt_status_name(s), lk_last_error());
        } else if ((pixels = lkt_render_and_read(display, scene.title)) != NULL) {
            tol.flat = scene.flat_tolerance;
            tol.edge = scene.edge_tolerance;
            tol.max_edge_pixels = scene.max_edge_pixels;
            tol.max_bad_pixels = scene.max_bad_pixels;
            LKT_CHECK_REFERENCE(scene.title, pixels, scene.width, scene.height,
                                (size_t)scene.width * 4, scene.name, tol);
            free(pixels);
        }
    }
    lk_release(root);
    lk_display_close(display);
    lkt_scene_free(&scene);
}

void lkt_run_scene_suite(int suite)
{
    int i;
    for (i = 0; i < lkt_scene_count(); i++) {
        lkt_scene scene;
        if (lkt_scene_build(i, &scene) != 0) continue;
        if (scene.suite == suite) lkt_run_scene(i);
        lkt_scene_free(&scene);
    }
}
