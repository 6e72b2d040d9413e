// Measuring the overlap of two masks for manifolds (narrow/mtd.c): the pieces a walk of one mask
// against the other covers (each slice's exact area shared among the texels it covers, with
// centroid sums, the boundary gradient and the piece nearest a target), samples at texel centres,
// and the exact centroid of one piece. The walk itself is narrow/masks.c's.
#include "sweep.h"

// Area of the run's region between heights y0 < y1 (the chains are linear between bends).
static double slice_area(const cw__run_shape *r, double y0, double y1)
{
    double ys[6];
    int n = 0;
    ys[n++] = y0;
    const cw__chain *sides[2] = {&r->left, &r->right};
    for (int c = 0; c < 2; c++)
        for (int k = 1; k < 3; k++)
            if (sides[c]->y[k] > y0 && sides[c]->y[k] < y1)
                ys[n++] = sides[c]->y[k];
    ys[n++] = y1;
    for (int i = 1; i < n; i++) // insertion sort of at most six heights
        for (int k = i; k > 0 && ys[k - 1] > ys[k]; k--) {
            double t = ys[k];
            ys[k] = ys[k - 1], ys[k - 1] = t;
        }
    double area = 0, prev_w = right_x(r, y0) - left_x(r, y0);
    for (int i = 1; i < n; i++) {
        double w = right_x(r, ys[i]) - left_x(r, ys[i]);
        area += 0.5 * (w + prev_w) * (ys[i] - ys[i - 1]);
        prev_w = w;
    }
    return area;
}

cw__pieces cw__pieces_empty(void)
{
    return (cw__pieces){.lo_x = INFINITY, .lo_y = INFINITY, .hi_x = -INFINITY, .hi_y = -INFINITY, .best_d2 = INFINITY};
}

// Sum of the indices of the set bits of a word.
static int index_sum(uint64_t bits)
{
    static const uint64_t place[6] = {0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull, 0xF0F0F0F0F0F0F0F0ull,
                                      0xFF00FF00FF00FF00ull, 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};
    int sum = 0;
    for (int b = 0; b < 6; b++)
        sum += cw__popcount(bits & place[b]) << b;
    return sum;
}

// What one covered texel contributes, each term to be scaled by its weight.
typedef struct texel_terms {
    double count, sum_k, grad_x, grad_y;
} texel_terms;

// Terms of the opaque texels of B's row `band` in [k0, k1), a word at a time: a texel on B's
// boundary (a transparent neighbour) is where moving B that way grows the overlap.
static texel_terms row_terms(const cw_mask *b, int band, int k0, int k1)
{
    texel_terms t = {0, 0, 0, 0};
    const uint64_t *row = cw__row(b, band);
    const uint64_t *below = band > 0 ? cw__row(b, band - 1) : NULL;
    const uint64_t *above = band + 1 < b->height ? cw__row(b, band + 1) : NULL;
    for (int w = k0 >> 6; w <= (k1 - 1) >> 6; w++) {
        uint64_t range = ~0ull;
        if (w == k0 >> 6)
            range &= ~0ull << (k0 & 63);
        if (w == (k1 - 1) >> 6)
            range &= ~0ull >> (63 - ((k1 - 1) & 63));
        uint64_t bits = row[w] & range;
        if (bits == 0)
            continue;
        int n = cw__popcount(bits);
        t.count += n;
        t.sum_k += 64.0 * w * n + index_sum(bits);
        uint64_t right = bits_at(row, b->words, 64 * w + 1), left = bits_at(row, b->words, 64 * w - 1);
        t.grad_x += cw__popcount(bits & ~right) - cw__popcount(bits & ~left);
        uint64_t up = above ? above[w] : 0, down = below ? below[w] : 0;
        t.grad_y += cw__popcount(bits & ~up) - cw__popcount(bits & ~down);
    }
    return t;
}


static void add_terms(cw__pieces *p, const texel_terms *t, double weight, double cy)
{
    p->area += weight * t->count;
    p->sum_x += weight * (t->sum_k + 0.5 * t->count);
    p->sum_y += weight * t->count * cy;
    p->grad_x += weight * t->grad_x;
    p->grad_y += weight * t->grad_y;
}

