/*
 * S7.4 emitter cells through the C API: Core Animation's defaults
 * (CAEmitterCell.h), one typed pair per property, key paths that reach
 * sub-cells by name to any depth ("emitterCells.burst.emitterCells.spark.
 * birthRate"), bad input (an error naming the argument or key path, and
 * nothing changes), deep copies, and references (sub-cells and contents are
 * retained by their cell; the valgrind stage checks nothing leaks).
 */
#include "lktest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef lk_status (*number_setter)(lk_emitter_cell *, double);
typedef double (*number_getter)(const lk_emitter_cell *);

typedef struct number_property {
    const char *key;
    number_setter set;
    number_getter get;
    double default_value;
} number_property;

#define ROW(key, name, def) { key, lk_emitter_cell_set_##name, lk_emitter_cell_get_##name, def }

static const number_property numbers[] = {
    ROW("birthRate", birth_rate, 0), ROW("lifetime", lifetime, 0), ROW("lifetimeRange", lifetime_range, 0),
    ROW("emissionLatitude", emission_latitude, 0), ROW("emissionLongitude", emission_longitude, 0),
    ROW("emissionRange", emission_range, 0), ROW("velocity", velocity, 0), ROW("velocityRange", velocity_range, 0),
    ROW("xAcceleration", x_acceleration, 0), ROW("yAcceleration", y_acceleration, 0),
    ROW("zAcceleration", z_acceleration, 0), ROW("scale", scale, 1), ROW("scaleRange", scale_range, 0),
    ROW("scaleSpeed", scale_speed, 0), ROW("spin", spin, 0), ROW("spinRange", spin_range, 0),
    ROW("redRange", red_range, 0), ROW("greenRange", green_range, 0), ROW("blueRange", blue_range, 0),
    ROW("alphaRange", alpha_range, 0), ROW("redSpeed", red_speed, 0), ROW("greenSpeed", green_speed, 0),
    ROW("blueSpeed", blue_speed, 0), ROW("alphaSpeed", alpha_speed, 0), ROW("beginTime", begin_time, 0),
    ROW("duration", duration, 0), ROW("speed", speed, 1), ROW("timeOffset", time_offset, 0),
    ROW("repeatCount", repeat_count, 0), ROW("repeatDuration", repeat_duration, 0),
};
#define NUMBER_COUNT (sizeof numbers / sizeof numbers[0])

static lk_emitter_cell *named_cell(const char *name)
{
    lk_emitter_cell *cell = lk_emitter_cell_create();
    lk_emitter_cell_set_name(cell, name);
    return cell;
}

static void check_defaults(void)
{
    lk_emitter_cell *cell = lk_emitter_cell_create();
    size_t i;
    char name[128];
    LKT_CHECK(cell != NULL, "S7.4 lk_emitter_cell_create", "NULL: %s", lk_last_error());
    for (i = 0; i < NUMBER_COUNT; i++) {
        snprintf(name, sizeof name, "S7.4 cell default %s", numbers[i].key);
        LKT_CHECK_NEAR(name, numbers[i].get(cell), numbers[i].default_value, 0);
    }
    LKT_CHECK(lk_emitter_cell_get_enabled(cell), "S7.4 cell default enabled", "false");
    LKT_CHECK(lk_emitter_cell_get_name(cell) == NULL, "S7.4 cell default name is NULL", "got \"%s\"",
              lk_emitter_cell_get_name(cell));
    LKT_CHECK_COLOR("S7.4 cell default color is opaque white", lk_emitter_cell_get_color(cell),
                    lk_color_make(1, 1, 1, 1), 0);
    LKT_CHECK_RECT("S7.4 cell default contentsRect is the unit rect", lk_emitter_cell_get_contents_rect(cell),
                   lk_rect_make(0, 0, 1, 1), 0);
    LKT_CHECK(lk_emitter_cell_get_contents(cell) == NULL, "S7.4 cell default contents is NULL", "not NULL");
    LKT_CHECK(lk_emitter_cell_get_cell_count(cell) == 0, "S7.4 cell default has no sub-cells", "%zu",
              lk_emitter_cell_get_cell_count(cell));
    LKT_CHECK(!lk_emitter_cell_get_autoreverses(cell), "S4.1 cell default autoreverses false", "true");
    LKT_CHECK(lk_emitter_cell_get_fill_mode(cell) == LK_FILL_REMOVED, "S4.1 cell default fillMode removed", "%d",
              (int)lk_emitter_cell_get_fill_mode(cell));
    lk_release(cell);
}

