// Box-box: the separating-axis test on the four edge normals (cw__obbs_overlap, in internal.h), and
// its manifold: the least-travel edge normal and the centroid of the overlap polygon.
#include "internal.h"

#include <math.h>

typedef struct quad {
    double x[4], y[4];
} quad;

static quad box_corners(const cw__body *box, double rx, double ry)
{
    quad q;
    for (int i = 0; i < 4; i++) // counter-clockwise in local space: (0,0) (1,0) (1,1) (0,1)
        cw__to_world(&box->xf, (i == 1 || i == 2), (i >= 2), rx, ry, &q.x[i], &q.y[i]);
    return q;
}

// Centroid of the convex overlap of two quads (each counter-clockwise or clockwise): a's quad cut
// by the inner side of each of b's edges.
static void overlap_centroid(const quad *a, const quad *b, double *cx, double *cy)
{
    double px[CW__POLYGON_MAX], py[CW__POLYGON_MAX];
    int n = 4;
    for (int i = 0; i < 4; i++)
        px[i] = a->x[i], py[i] = a->y[i];
    double orient = (b->x[1] - b->x[0]) * (b->y[2] - b->y[1]) - (b->y[1] - b->y[0]) * (b->x[2] - b->x[1]);
    double sign = orient >= 0 ? 1.0 : -1.0;
    for (int i = 0; i < 4 && n > 0; i++) {
        int k = (i + 1) % 4;
        double nx = -(b->y[k] - b->y[i]) * sign, ny = (b->x[k] - b->x[i]) * sign; // inward normal
        n = cw__clip_polygon(px, py, n, -nx, -ny, -(nx * b->x[i] + ny * b->y[i]));
    }
    cw__polygon_centroid(px, py, n, cx, cy);
}

bool cw__box_box(const cw__body *a, const cw__body *b, cw_manifold *manifold)
{
    const cw__obb oa = cw__body_obb(a), ob = cw__body_obb(b);
    if (!cw__obbs_overlap(&oa, &ob))
        return false;
    if (manifold == NULL)
        return true;
    // The normal: the edge normal along which B needs the least travel; its sign points A to B.
    const double axes[4][2] = {{a->xf.c, a->xf.s}, {-a->xf.s, a->xf.c}, {b->xf.c, b->xf.s}, {-b->xf.s, b->xf.c}};
    double best = INFINITY, nx = 1, ny = 0;
    for (int i = 0; i < 4; i++) {
        double d, depth = cw__obb_depth(&oa, &ob, axes[i][0], axes[i][1], &d);
        if (depth < best) {
            best = depth;
            nx = d >= 0 ? axes[i][0] : -axes[i][0];
            ny = d >= 0 ? axes[i][1] : -axes[i][1];
        }
    }
    double rx = a->xf.px, ry = a->xf.py, cx, cy;
    quad qa = box_corners(a, rx, ry), qb = box_corners(b, rx, ry);
    overlap_centroid(&qa, &qb, &cx, &cy);
    cw__settle_in_quads(qa.x, qa.y, qb.x, qb.y, &cx, &cy);
    manifold->point = (cw_vec2){(float)(cx + rx), (float)(cy + ry)};
    manifold->normal = (cw_vec2){(float)nx, (float)ny};
    manifold->depth = (float)best;
    return true;
}
