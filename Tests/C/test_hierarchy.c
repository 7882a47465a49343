/*
 * S1.3 the layer tree: add, insert at an index, above and below a sibling,
 * replace, remove; moving a layer that already has a superlayer; refusing a
 * cycle (LK_ERROR_HIERARCHY, nothing changed); the reference counting of
 * C-API.md (a superlayer retains its sublayers); and the tree's depth limit
 * (S8.1: 256 levels).
 */
#include "lktest.h"

#include <stdio.h>
#include <string.h>

/* "a,b,c": the sublayers of parent by name */
static const char *order(const lk_layer *parent)
{
    static char buf[256];
    size_t i, n = lk_layer_get_sublayer_count(parent);
    buf[0] = '\0';
    for (i = 0; i < n; i++) {
        const lk_layer *c = lk_layer_get_sublayer(parent, i);
        const char *name = c ? lk_layer_get_name(c) : NULL;
        if (i) strncat(buf, ",", sizeof buf - strlen(buf) - 1);
        strncat(buf, name ? name : "?", sizeof buf - strlen(buf) - 1);
    }
    return buf;
}

static lk_layer *named(const char *name)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_name(l, name);
    return l;
}

static void check_order(const char *check, const lk_layer *parent, const char *want)
{
    const char *got = order(parent);
    LKT_CHECK(strcmp(got, want) == 0, check, "sublayers [%s], expected [%s]", got, want);
}

static void check_building(void)
{
    lk_layer *p = named("p"), *a = named("a"), *b = named("b"), *c = named("c");
    lk_layer *d = named("d"), *e = named("e"), *f = named("f");
    lk_status s;

    LKT_CHECK(lk_layer_get_sublayer_count(p) == 0 && lk_layer_get_superlayer(a) == NULL,
              "S1.3 a new layer has no sublayers and no superlayer", "count %zu",
              lk_layer_get_sublayer_count(p));
    s = lk_layer_add_sublayer(p, a);
    LKT_CHECK(s == LK_OK && lk_layer_get_sublayer_count(p) == 1 && lk_layer_get_sublayer(p, 0) == a &&
                  lk_layer_get_superlayer(a) == p,
              "S1.3 add sublayer", "%s, count %zu, superlayer %p", lkt_status_name(s),
              lk_layer_get_sublayer_count(p), (void *)lk_layer_get_superlayer(a));
    lk_layer_add_sublayer(p, b);
    check_order("S1.3 add appends at the end", p, "a,b");

    s = lk_layer_insert_sublayer(p, c, 1);
    LKT_CHECK_STATUS("S1.3 insert at index", s, LK_OK);
    check_order("S1.3 insert at index 1", p, "a,c,b");
    lk_layer_insert_sublayer(p, d, 0);
    check_order("S1.3 insert at index 0", p, "d,a,c,b");
    lk_layer_insert_sublayer(p, e, 4);
    check_order("S1.3 insert at index count appends", p, "d,a,c,b,e");

    s = lk_layer_insert_sublayer_below(p, f, c);
    LKT_CHECK_STATUS("S1.3 insert below a sibling", s, LK_OK);
    check_order("S1.3 insert below c", p, "d,a,f,c,b,e");
    lk_layer_remove_from_superlayer(f);
    s = lk_layer_insert_sublayer_above(p, f, c);
    LKT_CHECK_STATUS("S1.3 insert above a sibling", s, LK_OK);
    check_order("S1.3 insert above c", p, "d,a,c,f,b,e");
    lk_layer_remove_from_superlayer(f);
    lk_layer_insert_sublayer_above(p, f, e);
    check_order("S1.3 insert above the last", p, "d,a,c,b,e,f");
    lk_layer_remove_from_superlayer(f);
    lk_layer_insert_sublayer_below(p, f, d);
    check_order("S1.3 insert below the first", p, "f,d,a,c,b,e");

    s = lk_layer_remove_from_superlayer(c);
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(c) == NULL, "S1.3 remove from superlayer",
              "%s, superlayer %p", lkt_status_name(s), (void *)lk_layer_get_superlayer(c));
    check_order("S1.3 remove keeps the others' order", p, "f,d,a,b,e");

    s = lk_layer_replace_sublayer(p, a, c);
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(a) == NULL && lk_layer_get_superlayer(c) == p,
              "S1.3 replace sublayer", "%s, old superlayer %p, new superlayer %p",
              lkt_status_name(s), (void *)lk_layer_get_superlayer(a),
              (void *)lk_layer_get_superlayer(c));
    check_order("S1.3 replace keeps the index", p, "f,d,c,b,e");

    /* moving within one superlayer: to the end */
    lk_layer_add_sublayer(p, f);
    check_order("S1.3 adding a sublayer again moves it to the end", p, "d,c,b,e,f");

    lk_release(p);
    lk_release(a);
    lk_release(b);
    lk_release(c);
    lk_release(d);
    lk_release(e);
    lk_release(f);
}

