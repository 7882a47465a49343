/*
 * No crash, no abort and a consistent tree from any call sequence (the
 * house rule; S1.3 for the tree, S2 and S5 for commits and frames): seeded
 * random sequences of C API calls over a pool of layers of every kind
 * (with each kind's own calls), animations of every kind, emitter cells
 * (nested, shared between emitters), images, a path and a software display
 * with a manual clock. Calls get odd arguments too (NaN, infinities, negative
 * sizes, a layer as its own mask or sublayer, NULL), transactions are left
 * open and committed too often, and layers are released while in trees,
 * masking, animating or on screen. After every flush the tree is checked:
 * every superlayer lists its sublayer once, a mask has no superlayer, and
 * no superlayer chain is a cycle, and every frame must render (S8.1: the
 * core hands the backend a list it draws, whatever the calls made of the
 * tree; a gradient whose animated locations left 0...1 was refused whole).
 * Under valgrind (the leaks stage) the same run checks for invalid
 * accesses and leaks.
 *
 * Found by it, and fixed: a layer that had been a mask and then became its
 * former owner's superlayer left the committed copy with a cycle (a stack
 * overflow on the next implicit animation); releasing a presentation copy
 * cleared its model's mask's owner.
 *
 * After each sequence the process's peak resident memory must stay under
 * 4 GB (S8.1: a sequence that made the backend ask for a 17 GB target
 * passed every other check).
 *
 * LKTEST_SEQUENCES=N and LKTEST_SEQUENCE_STEPS=N run longer (default 12
 * sequences of 1,500 calls, and the sequences in `regressions`; the seed is
 * the sequence's number, from LKTEST_SEQUENCE_FIRST, default 0).
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* setenv */
#endif
#include "lktest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define LAYERS 16
#define ANIMATIONS 6
#define IMAGES 3
#define CELLS 4
#define TAGS 2
#define ACTIONS 3
#define LINKS 2

static unsigned long long state;
static unsigned rnd(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(state >> 33);
}
static double between(double lo, double hi) { return lo + (hi - lo) * (rnd() % 100000) / 100000.0; }
/* mostly ordinary numbers, sometimes ones a program should not pass */
static double number(void)
{
    switch (rnd() % 12) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -1;
    case 4: return 0;
    case 5: return 1e300;
    default: return between(-20, 120);
    }
}

static lk_layer *layers[LAYERS];
/* Layers that serve only as values (a user value or an animation's value
   naming a layer, as a view tags its animations): they hold nothing, so no
   reference cycle forms through them, and the last release frees every
   layer (checked at the end of each sequence). */
static lk_layer *tags[TAGS];
static lk_action *actions[ACTIONS];
static lk_display_link *links[LINKS];
static int depth;   /* callbacks nested in callbacks */
static int quiet;   /* set while the sequence ends: callbacks call nothing */
/* events whose kind-wide default actions a sequence sets (and clears at its end) */
static const char *const default_action_events[] = {"position", "opacity", "bounds"};
#define KINDS 10

static void call(void);
static lk_animation *animations[ANIMATIONS];
static lk_image *images[IMAGES];
static lk_emitter_cell *cells[CELLS];
static lk_path *path;
static lk_display *display;
static double now = 1.0;
/* Frames the backend refused in this sequence (S8.1: whatever the calls
   made of the tree, the core hands the backend a list it draws; only
   running out of memory may stop a frame), and the first one's reason. */
static int refused;
static char refusal[200];

static void render_frame(double t)
{
    lk_status status = lk_display_render_frame_at(display, t);
    if (status == LK_OK || status == LK_ERROR_OUT_OF_MEMORY) return;
    if (refused++ == 0) snprintf(refusal, sizeof refusal, "status %d: %s", (int)status, lk_last_error());
}
static int real_clock;   /* LKTEST_SEQUENCE_REAL_CLOCK=1 */

static lk_layer *any_layer(void) { return layers[rnd() % LAYERS]; }

static lk_layer *new_layer(void)
{
    switch (rnd() % 12) {
    case 0: return lk_shape_layer_create();
    case 1: return lk_text_layer_create();
    case 2: return lk_gradient_layer_create();
    case 3: return lk_emitter_layer_create();
    case 4: return lk_replicator_layer_create();
    case 5: return lk_transform_layer_create();
    case 6: return lk_scroll_layer_create();
    case 7: return lk_tiled_layer_create();
    default: return lk_layer_create();
    }
}

static const char *const key_paths[] = {
    "position", "opacity", "bounds", "transform", "transform.rotation.z", "backgroundColor", "cornerRadius",
    "shadowOpacity", "sublayerTransform", "contents", "position.x", "bounds.size", "zPosition", "instanceCount",
    "emitterPosition", "path", "strokeEnd", "nonsense", "", "transform.scale", "hidden", "borderWidth"
};
#define KEY_PATHS (sizeof key_paths / sizeof key_paths[0])

