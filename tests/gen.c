// Seeded random generators (see gen.h).
#include "gen.h"
#include "suites.h" // cmocka, for gen_add_boxes's assertions

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// CW_TEST_SALT (see main.c), spread over the seed's bits; 0 leaves every seed as it is.
static uint64_t salt(void)
{
    const char *s = getenv("CW_TEST_SALT");
    return s == NULL ? 0 : strtoull(s, NULL, 0) * 0x9e3779b97f4a7c15ull;
}

gen_rng gen_seed(uint64_t seed) { return (gen_rng){.state = seed ^ 0x6a09e667f3bcc909ull ^ salt()}; }

uint64_t gen_next(gen_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double gen_unit(gen_rng *r) { return (double)(gen_next(r) >> 11) * 0x1.0p-53; }

double gen_range(gen_rng *r, double lo, double hi) { return lo + (hi - lo) * gen_unit(r); }

int gen_int(gen_rng *r, int lo, int hi) { return lo + (int)(gen_next(r) % (uint64_t)(hi - lo + 1)); }

bool gen_chance(gen_rng *r, double p) { return gen_unit(r) < p; }

int gen_test_scale(void)
{
    const char *s = getenv("CW_TEST_SCALE");
    if (s == NULL || *s == '\0')
        return 1;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || v < 1 || v > 1000000)
        return 1;
    return (int)v;
}

int gen_scaled(int count)
{
    int n = count / gen_test_scale();
    return n < 1 ? 1 : n;
}

bool gen_only_seed(uint64_t *seed)
{
    const char *s = getenv("CW_TEST_ONLY");
    if (s == NULL || *s == '\0')
        return false;
    *seed = strtoull(s, NULL, 0);
    return true;
}

const char *gen_pattern_name(gen_pattern p)
{
    static const char *const names[GEN_PATTERN_COUNT] = {"empty",   "filled", "noise", "disc",    "ring",    "hlines",
                                                         "vlines",  "comb",   "checker", "diagonal", "frame"};
    return (unsigned)p < GEN_PATTERN_COUNT ? names[p] : "?";
}

void gen_pattern_fill(unsigned char *solid, int w, int h, gen_pattern p, double density, uint64_t seed)
{
    gen_rng r = gen_seed(seed);
    memset(solid, 0, (size_t)w * (size_t)h);
    // Parameters drawn up front so that each pattern uses the stream the same way.
    double cx = w / 2.0 + gen_range(&r, -0.3, 0.3) * w, cy = h / 2.0 + gen_range(&r, -0.3, 0.3) * h;
    double radius = fmax(0.7, (w < h ? w : h) / 2.0 * gen_range(&r, 0.5, 1.1));
    double inner = radius * gen_range(&r, 0.3, 0.8);
    int period = gen_int(&r, 2, 4), phase = gen_int(&r, 0, 3), cell = gen_int(&r, 1, 3);
    bool flip = gen_chance(&r, 0.5), anti = gen_chance(&r, 0.5);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            bool on = false;
            double dx = i + 0.5 - cx, dy = j + 0.5 - cy, d = sqrt(dx * dx + dy * dy);
            switch (p) {
            case GEN_EMPTY:
                on = false;
                break;
            case GEN_FILLED:
                on = true;
                break;
            case GEN_NOISE:
                on = gen_unit(&r) < density;
                break;
            case GEN_DISC:
                on = d <= radius;
                break;
            case GEN_RING:
                on = d <= radius && d >= inner;
                break;
            case GEN_HLINES:
                on = (j + phase) % period == 0;
                break;
            case GEN_VLINES:
                on = (i + phase) % period == 0;
                break;
            case GEN_COMB: { // a spine along one edge, 1-texel teeth with 1-texel gaps
                int along = flip ? j : i, across = flip ? i : j, across_n = flip ? w : h;
                int spine = anti ? across_n - 1 : 0;
                on = across == spine || (along + phase) % 2 == 0;
                break;
            }
            case GEN_CHECKER:
                on = ((i / cell + j / cell + phase) & 1) != 0;
                break;
            case GEN_DIAGONAL: { // one-texel line from corner to corner
                int jj = (int)((long)i * h / w);
                if (anti)
                    jj = h - 1 - jj;
                int ii = (int)((long)j * w / h);
                if (anti)
                    ii = w - 1 - ii;
                on = (w >= h) ? j == jj : i == ii;
                break;
            }
            case GEN_FRAME:
                on = i == 0 || j == 0 || i == w - 1 || j == h - 1;
                break;
            default:
                on = false;
            }
            solid[(size_t)j * (size_t)w + (size_t)i] = on;
        }
}