static void check_moving(void)
{
    lk_layer *p1 = named("p1"), *p2 = named("p2"), *x = named("x"), *y = named("y");
    lk_layer *z = named("z");
    lk_status s;

    lk_layer_add_sublayer(p1, x);
    lk_layer_add_sublayer(p1, y);
    lk_layer_set_position(x, lk_point_make(5, 6));
    s = lk_layer_add_sublayer(p2, x);
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(x) == p2, "S1.3 adding moves a layer",
              "%s, superlayer %p", lkt_status_name(s), (void *)lk_layer_get_superlayer(x));
    check_order("S1.3 moving removes it from the old superlayer", p1, "y");
    check_order("S1.3 moving adds it to the new superlayer", p2, "x");
    LKT_CHECK_POINT("S1.3 moving keeps the layer's properties", lk_layer_get_position(x),
                    lk_point_make(5, 6), 0);

    lk_layer_add_sublayer(p2, z);
    s = lk_layer_insert_sublayer(p1, z, 0);
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(z) == p1, "S1.3 insert moves a layer",
              "%s", lkt_status_name(s));
    check_order("S1.3 insert moved z into p1", p1, "z,y");
    check_order("S1.3 insert moved z out of p2", p2, "x");
    s = lk_layer_insert_sublayer_above(p2, y, x);
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(y) == p2,
              "S1.3 insert above moves a layer", "%s", lkt_status_name(s));
    check_order("S1.3 insert above moved y", p2, "x,y");
    check_order("S1.3 insert above moved y out of p1", p1, "z");
    s = lk_layer_replace_sublayer(p1, z, x);
    check_order("S1.3 replace with a layer of another superlayer moves it", p1, "x");
    check_order("S1.3 replace took x out of p2", p2, "y");
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(z) == NULL, "S1.3 replaced layer is detached",
              "%s, superlayer %p", lkt_status_name(s), (void *)lk_layer_get_superlayer(z));

    lk_release(p1);
    lk_release(p2);
    lk_release(x);
    lk_release(y);
    lk_release(z);
}

