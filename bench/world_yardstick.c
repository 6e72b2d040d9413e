/// @file world_yardstick.c
/// Sort-and-sweep plus exact OBB / textbook per-texel tests (see world_yardstick.h).
#define _POSIX_C_SOURCE 199309L

#include "world_yardstick.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double ys_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

#define YS_HALF_PI 1.57079632679489661923

bool ys_init(ys_state *y, int n) {
    memset(y, 0, sizeof *y);
    y->n = n;
    const size_t count = (size_t)(n > 0 ? n : 1);
    y->obb = malloc(count * sizeof *y->obb);
    y->items = malloc(count * sizeof *y->items);
    if (y->obb == NULL || y->items == NULL) {
        ys_free(y);
        return false;
    }
    return true;
}

void ys_free(ys_state *y) {
    free(y->obb);
    free(y->items);
    y->obb = NULL;
    y->items = NULL;
    ys_keys_free(&y->pairs);
    ys_keys_free(&y->direct_pairs);
    ys_keys_free(&y->candidates);
}

void ys_keys_push(ys_keys *k, uint64_t key) {
    if (k->count == k->capacity) {
        const size_t cap = k->capacity ? 2 * k->capacity : 4096;
        uint64_t *p = realloc(k->items, cap * sizeof *p);
        if (p == NULL) {
            k->out_of_memory = true;
            return;
        }
        k->items = p;
        k->capacity = cap;
    }
    k->items[k->count++] = key;
}

void ys_keys_free(ys_keys *k) {
    free(k->items);
    memset(k, 0, sizeof *k);
}

uint64_t ys_key(int i, int j) {
    const uint32_t lo = (uint32_t)(i < j ? i : j), hi = (uint32_t)(i < j ? j : i);
    return (uint64_t)lo << 32 | hi;
}

void ys_sincos(float rotation, double *c, double *s) {
    const double r = (double)rotation;
    if (fabs(r) < 100000.0) {
        const double k = nearbyint(r / YS_HALF_PI);
        if ((float)(k * YS_HALF_PI) == rotation) {
            static const double cs[4] = {1.0, 0.0, -1.0, 0.0};
            const int q = (int)fmod(fmod(k, 4.0) + 4.0, 4.0);
            *c = cs[q];
            *s = cs[(q + 3) & 3];
            return;
        }
    }
    *c = cos(r);
    *s = sin(r);
}

ys_obb ys_body_obb(const ws_scene *s, int i) {
    const cw_transform *t = &s->xf[i];
    double w, h;
    if (s->kind == WS_BOXES) {
        w = (double)s->shape[i].size.x;
        h = (double)s->shape[i].size.y;
    } else {
        w = h = WS_SPRITE_SIZE;
    }
    double c, sn;
    ys_sincos(t->rotation, &c, &sn);
    // Centre of the local rectangle [0, w] x [0, h], through world = p + R * ((local - o) * scale).
    const double lx = (w / 2.0 - (double)t->origin.x) * (double)t->scale.x;
    const double ly = (h / 2.0 - (double)t->origin.y) * (double)t->scale.y;
    ys_obb o;
    o.cx = (double)t->position.x + c * lx - sn * ly;
    o.cy = (double)t->position.y + sn * lx + c * ly;
    o.ux = c;
    o.uy = sn;
    o.hu = 0.5 * w * fabs((double)t->scale.x);
    o.hv = 0.5 * h * fabs((double)t->scale.y);
    return o;
}

bool ys_obb_overlap(const ys_obb *a, const ys_obb *b, double *margin) {
    // Axes: a.u = (ux, uy), a.v = (-uy, ux), likewise for b. |a.u . b.u| = |a.v . b.v| = |cd| and
    // |a.u . b.v| = |a.v . b.u| = |sd|, with cd, sd the cosine and sine of the angle between them.
    const double dx = b->cx - a->cx, dy = b->cy - a->cy;
    const double cd = fabs(a->ux * b->ux + a->uy * b->uy);
    const double sd = fabs(a->ux * b->uy - a->uy * b->ux);
    const double m0 = a->hu + b->hu * cd + b->hv * sd - fabs(dx * a->ux + dy * a->uy);
    const double m1 = a->hv + b->hu * sd + b->hv * cd - fabs(-dx * a->uy + dy * a->ux);
    const double m2 = b->hu + a->hu * cd + a->hv * sd - fabs(dx * b->ux + dy * b->uy);
    const double m3 = b->hv + a->hu * sd + a->hv * cd - fabs(-dx * b->uy + dy * b->ux);
    if (margin != NULL) {
        *margin = fmin(fmin(m0, m1), fmin(m2, m3));
    }
    return m0 > 0.0 && m1 > 0.0 && m2 > 0.0 && m3 > 0.0;
}

