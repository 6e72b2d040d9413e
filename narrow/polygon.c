// Small convex polygons: clipping by half-planes and centroids, for the manifold points of box-box
// overlaps and of texel pieces.
#include "internal.h"

#include <math.h>

int cw__clip_polygon(double *px, double *py, int n, double a, double b, double c)
{
    double ox[CW__POLYGON_MAX], oy[CW__POLYGON_MAX];
    int m = 0;
    for (int i = 0; i < n; i++) {
        int k = (i + 1) % n;
        double di = c - (a * px[i] + b * py[i]), dk = c - (a * px[k] + b * py[k]);
        if (di >= 0 && m < CW__POLYGON_MAX)
            ox[m] = px[i], oy[m++] = py[i];
        if ((di < 0) != (dk < 0) && m < CW__POLYGON_MAX) {
            double t = di / (di - dk);
            ox[m] = px[i] + t * (px[k] - px[i]), oy[m++] = py[i] + t * (py[k] - py[i]);
        }
    }
    for (int i = 0; i < m; i++)
        px[i] = ox[i], py[i] = oy[i];
    return m;
}

void cw__polygon_centroid(const double *px, const double *py, int n, double *x, double *y)
{
    double area = 0, sx = 0, sy = 0, mx = 0, my = 0, lo_x = INFINITY, hi_x = -INFINITY;
    for (int i = 0; i < n; i++) {
        int k = (i + 1) % n;
        double cr = px[i] * py[k] - px[k] * py[i];
        area += cr, sx += (px[i] + px[k]) * cr, sy += (py[i] + py[k]) * cr;
        mx += px[i] / n, my += py[i] / n;
        lo_x = cw__min(lo_x, px[i]), hi_x = cw__max(hi_x, px[i]);
    }
    // A sliver (or nothing) has no meaningful shoelace centroid; the mean of its points is in it.
    bool solid = n >= 3 && fabs(area) > 1e-12 * (hi_x - lo_x) * (hi_x - lo_x);
    *x = solid ? sx / (3 * area) : mx;
    *y = solid ? sy / (3 * area) : my;
}

// Whether (x, y) lies in convex quad (qx, qy) (either winding), within `slack` of each edge line
// (in the units of the cross product: edge length times distance).
static bool in_quad(const double *qx, const double *qy, double x, double y, double slack)
{
    double orient = (qx[1] - qx[0]) * (qy[2] - qy[1]) - (qy[1] - qy[0]) * (qx[2] - qx[1]);
    double sign = orient >= 0 ? 1.0 : -1.0;
    for (int i = 0; i < 4; i++) {
        int k = (i + 1) % 4;
        double cross = (qx[k] - qx[i]) * (y - qy[i]) - (qy[k] - qy[i]) * (x - qx[i]);
        if (sign * cross < -slack)
            return false;
    }
    return true;
}

void cw__settle_in_quads(const double *px, const double *py, const double *qx, const double *qy, double *x, double *y)
{
    double size = 0;
    for (int i = 0; i < 4; i++)
        size = cw__max(size, cw__max(cw__max(fabs(px[i] - px[0]), fabs(py[i] - py[0])),
                                     cw__max(fabs(qx[i] - qx[0]), fabs(qy[i] - qy[0]))));
    double slack = 1e-12 * size * size;
    if (in_quad(px, py, *x, *y, slack) && in_quad(qx, qy, *x, *y, slack))
        return;
    double sx = 0, sy = 0;
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (in_quad(qx, qy, px[i], py[i], slack))
            sx += px[i], sy += py[i], n++;
        if (in_quad(px, py, qx[i], qy[i], slack))
            sx += qx[i], sy += qy[i], n++;
    }
    if (n > 0)
        *x = sx / n, *y = sy / n;
}
