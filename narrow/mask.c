// Mask creation and the data the narrowphase precomputes once per mask.
#include "internal.h"

#include <limits.h>
#include <string.h>

// Never written: the pointers are not const only because built masks fill the same fields.
static int32_t unit_spans[2] = {0, 1};
static int32_t unit_hull[8] = {0, 0, 1, 0, 1, 1, 0, 1};
static uint64_t unit_bits[1 + CW__ROW_PAD] = {1};

const cw_mask cw__unit_mask = {
    .width = 1, .height = 1, .words = 1, .count = 1, .runs = 1,
    .x0 = 0, .y0 = 0, .x1 = 1, .y1 = 1,
    .box = {0, 0, 1, 1},
    .dop = {0, 1, 0, 1, 0, 2, -1, 1},
    .spans = unit_spans,
    .hull = unit_hull,
    .hull_count = 4,
    .outline = {0, 0, 1, 0, 1, 1, 0, 1},
    .outline_count = 4,
    .hash = 0x9e3779b97f4a7c15ull,
    .bits = unit_bits,
    .mirrored = unit_bits,
};

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

// Checks the arguments shared by both constructors; `bpp` is bytes per pixel.
static bool check_source(const void *pixels, int width, int height, int pitch, int bpp)
{
    if (pixels == NULL) {
        cw__fail("The pixel pointer is NULL.");
        return false;
    }
    if (width <= 0 || height <= 0) {
        cw__fail("Mask width and height must be at least 1.");
        return false;
    }
    if (width > CW_MASK_MAX_SIZE || height > CW_MASK_MAX_SIZE) {
        cw__fail("Mask width or height exceeds CW_MASK_MAX_SIZE.");
        return false;
    }
    if (pitch < width * bpp) {
        cw__fail("The pitch is smaller than one row of pixels.");
        return false;
    }
    // Image sizes are ints (as in SDL): an image whose byte count does not fit one is a mistake,
    // typically a corrupt header, and reading it would run far past the caller's buffer.
    if ((int64_t)(height - 1) * pitch + (int64_t)width * bpp > INT_MAX) {
        cw__fail("The image byte count overflows an int: pitch times height is too large.");
        return false;
    }
    return true;
}

static cw_mask *allocate(int width, int height)
{
    int words = (width + 63) / 64;
    size_t head = align8(sizeof(cw_mask));
    size_t bits = words == 1 ? 2 * (size_t)(height + CW__ROW_PAD) * sizeof(uint64_t) // and mirrored
                            : (size_t)words * (size_t)height * sizeof(uint64_t);
    size_t spans = align8((size_t)height * 2 * sizeof(int32_t));
    size_t points = (size_t)(height + 1) * 2 * 2 * sizeof(int32_t); // see compute_hull
    size_t hull = 2 * points + 2 * sizeof(int32_t);
    size_t total = head + bits + spans + points + hull;
    unsigned char *memory = cw__alloc(total);
    if (memory == NULL)
        return NULL;
    memset(memory, 0, total);
    cw_mask *m = (cw_mask *)memory;
    m->alloc_size = total;
    m->width = width;
    m->height = height;
    m->words = words;
    m->bits = (uint64_t *)(memory + head);
    m->mirrored = words == 1 ? m->bits + height + CW__ROW_PAD : NULL;
    m->spans = (int32_t *)(memory + head + bits);
    m->hull = (int32_t *)(memory + head + bits + spans + points);
    return m;
}

static int first_set(const uint64_t *row, int words)
{
    for (int w = 0; w < words; w++)
        if (row[w])
            return 64 * w + __builtin_ctzll(row[w]);
    return -1;
}

static int last_set(const uint64_t *row, int words)
{
    for (int w = words - 1; w >= 0; w--)
        if (row[w])
            return 64 * w + 63 - __builtin_clzll(row[w]);
    return -1;
}

// Counts maximal runs of set bits in a row: a run starts where a bit is set and its left
// neighbour is not.
static int count_runs(const uint64_t *row, int words)
{
    int runs = 0;
    uint64_t carry = 0;
    for (int w = 0; w < words; w++) {
        uint64_t starts = row[w] & ~((row[w] << 1) | carry);
        runs += cw__popcount(starts);
        carry = row[w] >> 63;
    }
    return runs;
}