static lk_value any_value(void)
{
    switch (rnd() % 9) {
    case 0: return lk_value_number(number());
    case 1: return lk_value_point(lk_point_make(number(), number()));
    case 2: return lk_value_rect(lk_rect_make(number(), number(), number(), number()));
    case 3: return lk_value_color(lk_color_make(between(0, 1), between(0, 1), between(0, 1), between(0, 1)));
    case 4: return lk_value_transform(lk_transform3d_make_rotation(number(), between(-1, 1), between(-1, 1), 1));
    case 5: return lk_value_image(images[rnd() % IMAGES]);
    case 6: return lk_value_layer(tags[rnd() % TAGS]);
    case 7: return lk_value_size(lk_size_make(number(), number()));
    default: return lk_value_none();
    }
}

static lk_animation *new_animation(void)
{
    const char *key = key_paths[rnd() % KEY_PATHS];
    switch (rnd() % 5) {
    case 0: return lk_basic_animation_create(key);
    case 1: return lk_keyframe_animation_create(key);
    case 2: return lk_spring_animation_create(key);
    case 3: return lk_animation_group_create();
    default: return lk_transition_create();
    }
}

static void open_display(void)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = (uint32_t)sizeof o;
    o.backend = lkt_backend();   /* $LKTEST_BACKEND, else software */
    o.width = 64;
    o.height = 48;
    /* a real clock: the render thread draws while the sequence changes things */
    o.manual_clock = !real_clock;
    display = lk_display_open(&o);
}

/* Callbacks call back into the library (S8.1): each runs one random call
   of the sequence (which may release the layer it is called about, close
   the display or run the run loop), at most two callbacks deep. */
static void reenter(void)
{
    if (quiet || depth >= 2 || rnd() % 3 == 0) return;
    depth++;
    call();
    depth--;
}

static void completion(void *user_data) { (void)user_data; reenter(); }
static void action_run(const char *event, lk_layer *layer, void *user_data)
{
    (void)event; (void)layer; (void)user_data;
    reenter();
}
static lk_action *delegate_action(lk_layer *layer, const char *event, void *user_data)
{
    (void)layer; (void)event; (void)user_data;
    reenter();
    switch (rnd() % 5) {
    case 0: return lk_action_null();
    case 1: return actions[rnd() % ACTIONS];
    case 2: { lk_animation *an = animations[rnd() % ANIMATIONS]; return an ? lk_animation_as_action(an) : NULL; }
    default: return NULL;
    }
}
static void delegate_layout(lk_layer *layer, void *user_data) { (void)layer; (void)user_data; reenter(); }
static void delegate_draw(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer; (void)user_data;
    lk_canvas_clear(canvas, lk_color_make(between(0, 1), 0, 0, 1));
    if (rnd() % 2) lk_canvas_fill_path(canvas, path, lk_color_make(0, 1, 0, 1), LK_FILL_RULE_NON_ZERO);
    reenter();
}
static void delegate_destroy(void *user_data) { (void)user_data; }
static void animation_started(lk_animation *a, void *user_data) { (void)a; (void)user_data; reenter(); }
static void animation_stopped(lk_animation *a, bool finished, void *user_data)
{
    (void)a; (void)finished; (void)user_data;
    reenter();
}
static void link_fired(lk_display_link *link, double timestamp, double target, void *user_data)
{
    (void)timestamp; (void)target; (void)user_data;
    if (rnd() % 8 == 0) lk_display_link_set_paused(link, true);
    reenter();
}

/* Delegates, actions, default actions, animation delegates, display links
   and the run loop: the calls whose callbacks come back. */