cw_mask *gen_make_mask(const unsigned char *solid, int w, int h, uint64_t seed)
{
    gen_rng r = gen_seed(seed ^ 0x5bd1e995ull);
    int pitch = w + gen_int(&r, 0, 3);
    uint8_t *alpha = malloc((size_t)pitch * (size_t)h);
    if (alpha == NULL)
        abort();
    for (int j = 0; j < h; j++)
        for (int i = 0; i < pitch; i++) {
            uint8_t v;
            if (i >= w) // padding: must be ignored
                v = (uint8_t)gen_int(&r, 0, 255);
            else if (solid[(size_t)j * (size_t)w + (size_t)i])
                v = (uint8_t)(gen_chance(&r, 0.5) ? 255 : gen_int(&r, 128, 255));
            else
                v = (uint8_t)(gen_chance(&r, 0.5) ? 0 : gen_int(&r, 0, 127));
            alpha[(size_t)j * (size_t)pitch + (size_t)i] = v;
        }
    cw_mask *m = cw_mask_from_alpha(alpha, w, h, pitch, 128);
    free(alpha);
    return m;
}

void gen_box_shape(gen_shape *s, float w, float h)
{
    memset(s, 0, sizeof *s);
    s->is_box = true;
    s->box_w = w;
    s->box_h = h;
    s->shape = cw_shape_box(w, h);
    s->ref = ref_box(w, h);
}

bool gen_mask_shape(gen_shape *s, unsigned char *solid, int w, int h, gen_pattern p, double density, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->is_box = false;
    s->w = w;
    s->h = h;
    s->pattern = p;
    s->density = density;
    s->pattern_seed = seed;
    s->solid = solid;
    s->ref = ref_mask(solid, w, h);
    s->mask = gen_make_mask(solid, w, h, seed);
    s->shape = cw_shape_mask(s->mask);
    return s->mask != NULL;
}

void gen_add_boxes(cw_world *world, gen_rng *r, int count, double min_side, double max_side, double extent,
                   double max_rotation)
{
    for (int k = 0; k < count; k++) {
        cw_body_def body = cw_default_body_def();
        body.shape = cw_shape_box((float)gen_range(r, min_side, max_side), (float)gen_range(r, min_side, max_side));
        body.transform.position = (cw_vec2){(float)gen_range(r, 0, extent), (float)gen_range(r, 0, extent)};
        body.transform.rotation = (float)gen_range(r, 0, max_rotation);
        assert_false(cw_body_id_is_null(cw_body_create(world, &body)));
    }
}

void gen_random_box(gen_rng *r, gen_shape *s)
{
    double u = gen_unit(r);
    float w, h;
    if (u < 0.6) {
        w = (float)gen_range(r, 0.5, 40.0), h = (float)gen_range(r, 0.5, 40.0);
    } else if (u < 0.75) { // thin
        w = (float)gen_range(r, 0.05, 2.0), h = (float)gen_range(r, 1.0, 60.0);
        if (gen_chance(r, 0.5)) {
            float t = w;
            w = h, h = t;
        }
    } else if (u < 0.9) {
        w = (float)gen_range(r, 20.0, 150.0), h = (float)gen_range(r, 20.0, 150.0);
    } else { // integer sizes
        w = (float)gen_int(r, 1, 32), h = (float)gen_int(r, 1, 32);
    }
    gen_box_shape(s, w, h);
}

