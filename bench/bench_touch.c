/// @file bench_touch.c
/// What gameplay code asks between events, and what the step pays for it, on the sprites scene
/// (world_scene.c: 10,000 and 100,000 moving boxes, manifolds off as in bench_world's headline).
///
/// 1. The step, per frame (every body set, then cw_world_step()), five ways of taking the events:
///    - callbacks: on_begin / on_end that count, cw_world_def::event_arrays off;
///    - arrays: no callbacks, the arrays of cw_world_events() read after the step;
///    - both (the default def): counting callbacks, the arrays on but never asked for;
///    - stays by callback: on_stay too (every touching pair, every frame), arrays off;
///    - stays by array: report_stays, no callbacks, the arrays read after the step.
/// 2. Per call, after the last frame: cw_body_touching() for every body (a 64-entry buffer), against
///    what a game would do without it: cw_world_query_shape() with the body's own shape and
///    transform (the same answer plus the body itself); cw_pair_touching() on pairs that touch and
///    on random pairs.
/// Timings are medians over frames of the median of REPEATS runs made afresh, in one process.
///
/// Usage: bench_touch [--quick] [--n N]
///   --quick  N = 2000, few frames (smoke runs, callgrind)
///   --n N    only this many bodies (default: 10000 and 100000)
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "collworld.h"
#include "rng.h"
#include "world_scene.h"

#define REPEATS 3
#define SEED 2024u
#define BUFFER 64

typedef enum mode { CALLBACKS, ARRAYS, BOTH, STAYS_CALLBACK, STAYS_ARRAY, MODES } mode;
static const char *const MODE_NAMES[MODES] = {"callbacks (arrays off)", "arrays (no callbacks)",
                                              "callbacks + arrays (default)", "stays by callback (arrays off)",
                                              "stays by array (report_stays)"};

typedef struct options {
    int frames, warmup;
    int n_list[2], n_count;
} options;

static void count_event(const cw_contact *c, void *context)
{
    (void)c;
    ++*(long *)context;
}

static cw_world *make_world(mode m, long *counter)
{
    cw_world_def def = cw_default_world_def();
    def.manifolds = false;
    def.context = counter;
    def.event_arrays = m == ARRAYS || m == BOTH || m == STAYS_ARRAY;
    def.report_stays = m == STAYS_ARRAY;
    if (m == CALLBACKS || m == BOTH || m == STAYS_CALLBACK)
        def.on_begin = count_event, def.on_end = count_event;
    if (m == STAYS_CALLBACK)
        def.on_stay = count_event;
    return cw_world_create(&def);
}

static bool add_bodies(cw_world *w, const ws_scene *s, cw_body_id *ids)
{
    for (int i = 0; i < s->n; i++) {
        cw_body_def d = cw_default_body_def();
        d.shape = s->shape[i];
        d.transform = s->xf[i];
        ids[i] = cw_body_create(w, &d);
        if (cw_body_id_is_null(ids[i]))
            return false;
    }
    return true;
}

// Reads what the arrays hold, as a system that handles them after the step would.
static long read_arrays(const cw_world *w)
{
    cw_events ev = cw_world_events(w);
    long sum = 0;
    for (int k = 0; k < ev.begin_count; k++)
        sum += ev.begins[k].a.index;
    for (int k = 0; k < ev.end_count; k++)
        sum += ev.ends[k].b.index;
    for (int k = 0; k < ev.stay_count; k++)
        sum += ev.stays[k].a.index ^ ev.stays[k].b.index;
    return sum;
}

typedef struct step_result {
    double ms;       ///< Median frame (set every body + step + read the arrays), median run.
    double events;   ///< Events per frame, mean.
    int touching;    ///< Touching pairs after the last frame.
} step_result;

// One run made afresh: warm-up, then timed frames; returns the median frame.
static double run_once(const options *o, ws_scene *s, cw_body_id *ids, mode m, double *events, int *touching)
{
    long counter = 0, sink = 0;
    ws_scene_reset(s);
    cw_world *w = make_world(m, &counter);
    if (w == NULL || !add_bodies(w, s, ids)) {
        fprintf(stderr, "bench_touch: out of memory\n");
        exit(1);
    }
    double *frame = malloc(sizeof *frame * (size_t)o->frames);
    long event_total = 0;
    for (int f = 0; f < o->warmup + o->frames; f++) {
        ws_scene_advance(s);
        double t0 = bm_now_ms() / 1e3;
        for (int i = 0; i < s->n; i++)
            cw_body_set_transform(w, ids[i], &s->xf[i]);
        cw_world_step(w);
        if (m == ARRAYS || m == STAYS_ARRAY)
            sink += read_arrays(w);
        double t1 = bm_now_ms() / 1e3;
        cw_world_stats st = cw_world_get_stats(w);
        if (f >= o->warmup) {
            frame[f - o->warmup] = (t1 - t0) * 1e3;
            event_total += st.begin_events + st.end_events + st.stay_events;
        }
    }
    *events = (double)event_total / o->frames;
    *touching = cw_world_get_stats(w).touching_pairs;
    double ms = bm_median(frame, o->frames);
    free(frame);
    cw_world_destroy(w);
    if (sink == 42) // keeps the reads
        printf(" ");
    return ms;
}

static step_result time_mode(const options *o, ws_scene *s, cw_body_id *ids, mode m)
{
    step_result r = {0, 0, 0};
    double runs[REPEATS];
    for (int k = 0; k < REPEATS; k++)
        runs[k] = run_once(o, s, ids, m, &r.events, &r.touching);
    r.ms = bm_median(runs, REPEATS);
    return r;
}

// --- per call ---

static bool count_found(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    ++*(long *)context;
    return true;
}

