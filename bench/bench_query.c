/// @file bench_query.c
/// Query benchmark: in the sprites scene (world_scene.h: boxes, then 32x32 masks, in an 8192 x 8192
/// world), after a few stepped frames, times the world's queries against a brute-force loop over all
/// bodies in the same run, and checks that the two agree:
///   - points: cw_world_query_point vs cw_shape_contains_point on every body whose cw_body_aabb
///     contains the point (the AABBs are read once, before timing);
///   - AABBs of 128 x 128: cw_world_query_aabb vs an AABB overlap test on every body's cw_body_aabb;
///   - rays of length 1000 in random directions, closest hit: cw_world_raycast_closest vs
///     cw_shape_raycast on every body, keeping the closest.
/// Times are medians over the repeats, in µs per query. The brute force runs on the first queries of
/// each set only (see --brute-*), which is enough for a per-query time and keeps the run short.
/// Prints a Markdown table with the speed-up against the target (≥ 50x for points and rays).
///
/// Usage: bench_query [--quick] [--n N] [--repeats R] [--frames F] [--seed S]
///                    [--brute-points P] [--brute-boxes B] [--brute-rays Q]
///   --quick          N = 2000, fewer queries and repeats (smoke runs)
///   --n N            bodies (default 10000)
///   --repeats R      timed repeats per measurement (default 5; brute force: at most 3)
///   --frames F       frames stepped before the queries (default 5)
///   --brute-points P points the brute force answers (default 10000 of the 100000)
///   --brute-boxes B  boxes the brute force answers (default 10000: all)
///   --brute-rays Q   rays the brute force answers (default 500 of the 10000)
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "collworld.h"
#include "rng.h"
#include "world_scene.h"

#define POINTS 100000
#define BOXES 10000
#define RAYS 10000
#define BOX_SIDE 128.0
#define RAY_LENGTH 1000.0
#define TARGET 50.0
#define MAX_REPEATS 15

typedef struct options {
    int n, repeats, frames, points, boxes, rays, brute_points, brute_boxes, brute_rays;
    uint64_t seed;
} options;

/// The query sets, the same for the world and the brute force.
typedef struct queries {
    int points, boxes, rays;
    cw_vec2 *point;
    cw_aabb *box;
    cw_vec2 *origin, *translation;
} queries;

/// A world built from the scene, and what the brute force reads once.
typedef struct bench {
    ws_scene scene;
    cw_world *world;
    cw_body_id *ids;
    cw_aabb *aabbs;
} bench;

/// Per-query answers: counts for points and boxes, closest body (index, or -1) and fraction for rays.
typedef struct answers {
    int *count;
    int *closest;
    float *fraction;
} answers;

/// One row of the table.
typedef struct row {
    const char *kind, *query;
    int count, brute_count;
    double world_us, brute_us;
    long disagree;
    bool has_target;
} row;

static void *xcalloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size);
    if (p == NULL) {
        fprintf(stderr, "bench_query: out of memory\n");
        exit(1);
    }
    return p;
}

/// Exits with the library's message if a query failed (say, against a stub that is not implemented).
static void require(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "bench_query: %s failed: %s\n", what, cw_last_error());
        exit(1);
    }
}

// ---------------------------------------------------------------------------------------------------
// Setup.

static void make_queries(queries *q, const options *o) {
    bench_rng r = bench_rng_make(o->seed ^ 0x51E41E5ull);
    q->points = o->points, q->boxes = o->boxes, q->rays = o->rays;
    q->point = xcalloc((size_t)q->points, sizeof *q->point);
    q->box = xcalloc((size_t)q->boxes, sizeof *q->box);
    q->origin = xcalloc((size_t)q->rays, sizeof *q->origin);
    q->translation = xcalloc((size_t)q->rays, sizeof *q->translation);
    const double size = (double)WS_WORLD_SIZE;
    for (int i = 0; i < q->points; i++) {
        q->point[i] = (cw_vec2){(float)bench_rng_range(&r, 0, size), (float)bench_rng_range(&r, 0, size)};
    }
    for (int i = 0; i < q->boxes; i++) {
        const double x = bench_rng_range(&r, 0, size - BOX_SIDE), y = bench_rng_range(&r, 0, size - BOX_SIDE);
        q->box[i] = (cw_aabb){{(float)x, (float)y}, {(float)(x + BOX_SIDE), (float)(y + BOX_SIDE)}};
    }
    for (int i = 0; i < q->rays; i++) {
        const double a = bench_rng_range(&r, 0, 2 * 3.14159265358979323846);
        q->origin[i] = (cw_vec2){(float)bench_rng_range(&r, 0, size), (float)bench_rng_range(&r, 0, size)};
        q->translation[i] = (cw_vec2){(float)(RAY_LENGTH * cos(a)), (float)(RAY_LENGTH * sin(a))};
    }
}