static void check_refused(void)
{
    lk_layer *p = named("p"), *c = named("c"), *g = named("g"), *q = named("q");
    lk_layer *stranger = named("s"), *m = named("m"), *host = named("host");
    lk_status s;

    lk_layer_add_sublayer(p, c);
    lk_layer_add_sublayer(c, g);
    lk_layer_add_sublayer(p, q);

    lkt_error_mark();
    s = lk_layer_add_sublayer(p, p);
    LKT_CHECK_ERROR("S1.3 adding a layer to itself is refused", s, LK_ERROR_HIERARCHY, NULL);
    lkt_error_mark();
    s = lk_layer_add_sublayer(c, p);
    LKT_CHECK_ERROR("S1.3 adding a layer to its child is refused", s, LK_ERROR_HIERARCHY, NULL);
    lkt_error_mark();
    s = lk_layer_add_sublayer(g, p);
    LKT_CHECK_ERROR("S1.3 adding a layer to its grandchild is refused", s, LK_ERROR_HIERARCHY, NULL);
    lkt_error_mark();
    s = lk_layer_insert_sublayer(g, c, 0);
    LKT_CHECK_ERROR("S1.3 inserting a layer into its child is refused", s, LK_ERROR_HIERARCHY, NULL);
    lkt_error_mark();
    s = lk_layer_insert_sublayer_above(c, p, g);
    LKT_CHECK_ERROR("S1.3 inserting a layer above its grandchild is refused", s,
                    LK_ERROR_HIERARCHY, NULL);
    lkt_error_mark();
    s = lk_layer_replace_sublayer(c, g, p);
    LKT_CHECK_ERROR("S1.3 replacing with an ancestor is refused", s, LK_ERROR_HIERARCHY, NULL);
    LKT_CHECK(lk_layer_get_superlayer(p) == NULL && lk_layer_get_superlayer(c) == p &&
                  lk_layer_get_superlayer(g) == c && lk_layer_get_superlayer(q) == p,
              "S1.3 refused cycles change nothing (superlayers)",
              "superlayers: p %p c %p g %p q %p", (void *)lk_layer_get_superlayer(p),
              (void *)lk_layer_get_superlayer(c), (void *)lk_layer_get_superlayer(g),
              (void *)lk_layer_get_superlayer(q));
    check_order("S1.3 refused cycles change nothing (p)", p, "c,q");
    check_order("S1.3 refused cycles change nothing (c)", c, "g");
    check_order("S1.3 refused cycles change nothing (g)", g, "");

    /* siblings that are not sublayers */
    lkt_error_mark();
    s = lk_layer_insert_sublayer_below(p, stranger, g);
    LKT_CHECK_ERROR("S1.3 insert below a layer that is not a sublayer is refused", s,
                    LK_ERROR_HIERARCHY, NULL);
    lkt_error_mark();
    s = lk_layer_insert_sublayer_above(p, stranger, stranger);
    LKT_CHECK(s != LK_OK, "S1.3 insert above itself (not a sublayer) is refused", "got %s",
              lkt_status_name(s));
    lkt_error_mark();
    s = lk_layer_replace_sublayer(p, g, stranger);
    LKT_CHECK_ERROR("S1.3 replacing a layer that is not a sublayer is refused", s,
                    LK_ERROR_HIERARCHY, NULL);
    LKT_CHECK(lk_layer_get_superlayer(stranger) == NULL && lk_layer_get_superlayer(g) == c,
              "S1.3 refused inserts and replaces change nothing", "stranger's superlayer %p",
              (void *)lk_layer_get_superlayer(stranger));
    check_order("S1.3 refused inserts and replaces keep the order", p, "c,q");

    /* index out of range */
    lkt_error_mark();
    s = lk_layer_insert_sublayer(p, stranger, 3);
    LKT_CHECK_ERROR("S8.1 insert at an index past the end is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "index");
    check_order("S8.1 insert past the end changes nothing", p, "c,q");
    lkt_error_mark();
    LKT_CHECK(lk_layer_get_sublayer(p, 2) == NULL, "S8.1 sublayer index past the end is NULL",
              "got a layer");
    LKT_CHECK_ERROR_MESSAGE("S8.1 sublayer index past the end sets the message", "index");

    /* masks have no superlayer (layerkit.h) */
    lk_layer_set_mask(host, m);
    lkt_error_mark();
    s = lk_layer_add_sublayer(p, m);
    LKT_CHECK(s != LK_OK && lkt_error_since_mark() && lk_layer_get_superlayer(m) == NULL &&
                  lk_layer_get_mask(host) == m,
              "S1.3 a mask cannot become a sublayer", "%s, superlayer %p", lkt_status_name(s),
              (void *)lk_layer_get_superlayer(m));
    lkt_error_mark();
    s = lk_layer_set_mask(stranger, c);
    LKT_CHECK(s != LK_OK && lkt_error_since_mark() && lk_layer_get_mask(stranger) == NULL &&
                  lk_layer_get_superlayer(c) == p,
              "S1.3 a layer with a superlayer cannot become a mask", "%s", lkt_status_name(s));
    lkt_error_mark();
    s = lk_layer_set_mask(stranger, m);
    LKT_CHECK(s != LK_OK && lkt_error_since_mark() && lk_layer_get_mask(stranger) == NULL &&
                  lk_layer_get_mask(host) == m,
              "S1.3 a layer cannot be the mask of two layers", "%s", lkt_status_name(s));
    lkt_error_mark();
    s = lk_layer_set_mask(host, host);
    LKT_CHECK(s != LK_OK && lk_layer_get_mask(host) == m, "S1.3 a layer cannot be its own mask",
              "%s", lkt_status_name(s));

    /* removing a layer that has no superlayer: nothing to do */
    s = lk_layer_remove_from_superlayer(stranger);
    LKT_CHECK((s == LK_OK || s == LK_ERROR_HIERARCHY) && lk_layer_get_superlayer(stranger) == NULL,
              "S1.3 removing a layer without superlayer changes nothing", "%s",
              lkt_status_name(s));

    lk_release(p);
    lk_release(c);
    lk_release(g);
    lk_release(q);
    lk_release(stranger);
    lk_release(m);
    lk_release(host);
}

static void check_reference_counting(void)
{
    lk_layer *p = named("p"), *c = named("kept"), *g = named("grandchild");
    lk_layer *r;

    lk_layer_add_sublayer(p, c);
    lk_layer_add_sublayer(c, g);
    lk_release(g);
    lk_release(c); /* the superlayer keeps them */
    c = lk_layer_get_sublayer(p, 0);
    LKT_CHECK(c != NULL && lk_layer_get_name(c) && strcmp(lk_layer_get_name(c), "kept") == 0 &&
                  lk_layer_get_superlayer(c) == p,
              "C-API a released sublayer stays alive while its superlayer holds it",
              "sublayer %p", (void *)c);
    g = c ? lk_layer_get_sublayer(c, 0) : NULL;
    LKT_CHECK(g != NULL && lk_layer_get_name(g) && strcmp(lk_layer_get_name(g), "grandchild") == 0,
              "C-API a released grandchild stays alive", "grandchild %p", (void *)g);

    /* removing it from its superlayer would drop the last reference: take one first */
    r = (lk_layer *)lk_retain(c);
    LKT_CHECK(r == c, "C-API lk_retain returns its argument", "got %p for %p", (void *)r, (void *)c);
    lk_layer_remove_from_superlayer(c);
    LKT_CHECK(lk_layer_get_sublayer_count(p) == 0 && lk_layer_get_name(c) &&
                  strcmp(lk_layer_get_name(c), "kept") == 0 && lk_layer_get_sublayer_count(c) == 1,
              "C-API a retained layer survives removal with its sublayers", "count %zu",
              lk_layer_get_sublayer_count(p));
    lk_release(c);
    lk_release(p);
}

/* The superlayer link is not a reference: when the last reference to a
   superlayer goes, its sublayers are detached, not left pointing at it. */
static void check_superlayer_released(void)
{
    lk_layer *p = named("p"), *c = named("c"), *host = named("host"), *m = named("m");
    lk_layer *other = named("other");
    lk_status s;

    lk_layer_add_sublayer(p, c);
    lk_release(p); /* the last reference to p */
    LKT_CHECK(lk_layer_get_superlayer(c) == NULL,
              "C-API releasing the last reference to a superlayer detaches its sublayers",
              "superlayer still %p", (void *)lk_layer_get_superlayer(c));
    s = lk_layer_add_sublayer(other, c);
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(c) == other,
              "C-API the detached sublayer can join another tree", "%s", lkt_status_name(s));

    lk_layer_set_mask(host, m);
    lk_layer_set_mask(host, NULL);
    s = lk_layer_add_sublayer(other, m);
    LKT_CHECK(s == LK_OK, "S1.3 a mask removed from its layer can become a sublayer", "%s: %s",
              lkt_status_name(s), lk_last_error());
    lk_layer_remove_from_superlayer(m);
    lk_layer_set_mask(host, m);
    lk_release(host); /* the last reference to the masked layer */
    s = lk_layer_add_sublayer(other, m);
    LKT_CHECK(s == LK_OK, "S1.3 the mask of a released layer can become a sublayer", "%s: %s",
              lkt_status_name(s), lk_last_error());
    lk_release(c);
    lk_release(m);
    lk_release(other);
}

