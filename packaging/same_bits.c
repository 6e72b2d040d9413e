// A fingerprint of what collworld computes, for comparing builds (make check-portability): seeded
// random masks and boxes, turned, scaled, mirrored and placed near and far; every cw_overlap()
// answer and manifold, every cw_shape_cast() fraction and contact, and a world of swept and still
// sprites stepped with its events, ray casts and placed-shape tests, folded into one 64-bit hash.
// The SIMD paths (x86-64), the 32-bit SSE2 build and the plain C paths (aarch64, no SSE2) must print
// the same line: the library gives the same bytes wherever it runs (rotations beyond 100,000 rad,
// which go through libm, aside; none are drawn here).
#include <collworld.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MASKS 8
#define PAIRS 6000
#define BODIES 240
#define STEPS 24

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t hash = 0xcbf29ce484222325ull;
static long overlaps, casts, begins, stays, ends, ray_hits; // what was folded in, for the summary line

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static double uniform(void) { return (double)(next() >> 11) / 9007199254740992.0; }

// A vector with both coordinates uniform in [lo, hi), x drawn first (an initializer list's calls
// would run in an order each compiler picks).
static cw_vec2 uniform_vec(double lo, double hi)
{
    double x = lo + (hi - lo) * uniform();
    double y = lo + (hi - lo) * uniform();
    return (cw_vec2){(float)x, (float)y};
}

static void fold(const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t k = 0; k < n; k++)
        hash = (hash ^ p[k]) * 0x100000001b3ull;
}

// Floats one by one (no struct padding in the hash); -0 and +0 kept apart on purpose.
static void fold_float(float x) { fold(&x, sizeof x); }

static void fold_manifold(const cw_manifold *m)
{
    fold_float(m->point.x), fold_float(m->point.y), fold_float(m->normal.x), fold_float(m->normal.y);
    fold_float(m->depth);
}

static void fold_int(int x) { fold(&x, sizeof x); }

// A disc, a ring or noise, 1 to 70 texels a side.
static cw_mask *random_mask(void)
{
    int w = 1 + (int)(next() % 70), h = 1 + (int)(next() % 70), kind = (int)(next() % 3);
    double cx = w * uniform(), cy = h * uniform(), r = (w + h) * (0.1 + 0.3 * uniform());
    uint8_t *alpha = malloc((size_t)w * (size_t)h);
    if (alpha == NULL)
        return NULL;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            double dx = i + 0.5 - cx, dy = j + 0.5 - cy, d2 = dx * dx + dy * dy;
            bool on = kind == 0 ? d2 < r * r : kind == 1 ? d2 < r * r && d2 > 0.36 * r * r : next() % 3 == 0;
            alpha[j * w + i] = on ? 255 : 0;
        }
    cw_mask *m = cw_mask_from_alpha(alpha, w, h, w, 128);
    free(alpha);
    return m;
}

static cw_shape random_shape(cw_mask *masks[MASKS])
{
    if (next() % 5 == 0) {
        cw_vec2 size = uniform_vec(1, 61);
        return cw_shape_box(size.x, size.y);
    }
    return cw_shape_mask(masks[next() % MASKS]);
}

// 1 to 10 times a power of ten from 10^lo to 10^hi (no libm: its last bits may differ by machine).
static double decades(int lo, int hi)
{
    double x = 1 + 9 * uniform();
    for (int k = lo + (int)(next() % (uint64_t)(hi - lo + 1)); k != 0; k += k < 0 ? 1 : -1)
        x = k < 0 ? x / 10 : x * 10;
    return x;
}

// Within `spread` (times the scale) of `near`, which `may_be_far` moves 10 to 10^7 times as far from
// the origin one time in ten. Scales 0.1 to 10 (one in four 0.001 to 100), an axis mirrored one
// time in six, a pivot anywhere in the sprite.
static cw_transform random_transform(cw_vec2 near, double spread, bool may_be_far)
{
    cw_transform t = cw_default_transform();
    double far = may_be_far && next() % 10 == 0 ? decades(1, 6) : 1;
    double s = next() % 4 == 0 ? decades(-3, 1) : decades(-1, 0);
    double dx = (uniform() - 0.5) * spread * s;
    double dy = (uniform() - 0.5) * spread * s;
    t.position = (cw_vec2){(float)(near.x * far + dx), (float)(near.y * far + dy)};
    t.rotation = (float)(7 * uniform());
    double sx = next() % 6 == 0 ? -s : s;
    t.scale = (cw_vec2){(float)sx, (float)(s * (0.7 + 0.6 * uniform()))};
    t.origin = uniform_vec(0, 30);
    return t;
}

