/// @file cases.c
/// Sprite generators and the four benchmark cases (see cases.h).
#include "cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define PI 3.14159265358979323846
#define CENTRE (SPRITE_SIZE / 2.0)

static bool sprite_texel(sprite_id id, int i, int j, bench_rng *noise) {
    const double cx = i + 0.5 - CENTRE, cy = j + 0.5 - CENTRE;
    const double d2 = cx * cx + cy * cy;
    switch (id) {
    case SPRITE_DISC:
        return d2 <= DISC_RADIUS * DISC_RADIUS;
    case SPRITE_RING:
        return d2 <= RING_OUTER * RING_OUTER && d2 >= RING_INNER * RING_INNER;
    case SPRITE_PLUS: // two bars 16 texels thick, 56 long
        return (i >= 24 && i < 40 && j >= 4 && j < 60) || (j >= 24 && j < 40 && i >= 4 && i < 60);
    case SPRITE_F: // stem, top bar, middle bar
        return (i >= 14 && i < 26 && j >= 6 && j < 58) || (i >= 14 && i < 52 && j >= 6 && j < 17) ||
               (i >= 14 && i < 44 && j >= 27 && j < 37);
    case SPRITE_NOISE:
        return bench_rng_unit(noise) < 0.30;
    case SPRITE_COMB: // 1-texel teeth on even columns, 1-texel gaps, no spine
        return (i % 2) == 0;
    case SPRITE_COUNT:
        break;
    }
    return false;
}

static const char *const sprite_names[SPRITE_COUNT] = {"disc", "ring", "plus", "F", "noise", "comb"};

bool sprites_build(sprite sprites[SPRITE_COUNT]) {
    memset(sprites, 0, sizeof(sprite) * SPRITE_COUNT);
    for (int s = 0; s < SPRITE_COUNT; s++) {
        sprite *sp = &sprites[s];
        bench_rng noise = bench_rng_make(0xC0FFEEull + (uint64_t)s);
        bench_rng colour = bench_rng_make(0xBADC0DEull + (uint64_t)s);
        sp->name = sprite_names[s];
        sp->rgba = malloc((size_t)SPRITE_SIZE * SPRITE_SIZE * 4);
        if (sp->rgba == NULL) {
            return false;
        }
        for (int j = 0; j < SPRITE_SIZE; j++) {
            for (int i = 0; i < SPRITE_SIZE; i++) {
                uint8_t *px = sp->rgba + ((size_t)j * SPRITE_SIZE + (size_t)i) * 4;
                const bool opaque = sprite_texel((sprite_id)s, i, j, &noise);
                px[0] = (uint8_t)bench_rng_int(&colour, 0, 255);
                px[1] = (uint8_t)bench_rng_int(&colour, 0, 255);
                px[2] = (uint8_t)bench_rng_int(&colour, 0, 255);
                // Opaque texels: alpha in [threshold, 255]; transparent ones: below the threshold
                // (anti-aliasing-like leftovers), so the threshold matters.
                px[3] = opaque ? (uint8_t)bench_rng_int(&colour, SPRITE_THRESHOLD, 255)
                               : (uint8_t)bench_rng_int(&colour, 0, SPRITE_THRESHOLD - 1);
            }
        }
        sp->mask = cw_mask_from_rgba(sp->rgba, SPRITE_SIZE, SPRITE_SIZE, SPRITE_SIZE * 4, SPRITE_THRESHOLD);
        if (sp->mask == NULL) {
            return false;
        }
        sp->shape = cw_shape_mask(sp->mask);
        if (!tb_mask_from_rgba(&sp->tbmask, sp->rgba, SPRITE_SIZE, SPRITE_SIZE, SPRITE_SIZE * 4,
                               SPRITE_THRESHOLD)) {
            return false;
        }
        for (int flip = 0; flip < 2; flip++) {
            if (!bp_mask_from_rgba(&sp->bpmask[flip], sp->rgba, SPRITE_SIZE, SPRITE_SIZE, SPRITE_SIZE * 4,
                                   SPRITE_THRESHOLD, flip)) {
                return false;
            }
        }
    }
    return true;
}