/* S1.3, S5.1: a layer that was a mask and then became its former owner's
   superlayer. The committed copy once kept the mask's link to its owner,
   so the owner's timing chain (owner -> former mask -> owner ...) was a
   cycle: the presentation value an implicit animation starts from
   recursed until the stack overflowed. */
static void check_former_mask_as_superlayer(void)
{
    lk_layer *x = named("x"), *m = named("m"), *p = NULL;
    lk_status s1, s2, s3;
    lk_point at;

    lk_layer_set_mask(x, m);
    lk_transaction_flush();
    lk_layer_set_mask(x, NULL);
    lk_transaction_flush();
    s1 = lk_layer_add_sublayer(m, x);
    lk_transaction_flush();
    s2 = lk_layer_set_position(x, lk_point_make(10, 10));   /* an implicit animation */
    lk_transaction_flush();
    s3 = lk_layer_set_position(x, lk_point_make(20, 20));   /* from its presentation value */
    lk_transaction_flush();
    p = lk_layer_copy_presentation(x);
    at = p ? lk_layer_get_position(p) : lk_point_make(-1, -1);
    LKT_CHECK(s1 == LK_OK && s2 == LK_OK && s3 == LK_OK && p != NULL && at.x >= 0 && at.x <= 20,
              "S1.3 a former mask can become its owner's superlayer, and the owner animates",
              "%s %s %s, presentation position %s", lkt_status_name(s1), lkt_status_name(s2),
              lkt_status_name(s3), lkt_fmt_point(at));
    if (p) lk_release(p);
    lk_release(x);
    lk_release(m);
}

