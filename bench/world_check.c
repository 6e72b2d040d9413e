/// @file world_check.c
/// The world benchmark's set check, untimed (see world_bench.h): a second world whose touching set,
/// rebuilt from its begin and end events, is compared with cw_overlap() and with the yardstick.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collworld.h"
#include "measure.h"
#include "world_bench.h"
#include "world_scene.h"
#include "world_yardstick.h"

#define MAX_PRINT 8

/// The check run: keep every event's pair key (scene indices from user_data).
typedef struct recorder {
    ys_keys begins, ends;
} recorder;

static uint64_t contact_key(const cw_contact *c) {
    return ys_key((int)(uintptr_t)c->user_a, (int)(uintptr_t)c->user_b);
}

static void record_begin(const cw_contact *c, void *context) {
    ys_keys_push(&((recorder *)context)->begins, contact_key(c));
}

static void record_end(const cw_contact *c, void *context) {
    ys_keys_push(&((recorder *)context)->ends, contact_key(c));
}

static int cmp_u64(const void *x, const void *y) {
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static void print_transform(const char *label, const cw_transform *t) {
    printf("      %s = {position {%.9g, %.9g}, rotation %.9g, scale {%.9g, %.9g}, origin {%.9g, %.9g}}\n", label,
           (double)t->position.x, (double)t->position.y, (double)t->rotation, (double)t->scale.x,
           (double)t->scale.y, (double)t->origin.x, (double)t->origin.y);
}

static void print_shape(const ws_scene *s, int i) {
    if (s->kind == WS_BOXES) {
        printf("      body %d: box %.9g x %.9g\n", i, (double)s->shape[i].size.x, (double)s->shape[i].size.y);
    } else {
        printf("      body %d: sprite %s\n", i, s->sprites[s->sprite[i]].name);
    }
    print_transform("transform", &s->xf[i]);
}

/// The world's AABBs of bodies i and j, and whether they overlap.
static void print_world_aabbs(const cw_world *w, const cw_body_id *ids, int i, int j) {
    cw_aabb ba, bb;
    if (cw_body_aabb(w, ids[i], &ba) && cw_body_aabb(w, ids[j], &bb)) {
        const bool overlap = ba.min.x < bb.max.x && bb.min.x < ba.max.x && ba.min.y < bb.max.y && bb.min.y < ba.max.y;
        printf("      world AABBs {%.9g, %.9g}-{%.9g, %.9g} and {%.9g, %.9g}-{%.9g, %.9g} (%s)\n", (double)ba.min.x,
               (double)ba.min.y, (double)ba.max.x, (double)ba.max.y, (double)bb.min.x, (double)bb.min.y,
               (double)bb.max.x, (double)bb.max.y, overlap ? "overlapping" : "disjoint");
    }
}

/// collworld's touching tolerance for two boxes, in world units: 1e-6 local units of the box with
/// the smaller scale (narrow/boxes.c). The scene's boxes have scale 1, so 1e-6.
static double box_tolerance(const ws_scene *s, int i, int j) {
    const double a = fmin(fabs((double)s->xf[i].scale.x), fabs((double)s->xf[i].scale.y));
    const double b = fmin(fabs((double)s->xf[j].scale.x), fabs((double)s->xf[j].scale.y));
    return 1e-6 * fmin(a, b);
}

/// A pair on which the world and the exact OBB test disagree. Returns whether the exact test's
/// smallest separating-axis overlap is within (twice) collworld's documented touching tolerance
/// and cw_overlap() itself agrees with the world: collworld's rule, not a world bug.
static bool box_mismatch(const ws_scene *s, const cw_world *w, const cw_body_id *ids, int frame, int i, int j,
                         bool world_says, bool print) {
    const ys_obb a = ys_body_obb(s, i), b = ys_body_obb(s, j);
    double margin = 0.0;
    const bool exact = ys_obb_overlap(&a, &b, &margin);
    const bool ij = cw_overlap(&s->shape[i], &s->xf[i], &s->shape[j], &s->xf[j], NULL);
    const bool ji = cw_overlap(&s->shape[j], &s->xf[j], &s->shape[i], &s->xf[i], NULL);
    const double tol = box_tolerance(s, i, j);
    const bool within = fabs(margin) <= 2.0 * tol && ij == world_says && ji == world_says;
    if (print) {
        printf("    BOX MISMATCH N = %d, seed %" PRIu64 ", frame %d, bodies %d and %d: the world says %s, the exact "
               "OBB test %s (smallest SAT overlap %.3g units); cw_overlap(i, j) = %d, (j, i) = %d%s\n",
               s->n, s->seed, frame, i, j, world_says ? "touching" : "not touching",
               exact ? "touching" : "not touching", margin, ij, ji,
               within ? " -- within collworld's documented 1e-6 touching tolerance" : "");
        print_world_aabbs(w, ids, i, j);
        print_shape(s, i);
        print_shape(s, j);
    }
    return within;
}

/// Applies one step's events to the sorted set `cur`. Counts ends of pairs not in the set and
/// begins of pairs already in it. False if memory runs out.
static bool apply_events(ys_keys *cur, recorder *rec, long *event_errors) {
    qsort(rec->ends.items, rec->ends.count, sizeof(uint64_t), cmp_u64);
    qsort(rec->begins.items, rec->begins.count, sizeof(uint64_t), cmp_u64);
    size_t out = 0, e = 0;
    for (size_t i = 0; i < cur->count; i++) {
        const uint64_t k = cur->items[i];
        while (e < rec->ends.count && rec->ends.items[e] < k) {
            (*event_errors)++; // an end for a pair that was not touching
            e++;
        }
        if (e < rec->ends.count && rec->ends.items[e] == k) {
            e++;
            continue;
        }
        cur->items[out++] = k;
    }
    *event_errors += (long)(rec->ends.count - e);
    cur->count = out;
    const size_t need = cur->count + rec->begins.count;
    if (need > cur->capacity) {
        size_t c = cur->capacity ? cur->capacity : 4096;
        while (c < need) {
            c *= 2;
        }
        uint64_t *p = realloc(cur->items, c * sizeof *p);
        if (p == NULL) {
            return false;
        }
        cur->items = p;
        cur->capacity = c;
    }
    size_t i = cur->count, j = rec->begins.count, dst = need;
    while (j > 0) {
        if (i > 0 && cur->items[i - 1] > rec->begins.items[j - 1]) {
            cur->items[--dst] = cur->items[--i];
        } else {
            if (i > 0 && cur->items[i - 1] == rec->begins.items[j - 1]) {
                (*event_errors)++; // a begin for a pair already touching
            }
            cur->items[--dst] = rec->begins.items[--j];
        }
    }
    cur->count = need;
    rec->begins.count = rec->ends.count = 0;
    return true;
}

/// Splits the symmetric difference of two sorted key lists.
static void diff_sorted(const ys_keys *a, const ys_keys *b, ys_keys *a_only, ys_keys *b_only) {
    a_only->count = b_only->count = 0;
    size_t i = 0, j = 0;
    while (i < a->count || j < b->count) {
        if (j == b->count || (i < a->count && a->items[i] < b->items[j])) {
            ys_keys_push(a_only, a->items[i++]);
        } else if (i == a->count || b->items[j] < a->items[i]) {
            ys_keys_push(b_only, b->items[j++]);
        } else {
            i++;
            j++;
        }
    }
}

static int key_i(uint64_t k) {
    return (int)(k >> 32);
}

static int key_j(uint64_t k) {
    return (int)(k & 0xFFFFFFFFu);
}

/// Masks: asks the supersampled reference about pairs where the world and the textbook test differ.
static void mask_reference(const ws_scene *s, const ys_keys *world_only, const ys_keys *tb_only, int frame,
                           result *r) {
    for (size_t k = 0; k < world_only->count && r->ref_cw_only_tested < 2 * REF_PAIRS; k++) {
        const int i = key_i(world_only->items[k]), j = key_j(world_only->items[k]);
        const tb_mask *ma = &s->sprites[s->sprite[i]].tbmask, *mb = &s->sprites[s->sprite[j]].tbmask;
        r->ref_cw_only_tested++;
        if (ys_mask_reference(ma, &s->xf[i], mb, &s->xf[j], REF_SAMPLES) ||
            ys_mask_reference(ma, &s->xf[i], mb, &s->xf[j], REF_SAMPLES_FINE)) {
            r->ref_cw_only_confirmed++;
        } else {
            r->ref_cw_only_unconfirmed++;
        }
    }
    for (size_t k = 0; k < tb_only->count && r->ref_ys_only_tested < 2 * REF_PAIRS; k++) {
        const int i = key_i(tb_only->items[k]), j = key_j(tb_only->items[k]);
        const tb_mask *ma = &s->sprites[s->sprite[i]].tbmask, *mb = &s->sprites[s->sprite[j]].tbmask;
        r->ref_ys_only_tested++;
        if (ys_mask_reference(ma, &s->xf[i], mb, &s->xf[j], REF_SAMPLES)) {
            if (r->ref_ys_only_real++ < MAX_PRINT) {
                printf("    MISSED BY COLLWORLD? N = %d, frame %d, bodies %d and %d: the textbook test and the %dx%d "
                       "reference find an overlap, the world does not (cw_overlap = %d)\n",
                       s->n, frame, i, j, REF_SAMPLES, REF_SAMPLES,
                       cw_overlap(&s->shape[i], &s->xf[i], &s->shape[j], &s->xf[j], NULL));
                print_shape(s, i);
                print_shape(s, j);
            }
        }
    }
}

/// Steps a second world (callbacks record every event) through the same frames and compares its
/// touching set, rebuilt from the events, on every frame with cw_overlap() on every pair whose AABBs
/// overlap, and with the yardstick (boxes: every frame; masks: the first and last frame).
void wc_check_sets(ws_scene *s, const options *o, result *r) {
    const int last = o->warmup + o->frames;
    recorder rec;
    memset(&rec, 0, sizeof rec);
    ys_keys cur, world_only, other_only;
    memset(&cur, 0, sizeof cur);
    memset(&world_only, 0, sizeof world_only);
    memset(&other_only, 0, sizeof other_only);
    cw_body_id *ids = malloc(sizeof(cw_body_id) * (size_t)s->n);
    ys_state y;
    if (ids == NULL || !ys_init(&y, s->n)) {
        free(ids);
        printf("  set check: out of memory\n");
        return;
    }
    y.fixed_point = o->fixed_point;
    y.direct = true;
    y.record = true;
    bm_trim_heap();
    ws_scene_reset(s);
    cw_world *w = make_world(o, record_begin, record_end, &rec, false);
    bool ok = w != NULL && add_bodies(w, s, ids);
    int printed_direct = 0, printed_box = 0;
    for (int f = 1; ok && f <= last; f++) {
        ws_scene_advance(s);
        r->errors += push_transforms(w, s, ids);
        cw_world_step(w);
        if (rec.begins.out_of_memory || rec.ends.out_of_memory || !apply_events(&cur, &rec, &r->event_errors)) {
            ok = false;
            break;
        }
        const cw_world_stats st = cw_world_get_stats(w);
        if ((size_t)st.touching_pairs != cur.count && r->stats_vs_events++ < MAX_PRINT) {
            printf("    frame %d: stats.touching_pairs = %d but the events leave %zu pairs touching\n", f,
                   st.touching_pairs, cur.count);
        }
        const bool with_yardstick = s->kind == WS_BOXES || f == 1 || f == last;
        y.skip_narrow = !with_yardstick;
        (void)ys_frame(&y, s);
        if (y.pairs.out_of_memory || y.direct_pairs.out_of_memory || y.candidates.out_of_memory) {
            ok = false;
            break;
        }
        // The world against cw_overlap() on every candidate pair: they must agree exactly.
        qsort(y.direct_pairs.items, y.direct_pairs.count, sizeof(uint64_t), cmp_u64);
        diff_sorted(&cur, &y.direct_pairs, &world_only, &other_only);
        r->direct_frames++;
        r->direct_world_only += (long)world_only.count;
        r->direct_overlap_only += (long)other_only.count;
        r->direct_frames_differing += (world_only.count + other_only.count) != 0;
        for (int side = 0; side < 2; side++) {
            const ys_keys *list = side == 0 ? &world_only : &other_only;
            for (size_t k = 0; k < list->count && printed_direct < MAX_PRINT; k++, printed_direct++) {
                const int i = key_i(list->items[k]), j = key_j(list->items[k]);
                printf("    WORLD != cw_overlap: N = %d, seed %" PRIu64 ", frame %d, bodies %d and %d: the world says "
                       "%s, cw_overlap() says %s\n",
                       s->n, s->seed, f, i, j, side == 0 ? "touching" : "not touching",
                       side == 0 ? "no overlap" : "overlap");
                print_world_aabbs(w, ids, i, j);
                print_shape(s, i);
                print_shape(s, j);
            }
        }
        if (f == last) {
            // How long cw_overlap() alone takes on this frame's candidate pairs (world narrow_ms compares).
            long touching = 0;
            const double t0 = bm_now_ms();
            for (size_t k = 0; k < y.candidates.count; k++) {
                const int i = key_i(y.candidates.items[k]), j = key_j(y.candidates.items[k]);
                touching += cw_overlap(&s->shape[i], &s->xf[i], &s->shape[j], &s->xf[j], NULL);
            }
            r->direct_ms = bm_now_ms() - t0;
            r->direct_count = (long)y.candidates.count;
            r->direct_touching = touching;
        }
        if (!with_yardstick) {
            continue;
        }
        // The world against the yardstick.
        qsort(y.pairs.items, y.pairs.count, sizeof(uint64_t), cmp_u64);
        diff_sorted(&cur, &y.pairs, &world_only, &other_only);
        r->check_frames++;
        r->last_check_frame = f;
        r->last_check_cw = (long)cur.count;
        r->last_check_ys = (long)y.pairs.count;
        r->check_cw_only += (long)world_only.count;
        r->check_ys_only += (long)other_only.count;
        r->check_frames_differing += (world_only.count + other_only.count) != 0;
        if (s->kind == WS_BOXES) {
            for (int side = 0; side < 2; side++) {
                const ys_keys *list = side == 0 ? &world_only : &other_only;
                for (size_t k = 0; k < list->count; k++) {
                    const bool print = printed_box++ < MAX_PRINT;
                    r->check_within_tolerance +=
                        box_mismatch(s, w, ids, f, key_i(list->items[k]), key_j(list->items[k]), side == 0, print);
                }
            }
        } else {
            mask_reference(s, &world_only, &other_only, f, r);
        }
    }
    if (!ok) {
        printf("  set check: out of memory or world failure\n");
    }
    r->checked = ok;
    cw_world_destroy(w);
    ys_free(&y);
    ys_keys_free(&rec.begins);
    ys_keys_free(&rec.ends);
    ys_keys_free(&cur);
    ys_keys_free(&world_only);
    ys_keys_free(&other_only);
    free(ids);
}