static void check_typed_pairs(void)
{
    lk_emitter_cell *cell = lk_emitter_cell_create();
    uint8_t pixels[4 * 4 * 4];
    lk_image *image;
    lk_value v;
    size_t i;
    char name[128];

    for (i = 0; i < NUMBER_COUNT; i++) {
        double want = 0.25 + (double)i;
        lk_status s = numbers[i].set(cell, want);
        snprintf(name, sizeof name, "S7.4 cell typed pair %s", numbers[i].key);
        if (LKT_CHECK(s == LK_OK, name, "set: %s", lk_last_error()))
            LKT_CHECK_NEAR(name, numbers[i].get(cell), want, 0);
        /* and the same value by key path */
        memset(&v, 0, sizeof v);
        s = lk_emitter_cell_get_value(cell, numbers[i].key, &v);
        snprintf(name, sizeof name, "S7.4 cell key path %s reads the typed value", numbers[i].key);
        LKT_CHECK(s == LK_OK && v.type == LK_VALUE_NUMBER && v.as.number == want, name, "%s, type %s, %g",
                  lkt_status_name(s), lkt_value_type_name(v.type), v.as.number);
        if (strcmp(numbers[i].key, "repeatCount") == 0) numbers[i].set(cell, 0); /* exclusive with repeatDuration */
    }
    LKT_CHECK_STATUS("S7.4 set_enabled", lk_emitter_cell_set_enabled(cell, false), LK_OK);
    LKT_CHECK(!lk_emitter_cell_get_enabled(cell), "S7.4 get_enabled", "still true");
    LKT_CHECK_STATUS("S7.4 set_color", lk_emitter_cell_set_color(cell, lk_color_make(0.1, 0.2, 0.3, 0.4)), LK_OK);
    LKT_CHECK_COLOR("S7.4 get_color", lk_emitter_cell_get_color(cell), lk_color_make(0.1, 0.2, 0.3, 0.4), 0);
    LKT_CHECK_STATUS("S7.4 set_contents_rect", lk_emitter_cell_set_contents_rect(cell, lk_rect_make(0.5, 0, 0.5, 1)), LK_OK);
    LKT_CHECK_RECT("S7.4 get_contents_rect", lk_emitter_cell_get_contents_rect(cell), lk_rect_make(0.5, 0, 0.5, 1), 0);
    LKT_CHECK_STATUS("S7.4 set_name", lk_emitter_cell_set_name(cell, "snow"), LK_OK);
    LKT_CHECK(lk_emitter_cell_get_name(cell) && strcmp(lk_emitter_cell_get_name(cell), "snow") == 0,
              "S7.4 get_name", "got %s", lk_emitter_cell_get_name(cell) ? lk_emitter_cell_get_name(cell) : "NULL");
    LKT_CHECK_STATUS("S7.4 set_name NULL clears", lk_emitter_cell_set_name(cell, NULL), LK_OK);
    LKT_CHECK(lk_emitter_cell_get_name(cell) == NULL, "S7.4 name cleared", "still set");
    LKT_CHECK_STATUS("S4.1 set_autoreverses", lk_emitter_cell_set_autoreverses(cell, true), LK_OK);
    LKT_CHECK(lk_emitter_cell_get_autoreverses(cell), "S4.1 get_autoreverses", "false");
    LKT_CHECK_STATUS("S4.1 set_fill_mode", lk_emitter_cell_set_fill_mode(cell, LK_FILL_BOTH), LK_OK);
    LKT_CHECK(lk_emitter_cell_get_fill_mode(cell) == LK_FILL_BOTH, "S4.1 get_fill_mode", "%d",
              (int)lk_emitter_cell_get_fill_mode(cell));

    memset(pixels, 0xff, sizeof pixels);
    image = lk_image_create_from_pixels(4, 4, 16, LK_PIXEL_FORMAT_RGBA8, pixels);
    LKT_CHECK_STATUS("S7.4 set_contents", lk_emitter_cell_set_contents(cell, image), LK_OK);
    lk_release(image); /* the cell keeps it */
    LKT_CHECK(lk_emitter_cell_get_contents(cell) == image, "S7.4 the cell retains its contents image",
              "got %p, set %p", (void *)lk_emitter_cell_get_contents(cell), (void *)image);
    memset(&v, 0, sizeof v);
    LKT_CHECK(lk_emitter_cell_get_value(cell, "contents", &v) == LK_OK && v.type == LK_VALUE_IMAGE && v.as.image == image,
              "S7.4 contents by key path", "type %s", lkt_value_type_name(v.type));
    LKT_CHECK_STATUS("S7.4 set_contents NULL clears", lk_emitter_cell_set_contents(cell, NULL), LK_OK);
    LKT_CHECK(lk_emitter_cell_get_contents(cell) == NULL, "S7.4 contents cleared", "still set");
    lk_release(cell);
}