/* S1.3, S3.3: a layer's implicit "mask" animation holds no layer. Outside
   any display animations never end, so one that held its layer's new mask
   (its toValue) or the one before (its start) kept that layer alive; with
   the animated layer then a sublayer of that mask, neither was ever freed
   (found by the random call sequences). `committed_mask`: the mask was
   drawn on a display before the layers left it, so the animation that
   takes it off starts from it. */
static void check_mask_animation_holds_no_layer(bool committed_mask)
{
    lk_layer *root = named("root"), *a = named("a"), *m = named("m");
    lk_display *d = lkt_open_display(32, 32, "open a display for the mask animations");
    if (!d) return;
    lk_layer_add_sublayer(root, a);
    lk_layer_add_sublayer(root, m);
    lk_display_set_root_layer(d, root);
    lk_display_render_frame_at(d, lk_media_time());   /* committed once: changes animate */
    if (committed_mask) {
        lk_layer_remove_from_superlayer(m);
        lk_layer_set_mask(a, m);
        lk_display_render_frame_at(d, lk_media_time() + 10);
        lk_layer_remove_from_superlayer(a);
        lk_display_render_frame_at(d, lk_media_time() + 20);
        lk_layer_set_mask(a, NULL);   /* animates from m, out of any display */
        lk_transaction_flush();
    } else {
        lk_layer_remove_from_superlayer(a);
        lk_layer_remove_from_superlayer(m);
        lk_display_render_frame_at(d, lk_media_time());
        lk_layer_set_mask(a, m);      /* animates to m, out of any display */
        lk_transaction_flush();
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_layer_set_mask(a, NULL);
        lk_transaction_commit();
    }
    lk_status added = lk_layer_add_sublayer(m, a);
    lk_transaction_flush();
    lk_release(a);
    lk_release(m);
    lk_transaction_flush();
    lk_display_close(d);
    lk_release(root);
    int alive = 0;
    lk_layer *old[2] = { a, m };
    for (int i = 0; i < 2; i++) {
        void *again = lk_retain(old[i]);
        if (again) { alive++; lk_release(again); }
    }
    LKT_CHECK(added == LK_OK && alive == 0,
              committed_mask ? "S1.3 a layer animated off its mask, then under it, is freed with it when let go"
                             : "S1.3 a layer animated onto its mask, then under it, is freed with it when let go",
              "add %s, %d still alive", lkt_status_name(added), alive);
}