static void add_to_dop(cw__dop8 *d, bool *first, int i, int j)
{
    double x = i, y = j;
    if (*first) {
        *d = (cw__dop8){x, x + 1, y, y + 1, x + y, x + y + 2, x - y - 1, x - y + 1};
        *first = false;
        return;
    }
    if (x < d->x0) d->x0 = x;
    if (x + 1 > d->x1) d->x1 = x + 1;
    if (y < d->y0) d->y0 = y;
    if (y + 1 > d->y1) d->y1 = y + 1;
    if (x + y < d->sum0) d->sum0 = x + y;
    if (x + y + 2 > d->sum1) d->sum1 = x + y + 2;
    if (x - y - 1 < d->diff0) d->diff0 = x - y - 1;
    if (x - y + 1 > d->diff1) d->diff1 = x - y + 1;
}

// The diagonal bounds only need each row's two end texels: the extremes of x + y and x - y in a
// row are at its first and last opaque texel.
static void compute_bounds(cw_mask *m)
{
    bool first = true;
    m->x0 = m->width;
    m->y0 = m->height;
    for (int y = 0; y < m->height; y++) {
        const uint64_t *row = cw__row(m, y);
        int a = first_set(row, m->words);
        if (a < 0)
            continue;
        int b = last_set(row, m->words);
        m->spans[2 * y] = a;
        m->spans[2 * y + 1] = b + 1;
        m->runs += count_runs(row, m->words);
        if (a < m->x0) m->x0 = a;
        if (b + 1 > m->x1) m->x1 = b + 1;
        if (y < m->y0) m->y0 = y;
        m->y1 = y + 1;
        add_to_dop(&m->dop, &first, a, y);
        add_to_dop(&m->dop, &first, b, y);
    }
    if (m->count == 0)
        m->x0 = m->y0 = m->x1 = m->y1 = 0;
    m->box[0] = m->x0, m->box[1] = m->y0, m->box[2] = m->x1, m->box[3] = m->y1;
}

static int64_t cross(const int32_t *o, const int32_t *a, const int32_t *b)
{
    return (int64_t)(a[0] - o[0]) * (b[1] - o[1]) - (int64_t)(a[1] - o[1]) * (b[0] - o[0]);
}

// Convex hull of the opaque texels' corners, for tight bounding boxes under any transform. Only the
// leftmost and rightmost corner on each horizontal line y can be a hull vertex, and those come
// sorted by (y, x) for free, so Andrew's monotone chain needs no sort. `points` has room for
// 2 * (height + 1) points; the hull buffer for twice that plus one (the chain's closing point, or
// the hull written twice).
static void compute_hull(cw_mask *m, int32_t *points)
{
    int n = 0;
    for (int y = 0; y <= m->height; y++) {
        int lo = INT32_MAX, hi = INT32_MIN;
        for (int j = y - 1; j <= y; j++) {
            if (j < 0 || j >= m->height || m->spans[2 * j] >= m->spans[2 * j + 1])
                continue;
            lo = m->spans[2 * j] < lo ? m->spans[2 * j] : lo;
            hi = m->spans[2 * j + 1] > hi ? m->spans[2 * j + 1] : hi;
        }
        if (lo > hi)
            continue;
        points[2 * n] = lo, points[2 * n + 1] = y, n++;
        points[2 * n] = hi, points[2 * n + 1] = y, n++;
    }
    int32_t *h = m->hull;
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross(h + 2 * (k - 2), h + 2 * (k - 1), points + 2 * i) <= 0)
            k--;
        h[2 * k] = points[2 * i], h[2 * k + 1] = points[2 * i + 1], k++;
    }
    for (int i = n - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && cross(h + 2 * (k - 2), h + 2 * (k - 1), points + 2 * i) <= 0)
            k--;
        h[2 * k] = points[2 * i], h[2 * k + 1] = points[2 * i + 1], k++;
    }
    m->hull_count = k > 1 ? k - 1 : k; // the last point repeats the first
    // Then the hull again: at most 2 * (height + 1) points, so twice that fits.
    memcpy(h + 2 * m->hull_count, h, (size_t)m->hull_count * 2 * sizeof *h);
}