static void free_queries(queries *q) {
    free(q->point);
    free(q->box);
    free(q->origin);
    free(q->translation);
}

/// The scene's world after `frames` stepped frames (every body moved each frame), and its AABBs.
static void make_bench(bench *b, ws_kind kind, const options *o, const ws_sprite *sprites) {
    if (!ws_scene_init(&b->scene, kind, o->n, o->seed, sprites)) {
        fprintf(stderr, "bench_query: out of memory\n");
        exit(1);
    }
    cw_world_def def = cw_default_world_def();
    def.manifolds = false;
    b->world = cw_world_create(&def);
    require(b->world != NULL, "cw_world_create");
    b->ids = xcalloc((size_t)o->n, sizeof *b->ids);
    b->aabbs = xcalloc((size_t)o->n, sizeof *b->aabbs);
    for (int i = 0; i < o->n; i++) {
        cw_body_def d = cw_default_body_def();
        d.shape = b->scene.shape[i];
        d.transform = b->scene.xf[i];
        d.user_data = (void *)(uintptr_t)i;
        b->ids[i] = cw_body_create(b->world, &d);
        require(!cw_body_id_is_null(b->ids[i]), "cw_body_create");
    }
    for (int f = 0; f < o->frames; f++) {
        ws_scene_advance(&b->scene);
        for (int i = 0; i < o->n; i++) {
            require(cw_body_set_transform(b->world, b->ids[i], &b->scene.xf[i]), "cw_body_set_transform");
        }
        cw_world_step(b->world);
    }
    for (int i = 0; i < o->n; i++) {
        require(cw_body_aabb(b->world, b->ids[i], &b->aabbs[i]), "cw_body_aabb");
    }
}

static void free_bench(bench *b) {
    cw_world_destroy(b->world);
    ws_scene_free(&b->scene);
    free(b->ids);
    free(b->aabbs);
}

static answers make_answers(int n) {
    answers a = {xcalloc((size_t)n, sizeof(int)), xcalloc((size_t)n, sizeof(int)), xcalloc((size_t)n, sizeof(float))};
    return a;
}

static void free_answers(answers *a) {
    free(a->count);
    free(a->closest);
    free(a->fraction);
}

// ---------------------------------------------------------------------------------------------------
// The world's queries.

static bool count_fn(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context) {
    (void)body, (void)user_data, (void)manifold;
    (*(int *)context)++;
    return true;
}

static void world_points(const bench *b, const queries *q, int n, answers *out) {
    for (int i = 0; i < n; i++) {
        out->count[i] = 0;
        require(cw_world_query_point(b->world, q->point[i], cw_default_query_filter(), count_fn, &out->count[i]),
                "cw_world_query_point");
    }
}

static void world_boxes(const bench *b, const queries *q, int n, answers *out) {
    for (int i = 0; i < n; i++) {
        out->count[i] = 0;
        require(cw_world_query_aabb(b->world, q->box[i], cw_default_query_filter(), count_fn, &out->count[i]),
                "cw_world_query_aabb");
    }
}

