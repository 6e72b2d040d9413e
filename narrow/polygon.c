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