static void callback_call(lk_layer *a)
{
    static const char *const events[] = {"position", "opacity", "bounds", "backgroundColor", "sublayers",
                                         "onOrderIn", "onOrderOut", "onLayout", "contents", "k0"};
    const char *event = events[rnd() % (sizeof events / sizeof events[0])];
    unsigned i = rnd() % ACTIONS;
    lk_action *action = rnd() % 3 ? actions[i] : rnd() % 2 ? lk_action_null() : NULL;
    switch (rnd() % 12) {
    case 0: case 1: {
        lk_layer_delegate d;
        memset(&d, 0, sizeof d);
        d.struct_size = (uint32_t)sizeof d;
        if (rnd() % 2) d.action_for_key = delegate_action;
        if (rnd() % 2) d.layout_sublayers = delegate_layout;
        if (rnd() % 2) d.draw = delegate_draw;
        lk_layer_set_delegate(a, rnd() % 5 ? &d : NULL, NULL, rnd() % 2 ? delegate_destroy : NULL);
        if (d.draw && rnd() % 2) lk_layer_set_needs_display(a);
        break;
    }
    case 2: lk_layer_set_action(a, event, action); break;
    case 3: lk_layer_set_style_action(a, event, action); break;
    case 4:
        lk_layer_kind_set_default_action((lk_layer_kind)(rnd() % KINDS), default_action_events[rnd() % 3], action);
        break;
    case 5: { lk_action *found = lk_layer_copy_action_for_key(a, event); if (found) lk_release(found); break; }
    case 6: if (actions[i]) lk_release(actions[i]); actions[i] = lk_action_create(action_run, NULL, NULL); break;
    case 7: {
        lk_animation_delegate d;
        memset(&d, 0, sizeof d);
        d.struct_size = (uint32_t)sizeof d;
        d.did_start = animation_started;
        d.did_stop = animation_stopped;
        lk_animation_set_delegate(animations[rnd() % ANIMATIONS], &d, NULL, NULL);
        break;
    }
    case 8: if (display) lk_display_dispatch(display, 0); break;
    case 9: {
        unsigned k = rnd() % LINKS;
        if (links[k]) { lk_display_link_invalidate(links[k]); lk_release(links[k]); links[k] = NULL; }
        if (display && rnd() % 2) links[k] = lk_display_link_create(display, link_fired, NULL);
        break;
    }
    case 10: {
        lk_display_link *link = links[rnd() % LINKS];
        lk_display_link_set_paused(link, rnd() % 3 == 0);
        lk_display_link_set_preferred_fps(link, number());
        break;
    }
    default: lk_layer_set_needs_layout(a); lk_layer_layout_if_needed(a); break;
    }
}

static void display_event(lk_display *d, lk_display_event event, const char *detail, void *user_data)
{
    (void)d; (void)event; (void)detail; (void)user_data;
    reenter();
}

/* The rest of the API's setters and queries: animation parameters of every
   kind, timing functions, geometry conversions, snapshots, contents,
   paths built and changed after they were set, each kind's remaining
   properties, emitter cells by key path. Enumerations get values out of
   their range too. */