static int ys_cmp_item(const void *x, const void *y) {
    const ys_item *a = x, *b = y;
    if (a->minx != b->minx) {
        return a->minx < b->minx ? -1 : 1;
    }
    return (a->body > b->body) - (a->body < b->body);
}

static bool ys_masks_touch(const ys_state *y, const ws_scene *s, int i, int j) {
    const tb_mask *a = &s->sprites[s->sprite[i]].tbmask, *b = &s->sprites[s->sprite[j]].tbmask;
    const cw_transform *ta = &s->xf[i], *tb = &s->xf[j];
    if (y->fixed_point) {
        return tb_overlap(a, ta, b, tb) || tb_overlap(b, tb, a, ta);
    }
    return tb_overlap_float(a, ta, b, tb) || tb_overlap_float(b, tb, a, ta);
}

ys_counts ys_frame(ys_state *y, const ws_scene *s) {
    ys_counts k = {0, 0, 0};
    const int n = s->n;
    const double t0 = ys_now_ms();
    for (int i = 0; i < n; i++) {
        const ys_obb o = ys_body_obb(s, i);
        y->obb[i] = o;
        const double ex = o.hu * fabs(o.ux) + o.hv * fabs(o.uy);
        const double ey = o.hu * fabs(o.uy) + o.hv * fabs(o.ux);
        ys_item *it = &y->items[i];
        it->minx = o.cx - ex;
        it->maxx = o.cx + ex;
        it->miny = o.cy - ey;
        it->maxy = o.cy + ey;
        it->body = i;
    }
    const double t1 = ys_now_ms();
    qsort(y->items, (size_t)n, sizeof *y->items, ys_cmp_item);
    const double t2 = ys_now_ms();
    y->pairs.count = y->direct_pairs.count = y->candidates.count = 0;
    const bool boxes = s->kind == WS_BOXES, narrow = !y->skip_narrow;
    for (int i = 0; i < n; i++) {
        const ys_item *a = &y->items[i];
        const double amaxx = a->maxx, aminy = a->miny, amaxy = a->maxy;
        for (int j = i + 1; j < n && y->items[j].minx < amaxx; j++) {
            const ys_item *b = &y->items[j];
            if (b->maxy <= aminy || b->miny >= amaxy) {
                continue;
            }
            k.candidates++;
            const int bi = a->body, bj = b->body;
            if (y->direct) {
                ys_keys_push(&y->candidates, ys_key(bi, bj));
                if (cw_overlap(&s->shape[bi], &s->xf[bi], &s->shape[bj], &s->xf[bj], NULL)) {
                    ys_keys_push(&y->direct_pairs, ys_key(bi, bj));
                }
            }
            if (!narrow) {
                continue;
            }
            const bool obb = ys_obb_overlap(&y->obb[bi], &y->obb[bj], NULL);
            bool touch;
            if (boxes) {
                k.tests++;
                touch = obb;
            } else if (obb) {
                k.tests++;
                touch = ys_masks_touch(y, s, bi, bj);
            } else {
                touch = false;
            }
            if (touch) {
                k.touching++;
                if (y->record) {
                    ys_keys_push(&y->pairs, ys_key(bi, bj));
                }
            }
        }
    }
    const double t3 = ys_now_ms();
    y->prep_ms = t1 - t0;
    y->sort_ms = t2 - t1;
    y->sweep_ms = t3 - t2;
    return k;
}

/// One way round: samples inside A's opaque texels, looked up in B.
static bool ys_reference_one_way(const tb_mask *a, const cw_transform *ta, const tb_mask *b,
                                 const cw_transform *tb, int n) {
    double m[4], c[2];
    tb_affine(ta, tb, m, c);
    for (int j = 0; j < a->h; j++) {
        for (int i = 0; i < a->w; i++) {
            if (!a->bits[j * a->w + i]) {
                continue;
            }
            for (int t = 0; t < n; t++) {
                const double py = j + (t + 0.5) / n;
                for (int s = 0; s < n; s++) {
                    const double px = i + (s + 0.5) / n;
                    const double u = floor(m[0] * px + m[1] * py + c[0]);
                    const double v = floor(m[2] * px + m[3] * py + c[1]);
                    if (u >= 0 && v >= 0 && u < b->w && v < b->h && b->bits[(int)v * b->w + (int)u]) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

bool ys_mask_reference(const tb_mask *a, const cw_transform *ta, const tb_mask *b, const cw_transform *tb,
                       int samples) {
    return ys_reference_one_way(a, ta, b, tb, samples) || ys_reference_one_way(b, tb, a, ta, samples);
}