bool gen_random_mask(gen_rng *r, gen_shape *s)
{
    int w, h;
    double u = gen_unit(r);
    if (u < 0.04) {
        w = h = 1;
    } else if (u < 0.12) { // 1xN and Nx1 strips
        w = 1, h = gen_int(r, 2, 48);
        if (gen_chance(r, 0.5)) {
            int t = w;
            w = h, h = t;
        }
    } else if (u < 0.94) {
        w = gen_int(r, 2, 48), h = gen_int(r, 2, 48);
    } else {
        w = gen_int(r, 49, 200), h = gen_int(r, 49, 150);
    }
    static const gen_pattern weighted[] = {GEN_NOISE,  GEN_NOISE,    GEN_NOISE,    GEN_NOISE,  GEN_DISC,
                                           GEN_DISC,   GEN_RING,     GEN_RING,     GEN_FILLED, GEN_FILLED,
                                           GEN_EMPTY,  GEN_HLINES,   GEN_VLINES,   GEN_COMB,   GEN_COMB,
                                           GEN_CHECKER, GEN_CHECKER, GEN_DIAGONAL, GEN_FRAME};
    gen_pattern p = weighted[gen_int(r, 0, (int)(sizeof weighted / sizeof weighted[0]) - 1)];
    static const double densities[] = {0.02, 0.1, 0.3, 0.5, 0.8, 0.97};
    double density = gen_chance(r, 0.5) ? densities[gen_int(r, 0, 5)] : gen_unit(r);
    uint64_t seed = gen_next(r);
    unsigned char *solid = malloc((size_t)w * (size_t)h);
    if (solid == NULL)
        abort();
    gen_pattern_fill(solid, w, h, p, density, seed);
    return gen_mask_shape(s, solid, w, h, p, density, seed);
}

bool gen_random_shape(gen_rng *r, gen_shape *s, bool box)
{
    if (!box)
        return gen_random_mask(r, s);
    gen_random_box(r, s);
    return true;
}

void gen_shape_free(gen_shape *s)
{
    if (!s->is_box) {
        cw_mask_destroy(s->mask);
        free(s->solid);
    }
    memset(s, 0, sizeof *s);
}

static float random_scale(gen_rng *r)
{
    float v = (float)exp(gen_range(r, log(0.3), log(3.0)));
    return gen_chance(r, 0.25) ? -v : v;
}

void gen_random_transform(gen_rng *r, const gen_shape *s, cw_transform *t)
{
    *t = (cw_transform){.position = {0, 0}, .rotation = 0, .scale = {1, 1}, .origin = {0, 0}};
    double u = gen_unit(r);
    if (u < 0.2) // an exact multiple of pi/2, as the float a game would store
        t->rotation = (float)(gen_int(r, -4, 4) * (GEN_PI / 2));
    else if (u < 0.3)
        t->rotation = 0.0f;
    else
        t->rotation = (float)gen_range(r, -2 * GEN_PI, 2 * GEN_PI);
    t->scale.x = random_scale(r);
    t->scale.y = gen_chance(r, 0.15) ? t->scale.x : random_scale(r);
    if (gen_chance(r, 0.1)) // mirrored but otherwise uniform
        t->scale.y = -t->scale.x;
    double w = s->is_box ? s->box_w : s->w, h = s->is_box ? s->box_h : s->h;
    u = gen_unit(r);
    if (u < 0.3) {
        t->origin = (cw_vec2){0, 0};
    } else if (u < 0.6) {
        t->origin = (cw_vec2){(float)(w / 2), (float)(h / 2)};
    } else {
        t->origin = (cw_vec2){(float)gen_range(r, -0.5 * w, 1.5 * w), (float)gen_range(r, -0.5 * h, 1.5 * h)};
    }
}