void sprites_free(sprite sprites[SPRITE_COUNT]) {
    for (int s = 0; s < SPRITE_COUNT; s++) {
        cw_mask_destroy(sprites[s].mask);
        tb_mask_free(&sprites[s].tbmask);
        bp_mask_free(&sprites[s].bpmask[0]);
        bp_mask_free(&sprites[s].bpmask[1]);
        free(sprites[s].rgba);
        sprites[s].mask = NULL;
        sprites[s].rgba = NULL;
    }
}

static cw_transform make_transform(double px, double py, double rot, double sx, double sy) {
    cw_transform t = cw_default_transform();
    t.position.x = (float)px;
    t.position.y = (float)py;
    t.rotation = (float)rot;
    t.scale.x = (float)sx;
    t.scale.y = (float)sy;
    t.origin.x = (float)CENTRE;
    t.origin.y = (float)CENTRE;
    return t;
}

/// World AABB of the whole SPRITE_SIZE square (transparent border included) under t.
static void sprite_box(const cw_transform *t, double mn[2], double mx[2]) {
    const double c = cos((double)t->rotation), s = sin((double)t->rotation);
    mn[0] = mn[1] = INFINITY;
    mx[0] = mx[1] = -INFINITY;
    for (int k = 0; k < 4; k++) {
        const double lx = ((k & 1) ? SPRITE_SIZE : 0) - (double)t->origin.x;
        const double ly = ((k & 2) ? SPRITE_SIZE : 0) - (double)t->origin.y;
        const double qx = lx * (double)t->scale.x, qy = ly * (double)t->scale.y;
        const double wx = (double)t->position.x + c * qx - s * qy;
        const double wy = (double)t->position.y + s * qx + c * qy;
        mn[0] = fmin(mn[0], wx);
        mn[1] = fmin(mn[1], wy);
        mx[0] = fmax(mx[0], wx);
        mx[1] = fmax(mx[1], wy);
    }
}

static bool sprite_boxes_overlap(const cw_transform *ta, const cw_transform *tb) {
    double amn[2], amx[2], bmn[2], bmx[2];
    sprite_box(ta, amn, amx);
    sprite_box(tb, bmn, bmx);
    return amn[0] < bmx[0] && bmn[0] < amx[0] && amn[1] < bmx[1] && bmn[1] < amx[1];
}

/// Case 1: random shape (of the first five), rotation and uniform-ish scale 0.75-1.5, centres
/// 30-90 apart in a random direction, full-sprite boxes overlapping.
static void gen_case1(bench_pair *p, bench_rng *r) {
    for (;;) {
        p->a = (sprite_id)bench_rng_int(r, 0, SPRITE_NOISE);
        p->b = (sprite_id)bench_rng_int(r, 0, SPRITE_NOISE);
        const double sa = bench_rng_range(r, 0.75, 1.5), sb = bench_rng_range(r, 0.75, 1.5);
        const double ax = bench_rng_range(r, 200.0, 800.0), ay = bench_rng_range(r, 150.0, 450.0);
        const double dist = bench_rng_range(r, 30.0, 90.0), dir = bench_rng_range(r, 0.0, 2.0 * PI);
        p->ta = make_transform(ax, ay, bench_rng_range(r, -PI, PI), sa, sa * bench_rng_range(r, 0.9, 1.1));
        p->tb = make_transform(ax + dist * cos(dir), ay + dist * sin(dir), bench_rng_range(r, -PI, PI), sb,
                               sb * bench_rng_range(r, 0.9, 1.1));
        if (sprite_boxes_overlap(&p->ta, &p->tb)) {
            return;
        }
    }
}

/// Case 2: no rotation, scale 1, integer offsets with centres 30-90 apart, boxes overlapping.
static void gen_case2(bench_pair *p, bench_rng *r) {
    for (;;) {
        p->a = (sprite_id)bench_rng_int(r, 0, SPRITE_NOISE);
        p->b = (sprite_id)bench_rng_int(r, 0, SPRITE_NOISE);
        const int ax = bench_rng_int(r, 100, 800), ay = bench_rng_int(r, 100, 500);
        const int dx = bench_rng_int(r, -63, 63), dy = bench_rng_int(r, -63, 63);
        const int d2 = dx * dx + dy * dy;
        if (d2 < 30 * 30 || d2 > 90 * 90) {
            continue;
        }
        p->ta = make_transform(ax, ay, 0.0, 1.0, 1.0);
        p->tb = make_transform(ax + dx, ay + dy, 0.0, 1.0, 1.0);
        return;
    }
}

