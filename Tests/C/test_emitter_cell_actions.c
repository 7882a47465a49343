/*
 * S3 actions and S7.4 cell key paths: setting a cell's property through the
 * layer ("emitterCells.snow.birthRate") runs no action, as in Core
 * Animation, where a cell is not a layer (CAEmitterCell has no actions,
 * delegate or actionForKey:) and the layer's own properties are not what
 * changed. No action search is made (neither the delegate nor the layer's
 * actions are asked), no animation is added, and the new value is presented
 * at once. The layer's own properties (the birthRate multiplier) still
 * animate implicitly in the same transaction, so actions are on.
 */
#include "lktest.h"

#include <stdio.h>
#include <string.h>

static int asked_cell, asked_layer, ran;

static lk_action *action_for_key(lk_layer *layer, const char *event, void *user_data)
{
    (void)layer;
    (void)user_data;
    if (strncmp(event, "emitterCells", 12) == 0) asked_cell++;
    if (strcmp(event, "birthRate") == 0) asked_layer++;
    return NULL;
}

static void run_action(const char *event, lk_layer *layer, void *user_data)
{
    (void)event;
    (void)layer;
    (void)user_data;
    ran++;
}

static int has_animation(lk_layer *layer, const char *key)
{
    const char *keys[16];
    size_t n = lk_layer_get_animation_keys(layer, keys, 16), i;
    for (i = 0; i < n && i < 16; i++)
        if (strcmp(keys[i], key) == 0) return 1;
    return 0;
}

static double presented_number(lk_layer *layer, const char *key_path)
{
    lk_layer *p = lk_layer_copy_presentation(layer);
    lk_value v;
    double n = -1;
    if (p && lk_layer_get_value(p, key_path, &v) == LK_OK && v.type == LK_VALUE_NUMBER) n = v.as.number;
    if (p) lk_release(p);
    return n;
}

int main(void)
{
    lk_display *d = lkt_open_display(64, 64, "S7.4 cell key paths run no action");
    lk_layer *root, *e;
    lk_emitter_cell *cell;
    lk_layer_delegate delegate;
    lk_action *custom;
    lk_value v = lk_value_none();
    if (!d) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, 64, 64));
    e = lk_emitter_layer_create();
    lk_layer_set_frame(e, lk_rect_make(0, 0, 64, 64));
    cell = lk_emitter_cell_create();
    lk_emitter_cell_set_name(cell, "snow");
    lk_emitter_cell_set_birth_rate(cell, 10);
    lk_emitter_layer_set_cells(e, &cell, 1);
    lk_layer_add_sublayer(root, e);
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();

    memset(&delegate, 0, sizeof delegate);
    delegate.struct_size = sizeof delegate;
    delegate.action_for_key = action_for_key;
    lk_layer_set_delegate(e, &delegate, NULL, NULL);
    custom = lk_action_create(run_action, NULL, NULL);
    lk_layer_set_action(e, "emitterCells.snow.birthRate", custom);
    lk_release(custom);

    lk_transaction_begin();
    LKT_CHECK(!lk_transaction_get_disable_actions(), "S3 actions are enabled in the test's transaction", "disabled");
    LKT_CHECK_STATUS("S7.4 S1.6 the cell's birthRate is set through the layer",
                     lk_layer_set_value(e, "emitterCells.snow.birthRate", lk_value_number(0)), LK_OK);
    LKT_CHECK_STATUS("S7.4 S1.6 and the layer's own birthRate multiplier", lk_emitter_layer_set_birth_rate(e, 2), LK_OK);
    LKT_CHECK_STATUS("S2 the transaction commits", lk_transaction_commit(), LK_OK);

    LKT_CHECK(asked_cell == 0, "S3 S7.4 no action search for a cell key path: the delegate is not asked",
              "asked %d times", asked_cell);
    LKT_CHECK(ran == 0, "S3 S7.4 an action set on the layer under the cell key path does not run", "ran %d times", ran);
    LKT_CHECK(!has_animation(e, "emitterCells.snow.birthRate"),
              "S3 S7.4 no implicit animation is added for a cell key path", "an animation was added");
    LKT_CHECK(lk_layer_get_value(e, "emitterCells.snow.birthRate", &v) == LK_OK && v.type == LK_VALUE_NUMBER &&
                  v.as.number == 0,
              "S7.4 the cell's model value is the new one", "got %g", v.as.number);
    LKT_CHECK_NEAR("S5.1 S7.4 the cell's new value is presented at once", presented_number(e, "emitterCells.snow.birthRate"),
                   0, 0);
    LKT_CHECK(lk_emitter_cell_get_birth_rate(cell) == 0, "S7.4 the cell object itself holds the new value", "%g",
              lk_emitter_cell_get_birth_rate(cell));
    /* the contrast: the layer's own animatable property, in the same
       transaction, searched and implicitly animated */
    LKT_CHECK(asked_layer == 1, "S3.1 the layer's own birthRate is searched for an action", "asked %d times",
              asked_layer);
    LKT_CHECK(has_animation(e, "birthRate"), "S3.3 S7.4 the layer's birthRate multiplier animates implicitly",
              "no animation under \"birthRate\"");

    lk_release(cell);
    lk_release(root);
    lk_release(e);
    lk_display_close(d);
    return lkt_finish();
}