/* rocket -> burst -> spark, as the fireworks example nests them */
static void check_nested_key_paths(void)
{
    lk_emitter_cell *rocket = named_cell("rocket"), *burst = named_cell("burst"), *spark = named_cell("spark");
    lk_emitter_cell *other = named_cell("smoke");
    lk_emitter_cell *burst_children[2];
    lk_value v;
    lk_status s;

    burst_children[0] = other;
    burst_children[1] = spark;
    LKT_CHECK_STATUS("S7.4 set_cells on burst", lk_emitter_cell_set_cells(burst, burst_children, 2), LK_OK);
    LKT_CHECK_STATUS("S7.4 set_cells on rocket", lk_emitter_cell_set_cells(rocket, &burst, 1), LK_OK);
    /* the parents hold the references now */
    lk_release(spark);
    lk_release(other);
    lk_release(burst);
    LKT_CHECK(lk_emitter_cell_get_cell_count(rocket) == 1 && lk_emitter_cell_get_cell(rocket, 0) == burst,
              "S7.4 get_cell", "count %zu", lk_emitter_cell_get_cell_count(rocket));
    LKT_CHECK(lk_emitter_cell_get_cell(burst, 1) == spark, "S7.4 sub-cells keep their order", "cell 1 is not spark");

    s = lk_emitter_cell_set_value(rocket, "emitterCells.burst.emitterCells.spark.birthRate", lk_value_number(400));
    LKT_CHECK_STATUS("S7.4 set by nested key path", s, LK_OK);
    LKT_CHECK_NEAR("S7.4 nested key path reaches the spark", lk_emitter_cell_get_birth_rate(spark), 400, 0);
    LKT_CHECK_NEAR("S7.4 nested key path leaves its sibling", lk_emitter_cell_get_birth_rate(other), 0, 0);
    memset(&v, 0, sizeof v);
    s = lk_emitter_cell_get_value(rocket, "emitterCells.burst.emitterCells.spark.birthRate", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_NUMBER && v.as.number == 400, "S7.4 get by nested key path",
              "%s %s", lkt_status_name(s), lkt_value_type_name(v.type));
    s = lk_emitter_cell_set_value(rocket, "emitterCells.burst.emitterCells.spark.color",
                                  lk_value_color(lk_color_make(1, 0.5, 0, 1)));
    LKT_CHECK_STATUS("S7.4 nested colour", s, LK_OK);
    LKT_CHECK_COLOR("S7.4 nested colour arrives", lk_emitter_cell_get_color(spark), lk_color_make(1, 0.5, 0, 1), 0);
    s = lk_emitter_cell_set_value(rocket, "emitterCells.burst.contentsRect.size.width", lk_value_number(0.5));
    LKT_CHECK_STATUS("S7.4 part of a nested rect", s, LK_OK);
    LKT_CHECK_RECT("S7.4 part of a nested rect arrives", lk_emitter_cell_get_contents_rect(burst),
                   lk_rect_make(0, 0, 0.5, 1), 0);
    memset(&v, 0, sizeof v);
    s = lk_emitter_cell_get_value(rocket, "emitterCells.burst.emitterCells.spark.name", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_STRING && strcmp(v.as.string, "spark") == 0, "S7.4 name by key path",
              "%s %s", lkt_status_name(s), lkt_value_type_name(v.type));
    LKT_CHECK(lk_emitter_cell_get_value_type(rocket, "emitterCells.burst.emitterCells.spark.enabled") == LK_VALUE_BOOL,
              "S7.4 value type by key path", "not bool");
    s = lk_emitter_cell_set_value(spark, "fillMode", lk_value_string("forwards"));
    LKT_CHECK(s == LK_OK && lk_emitter_cell_get_fill_mode(spark) == LK_FILL_FORWARDS, "S4.1 fillMode by key path as a string",
              "%s", lkt_status_name(s));
    s = lk_emitter_cell_set_value(rocket, "emitterCells.burst.enabled", lk_value_bool(false));
    LKT_CHECK(s == LK_OK && !lk_emitter_cell_get_enabled(burst), "S7.4 enabled by key path", "%s", lkt_status_name(s));
    lk_release(rocket);
}

