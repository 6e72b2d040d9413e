// Box-box: the separating-axis test on the four edge normals, in double, relative to box A.
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

// A box as its centre (relative to a reference point) and its two half edges, in world units.
typedef struct obb {
    double cx, cy, ux, uy, vx, vy;
} obb;

static obb box_obb(const cw__body *box, double rx, double ry)
{
    obb o;
    cw__to_world(&box->xf, 0.5, 0.5, rx, ry, &o.cx, &o.cy);
    o.ux = 0.5 * box->xf.c * box->xf.sx, o.uy = 0.5 * box->xf.s * box->xf.sx;
    o.vx = -0.5 * box->xf.s * box->xf.sy, o.vy = 0.5 * box->xf.c * box->xf.sy;
    return o;
}

// Half the extent of a box's projection on unit axis (nx, ny).
static double radius(const obb *o, double nx, double ny)
{
    return fabs(nx * o->ux + ny * o->uy) + fabs(nx * o->vx + ny * o->vy);
}

bool cw__box_box(const cw__body *a, const cw__body *b, cw_manifold *manifold)
{
    double rx = a->xf.px, ry = a->xf.py;
    obb oa = box_obb(a, rx, ry), ob = box_obb(b, rx, ry);
    // 1e-6 local units of the box with the smaller scale (its size is not its unit).
    double tolerance = cw__min(cw__min(fabs(a->xf.sx) * a->eps_x, fabs(a->xf.sy) * a->eps_y),
                               cw__min(fabs(b->xf.sx) * b->eps_x, fabs(b->xf.sy) * b->eps_y));
    const double axes[4][2] = {{a->xf.c, a->xf.s}, {-a->xf.s, a->xf.c}, {b->xf.c, b->xf.s}, {-b->xf.s, b->xf.c}};
    double best = INFINITY, nx = 1, ny = 0;
    for (int i = 0; i < 4; i++) {
        // Overlap of the projections: pushing B along +axis needs rA + rB - d, along -axis rA + rB + d.
        double d = axes[i][0] * (ob.cx - oa.cx) + axes[i][1] * (ob.cy - oa.cy);
        double depth = radius(&oa, axes[i][0], axes[i][1]) + radius(&ob, axes[i][0], axes[i][1]) - fabs(d);
        if (depth <= tolerance)
            return false;
        if (depth < best) {
            best = depth;
            double sign = d >= 0 ? 1.0 : -1.0;
            nx = axes[i][0] * sign;
            ny = axes[i][1] * sign;
        }
    }
    if (manifold != NULL) {
        quad qa = box_corners(a, rx, ry), qb = box_corners(b, rx, ry);
        double cx, cy;
        overlap_centroid(&qa, &qb, &cx, &cy);
        manifold->point = (cw_vec2){(float)(cx + rx), (float)(cy + ry)};
        manifold->normal = (cw_vec2){(float)nx, (float)ny};
        manifold->depth = (float)best;
    }
    return true;
}