// Takes the piece if its centre (cx, cy) is nearer p's target than the best so far (the first of
// equals stays).
static void consider(cw__pieces *p, double cx, double cy, const cw__piece *piece)
{
    double dx = (cx - p->target_x) * p->metric_x, dy = (cy - p->target_y) * p->metric_y;
    double d2 = dx * dx + dy * dy;
    if (d2 < p->best_d2) {
        p->best_d2 = d2;
        p->best = *piece;
    }
}

// The pieces of one slice, B's opaque texels k0..k1-1 of row `band`: each considered, or kept.
static void each_piece(cw__sweep *sw, int band, double y0, double y1, double x_lo, double x_hi, int k0, int k1,
                       int i0, int i1, int j)
{
    cw__pieces *p = sw->pieces;
    const uint64_t *row = cw__row(sw->b, band);
    for (int k = next_set(row, k0, k1); k < k1; k = next_set(row, k + 1, k1)) {
        const double cx = 0.5 * (cw__max(x_lo, k) + cw__min(x_hi, k + 1)), cy = 0.5 * (y0 + y1);
        const cw__piece piece = {i0, i1, j, k, band};
        if (p->find_nearest)
            consider(p, cx, cy, &piece);
        if (p->spots != NULL && p->spot_count++ < p->spot_cap)
            p->spots[p->spot_count - 1] = (cw__piece_spot){cx, cy, piece};
    }
}

void cw__pieces_nearest_of(cw__pieces *p, const cw__piece_spot *spots, int count)
{
    for (int n = 0; n < count; n++)
        consider(p, spots[n].cx, spots[n].cy, &spots[n].piece);
}

// Adds B texel k of row `band`, covered over [lo, hi] of its width, with `unit` area per unit width.
static void add_texel(cw__pieces *p, const cw_mask *b, int k, int band, double lo, double hi, double unit, double cy)
{
    double w = unit * (hi - lo);
    p->area += w;
    p->sum_x += w * 0.5 * (lo + hi);
    p->sum_y += w * cy;
    p->grad_x += w * (!cw__texel(b, k + 1, band) - !cw__texel(b, k - 1, band));
    p->grad_y += w * (!cw__texel(b, k, band + 1) - !cw__texel(b, k, band - 1));
}

// Adds one slice to the accumulator: its exact area is shared among the B texels its x-range
// covers in proportion to the covered width. The two end texels, partly covered, go one by one;
// the fully covered ones between them a word at a time.
void cw__sweep_add_pieces(cw__sweep *sw, const cw__run_shape *rs, int band, double y0, double y1, double x_lo,
                          double x_hi, int k0, int k1, int i0, int i1, int j)
{
    cw__pieces *p = sw->pieces;
    const cw_mask *b = sw->b;
    double width = x_hi - x_lo, cy = 0.5 * (y0 + y1);
    double unit = width > 0 ? slice_area(rs, y0, y1) / width : 0;
    if (cw__texel(b, k0, band))
        add_texel(p, b, k0, band, cw__max(x_lo, k0), cw__min(x_hi, k0 + 1), unit, cy);
    if (k1 - 1 > k0 && cw__texel(b, k1 - 1, band))
        add_texel(p, b, k1 - 1, band, cw__max(x_lo, k1 - 1), cw__min(x_hi, k1), unit, cy);
    if (k1 - k0 > 2) {
        texel_terms inner = row_terms(b, band, k0 + 1, k1 - 1);
        add_terms(p, &inner, unit, cy);
    }
    p->lo_x = cw__min(p->lo_x, cw__max(x_lo, k0)), p->hi_x = cw__max(p->hi_x, cw__min(x_hi, k1));
    p->lo_y = cw__min(p->lo_y, y0), p->hi_y = cw__max(p->hi_y, y1);
    if (p->find_nearest || p->spots != NULL)
        each_piece(sw, band, y0, y1, x_lo, x_hi, k0, k1, i0, i1, j);
}

