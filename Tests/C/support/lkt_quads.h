/* Projected quads for the 3D rendering tests (cairo has no projective
   transform): each layer's rect is projected with the same 4x4 row-vector
   arithmetic the API documents, and every pixel whose centre is at least
   1.5 px inside or outside the projected quads is checked against the lkt_quad
   drawn last over it (channels within 3). Used by test_render_3d.c and
   test_transform_layer.c. */
#ifndef LKT_QUADS_H
#define LKT_QUADS_H

#include "lktest.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lkt_quad {
    double x[4], y[4];
    int rgb[3];
} lkt_quad;

#define LKT_MAX_QUADS 16

typedef struct lkt_expectation {
    int background[3];
    int count;
    lkt_quad quads[LKT_MAX_QUADS]; /* in drawing order */
} lkt_expectation;

/* a channel 0..1 as the 8-bit value the backends round it to */
int lkt_quads_to8(double c);
lk_transform3d lkt_quads_layer_matrix(lk_rect bounds, lk_point anchor, lk_point position, lk_transform3d transform);
lk_transform3d lkt_quads_sublayer_matrix(lk_rect bounds, lk_point anchor, lk_transform3d sub);
void lkt_quads_add_quad(lkt_expectation *e, lk_transform3d m, lk_rect b, lk_color c);
double lkt_quads_inside_margin(const lkt_quad *q, double px, double py);
void lkt_check_quads(const char *name, const char *file_stem, const uint8_t *px, uint32_t w, uint32_t h, const lkt_expectation *e);

#ifdef __cplusplus
}
#endif

#endif