static void more_call(lk_layer *a, lk_layer *b, lk_animation *an)
{
    double values[3];
    lk_timing_function *fns[2];
    char key_path[64];
    values[0] = number(); values[1] = number(); values[2] = number();
    switch (rnd() % 24) {
    case 0: lk_animation_set_key_path(an, key_paths[rnd() % KEY_PATHS]); break;
    case 1:
        lk_animation_set_additive(an, rnd() & 1); lk_animation_set_cumulative(an, rnd() & 1);
        lk_animation_set_fill_mode(an, (lk_fill_mode)(rnd() % 6)); lk_animation_set_removed_on_completion(an, rnd() & 1);
        break;
    case 2:
        lk_animation_set_begin_time(an, number()); lk_animation_set_time_offset(an, number());
        lk_animation_set_speed(an, number()); lk_animation_set_repeat_duration(an, number());
        lk_animation_set_by_value(an, any_value());
        break;
    case 3: {
        lk_timing_function *fn = lk_timing_function_create(between(-0.5, 1.5), number(), between(-0.5, 1.5), number());
        lk_animation_set_timing_function(an, rnd() % 3 ? fn : lk_timing_function_named((lk_timing_name)(rnd() % 6)));
        fns[0] = fn;
        fns[1] = lk_timing_function_named(LK_TIMING_EASE_IN);
        lk_animation_set_timing_functions(an, fns, rnd() % 3);
        lk_transaction_set_animation_timing_function(rnd() % 2 ? fn : NULL);
        if (fn) lk_release(fn);
        break;
    }
    case 4:
        lk_animation_set_calculation_mode(an, (lk_calculation_mode)(rnd() % 7));
        lk_animation_set_rotation_mode(an, (lk_rotation_mode)(rnd() % 4));
        lk_animation_set_tension_values(an, values, rnd() % 4);
        lk_animation_set_continuity_values(an, values, rnd() % 4);
        lk_animation_set_bias_values(an, values, rnd() % 4);
        break;
    case 5:
        lk_animation_set_mass(an, number()); lk_animation_set_stiffness(an, number());
        lk_animation_set_damping(an, number()); lk_animation_set_initial_velocity(an, number());
        break;
    case 6:
        lk_animation_set_transition_type(an, (lk_transition_type)(rnd() % 6));
        lk_animation_set_transition_subtype(an, (lk_transition_subtype)(rnd() % 6));
        lk_animation_set_start_progress(an, number()); lk_animation_set_end_progress(an, number());
        break;
    case 7: {
        lk_animation *copy = lk_animation_copy(an);
        lk_animation_set_user_value(an, "view", any_value());
        if (copy) { lk_layer_add_animation(a, copy, NULL); lk_release(copy); }
        break;
    }
    case 8: {
        lk_point p = lk_layer_convert_point(a, lk_point_make(number(), number()), b);
        lk_rect r = lk_layer_convert_rect(b, lk_rect_make(number(), number(), number(), number()), a);
        double t = lk_layer_convert_time(a, number(), rnd() % 4 ? b : NULL);
        (void)p; (void)r; (void)t;
        lk_layer_contains_point(a, lk_point_make(number(), number()));
        break;
    }
    case 9: {
        /* scales a program would use, and ones refused; a valid but huge
           snapshot (up to 16384 pixels a side, with a wide shadow blurred
           exactly) takes minutes on the software backend, not a test's time */
        static const double scales[] = {1, 0.5, 0, 2, -1, NAN, INFINITY, 1e300};
        lk_image *snapshot = lk_layer_render_to_image(a, scales[rnd() % 8]);
        if (snapshot) lk_release(snapshot);
        break;
    }
    case 10:
        lk_layer_set_contents_center(a, lk_rect_make(number(), number(), number(), number()));
        lk_layer_set_contents_rect(a, lk_rect_make(number(), number(), number(), number()));
        lk_layer_set_contents_gravity(a, (lk_contents_gravity)(rnd() % 14));
        lk_layer_set_contents_scale(a, number());
        break;
    case 11: {
        lk_path *p = lk_path_create();
        lk_path_move_to(p, number(), number());
        lk_path_line_to(p, number(), number());
        lk_path_quad_to(p, number(), number(), number(), number());
        lk_path_curve_to(p, number(), number(), number(), number(), number(), number());
        lk_path_add_arc(p, number(), number(), number(), number(), number(), rnd() & 1);
        if (rnd() % 2) lk_path_close(p);
        if (rnd() % 2) lk_layer_set_shadow_path(a, p); else lk_shape_layer_set_path(a, p);
        /* changed after it was set: the layer keeps what it was given */
        lk_path_add_rounded_rect(p, lk_rect_make(number(), number(), number(), number()), number(), number());
        lk_path_add_ellipse(p, lk_rect_make(number(), number(), number(), number()));
        lk_release(p);
        break;
    }
    case 12:
        lk_layer_set_needs_display_in_rect(a, lk_rect_make(number(), number(), number(), number()));
        lk_layer_display_if_needed(a);
        break;
    case 13:
        lk_layer_set_duration(a, number()); lk_layer_set_repeat_count(a, number());
        lk_layer_set_autoreverses(a, rnd() & 1); lk_layer_set_fill_mode(a, (lk_fill_mode)(rnd() % 6));
        lk_layer_set_repeat_duration(a, number());
        break;
    case 14:
        lk_layer_set_user_value(a, "tag", any_value());
        lk_layer_set_double_sided(a, rnd() & 1); lk_layer_set_anchor_point_z(a, number());
        lk_layer_set_allows_group_opacity(a, rnd() & 1);
        break;
    case 15:
        if (rnd() % 2) lk_layer_insert_sublayer_above(a, b, any_layer()); else lk_layer_insert_sublayer_below(a, b, any_layer());
        break;
    case 16: lk_layer_scroll_point(a, lk_point_make(number(), number())); lk_scroll_layer_set_scroll_mode(a, (lk_scroll_mode)(rnd() % 5)); break;
    case 17:
        lk_text_layer_set_font(a, rnd() % 2 ? "DejaVu Sans" : "No Such Font");
        lk_text_layer_set_alignment_mode(a, (lk_text_alignment)(rnd() % 7));
        lk_text_layer_set_truncation_mode(a, (lk_truncation_mode)(rnd() % 6));
        break;
    case 18:
        lk_gradient_layer_set_type(a, (lk_gradient_type)(rnd() % 5));
        lk_shape_layer_set_line_cap(a, (lk_line_cap)(rnd() % 5)); lk_shape_layer_set_fill_rule(a, (lk_fill_rule)(rnd() % 4));
        break;
    case 19:
        lk_tiled_layer_set_tile_size(a, lk_size_make(number(), number()));
        lk_tiled_layer_set_levels_of_detail(a, rnd() % 40);
        lk_tiled_layer_set_levels_of_detail_bias(a, rnd() % 40);
        lk_tiled_layer_set_tile_cache_limit(a, rnd() % 2 ? (size_t)rnd() : 0);
        break;
    case 20: {
        lk_emitter_cell *c = cells[rnd() % CELLS];
        snprintf(key_path, sizeof key_path, "emitterCells.c%u.%s", rnd() % 3, rnd() % 2 ? "birthRate" : "velocity");
        lk_layer_set_value(a, key_path, lk_value_number(number()));
        snprintf(key_path, sizeof key_path, "emitterCells.c%u.scale", rnd() % 3);
        lk_emitter_cell_set_value(c, key_path, lk_value_number(number()));
        lk_emitter_cell_set_value(c, rnd() % 2 ? "spin" : "color", any_value());
        lk_emitter_cell_set_enabled(c, rnd() % 4 != 0);
        lk_emitter_layer_set_emitter_mode(a, (lk_emitter_mode)(rnd() % 6));
        break;
    }
    case 21: lk_transaction_set_value("k", any_value()); break;
    case 22:
        if (display) lk_display_set_event_callback(display, rnd() % 2 ? display_event : NULL, NULL, NULL);
        break;
    default: {
        uint8_t px[8 * 8 * 4];
        lk_image_read_pixels(images[rnd() % IMAGES], px, 32);
        if (display && rnd() % 4 == 0) {
            uint8_t *frame = (uint8_t *)malloc(64 * 48 * 4);
            if (frame) { lk_display_read_pixels(display, frame, 64 * 4); free(frame); }
        }
        break;
    }
    }
}