/* S1.3, S5.1: a presentation copy of a masked layer shows (a copy of) the mask; letting
   the copy go leaves the mask its owner's (it once cleared the mask's owner,
   so the mask could then join a tree as well, and the committed copy's
   links formed a cycle). */
static void check_presentation_copy_keeps_mask(void)
{
    lk_layer *x = named("x"), *m = named("m"), *other = named("other"), *p;
    lk_status s;

    lk_layer_set_mask(x, m);
    lk_transaction_flush();
    p = lk_layer_copy_presentation(x);
    LKT_CHECK(p != NULL && lk_layer_get_mask(p) != NULL && lk_layer_get_mask(p) != m &&
                  lk_layer_get_model_layer(lk_layer_get_mask(p)) == m,
              "S5.1 a presentation copy shows the presentation of the layer's mask", "copy %p, mask %p", (void *)p,
              p ? (void *)lk_layer_get_mask(p) : NULL);
    if (p) lk_release(p);
    lkt_error_mark();
    s = lk_layer_add_sublayer(other, m);
    LKT_CHECK(s != LK_OK && lkt_error_since_mark() && lk_layer_get_mask(x) == m && lk_layer_get_superlayer(m) == NULL,
              "S1.3 after a presentation copy is released the mask is still its layer's and cannot join a tree",
              "%s, mask %p, superlayer %p", lkt_status_name(s), (void *)lk_layer_get_mask(x),
              (void *)lk_layer_get_superlayer(m));
    lk_release(x);
    lk_release(m);
    lk_release(other);
}

/* S1.3, S8.1: the "mask" action's search asks the delegate, whose callback
   may set the mask again. The mask's owner follows what the layer has in
   the end: the mask it replaced is free to join a tree, the one it has
   cannot (a stale owner let a later change close a cycle through the
   masks, and the committed tree's copy recursed until the stack ran out). */
static lk_layer *mask_in_callback;
static int mask_callbacks;
static lk_action *remasking_action(lk_layer *layer, const char *event, void *user_data)
{
    (void)user_data;
    /* asked twice: for the first change, then for the one made here */
    if (strcmp(event, "mask") == 0 && mask_callbacks++ == 0) lk_layer_set_mask(layer, mask_in_callback);
    return NULL;
}

static void check_mask_set_again_in_callback(void)
{
    lk_layer *x = named("x"), *b = named("b"), *c = named("c"), *tree = named("tree");
    lk_layer_delegate d;
    lk_status joined_b, joined_c;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.action_for_key = remasking_action;
    lk_layer_set_delegate(x, &d, NULL, NULL);
    lk_transaction_flush();   /* committed: its changes search for actions (S3.1) */

    /* x's mask set to b, and in the callback to c */
    mask_in_callback = c;
    mask_callbacks = 0;
    lk_layer_set_mask(x, b);
    joined_b = lk_layer_add_sublayer(tree, b);
    joined_c = lk_layer_add_sublayer(tree, c);
    LKT_CHECK(mask_callbacks == 2 && lk_layer_get_mask(x) == c && joined_b == LK_OK && joined_c != LK_OK,
              "S1.3 a mask replaced in the action's callback is free again; the one set there is the mask",
              "mask %s, adding b %s, adding c %s", lk_layer_get_mask(x) == c ? "c" : "not c",
              lkt_status_name(joined_b), lkt_status_name(joined_c));
    lk_layer_remove_from_superlayer(b);

    /* x's mask removed, and in the callback set back to c */
    mask_callbacks = 0;
    lk_layer_set_mask(x, NULL);
    joined_c = lk_layer_add_sublayer(tree, c);
    LKT_CHECK(mask_callbacks == 2 && lk_layer_get_mask(x) == c && joined_c != LK_OK && lk_layer_get_superlayer(c) == NULL,
              "S1.3 a mask set back in the action's callback stays the mask and cannot join a tree",
              "mask %s, adding c %s", lk_layer_get_mask(x) == c ? "c" : "not c", lkt_status_name(joined_c));
    lk_transaction_flush();
    lk_layer_set_delegate(x, NULL, NULL, NULL);
    lk_release(x);
    lk_release(b);
    lk_release(c);
    lk_release(tree);
}