// How far each sector of the extreme-vertex table is widened on both sides, in pseudo-angle units
// (a quarter turn is 1). A vertex can be the farthest along a direction only in its normal cone, but
// once rounded, two vertices whose distances along it differ by less than rounding can swap: that
// happens within about 1e-13 of a cone's edge (hull edges are at least a texel long), far inside
// this margin, so the table always holds the vertex the whole hull's scan would pick.
#define SECTOR_MARGIN 1e-6

// Wraps x in [0, 8) to [0, 4).
static double wrap4(double x) { return x >= 4 ? x - 4 : x; }

// Whether a vertex whose normal cone runs from pseudo-angle `from` to `to` (the way angles grow)
// can be the farthest along a direction of sector k, widened by SECTOR_MARGIN.
static bool cone_meets_sector(double from, double to, int k)
{
    double cone = wrap4(to - from + 4);
    double start = k * (4.0 / CW__SECTORS) - SECTOR_MARGIN, width = 4.0 / CW__SECTORS + 2 * SECTOR_MARGIN;
    double at = wrap4(wrap4(start - from + 8)); // where the sector starts, measured from the cone's start
    return at <= cone || at + width >= 4;
}

// The extreme-vertex table (see CW__SECTORS). `normal` has room for hull_count doubles: the
// pseudo-angle of each edge's outward normal. A vertex's normal cone runs between those of its two
// edges, and the cones follow each other round the hull, so each sector's vertices are one run.
static void compute_sectors(cw_mask *m, double *normal)
{
    const int n = m->hull_count;
    const int32_t *h = m->hull;
    if (n <= CW__SCAN_HULL || n > UINT16_MAX)
        return;
    int64_t area2 = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        area2 += (int64_t)h[2 * i] * h[2 * j + 1] - (int64_t)h[2 * j] * h[2 * i + 1];
    }
    // Walked the way angles grow (positive area), an edge (ex, ey) has the outward normal (ey, -ex).
    const int step = area2 > 0 ? 1 : n - 1;
    for (int i = 0; i < n; i++) {
        int j = (i + step) % n;
        normal[i] = cw__pseudo_angle(h[2 * j + 1] - h[2 * i + 1], -(double)(h[2 * j] - h[2 * i]));
    }
    for (int k = 0; k < CW__SECTORS; k++) {
        int count = 0, runs = 0, first = 0;
        bool before = cone_meets_sector(normal[(n - 1 + n - step) % n], normal[n - 1], k);
        for (int i = 0; i < n; i++) {
            bool holds = cone_meets_sector(normal[(i + n - step) % n], normal[i], k);
            count += holds;
            if (holds && !before)
                runs++, first = i;
            before = holds;
        }
        if (runs != 1) // every vertex (a sector wider than the whole turn of the hull): all of them
            first = 0, count = n;
        m->sector_first[k] = (uint16_t)first;
        m->sector_count[k] = (uint16_t)count;
    }
}

// A 64-bit hash of the size and bits (a multiply-xorshift per word): equal content, equal hash.
static uint64_t content_hash(const cw_mask *m)
{
    uint64_t h = 0x243f6a8885a308d3ull ^ ((uint64_t)(uint32_t)m->width << 32 | (uint32_t)m->height);
    size_t n = (size_t)m->words * (size_t)m->height;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ m->bits[i]) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h ^ (h >> 29);
}

int cw__mask_compare(const cw_mask *a, const cw_mask *b)
{
    if (a == b)
        return 0;
    if (a->width != b->width)
        return a->width < b->width ? -1 : 1;
    if (a->height != b->height)
        return a->height < b->height ? -1 : 1;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return memcmp(a->bits, b->bits, (size_t)a->words * (size_t)a->height * sizeof *a->bits);
}

// The outline (see cw_mask): the 8-direction polygon's corners are the opaque box cut by its four
// diagonal bounds.
static void compute_outline(cw_mask *m)
{
    if (m->count == 0)
        return;
    const cw__dop8 *d = &m->dop;
    double x[CW__POLYGON_MAX] = {d->x0, d->x1, d->x1, d->x0}, y[CW__POLYGON_MAX] = {d->y0, d->y0, d->y1, d->y1};
    int n = cw__clip_polygon(x, y, 4, 1, 1, d->sum1);
    n = cw__clip_polygon(x, y, n, -1, -1, -d->sum0);
    n = cw__clip_polygon(x, y, n, 1, -1, d->diff1);
    n = cw__clip_polygon(x, y, n, -1, 1, -d->diff0);
    bool hull = m->hull_count <= n;
    m->outline_count = hull ? m->hull_count : n;
    for (int k = 0; k < m->outline_count; k++) {
        m->outline[2 * k] = hull ? m->hull[2 * k] : x[k];
        m->outline[2 * k + 1] = hull ? m->hull[2 * k + 1] : y[k];
    }
}