/* The special kinds' own calls (on a layer of any kind: the others refuse). */
static void kind_call(lk_layer *a)
{
    double lengths[3];
    lk_color colors[3];
    double locations[3];
    lengths[0] = number(); lengths[1] = number(); lengths[2] = number();
    colors[0] = lk_color_make(1, 0, 0, 1); colors[1] = lk_color_make(0, 1, 0, between(0, 1));
    colors[2] = lk_color_make(0, 0, 1, 1);
    locations[0] = number(); locations[1] = between(0, 1); locations[2] = number();
    switch (rnd() % 16) {
    case 0: lk_shape_layer_set_path(a, rnd() % 3 ? path : NULL); break;
    case 1: lk_shape_layer_set_line_width(a, number()); lk_shape_layer_set_stroke_color(a, lk_color_make(1, 1, 0, 1)); break;
    case 2: lk_shape_layer_set_line_dash_pattern(a, lengths, rnd() % 4); lk_shape_layer_set_line_dash_phase(a, number()); break;
    case 3: lk_shape_layer_set_stroke_start(a, number()); lk_shape_layer_set_stroke_end(a, number()); break;
    case 4: lk_text_layer_set_string(a, rnd() % 2 ? "LayerKit \xc3\xa9t\xc3\xa9 wrapped text" : ""); break;
    case 5: lk_text_layer_set_font_size(a, number()); lk_text_layer_set_wrapped(a, rnd() & 1); break;
    case 6: lk_gradient_layer_set_colors(a, colors, rnd() % 4); lk_gradient_layer_set_locations(a, locations, rnd() % 4); break;
    case 7: lk_gradient_layer_set_start_point(a, lk_point_make(number(), number())); break;
    case 8: lk_replicator_layer_set_instance_transform(a, lk_transform3d_make_translation(number(), number(), number())); break;
    case 9: lk_replicator_layer_set_instance_delay(a, number()); lk_replicator_layer_set_instance_alpha_offset(a, number()); break;
    case 10: lk_replicator_layer_set_preserves_depth(a, rnd() & 1); lk_emitter_layer_set_preserves_depth(a, rnd() & 1); break;
    case 11: lk_scroll_layer_scroll_to_point(a, lk_point_make(number(), number())); break;
    case 12: lk_layer_scroll_rect_to_visible(a, lk_rect_make(number(), number(), number(), number())); break;
    case 13: lk_emitter_layer_set_emitter_size(a, lk_size_make(number(), number())); lk_emitter_layer_set_birth_rate(a, number()); break;
    case 14: lk_emitter_layer_set_emitter_shape(a, (lk_emitter_shape)(rnd() % 7)); lk_emitter_layer_set_render_mode(a, (lk_emitter_render_mode)(rnd() % 5)); break;
    default: lk_layer_set_needs_layout(a); break;
    }
}

/* Emitter cells: made, nested, changed, given to emitters, released. */
static void cell_call(lk_layer *a)
{
    unsigned i = rnd() % CELLS;
    lk_emitter_cell *c = cells[i];
    lk_emitter_cell *some[2];
    some[0] = cells[rnd() % CELLS];
    some[1] = cells[rnd() % CELLS];
    switch (rnd() % 8) {
    case 0: if (c) lk_release(c); cells[i] = lk_emitter_cell_create(); break;
    case 1: if (c) { char name[8]; snprintf(name, sizeof name, "c%u", rnd() % 3); lk_emitter_cell_set_name(c, name); } break;
    case 2: lk_emitter_cell_set_birth_rate(c, number()); lk_emitter_cell_set_lifetime(c, number()); break;
    case 3: lk_emitter_cell_set_contents(c, images[rnd() % IMAGES]); lk_emitter_cell_set_scale(c, number()); break;
    case 4: lk_emitter_cell_set_cells(c, some, rnd() % 3); break;
    case 5: lk_emitter_layer_set_cells(a, some, rnd() % 3); break;
    case 6: lk_emitter_cell_set_velocity(c, number()); lk_emitter_cell_set_spin(c, number()); lk_emitter_cell_set_emission_range(c, number()); break;
    default: { lk_emitter_cell *copy = lk_emitter_cell_copy(c); if (copy) lk_release(copy); break; }
    }
}