void cw__masks_pieces(const cw__body *walked, const cw__body *other, cw__pieces *pieces)
{
    if (walked->mask->count == 0 || other->mask->count == 0)
        return;
    cw__map m = cw__map_between(walked, other);
    cw__sweep sw;
    if (!cw__sweep_setup(&sw, walked, other, &m, pieces))
        return;
    for (int j; sw.work < CW__PIECES_WORK && cw__sweep_next_row(&sw, &j);)
        cw__sweep_row(&sw, j);
}

// Samples the overlap at the centres of `walked`'s opaque texels (every `stride`-th row and column
// of those that can reach `other`): a centre strictly inside an opaque texel of `other` lies in the
// overlap. Accumulates in walked's local space; the gradient comes from walked's boundary texels.
void cw__masks_sample(const cw__body *walked, const cw__body *other, int stride, cw__samples *out)
{
    const cw_mask *a = walked->mask, *b = other->mask;
    if (a->count == 0 || b->count == 0)
        return;
    cw__map m = cw__map_between(walked, other);
    cw__sweep sw;
    if (!cw__sweep_setup(&sw, walked, other, &m, NULL))
        return;
    for (int j = sw.j0; j < sw.j1; j += stride) {
        int i0, i1;
        if (!cw__sweep_clip_columns(&sw, j, &i0, &i1))
            continue;
        const uint64_t *row = cw__row(a, j);
        for (int i = i0 - i0 % stride; i < i1; i += stride) {
            if (i < i0 || !((row[i >> 6] >> (i & 63)) & 1u))
                continue;
            double x = i + 0.5, y = j + 0.5;
            if (!opaque_inside(other, m.ox + x * m.ux + y * m.vx, m.oy + x * m.uy + y * m.vy))
                continue;
            out->count++;
            out->sum_x += x, out->sum_y += y;
            out->grad_x += !cw__texel(a, i + 1, j) - !cw__texel(a, i - 1, j);
            out->grad_y += !cw__texel(a, i, j + 1) - !cw__texel(a, i, j - 1);
            out->lo_x = cw__min(out->lo_x, x), out->hi_x = cw__max(out->hi_x, x);
            out->lo_y = cw__min(out->lo_y, y), out->hi_y = cw__max(out->hi_y, y);
            if (out->find_nearest) {
                double dx = (x - out->target_x) * out->metric_x, dy = (y - out->target_y) * out->metric_y;
                if (dx * dx + dy * dy < out->best_d2)
                    out->best_d2 = dx * dx + dy * dy, out->best_x = x, out->best_y = y;
            }
        }
    }
}

void cw__piece_centroid(const cw__body *walked, const cw__body *other, const cw__piece *piece, double *x, double *y)
{
    const cw__map m = cw__map_between(walked, other);
    double len = piece->i1 - piece->i0;
    double cx = m.ox + piece->i0 * m.ux + piece->j * m.vx, cy = m.oy + piece->i0 * m.uy + piece->j * m.vy;
    double px[CW__POLYGON_MAX] = {cx, cx + len * m.ux, cx + len * m.ux + m.vx, cx + m.vx};
    double py[CW__POLYGON_MAX] = {cy, cy + len * m.uy, cy + len * m.uy + m.vy, cy + m.vy};
    int n = 4;
    n = cw__clip_polygon(px, py, n, 0, -1, -piece->band);   // y >= band
    n = cw__clip_polygon(px, py, n, 0, 1, piece->band + 1); // y <= band + 1
    n = cw__clip_polygon(px, py, n, -1, 0, -piece->k);      // x >= k
    n = cw__clip_polygon(px, py, n, 1, 0, piece->k + 1);    // x <= k + 1
    cw__polygon_centroid(px, py, n, x, y);
    const double run_x[4] = {cx, cx + len * m.ux, cx + len * m.ux + m.vx, cx + m.vx};
    const double run_y[4] = {cy, cy + len * m.uy, cy + len * m.uy + m.vy, cy + m.vy};
    const double texel_x[4] = {piece->k, piece->k + 1, piece->k + 1, piece->k};
    const double texel_y[4] = {piece->band, piece->band, piece->band + 1, piece->band + 1};
    cw__settle_in_quads(run_x, run_y, texel_x, texel_y, x, y);
}