static void check_bad_input(void)
{
    lk_emitter_cell *cell = named_cell("rocket"), *child = named_cell("spark");
    lk_emitter_cell *list[2];
    lk_layer *layer = lk_layer_create();
    lk_value v;
    lk_status s;

    lk_emitter_cell_set_birth_rate(cell, 5);
    lk_emitter_cell_set_cells(cell, &child, 1);

    lkt_error_mark();
    s = lk_emitter_cell_set_birth_rate(NULL, 1);
    LKT_CHECK_ERROR("S8.1 NULL cell is an error naming the argument", s, LK_ERROR_INVALID_ARGUMENT, "cell");
    lkt_error_mark();
    s = lk_emitter_cell_set_birth_rate((lk_emitter_cell *)(void *)layer, 1);
    LKT_CHECK_ERROR("S8.1 a layer is not an emitter cell", s, LK_ERROR_INVALID_ARGUMENT, "emitter cell");
    lkt_error_mark();
    (void)lk_emitter_cell_get_lifetime(NULL);
    LKT_CHECK_ERROR_MESSAGE("S8.1 getter on NULL leaves a message", "cell");

    lkt_error_mark();
    s = lk_emitter_cell_set_birth_rate(cell, -1);
    LKT_CHECK_ERROR("S7.4 negative birthRate is refused", s, LK_ERROR_INVALID_ARGUMENT, "birthRate");
    lkt_error_mark();
    s = lk_emitter_cell_set_velocity(cell, NAN);
    LKT_CHECK_ERROR("S8.1 NaN velocity is refused", s, LK_ERROR_INVALID_ARGUMENT, "velocity");
    lkt_error_mark();
    s = lk_emitter_cell_set_color(cell, lk_color_make(1.5, 0, 0, 1));
    LKT_CHECK_ERROR("S7.4 colour out of range is refused", s, LK_ERROR_INVALID_ARGUMENT, "color");
    LKT_CHECK_NEAR("S8.1 nothing changed after refused calls", lk_emitter_cell_get_birth_rate(cell), 5, 0);
    LKT_CHECK_COLOR("S8.1 colour unchanged", lk_emitter_cell_get_color(cell), lk_color_make(1, 1, 1, 1), 0);

    lkt_error_mark();
    s = lk_emitter_cell_set_value(cell, "emitterCells.nope.birthRate", lk_value_number(1));
    LKT_CHECK_ERROR("S1.6 unknown sub-cell names it", s, LK_ERROR_UNKNOWN_KEY_PATH, "nope");
    lkt_error_mark();
    s = lk_emitter_cell_set_value(cell, "emitterCells.spark.birthRat", lk_value_number(1));
    LKT_CHECK_ERROR("S1.6 unknown property names the key path", s, LK_ERROR_UNKNOWN_KEY_PATH, "birthRat");
    lkt_error_mark();
    s = lk_emitter_cell_set_value(cell, "emitterCells.spark.birthRate", lk_value_bool(true));
    LKT_CHECK_ERROR("S1.6 wrong type names the expected type", s, LK_ERROR_TYPE_MISMATCH, "number");
    lkt_error_mark();
    s = lk_emitter_cell_set_value(cell, "emitterCells.spark.birthRate", lk_value_number(-3));
    LKT_CHECK_ERROR("S7.4 negative nested birthRate names the key path", s, LK_ERROR_INVALID_ARGUMENT,
                    "emitterCells.spark.birthRate");
    LKT_CHECK_NEAR("S8.1 nested value unchanged", lk_emitter_cell_get_birth_rate(child), 0, 0);
    lkt_error_mark();
    s = lk_emitter_cell_set_value(cell, NULL, lk_value_number(1));
    LKT_CHECK_ERROR("S8.1 NULL key path", s, LK_ERROR_INVALID_ARGUMENT, "key_path");
    lkt_error_mark();
    s = lk_emitter_cell_get_value(cell, "birthRate", NULL);
    LKT_CHECK_ERROR("S8.1 NULL out", s, LK_ERROR_INVALID_ARGUMENT, "out");
    lkt_error_mark();
    memset(&v, 0, sizeof v);
    s = lk_emitter_cell_set_value(cell, "fillMode", lk_value_string("sideways"));
    LKT_CHECK_ERROR("S4.1 unknown fillMode string", s, LK_ERROR_TYPE_MISMATCH, "forwards");
    LKT_CHECK(strstr(lk_last_error(), "\"sideways\" is not one of \"removed\", \"forwards\", \"backwards\", \"both\"") != NULL,
              "S1.6 the message names what was given, then the modes", "%s", lk_last_error());
    lkt_error_mark();
    s = lk_emitter_cell_set_fill_mode(cell, (lk_fill_mode)42);
    LKT_CHECK_ERROR("S4.1 unknown lk_fill_mode", s, LK_ERROR_INVALID_ARGUMENT, "mode");
    lk_emitter_cell_set_repeat_count(cell, 2);
    lkt_error_mark();
    s = lk_emitter_cell_set_repeat_duration(cell, 3);
    LKT_CHECK_ERROR("S4.4 repeatCount and repeatDuration are exclusive", s, LK_ERROR_STATE, "repeatDuration");

    list[0] = child;
    list[1] = NULL;
    lkt_error_mark();
    s = lk_emitter_cell_set_cells(cell, list, 2);
    LKT_CHECK_ERROR("S8.1 NULL in the cells array names its index", s, LK_ERROR_INVALID_ARGUMENT, "cells[1]");
    lkt_error_mark();
    s = lk_emitter_cell_set_cells(child, &cell, 1);
    LKT_CHECK_ERROR("S7.4 a cell cannot contain itself", s, LK_ERROR_HIERARCHY, "cycle|itself");
    lkt_error_mark();
    s = lk_emitter_cell_set_cells(cell, NULL, 3);
    LKT_CHECK_ERROR("S8.1 NULL array with a count", s, LK_ERROR_INVALID_ARGUMENT, "cells");
    LKT_CHECK(lk_emitter_cell_get_cell_count(cell) == 1 && lk_emitter_cell_get_cell(cell, 0) == child,
              "S8.1 sub-cells unchanged after refused calls", "count %zu", lk_emitter_cell_get_cell_count(cell));
    lkt_error_mark();
    LKT_CHECK(lk_emitter_cell_get_cell(cell, 5) == NULL, "S8.1 get_cell out of range is NULL", "not NULL");
    LKT_CHECK_ERROR_MESSAGE("S8.1 get_cell out of range names the index", "index");
    lkt_error_mark();
    s = lk_emitter_cell_set_cells(cell, list, (size_t)-1);
    LKT_CHECK_ERROR("S8.1 an absurd cell count", s, LK_ERROR_INVALID_ARGUMENT, "count");
    lkt_error_mark();
    LKT_CHECK(lk_emitter_cell_get_cell(cell, (size_t)-1) == NULL, "S8.1 get_cell at SIZE_MAX is NULL", "not NULL");
    LKT_CHECK_ERROR_MESSAGE("S8.1 get_cell at SIZE_MAX names the index", "index");
    lkt_error_mark();
    s = lk_emitter_cell_set_contents(cell, (lk_image *)(void *)layer);
    LKT_CHECK_ERROR("S8.1 a layer is not an image", s, LK_ERROR_INVALID_ARGUMENT, "image");

    LKT_CHECK_STATUS("S7.4 set_cells with count 0 clears", lk_emitter_cell_set_cells(cell, NULL, 0), LK_OK);
    LKT_CHECK(lk_emitter_cell_get_cell_count(cell) == 0, "S7.4 sub-cells cleared", "%zu",
              lk_emitter_cell_get_cell_count(cell));
    lk_release(child);
    lk_release(cell);
    lk_release(layer);
}