static void shape_bounds(const gen_shape *s, const cw_transform *t, double min[2], double max[2])
{
    if (!ref_aabb(&s->ref, t, false, min, max))
        ref_aabb(&s->ref, t, true, min, max);
}

void gen_place_pair(gen_rng *r, const gen_shape *a, cw_transform *ta, const gen_shape *b, cw_transform *tb, bool far)
{
    if (far)
        ta->position = (cw_vec2){(float)(50000.0 + gen_range(r, -100, 100)), (float)(-30000.0 + gen_range(r, -100, 100))};
    else
        ta->position = (cw_vec2){(float)gen_range(r, -100, 100), (float)gen_range(r, -100, 100)};
    double amin[2], amax[2], bmin[2], bmax[2];
    shape_bounds(a, ta, amin, amax);
    tb->position = (cw_vec2){0, 0};
    shape_bounds(b, tb, bmin, bmax);
    double bc[2] = {(bmin[0] + bmax[0]) / 2, (bmin[1] + bmax[1]) / 2};
    double bh[2] = {(bmax[0] - bmin[0]) / 2, (bmax[1] - bmin[1]) / 2};
    double u = gen_unit(r), grow[2];
    if (u < 0.5) // B's centre inside A's box
        grow[0] = grow[1] = 0;
    else if (u < 0.9) // the AABBs still overlap
        grow[0] = 0.95 * bh[0], grow[1] = 0.95 * bh[1];
    else // they may not
        grow[0] = bh[0] + 3, grow[1] = bh[1] + 3;
    double target[2];
    for (int k = 0; k < 2; k++)
        target[k] = gen_range(r, amin[k] - grow[k], amax[k] + grow[k]);
    tb->position = (cw_vec2){(float)(target[0] - bc[0]), (float)(target[1] - bc[1])};
}

static bool overlaps_at(gen_case *c, const double p0[2], const double dir[2], double s)
{
    cw_transform t = c->tb;
    t.position = (cw_vec2){(float)(p0[0] + s * dir[0]), (float)(p0[1] + s * dir[1])};
    return ref_margin_capped(&c->a.ref, &c->ta, &c->b.ref, &t, 1e-12) > 0;
}

static void place_near_contact(gen_rng *r, gen_case *c)
{
    double angle = gen_range(r, 0, 2 * GEN_PI);
    double dir[2] = {cos(angle), sin(angle)};
    double p0[2] = {c->tb.position.x, c->tb.position.y};
    double offset = gen_range(r, 0.003, 0.03) * (gen_chance(r, 0.5) ? 1 : -1);
    c->contact_dir[0] = dir[0], c->contact_dir[1] = dir[1];
    // Find s_in (overlapping) and s_out (not) along the line, then bisect between them.
    double s_in = 0, s_out = 0;
    bool found = false;
    if (overlaps_at(c, p0, dir, 0)) {
        for (double step = 1; step < 4096 && !found; step *= 2)
            if (!overlaps_at(c, p0, dir, step))
                s_out = step, found = true;
    } else {
        for (double step = 1; step < 4096 && !found; step *= 2)
            if (overlaps_at(c, p0, dir, -step))
                s_in = -step, found = true;
    }
    if (!found) // e.g. an empty mask: leave the case as placed
        return;
    while (fabs(s_out - s_in) > 1e-7) {
        double mid = (s_in + s_out) / 2;
        if (overlaps_at(c, p0, dir, mid))
            s_in = mid;
        else
            s_out = mid;
    }
    // Positive offset: further along dir (out of contact, if the contact is locally simple).
    double s = (s_in + s_out) / 2 + (s_out > s_in ? offset : -offset);
    c->contact_offset = offset;
    c->tb.position = (cw_vec2){(float)(p0[0] + s * dir[0]), (float)(p0[1] + s * dir[1])};
}