static void pairs(cw_mask *masks[MASKS])
{
    for (int k = 0; k < PAIRS; k++) {
        cw_shape a = random_shape(masks), b = random_shape(masks);
        cw_vec2 at = uniform_vec(0, 100);
        cw_transform ta = random_transform(at, 0, true), tb = random_transform(ta.position, 50, false);
        cw_manifold m = {{0, 0}, {0, 0}, 0};
        bool hit = cw_overlap(&a, &ta, &b, &tb, &m);
        fold_int(hit);
        if (hit)
            fold_manifold(&m), overlaps++;
        cw_vec2 move = uniform_vec(-100, 100);
        float fraction = -1;
        cw_manifold c = {{0, 0}, {0, 0}, 0};
        bool cast = cw_shape_cast(&a, &ta, move, &b, &tb, &fraction, &c);
        fold_int(cast);
        if (cast)
            fold_float(fraction), fold_manifold(&c), casts++;
        cw_placed pa, pb;
        if (cw_place(&a, &ta, &pa) && cw_place(&b, &tb, &pb))
            fold_int(cw_placed_overlap(&pa, &pb, NULL) == hit);
    }
}

static void fold_contacts(const cw_contact *c, int n)
{
    for (int k = 0; k < n; k++) {
        fold_int((int)c[k].a.index), fold_int((int)c[k].b.index);
        fold_manifold(&c[k].manifold);
        fold_float(c[k].fraction);
    }
}

static bool world(cw_mask *masks[MASKS])
{
    cw_world_def def = cw_default_world_def();
    cw_world *w = cw_world_create(&def);
    cw_body_id ids[BODIES];
    cw_transform at[BODIES];
    if (w == NULL)
        return false;
    for (int k = 0; k < BODIES; k++) {
        cw_body_def body = cw_default_body_def();
        body.shape = random_shape(masks);
        body.transform = random_transform(uniform_vec(0, 900), 0, false);
        at[k] = body.transform;
        ids[k] = cw_body_create(w, &body);
        if (cw_body_id_is_null(ids[k]) || (k % 7 == 0 && !cw_body_set_swept(w, ids[k], true))) {
            cw_world_destroy(w);
            return false;
        }
    }
    for (int step = 0; step < STEPS; step++) {
        for (int k = 0; k < BODIES; k++) {
            double speed = k % 7 == 0 ? 120 : 6;
            at[k].position.x += (float)((uniform() - 0.5) * speed);
            at[k].position.y += (float)((uniform() - 0.5) * speed);
            at[k].rotation += (float)((uniform() - 0.5) * 0.3);
        }
        if (!cw_world_set_transforms(w, ids, at, BODIES)) {
            cw_world_destroy(w);
            return false;
        }
        cw_world_step(w);
        cw_events e = cw_world_events(w);
        fold_int(e.begin_count), fold_int(e.stay_count), fold_int(e.end_count);
        fold_contacts(e.begins, e.begin_count), fold_contacts(e.stays, e.stay_count);
        fold_contacts(e.ends, e.end_count);
        begins += e.begin_count, stays += e.stay_count, ends += e.end_count;
        cw_ray_hit hit;
        cw_vec2 from = uniform_vec(0, 900), along = uniform_vec(-450, 450);
        if (cw_world_raycast_closest(w, from, along, cw_default_query_filter(), &hit)) {
            fold_int((int)hit.body.index);
            fold_float(hit.point.x), fold_float(hit.point.y), fold_float(hit.normal.x), fold_float(hit.normal.y);
            fold_float(hit.fraction);
            ray_hits++;
        }
    }
    cw_world_destroy(w);
    return true;
}

int main(void)
{
    cw_mask *masks[MASKS];
    for (int k = 0; k < MASKS; k++)
        if ((masks[k] = random_mask()) == NULL) {
            fprintf(stderr, "same_bits: %s\n", cw_last_error());
            return 1;
        }
    pairs(masks);
    if (!world(masks)) {
        fprintf(stderr, "same_bits: %s\n", cw_last_error());
        return 1;
    }
    for (int k = 0; k < MASKS; k++)
        cw_mask_destroy(masks[k]);
    printf("collworld fingerprint %016llx (%d pairs: %ld overlap, %ld casts hit; %d bodies, %d steps: %ld begins, "
           "%ld stays, %ld ends, %ld rays hit)\n",
           (unsigned long long)hash, PAIRS, overlaps, casts, BODIES, STEPS, begins, stays, ends, ray_hits);
    return 0;
}