static void check_copy(void)
{
    lk_emitter_cell *rocket = named_cell("rocket"), *spark = named_cell("spark"), *copy, *copied_spark;
    lk_emitter_cell_set_birth_rate(spark, 10);
    lk_emitter_cell_set_velocity(rocket, 300);
    lk_emitter_cell_set_cells(rocket, &spark, 1);

    copy = lk_emitter_cell_copy(rocket);
    LKT_CHECK(copy != NULL && copy != rocket, "S7.4 lk_emitter_cell_copy", "%s", lk_last_error());
    if (!copy) {
        lk_release(spark);
        lk_release(rocket);
        return;
    }
    copied_spark = lk_emitter_cell_get_cell(copy, 0);
    LKT_CHECK(copied_spark != NULL && copied_spark != spark, "S7.4 a copy copies its sub-cells", "shares them");
    LKT_CHECK_NEAR("S7.4 a copy has the values", lk_emitter_cell_get_velocity(copy), 300, 0);
    lk_emitter_cell_set_value(copy, "emitterCells.spark.birthRate", lk_value_number(99));
    lk_emitter_cell_set_velocity(copy, 1);
    LKT_CHECK_NEAR("S7.4 changing a copy's sub-cell leaves the original", lk_emitter_cell_get_birth_rate(spark), 10, 0);
    LKT_CHECK_NEAR("S7.4 changing a copy leaves the original", lk_emitter_cell_get_velocity(rocket), 300, 0);
    LKT_CHECK_NEAR("S7.4 the copy changed", lk_emitter_cell_get_birth_rate(copied_spark), 99, 0);
    lkt_error_mark();
    LKT_CHECK(lk_emitter_cell_copy(NULL) == NULL, "S8.1 copy of NULL is NULL", "not NULL");
    LKT_CHECK_ERROR_MESSAGE("S8.1 copy of NULL names the argument", "cell");

    /* retain/release like every object */
    LKT_CHECK(lk_retain(copy) == copy, "lk_retain on a cell returns it", "other pointer");
    lk_release(copy);
    lk_release(copy);
    lk_release(spark);
    lk_release(rocket);
}