/// Case 3: a disc at half scale inside the hole of a ring, both rotated; the disc's centre is at
/// most CASE3_MAX_OFFSET from the ring's. Clearance >= (RING_INNER - sqrt(.5)) -
/// (DISC_RADIUS + sqrt(.5)) / 2 - CASE3_MAX_OFFSET, about 2.9 units. Never touches.
static void gen_case3(bench_pair *p, bench_rng *r, bool disc_first) {
    const double rx = bench_rng_range(r, 200.0, 800.0), ry = bench_rng_range(r, 150.0, 450.0);
    const double off = CASE3_MAX_OFFSET * sqrt(bench_rng_unit(r)), dir = bench_rng_range(r, 0.0, 2.0 * PI);
    const cw_transform ring = make_transform(rx, ry, bench_rng_range(r, -PI, PI), 1.0, 1.0);
    const cw_transform disc =
        make_transform(rx + off * cos(dir), ry + off * sin(dir), bench_rng_range(r, -PI, PI), 0.5, 0.5);
    if (disc_first) {
        p->a = SPRITE_DISC;
        p->ta = disc;
        p->b = SPRITE_RING;
        p->tb = ring;
    } else {
        p->a = SPRITE_RING;
        p->ta = ring;
        p->b = SPRITE_DISC;
        p->tb = disc;
    }
}

/// Case 4: two combs, B exactly one texel left or right of A (teeth touch edge to edge), plus an
/// integer y offset. Positions are multiples of 1/64 so every sum is exact in float.
static void gen_case4(bench_pair *p, bench_rng *r) {
    const double ax = 100.0 + bench_rng_int(r, 0, 600 * 64) / 64.0;
    const double ay = 100.0 + bench_rng_int(r, 0, 400 * 64) / 64.0;
    const double dx = bench_rng_int(r, 0, 1) ? 1.0 : -1.0;
    const double dy = bench_rng_int(r, 0, 3) == 0 ? 0.0 : (double)bench_rng_int(r, -8, 8);
    p->a = SPRITE_COMB;
    p->b = SPRITE_COMB;
    p->ta = make_transform(ax, ay, 0.0, 1.0, 1.0);
    p->tb = make_transform(ax + dx, ay + dy, 0.0, 1.0, 1.0);
}

/// Case 5: pairs made as case 2's (from a seed of its own), B mirrored in x about its centre (one
/// sprite facing each way).
static void gen_case5(bench_pair *p, bench_rng *r) {
    gen_case2(p, r);
    p->tb.scale.x = -p->tb.scale.x;
}

bool case_build(bench_case *c, int number, int count) {
    static const char *const names[CASE_COUNT] = {"1 rotated + scaled", "2 integer offsets", "3 disc in ring hole",
                                                  "4 combs edge to edge", "5 integer offsets, B mirrored"};
    static const char *const targets[CASE_COUNT] = {">= 50x", ">= 250x", ">= 10x", ">= 200x", "none"};
    static const double ratios[CASE_COUNT] = {50.0, 250.0, 10.0, 200.0, 0.0};
    if (number < 1 || number > CASE_COUNT || count < 1) {
        return false;
    }
    c->number = number;
    c->name = names[number - 1];
    c->target = targets[number - 1];
    c->target_ratio = ratios[number - 1];
    c->count = count;
    c->pairs = calloc((size_t)count, sizeof(bench_pair));
    if (c->pairs == NULL) {
        return false;
    }
    bench_rng r = bench_rng_make(0x5EED0000ull + (uint64_t)number * 7919u);
    for (int k = 0; k < count; k++) {
        switch (number) {
        case 1:
            gen_case1(&c->pairs[k], &r);
            break;
        case 2:
            gen_case2(&c->pairs[k], &r);
            break;
        case 5:
            gen_case5(&c->pairs[k], &r);
            break;
        case 3:
            gen_case3(&c->pairs[k], &r, k < count / 2);
            break;
        default:
            gen_case4(&c->pairs[k], &r);
            break;
        }
    }
    return true;
}

void case_free(bench_case *c) {
    free(c->pairs);
    c->pairs = NULL;
    c->count = 0;
}