static void world_rays(const bench *b, const queries *q, int n, answers *out) {
    for (int i = 0; i < n; i++) {
        cw_ray_hit hit;
        cw_clear_error();
        if (cw_world_raycast_closest(b->world, q->origin[i], q->translation[i], cw_default_query_filter(), &hit)) {
            out->closest[i] = (int)(uintptr_t)hit.user_data;
            out->fraction[i] = hit.fraction;
        } else {
            require(cw_last_error()[0] == '\0', "cw_world_raycast_closest");
            out->closest[i] = -1;
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Brute force over all bodies.

static bool aabb_contains(const cw_aabb *a, cw_vec2 p) {
    return p.x >= a->min.x && p.x <= a->max.x && p.y >= a->min.y && p.y <= a->max.y;
}

/// Whether the intersection has positive area.
static bool aabbs_overlap(const cw_aabb *a, const cw_aabb *b) {
    return fminf(a->max.x, b->max.x) > fmaxf(a->min.x, b->min.x) && fminf(a->max.y, b->max.y) > fmaxf(a->min.y, b->min.y);
}

static void brute_points(const bench *b, const queries *q, int n, answers *out) {
    const ws_scene *s = &b->scene;
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (int k = 0; k < s->n; k++) {
            if (aabb_contains(&b->aabbs[k], q->point[i])) {
                count += cw_shape_contains_point(&s->shape[k], &s->xf[k], q->point[i]);
            }
        }
        out->count[i] = count;
    }
}

static void brute_boxes(const bench *b, const queries *q, int n, answers *out) {
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (int k = 0; k < b->scene.n; k++) {
            count += aabbs_overlap(&b->aabbs[k], &q->box[i]);
        }
        out->count[i] = count;
    }
}

static void brute_rays(const bench *b, const queries *q, int n, answers *out) {
    const ws_scene *s = &b->scene;
    for (int i = 0; i < n; i++) {
        int best = -1;
        float best_fraction = 2.0f;
        for (int k = 0; k < s->n; k++) {
            cw_ray_hit hit;
            if (cw_shape_raycast(&s->shape[k], &s->xf[k], q->origin[i], q->translation[i], &hit) &&
                hit.fraction < best_fraction) {
                best = k;
                best_fraction = hit.fraction;
            }
        }
        out->closest[i] = best;
        out->fraction[i] = best_fraction;
    }
}

// ---------------------------------------------------------------------------------------------------
// Timing and agreement.

typedef void query_loop(const bench *b, const queries *q, int n, answers *out);

/// Median µs per query of `repeats` runs of `loop` over the first n queries.
static double time_loop(query_loop *loop, const bench *b, const queries *q, int n, int repeats, answers *out) {
    double us[MAX_REPEATS];
    for (int r = 0; r < repeats; r++) {
        const double t0 = bm_now_ms() * 1e3;
        loop(b, q, n, out);
        us[r] = (bm_now_ms() * 1e3 - t0) / n;
    }
    return bm_median(us, repeats);
}

static long count_disagreements(const answers *w, const answers *bf, int n, bool rays) {
    long bad = 0;
    for (int i = 0; i < n; i++) {
        if (!rays) {
            bad += w->count[i] != bf->count[i];
        } else if ((w->closest[i] < 0) != (bf->closest[i] < 0)) {
            bad++;
        } else if (w->closest[i] >= 0) {
            // The same entry fraction; two bodies entered at the same fraction are both right.
            bad += fabsf(w->fraction[i] - bf->fraction[i]) > 1e-6f;
        }
    }
    return bad;
}

static row measure(const char *kind, const char *query, query_loop *world, query_loop *brute, const bench *b,
                   const queries *q, int count, int brute_count, const options *o) {
    answers wa = make_answers(count), ba = make_answers(brute_count);
    row r = {kind, query, count, brute_count, 0, 0, 0, brute != brute_boxes};
    world(b, q, count, &wa); // warm-up
    r.world_us = time_loop(world, b, q, count, o->repeats, &wa);
    r.brute_us = time_loop(brute, b, q, brute_count, o->repeats < 3 ? o->repeats : 3, &ba);
    r.disagree = count_disagreements(&wa, &ba, brute_count, brute == brute_rays);
    free_answers(&wa);
    free_answers(&ba);
    return r;
}

static int run_kind(ws_kind kind, const options *o, const ws_sprite *sprites, row *rows) {
    bench b;
    make_bench(&b, kind, o, sprites);
    queries q;
    make_queries(&q, o);
    const char *name = kind == WS_BOXES ? "boxes 8–64" : "32×32 masks scaled to 8–64";
    rows[0] = measure(name, "point", world_points, brute_points, &b, &q, q.points, o->brute_points, o);
    rows[1] = measure(name, "AABB 128×128", world_boxes, brute_boxes, &b, &q, q.boxes, o->brute_boxes, o);
    rows[2] = measure(name, "ray 1000, closest", world_rays, brute_rays, &b, &q, q.rays, o->brute_rays, o);
    free_queries(&q);
    free_bench(&b);
    return 3;
}

// ---------------------------------------------------------------------------------------------------
// Options and output.

static int clamp_int(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static bool parse(int argc, char **argv, options *o) {
    *o = (options){10000, 5, 5, POINTS, BOXES, RAYS, 10000, BOXES, 500, 2024};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) {
            o->n = 2000, o->repeats = 3, o->points = 20000, o->boxes = 2000, o->rays = 2000;
            o->brute_points = 2000, o->brute_boxes = 2000, o->brute_rays = 200;
        } else if (v && strcmp(a, "--n") == 0) {
            o->n = atoi(v), i++;
        } else if (v && strcmp(a, "--repeats") == 0) {
            o->repeats = atoi(v), i++;
        } else if (v && strcmp(a, "--frames") == 0) {
            o->frames = atoi(v), i++;
        } else if (v && strcmp(a, "--seed") == 0) {
            o->seed = strtoull(v, NULL, 0), i++;
        } else if (v && strcmp(a, "--brute-points") == 0) {
            o->brute_points = atoi(v), i++;
        } else if (v && strcmp(a, "--brute-boxes") == 0) {
            o->brute_boxes = atoi(v), i++;
        } else if (v && strcmp(a, "--brute-rays") == 0) {
            o->brute_rays = atoi(v), i++;
        } else {
            return false;
        }
    }
    o->repeats = clamp_int(o->repeats, 1, MAX_REPEATS);
    o->brute_points = clamp_int(o->brute_points, 1, o->points);
    o->brute_boxes = clamp_int(o->brute_boxes, 1, o->boxes);
    o->brute_rays = clamp_int(o->brute_rays, 1, o->rays);
    return o->n > 0 && o->frames >= 0;
}