/* Levels of a cell tree, down the first sub-cell of each. */
static int levels_down(const lk_emitter_cell *cell)
{
    int n = 0;
    for (; cell; cell = lk_emitter_cell_get_cell_count(cell) ? lk_emitter_cell_get_cell(cell, 0) : NULL) n++;
    return n;
}

/* S8.1: a cell tree is at most 16 levels deep and holds at most 1,024
   cells counted as a tree. Copying, committing and simulating recurse
   once a level and visit every path: cells nested 10,000 deep crashed the
   commit, and a cell used as both sub-cells of its parent, level after
   level, made 2^n copies. Past the limits the setters refuse (naming the
   argument, nothing changed); a tree that grows from below past them (a
   deep sub-cell given sub-cells later) is copied and drawn cut to them. */
static void check_limits(void)
{
    lk_emitter_cell *top = named_cell("c"), *deepest = top;
    lk_status s = LK_OK;
    int level;
    for (level = 2; level <= 16; level++) {
        lk_emitter_cell *c = named_cell("c");
        lk_emitter_cell_set_cells(c, &top, 1);
        lk_release(top);
        top = c;
    }
    LKT_CHECK(levels_down(top) == 16, "S8.1 cells nest 16 deep", "%d levels", levels_down(top));
    lk_emitter_cell *over = named_cell("c");
    lkt_error_mark();
    s = lk_emitter_cell_set_cells(over, &top, 1);
    LKT_CHECK_ERROR("S8.1 a 17th level of cells is refused", s, LK_ERROR_INVALID_ARGUMENT, "16 levels");
    LKT_CHECK(lk_emitter_cell_get_cell_count(over) == 0, "S8.1 the refused sub-cells change nothing", "count %zu",
              lk_emitter_cell_get_cell_count(over));

    lk_layer *layer = lk_emitter_layer_create();
    s = lk_emitter_layer_set_cells(layer, &top, 1);
    LKT_CHECK_STATUS("S8.1 a layer takes a tree 16 deep", s, LK_OK);
    /* grown from below: the deepest cell gets a sub-cell (its own tree is 2 levels) */
    for (lk_emitter_cell *c = top; lk_emitter_cell_get_cell_count(c); c = lk_emitter_cell_get_cell(c, 0)) deepest = lk_emitter_cell_get_cell(c, 0);
    s = lk_emitter_cell_set_cells(deepest, &over, 1);
    LKT_CHECK(s == LK_OK && levels_down(top) == 17, "S8.1 a deep cell's own sub-cells are checked on its own tree",
              "%s, %d levels", lkt_status_name(s), levels_down(top));
    lk_emitter_cell *copy = lk_emitter_cell_copy(top);
    LKT_CHECK(copy && levels_down(copy) == 16, "S8.1 a tree grown past the limit is copied cut to 16 levels",
              "%d levels", copy ? levels_down(copy) : -1);
    lk_release(copy);
    lk_display *display = lkt_open_display(32, 24, "a display for the deep cells");
    if (display) {
        lk_layer_set_frame(layer, lk_rect_make(0, 0, 32, 24));
        lk_display_set_root_layer(display, layer);
        lk_transaction_flush();
        s = lk_display_render_frame_at(display, lk_media_time());
        LKT_CHECK_STATUS("S8.1 and drawn", s, LK_OK);
        lk_display_close(display);
    }
    lk_release(layer);

    /* shared: each level's cell holds the level below twice */
    lk_emitter_cell *shared = named_cell("s");
    int built = 1;
    for (level = 2; level <= 12; level++) {
        lk_emitter_cell *c = named_cell("s"), *two[2] = { shared, shared };
        lkt_error_mark();
        s = lk_emitter_cell_set_cells(c, two, 2);
        if (s != LK_OK) {
            LKT_CHECK_ERROR("S8.1 a tree of more than 1,024 cells is refused", s, LK_ERROR_INVALID_ARGUMENT, "1024 cells");
            lk_release(c);
            break;
        }
        lk_release(shared);
        shared = c;
        built = level;
    }
    LKT_CHECK(built == 10, "S8.1 a cell shared in both sub-cells builds 10 levels (1,023 cells)", "%d levels", built);
    lk_release(shared);
    lk_release(over);
    lk_release(top);

    /* S8.1: a chain grown from below has no limit, and releasing 30,000
       levels of it overflowed the stack (each cell's sub-cells released in
       turn, recursively); now a loop */
    lk_emitter_cell *chain = lk_emitter_cell_create(), *leaf = chain;
    int grown = 1;
    for (; grown < 30000; grown++) {
        lk_emitter_cell *n = lk_emitter_cell_create();
        s = lk_emitter_cell_set_cells(leaf, &n, 1);
        lk_release(n);
        if (s != LK_OK) break;
        leaf = n;
    }
    lk_retain(leaf);   /* the deepest cell outlives the chain above it */
    lk_release(chain);
    LKT_CHECK(grown == 30000 && lk_emitter_cell_get_cell_count(leaf) == 0,
              "S8.1 a chain of 30,000 cells grown from below is released without a stack overflow",
              "%d levels built", grown);
    lk_release(leaf);
}

int main(void)
{
    check_defaults();
    check_typed_pairs();
    check_nested_key_paths();
    check_bad_input();
    check_copy();
    check_limits();
    return lkt_finish();
}