// What a mask's bits and count make: its mirrored rows, bounds, hash, hull, outline and sectors.
static void finish_mask(cw_mask *m)
{
    for (int y = 0; y < m->height && m->mirrored != NULL; y++)
        m->mirrored[y] = cw__reversed_bits(m->bits[y]) >> (64 - m->width);
    compute_bounds(m);
    m->hash = content_hash(m);
    // The hull's points are gathered just before it; that room then holds a double per hull point.
    void *before_hull = (unsigned char *)m->hull - (size_t)(m->height + 1) * 2 * 2 * sizeof(int32_t);
    compute_hull(m, before_hull);
    compute_outline(m);
    compute_sectors(m, before_hull);
}

// The mask with its texel (i, j) at (j, i), for a mask at most 64 texels each way with texels to
// test (masks.c tests two sprites a quarter turn apart as this one and the other translated or
// mirrored); NULL otherwise, or when memory runs out (then such pairs take the general test).
static cw_mask *make_transposed(const cw_mask *m)
{
    if (m->words != 1 || m->height > 64 || m->count == 0)
        return NULL;
    const char *error_before = cw_last_error();
    cw_mask *t = allocate(m->height, m->width);
    if (t == NULL) {
        cw__fail(error_before); // the mask is made without it: nothing failed
        return NULL;
    }
    for (int y = 0; y < m->height; y++)
        for (int x = 0; x < m->width; x++)
            t->bits[x] |= ((m->bits[y] >> x) & 1u) << y;
    t->count = m->count;
    finish_mask(t);
    return t;
}

// Shared by both constructors: `bpp` bytes per pixel, alpha at byte `alpha_offset` of each pixel.
static cw_mask *build(const uint8_t *pixels, int width, int height, int pitch, int bpp, int alpha_offset,
                      uint8_t threshold)
{
    if (!check_source(pixels, width, height, pitch, bpp))
        return NULL;
    cw_mask *m = allocate(width, height);
    if (m == NULL)
        return NULL;
    for (int y = 0; y < height; y++) {
        const uint8_t *src = pixels + (size_t)y * (size_t)pitch + alpha_offset;
        uint64_t *row = m->bits + (size_t)y * (size_t)m->words;
        for (int x = 0; x < width; x++)
            row[x >> 6] |= (uint64_t)(src[(size_t)x * (size_t)bpp] >= threshold) << (x & 63);
        for (int w = 0; w < m->words; w++)
            m->count += cw__popcount(row[w]);
    }
    finish_mask(m);
    m->transposed = make_transposed(m);
    return m;
}

cw_mask *cw_mask_from_rgba(const void *pixels, int width, int height, int pitch, uint8_t alpha_threshold)
{
    return build(pixels, width, height, pitch, 4, 3, alpha_threshold);
}

cw_mask *cw_mask_from_alpha(const uint8_t *alpha, int width, int height, int pitch, uint8_t alpha_threshold)
{
    return build(alpha, width, height, pitch, 1, 0, alpha_threshold);
}

void cw_mask_destroy(cw_mask *mask)
{
    if (mask != NULL && mask != &cw__unit_mask) {
        cw_mask *transposed = (cw_mask *)mask->transposed;
        if (transposed != NULL)
            cw__free(transposed, transposed->alloc_size);
        cw__free(mask, mask->alloc_size);
    }
}

static bool check_mask(const cw_mask *mask)
{
    if (mask == NULL)
        cw__fail("The mask is NULL.");
    return mask != NULL;
}

int cw_mask_width(const cw_mask *mask) { return check_mask(mask) ? mask->width : 0; }

int cw_mask_height(const cw_mask *mask) { return check_mask(mask) ? mask->height : 0; }

int cw_mask_count(const cw_mask *mask) { return check_mask(mask) ? mask->count : 0; }

bool cw_mask_get(const cw_mask *mask, int x, int y)
{
    if (!check_mask(mask))
        return false;
    return cw__texel(mask, x, y);
}