static void call(void)
{
    lk_layer *a = any_layer(), *b = any_layer();
    lk_animation *an = animations[rnd() % ANIMATIONS];
    char key[8];
    snprintf(key, sizeof key, "k%u", rnd() % 4);
    switch (rnd() % 50) {
    case 0: { unsigned i = rnd() % LAYERS; if (layers[i]) lk_release(layers[i]); layers[i] = new_layer(); break; }
    case 1: { unsigned i = rnd() % LAYERS; if (layers[i] && rnd() % 3 == 0) { lk_release(layers[i]); layers[i] = NULL; } break; }
    case 2: lk_layer_add_sublayer(a, b); break;
    case 3: lk_layer_insert_sublayer(a, b, rnd() % 5); break;
    case 4: lk_layer_remove_from_superlayer(a); break;
    case 5: lk_layer_replace_sublayer(a, b, any_layer()); break;
    case 6: lk_layer_set_position(a, lk_point_make(number(), number())); break;
    case 7: lk_layer_set_bounds(a, lk_rect_make(number(), number(), number(), number())); break;
    case 8: lk_layer_set_transform(a, lk_transform3d_make_rotation(number(), between(-1, 1), between(-1, 1), 1)); break;
    case 9: lk_layer_set_opacity(a, number()); break;
    case 10: lk_layer_set_value(a, key_paths[rnd() % KEY_PATHS], any_value()); break;
    case 11: lk_layer_set_contents(a, images[rnd() % IMAGES]); break;
    case 12: lk_layer_set_mask(a, b); break;
    case 13: lk_layer_set_corner_radius(a, number()); lk_layer_set_masks_to_bounds(a, rnd() & 1); break;
    case 14: lk_layer_set_shadow_opacity(a, number()); lk_layer_set_shadow_radius(a, number()); break;
    case 15:
        lk_transaction_begin();
        lk_transaction_set_animation_duration(number());
        if (rnd() % 2) lk_transaction_set_completion(completion, NULL);
        break;
    case 16: lk_transaction_commit(); break;
    case 17: lk_transaction_flush(); break;
    case 18: lk_transaction_set_disable_actions(rnd() & 1); break;
    case 19: { unsigned i = rnd() % ANIMATIONS; if (animations[i]) lk_release(animations[i]); animations[i] = new_animation(); break; }
    case 20:
        lk_animation_set_from_value(an, any_value());
        lk_animation_set_to_value(an, any_value());
        lk_animation_set_duration(an, number());
        lk_animation_set_repeat_count(an, number());
        lk_animation_set_autoreverses(an, rnd() & 1);
        break;
    case 21: {
        lk_value values[3];
        double times[3];
        values[0] = any_value(); values[1] = any_value(); values[2] = any_value();
        times[0] = 0; times[1] = between(0, 1); times[2] = 1;
        lk_animation_set_values(an, values, rnd() % 4);
        lk_animation_set_key_times(an, times, rnd() % 4);
        lk_animation_set_path(an, rnd() % 2 ? path : NULL);
        break;
    }
    case 22: {
        lk_animation *children[2];
        children[0] = animations[rnd() % ANIMATIONS];
        children[1] = animations[rnd() % ANIMATIONS];
        lk_animation_set_animations(an, children, rnd() % 3);
        break;
    }
    case 23: lk_layer_add_animation(a, an, rnd() % 3 ? key : NULL); break;
    case 24: lk_layer_remove_animation(a, key); break;
    case 25: lk_layer_remove_all_animations(a); break;
    case 26: if (display) lk_display_set_root_layer(display, rnd() % 4 ? layers[0] : a); break;
    case 27: case 28: case 29:
        if (display) {
            now += between(-0.01, 0.3);
            render_frame(now);
        }
        break;
    case 30: {
        lk_layer *copy = lk_layer_copy_presentation(a);
        if (copy) lk_release(copy);
        copy = lk_layer_copy_presentation_at(a, now + number());
        if (copy) lk_release(copy);
        break;
    }
    case 31: lk_layer_hit_test(a, lk_point_make(number(), number())); break;
    case 32: lk_replicator_layer_set_instance_count(a, rnd() % 20); break;
    case 33: lk_layer_set_sublayer_transform(a, lk_transform3d_make_scale(number(), number(), 1)); break;
    case 34: lk_layer_set_speed(a, number()); lk_layer_set_time_offset(a, number()); lk_layer_set_begin_time(a, number()); break;
    case 35: lk_layer_layout_if_needed(a); break;
    case 36: { lk_value out; lk_layer_get_value(a, key_paths[rnd() % KEY_PATHS], &out); break; }
    case 37:
        if (display && rnd() % 20 == 0) { lk_display_close(display); display = NULL; }
        else if (!display) open_display();
        break;
    case 38: lk_layer_set_z_position(a, number()); lk_layer_set_anchor_point(a, lk_point_make(number(), number())); break;
    case 39: kind_call(a); break;
    case 40: case 41: cell_call(a); break;
    case 42: { unsigned i = rnd() % TAGS; lk_release(tags[i]); tags[i] = lk_layer_create(); break; }
    case 43: case 44: case 45: callback_call(a); break;
    case 46: case 47: case 48: more_call(a, b, an); break;
    default: lk_layer_set_hidden(a, rnd() % 5 == 0); break;
    }
}