uint64_t gen_case_seed(unsigned stream, gen_kind kind, uint32_t index)
{
    return ((uint64_t)stream << 40) | ((uint64_t)kind << 32) | index;
}

bool gen_case_make(gen_case *c, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->kind = (gen_kind)((seed >> 32) & 3);
    gen_rng r = gen_seed(seed);
    c->far = gen_chance(&r, 0.15);
    bool ok = true;
    ok = gen_random_shape(&r, &c->a, c->kind == GEN_BOX_BOX || c->kind == GEN_BOX_MASK) && ok;
    ok = gen_random_shape(&r, &c->b, c->kind == GEN_BOX_BOX || c->kind == GEN_MASK_BOX) && ok;
    gen_random_transform(&r, &c->a, &c->ta);
    gen_random_transform(&r, &c->b, &c->tb);
    gen_place_pair(&r, &c->a, &c->ta, &c->b, &c->tb, c->far);
    if ((seed >> 40) == GEN_STREAM_CONTACT)
        place_near_contact(&r, c);
    return ok;
}

void gen_case_free(gen_case *c)
{
    gen_shape_free(&c->a);
    gen_shape_free(&c->b);
}

void gen_print_transform(FILE *f, const char *name, const cw_transform *t)
{
    fprintf(f,
            "  %s = {.position = {%.9g, %.9g}, .rotation = %.9g, .scale = {%.9g, %.9g}, .origin = {%.9g, %.9g}}\n"
            "    (hex: position {%a, %a} rotation %a scale {%a, %a} origin {%a, %a})\n",
            name, (double)t->position.x, (double)t->position.y, (double)t->rotation, (double)t->scale.x,
            (double)t->scale.y, (double)t->origin.x, (double)t->origin.y, (double)t->position.x, (double)t->position.y,
            (double)t->rotation, (double)t->scale.x, (double)t->scale.y, (double)t->origin.x, (double)t->origin.y);
}

void gen_print_shape(FILE *f, const char *name, const gen_shape *s)
{
    if (s->is_box) {
        fprintf(f, "  %s = cw_shape_box(%.9g, %.9g)  (hex %a, %a)\n", name, (double)s->box_w, (double)s->box_h,
                (double)s->box_w, (double)s->box_h);
        return;
    }
    fprintf(f, "  %s = mask %dx%d pattern %s density %.6g pattern_seed 0x%016llx (%d opaque)\n", name, s->w, s->h,
            gen_pattern_name(s->pattern), s->density, (unsigned long long)s->pattern_seed, ref_solid_count(&s->ref));
    if (s->w <= 64 && s->h <= 64)
        for (int j = 0; j < s->h; j++) {
            fputs("    ", f);
            for (int i = 0; i < s->w; i++)
                fputc(s->solid[(size_t)j * (size_t)s->w + (size_t)i] ? '#' : '.', f);
            fputc('\n', f);
        }
}

void gen_case_print(FILE *f, const gen_case *c)
{
    static const char *const kinds[] = {"box-box", "box-mask", "mask-box", "mask-mask"};
    fprintf(f, "  case seed 0x%llx (%s%s; rerun alone with CW_TEST_ONLY=0x%llx)\n", (unsigned long long)c->seed,
            kinds[c->kind], c->far ? ", far from the origin" : "", (unsigned long long)c->seed);
    if (c->contact_offset != 0)
        fprintf(f, "  placed %.6g world units from first contact along (%.9g, %.9g)\n", c->contact_offset,
                c->contact_dir[0], c->contact_dir[1]);
    gen_print_shape(f, "a", &c->a);
    gen_print_transform(f, "ta", &c->ta);
    gen_print_shape(f, "b", &c->b);
    gen_print_transform(f, "tb", &c->tb);
}

bool gen_contains_nocase(const char *haystack, const char *needle)
{
    if (haystack == NULL || needle == NULL)
        return false;
    size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t k = 0;
        while (k < n && h[k] && tolower((unsigned char)h[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return true;
    }
    return n == 0;
}