typedef struct call_result {
    double touching_ns, query_ns, pair_hit_ns, pair_random_ns;
    double partners;   ///< Mean bodies each body touches.
    long query_found;  ///< Bodies the shape queries found (each body finds itself too).
} call_result;

static call_result time_calls(const options *o, ws_scene *s, cw_body_id *ids)
{
    call_result r;
    memset(&r, 0, sizeof r);
    long counter = 0;
    ws_scene_reset(s);
    cw_world *w = make_world(BOTH, &counter);
    if (w == NULL || !add_bodies(w, s, ids))
        exit(1);
    for (int f = 0; f < o->warmup; f++) {
        ws_scene_advance(s);
        for (int i = 0; i < s->n; i++)
            cw_body_set_transform(w, ids[i], &s->xf[i]);
        cw_world_step(w);
    }
    static cw_touch out[BUFFER];
    double touching[REPEATS], query[REPEATS], hit[REPEATS], random_pair[REPEATS];
    long partners = 0, found = 0, yes = 0;
    // Touching pairs to ask about: each body's first partner.
    cw_body_id *pa = malloc(sizeof *pa * (size_t)s->n), *pb = malloc(sizeof *pb * (size_t)s->n);
    int pairs = 0;
    for (int i = 0; i < s->n; i++)
        if (cw_body_touching(w, ids[i], out, 1) > 0)
            pa[pairs] = ids[i], pb[pairs++] = out[0].body;
    bench_rng rng = bench_rng_make(SEED ^ 0x7a1);
    for (int k = 0; k < REPEATS; k++) {
        partners = found = 0;
        double t0 = bm_now_ms() / 1e3;
        for (int i = 0; i < s->n; i++)
            partners += cw_body_touching(w, ids[i], out, BUFFER);
        double t1 = bm_now_ms() / 1e3;
        for (int i = 0; i < s->n; i++)
            cw_world_query_shape(w, &s->shape[i], &s->xf[i], cw_default_query_filter(), false, count_found, &found);
        double t2 = bm_now_ms() / 1e3;
        for (int i = 0; i < pairs; i++)
            yes += cw_pair_touching(w, pa[i], pb[i]);
        double t3 = bm_now_ms() / 1e3;
        for (int i = 0; i < s->n; i++)
            yes += cw_pair_touching(w, ids[i], ids[bench_rng_int(&rng, 0, s->n - 1)]);
        double t4 = bm_now_ms() / 1e3;
        touching[k] = (t1 - t0) * 1e9 / s->n;
        query[k] = (t2 - t1) * 1e9 / s->n;
        hit[k] = pairs ? (t3 - t2) * 1e9 / pairs : 0;
        random_pair[k] = (t4 - t3) * 1e9 / s->n;
    }
    r.touching_ns = bm_median(touching, REPEATS);
    r.query_ns = bm_median(query, REPEATS);
    r.pair_hit_ns = bm_median(hit, REPEATS);
    r.pair_random_ns = bm_median(random_pair, REPEATS);
    r.partners = (double)partners / s->n;
    r.query_found = found;
    if (found - s->n != partners) // the query finds each body itself, and what it touches
        fprintf(stderr, "bench_touch: queries found %ld others, cw_body_touching %ld\n", found - s->n, partners);
    free(pa), free(pb);
    cw_world_destroy(w);
    return r;
}

static void run_n(const options *o, int n)
{
    ws_scene s;
    if (!ws_scene_init(&s, WS_BOXES, n, SEED, NULL)) {
        fprintf(stderr, "bench_touch: out of memory\n");
        exit(1);
    }
    cw_body_id *ids = malloc(sizeof *ids * (size_t)n);
    printf("\n%d boxes, %d timed frames after %d, median of %d runs:\n\n", n, o->frames, o->warmup, REPEATS);
    printf("| events taken by | ms/frame | events/frame | vs callbacks |\n|---|---:|---:|---:|\n");
    step_result r[MODES];
    for (int m = 0; m < MODES; m++)
        r[m] = time_mode(o, &s, ids, (mode)m);
    for (int m = 0; m < MODES; m++) {
        const step_result *base = &r[m >= STAYS_CALLBACK ? STAYS_CALLBACK : CALLBACKS];
        printf("| %s | %.3f | %.0f | %.2fx |\n", MODE_NAMES[m], r[m].ms, r[m].events, r[m].ms / base->ms);
    }
    call_result c = time_calls(o, &s, ids);
    printf("\n%d touching pairs; each body touches %.2f on average.\n\n", r[0].touching, c.partners);
    printf("| per call | ns |\n|---|---:|\n");
    printf("| cw_body_touching (64-entry buffer) | %.0f |\n", c.touching_ns);
    printf("| cw_world_query_shape with the body's own shape (the alternative) | %.0f (%.1fx) |\n", c.query_ns,
           c.query_ns / c.touching_ns);
    printf("| cw_pair_touching, a touching pair | %.0f |\n", c.pair_hit_ns);
    printf("| cw_pair_touching, a random pair | %.0f |\n", c.pair_random_ns);
    free(ids);
    ws_scene_free(&s);
}

int main(int argc, char **argv)
{
    options o = {20, 5, {10000, 100000}, 2};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            o.frames = 5, o.warmup = 2, o.n_list[0] = 2000, o.n_count = 1;
        } else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
            o.n_list[0] = atoi(argv[++i]), o.n_count = 1;
        } else {
            fprintf(stderr, "usage: bench_touch [--quick] [--n N]\n");
            return 2;
        }
    }
    printf("bench_touch: the sprites scene, boxes, manifolds off; collworld %s\n", cw_version());
    for (int k = 0; k < o.n_count; k++)
        run_n(&o, o.n_list[k]);
    return 0;
}