/* The tree as the C API shows it: each superlayer lists the layer once, a
   mask has no superlayer, no chain of superlayers loops. */
static int tree_consistent(char *why, size_t size)
{
    int i;
    for (i = 0; i < LAYERS; i++) {
        lk_layer *l = layers[i], *up, *mask;
        int depth = 0;
        if (!l) continue;
        up = lk_layer_get_superlayer(l);
        if (up) {
            size_t k, n = lk_layer_get_sublayer_count(up), seen = 0;
            for (k = 0; k < n; k++)
                if (lk_layer_get_sublayer(up, k) == l) seen++;
            if (seen != 1) { snprintf(why, size, "layer %d is listed %zu times by its superlayer", i, seen); return 0; }
        }
        for (; up && depth < 10000; up = lk_layer_get_superlayer(up)) depth++;
        if (up) { snprintf(why, size, "layer %d's superlayers loop", i); return 0; }
        mask = lk_layer_get_mask(l);
        if (mask && lk_layer_get_superlayer(mask)) { snprintf(why, size, "layer %d's mask has a superlayer", i); return 0; }
    }
    return 1;
}

/* What the run loop holds for this thread, delivered through a display
   that only dispatches (manual clock, no frames); callbacks do not call
   back into the sequence (quiet). */
static void deliver_posted(void)
{
    int i, was_real = real_clock;
    real_clock = 0;
    open_display();
    for (i = 0; i < 4 && display; i++) lk_display_dispatch(display, 0);
    if (display) lk_display_close(display);
    display = NULL;
    real_clock = was_real;
}