static void check_many(void)
{
    lk_layer *p = lk_layer_create();
    lk_layer *kids[100];
    size_t i;
    int ok = 1;
    for (i = 0; i < 100; i++) {
        kids[i] = lk_layer_create();
        lk_layer_add_sublayer(p, kids[i]);
    }
    for (i = 0; i < 100; i++)
        if (lk_layer_get_sublayer(p, i) != kids[i]) ok = 0;
    LKT_CHECK(ok && lk_layer_get_sublayer_count(p) == 100, "S1.3 a hundred sublayers in order",
              "count %zu", lk_layer_get_sublayer_count(p));
    for (i = 0; i < 100; i += 2) lk_layer_remove_from_superlayer(kids[i]);
    ok = 1;
    for (i = 0; i < 50; i++)
        if (lk_layer_get_sublayer(p, i) != kids[2 * i + 1]) ok = 0;
    LKT_CHECK(ok && lk_layer_get_sublayer_count(p) == 50, "S1.3 removing every other one",
              "count %zu", lk_layer_get_sublayer_count(p));
    for (i = 0; i < 100; i++) lk_release(kids[i]);
    lk_release(p);
}

/* A chain of n nested layers under a new root; *leaf is the deepest. */
static lk_layer *chain(int n, lk_layer **leaf)
{
    lk_layer *root = lk_layer_create(), *p = root;
    int i;
    for (i = 1; i < n; i++) {
        lk_layer *c = lk_layer_create();
        lk_layer_set_frame(c, lk_rect_make(0.25, 0, 8, 8));
        lk_layer_set_background_color(c, lk_color_make(1, 0, 0, 0.02));
        lk_layer_add_sublayer(p, c);
        lk_release(c);
        p = c;
    }
    *leaf = p;
    return root;
}

/* S8.1: a tree is at most 256 layers deep. Drawing, committing, hit
   testing and releasing a tree recurse once a level: a chain of 1,000
   nested layers crashed drawing it (a stack overflow on an 8 MB stack).
   The layer that would go deeper is refused (LK_ERROR_HIERARCHY naming the
   argument, nothing changed), as a sublayer, a subtree or a mask; a tree
   of the full depth is drawn and hit tested. */