static void print_table(const row *rows, int n, const options *o) {
    printf("\n| shapes | query | world µs/query | brute force µs/query | speed-up | world = brute force | target |\n");
    printf("|---|---|---:|---:|---:|---|---:|\n");
    for (int i = 0; i < n; i++) {
        const row *r = &rows[i];
        const double ratio = r->brute_us / r->world_us;
        char agree[64], target[32];
        if (r->disagree == 0) {
            snprintf(agree, sizeof agree, "yes (%d queries)", r->brute_count);
        } else {
            snprintf(agree, sizeof agree, "**NO: %ld of %d differ**", r->disagree, r->brute_count);
        }
        if (r->has_target) {
            snprintf(target, sizeof target, "≥ %.0fx%s", TARGET, ratio >= TARGET ? "" : " (missed)");
        } else {
            snprintf(target, sizeof target, "—");
        }
        printf("| %s | %s | %.3f | %.1f | %.*fx | %s | %s |\n", r->kind, r->query, r->world_us, r->brute_us,
               ratio < 10 ? 1 : 0, ratio, agree, target);
    }
    printf("\n%d bodies, %d frames stepped first; world times over %d points, %d boxes, %d rays (medians of %d "
           "repeats); brute force over the first %d, %d and %d of them.\n",
           o->n, o->frames, o->points, o->boxes, o->rays, o->repeats, o->brute_points, o->brute_boxes, o->brute_rays);
}

int main(int argc, char **argv) {
    options o;
    if (!parse(argc, argv, &o)) {
        fprintf(stderr, "usage: bench_query [--quick] [--n N] [--repeats R] [--frames F] [--seed S] "
                        "[--brute-points P] [--brute-boxes B] [--brute-rays Q]\n");
        return 2;
    }
    static ws_sprite sprites[WS_SPRITE_COUNT];
    if (!ws_sprites_build(sprites)) {
        fprintf(stderr, "bench_query: could not build the sprites: %s\n", cw_last_error());
        return 1;
    }
    printf("collworld queries vs brute force over all bodies, sprites scene %.0f x %.0f\n", (double)WS_WORLD_SIZE,
           (double)WS_WORLD_SIZE);
    row rows[6];
    int n = run_kind(WS_BOXES, &o, sprites, rows);
    n += run_kind(WS_MASKS, &o, sprites, rows + n);
    print_table(rows, n, &o);
    int status = 0;
    for (int i = 0; i < n; i++) {
        status |= rows[i].disagree != 0;
    }
    ws_sprites_free(sprites);
    return status;
}