static void run_sequence(int seed, int steps)
{
    uint8_t texels[8 * 8 * 4];
    char name[96], why[128] = "";
    int i, n, consistent = 1, alive;
    lk_layer *gone[LAYERS + TAGS];
    state = (unsigned long long)seed * 7919 + 1;
    quiet = 0;
    refused = 0;
    for (i = 0; i < (int)sizeof texels; i++) texels[i] = (uint8_t)(i * 37);
    for (i = 0; i < IMAGES; i++) images[i] = lk_image_create_from_pixels(8, 8, 32, LK_PIXEL_FORMAT_RGBA8, texels);
    path = lk_path_create_from_svg("M0 0 L50 0 L50 50 Z");
    open_display();
    for (i = 0; i < LAYERS; i++) layers[i] = new_layer();
    for (i = 0; i < TAGS; i++) tags[i] = lk_layer_create();
    for (i = 0; i < ACTIONS; i++) actions[i] = lk_action_create(action_run, NULL, NULL);
    for (i = 0; i < ANIMATIONS; i++) animations[i] = new_animation();
    for (i = 0; i < CELLS; i++) cells[i] = lk_emitter_cell_create();
    for (n = 0; n < steps; n++) {
        call();
        if (n % 50 == 49 && consistent) {
            lk_transaction_flush();
            consistent = tree_consistent(why, sizeof why);
        }
    }
    for (i = 0; i < 16; i++) lk_transaction_commit();   /* whatever was left open */
    lk_transaction_flush();
    if (!display) open_display();
    if (display) render_frame(now + 1);
    /* the run loop delivers what that frame finished (S4.6): finished
       animations leave their layers (its callbacks may close the display) */
    for (i = 0; i < 4 && display; i++) lk_display_dispatch(display, 0);
    quiet = 1;
    for (i = 0; i < 16; i++) lk_transaction_commit();   /* what those callbacks left open */
    lk_transaction_flush();
    for (i = 0; i < LINKS; i++) {
        if (!links[i]) continue;
        lk_display_link_invalidate(links[i]);
        lk_release(links[i]);
        links[i] = NULL;
    }
    if (display) {
        lk_display_close(display);
        display = NULL;
    }
    /* the render thread may have posted more before the display closed */
    if (real_clock) deliver_posted();
    if (consistent) consistent = tree_consistent(why, sizeof why);
    snprintf(name, sizeof name, "S1.3 random call sequence %d (%d calls): no crash, the tree stays consistent", seed, steps);
    LKT_CHECK(consistent, name, "%s", why);
    snprintf(name, sizeof name, "S8.1 random call sequence %d: every frame renders", seed);
    LKT_CHECK(refused == 0, name, "%d frames refused, the first with %s", refused, refusal);
    for (i = 0; i < LAYERS + TAGS; i++) {
        gone[i] = i < LAYERS ? layers[i] : tags[i - LAYERS];
        if (gone[i]) lk_release(gone[i]);
        if (i < LAYERS) layers[i] = NULL; else tags[i - LAYERS] = NULL;
    }
    for (i = 0; i < ANIMATIONS; i++) if (animations[i]) { lk_release(animations[i]); animations[i] = NULL; }
    for (i = 0; i < CELLS; i++) if (cells[i]) { lk_release(cells[i]); cells[i] = NULL; }
    for (i = 0; i < ACTIONS; i++) if (actions[i]) { lk_release(actions[i]); actions[i] = NULL; }
    for (i = 0; i < KINDS * 3; i++)   /* what the kinds' registry keeps (animations naming tags) */
        lk_layer_kind_set_default_action((lk_layer_kind)(i / 3), default_action_events[i % 3], NULL);
    lk_transaction_flush();   /* a transaction keeps the layers it changed until it commits */
    /* A layer that goes while its animations run stops them, and a stop
       whose animation has a delegate is posted to the run loop, which holds
       the animation (and the layers its values name) until it delivers it
       (S4.6): deliver that first. */
    deliver_posted();
    alive = 0;
    for (i = 0; i < LAYERS + TAGS; i++) {
        void *again = gone[i] ? lk_retain(gone[i]) : NULL;
        if (again) { alive++; lk_release(again); }
    }
    snprintf(name, sizeof name, "S1.3 random call sequence %d: the last release frees every layer", seed);
    LKT_CHECK(alive == 0, name, "%d layers still alive", alive);
    for (i = 0; i < IMAGES; i++) lk_release(images[i]);
    lk_release(path);
}

/* The process's peak resident memory in MB, 0 when unknown. */
static double peak_resident_mb(void)
{
    struct rusage usage;
    return getrusage(RUSAGE_SELF, &usage) == 0 ? (double)usage.ru_maxrss / 1024.0 : 0.0;   /* (kB on Linux) */
}

/* No sequence may make the process hold more than this at its peak (a run
   of hundreds holds about 130 MB; a snapshot of the largest size, 16384
   pixels a side, holds two 1 GB images, the backend's and the result):
   sequence 971,932 made the software backend ask for a 17 GB group
   target, which no check of the tree would have seen. */
#define PEAK_MB_LIMIT 4096.0

/* Sequences that found a defect, run by default besides 0..11, each with
   the LAYERKIT_SOFTWARE_THREADS it was found with. */
static const struct { int seed; const char *threads; } regressions[] = {
    { 971932, "3" },   /* a 17 GB group target: peak 20 GB, 3 minutes */
};

static void run_checked(int seed, int length)
{
    char name[96];
    double before = peak_resident_mb();
    run_sequence(seed, length);
    double peak = peak_resident_mb();
    snprintf(name, sizeof name, "S8.1 random call sequence %d: memory stays bounded", seed);
    /* (the peak is the process's: judged where a sequence raised it) */
    LKT_CHECK(peak < PEAK_MB_LIMIT || peak <= before, name,
              "the process's peak resident memory reached %.0f MB", peak);
}

int main(void)
{
    const char *sequences = getenv("LKTEST_SEQUENCES"), *steps = getenv("LKTEST_SEQUENCE_STEPS");
    int count = sequences && atoi(sequences) > 0 ? atoi(sequences) : 12;
    int length = steps && atoi(steps) > 0 ? atoi(steps) : 1500;
    const char *first = getenv("LKTEST_SEQUENCE_FIRST"), *real = getenv("LKTEST_SEQUENCE_REAL_CLOCK");
    real_clock = real && strcmp(real, "1") == 0;
    int seed, from = first ? atoi(first) : 0;
    for (seed = from; seed < from + count; seed++) run_checked(seed, length);
    if (!sequences && !first)
        for (size_t k = 0; k < sizeof regressions / sizeof regressions[0]; k++) {
            setenv("LAYERKIT_SOFTWARE_THREADS", regressions[k].threads, 1);
            run_checked(regressions[k].seed, length);
            unsetenv("LAYERKIT_SOFTWARE_THREADS");
        }
    return lkt_finish();
}