static void check_depth(void)
{
    lk_layer *leaf, *other_leaf, *extra = named("extra");
    lk_layer *root = chain(256, &leaf);
    lk_status s;
    lkt_error_mark();
    s = lk_layer_add_sublayer(leaf, extra);
    LKT_CHECK_ERROR("S8.1 a 257th level is refused", s, LK_ERROR_HIERARCHY, "256 layers deep");
    LKT_CHECK(strstr(lk_last_error(), "level 257") != NULL && strstr(lk_last_error(), "0 levels") == NULL,
              "S8.1 ... naming the level it would be at (not \"its own tree is more than 0 levels deep\")", "%s",
              lk_last_error());
    LKT_CHECK(lk_layer_get_superlayer(extra) == NULL && lk_layer_get_sublayer_count(leaf) == 0,
              "S8.1 the refused add changes nothing", "extra's superlayer %p", (void *)lk_layer_get_superlayer(extra));
    lkt_error_mark();
    s = lk_layer_set_mask(leaf, extra);
    LKT_CHECK_ERROR("S8.1 a mask one level too deep is refused", s, LK_ERROR_HIERARCHY, "mask");
    LKT_CHECK(lk_layer_get_mask(leaf) == NULL, "S8.1 the refused mask changes nothing", "mask %p",
              (void *)lk_layer_get_mask(leaf));
    lk_layer *parent = lk_layer_get_superlayer(leaf);
    lk_retain(leaf);
    lk_layer_remove_from_superlayer(leaf);
    s = lk_layer_add_sublayer(leaf, extra);
    LKT_CHECK_STATUS("S8.1 a layer at level 255 takes a sublayer", s, LK_OK);
    lkt_error_mark();
    s = lk_layer_add_sublayer(parent, leaf);
    LKT_CHECK_ERROR("S8.1 a subtree that would go too deep is refused, naming child", s, LK_ERROR_HIERARCHY, "child");
    lk_layer_remove_from_superlayer(extra);
    s = lk_layer_add_sublayer(parent, leaf);
    LKT_CHECK_STATUS("S8.1 the same subtree without its sublayer fits", s, LK_OK);
    lk_release(leaf);

    lk_layer *other = chain(200, &other_leaf), *level100 = root;
    int i;
    for (i = 1; i < 100; i++) level100 = lk_layer_get_sublayer(level100, 0);
    lkt_error_mark();
    s = lk_layer_add_sublayer(level100, other);
    LKT_CHECK_ERROR("S8.1 a chain of 200 under level 100 is refused (300 levels)", s, LK_ERROR_HIERARCHY, "child");
    s = lk_layer_add_sublayer(lk_layer_get_sublayer(root, 0), other);
    LKT_CHECK(s == LK_OK && lk_layer_get_superlayer(other) == lk_layer_get_sublayer(root, 0),
              "S8.1 the same chain under level 2 fits (202 levels)", "%s", lkt_status_name(s));
    lk_release(other);

    lk_display *display = lkt_open_display(32, 24, "a display for the deep tree");
    if (display) {
        lk_layer_set_frame(root, lk_rect_make(0, 0, 32, 24));
        lk_display_set_root_layer(display, root);
        lk_transaction_flush();
        s = lk_display_render_frame_at(display, lk_media_time());
        LKT_CHECK_STATUS("S8.1 a tree 256 layers deep is drawn", s, LK_OK);
        lk_layer *hit = lk_layer_hit_test(root, lk_point_make(1, 1));
        LKT_CHECK(hit != NULL, "S8.1 and hit tested", "no layer hit");
        lk_display_close(display);
    }
    lk_release(extra);
    lk_release(root);
}

/* S8.1: a presentation copy passed to add_sublayer is refused naming the
   argument it was passed as, parent or child (both said "layer"). */
static void check_presentation_argument_names(void)
{
    lk_display *d = lkt_open_display(16, 16, "open a display");
    if (!d) return;
    lk_layer *root = lk_layer_create(), *x = lk_layer_create();
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();
    lk_display_render_frame_at(d, lk_media_time());
    lk_layer *p = lk_layer_copy_presentation(root);
    if (p) {
        lkt_error_mark();
        LKT_CHECK_ERROR("S5.1 S8.1 a presentation layer as the child is refused, naming child",
                        lk_layer_add_sublayer(x, p), LK_ERROR_STATE, "child");
        lkt_error_mark();
        LKT_CHECK_ERROR("S5.1 S8.1 a presentation layer as the parent is refused, naming parent",
                        lk_layer_add_sublayer(p, x), LK_ERROR_STATE, "parent");
        lk_release(p);
    } else {
        LKT_CHECK(0, "S5.1 a committed root has a presentation", "%s", lk_last_error());
    }
    lk_release(x);
    lk_release(root);
    lk_display_close(d);
}

int main(void)
{
    check_building();
    check_moving();
    check_refused();
    check_reference_counting();
    check_superlayer_released();
    check_former_mask_as_superlayer();
    check_mask_animation_holds_no_layer(false);
    check_mask_animation_holds_no_layer(true);
    check_presentation_copy_keeps_mask();
    check_mask_set_again_in_callback();
    check_many();
    check_depth();
    check_presentation_argument_names();
    return lkt_finish();
}
