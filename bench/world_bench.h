/// @file world_bench.h
/// What the world benchmark's program (bench_world.c) and its untimed set check (world_check.c)
/// share: the options, one configuration's result, and the world made from the scene. The world is
/// made here, inline, so that the timed frames call push_transforms() as they did from one file.
#ifndef BENCH_WORLD_BENCH_H
#define BENCH_WORLD_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "collworld.h"
#include "world_scene.h"

/// Masks: disagreements checked against the supersampled reference, per compared frame and side.
#define REF_PAIRS 400
#define REF_SAMPLES 8
#define REF_SAMPLES_FINE 32
/// The timed frames' allocations whose sizes are kept (bench_world.c's counting allocator), to
/// show what allocated when the count should have been zero.
#define ALLOC_LOG 8

typedef struct options {
    int n;          ///< 0 = the default list
    bool boxes, masks;
    int frames, warmup;
    double budget;
    uint64_t seed;
    float cell;
    bool fixed_point;
    bool check;
    bool quick;
    bool no_callbacks; ///< Diagnostic: time the world without on_begin / on_end (no manifolds owed).
    bool manifolds;    ///< cw_world_def::manifolds for the timed world (set per run by run_config).
    bool stays;        ///< cw_world_def::report_stays for the timed world: every touching pair's manifold.
} options;

typedef struct result {
    ws_kind kind;
    int n;
    bool ok;               ///< Both runs completed.
    int errors;            ///< collworld calls that failed.
    // collworld, timed run
    int cw_frames;
    double cw_ms, cw_min, cw_max, xf_ms, step_ms, broad_ms, narrow_ms, events_ms;
    double cwm_ms, cwm_events_ms; ///< The second run, with a manifold for every begin.
    double cws_ms, cws_events_ms; ///< The third, with a manifold for every begin and stay.
    double cw_runs_min, cw_runs_max, ys_runs_min, ys_runs_max; ///< Spread of the repeated runs' medians.
    double cw_candidates, cw_tests, cw_touching, cw_begins, cw_ends, cw_moved;
    int cw_large;
    float cell_size;
    long cw_touch_last;
    long *cw_touch;        ///< Per timed frame (stats.touching_pairs).
    long cb_begin_total, cb_end_total, stats_begin_total, stats_end_total; ///< Timed frames.
    double create_ms, first_step_ms;
    int max_touch_warmup, max_touch_timed, max_begins_warmup, max_begins_timed, max_ends_warmup, max_ends_timed;
    size_t logged[ALLOC_LOG];
    int nlogged;
    unsigned long long allocs_setup, allocs_warmup, allocs_timed, frees_timed;
    size_t cw_live_bytes, cw_peak_bytes;
    long rss_before_cw, rss_peak_cw, rss_before_ys, rss_peak_ys;
    // yardstick, timed run
    int ys_frames;
    double ys_ms, ys_min, ys_max, ys_prep_ms, ys_sort_ms, ys_sweep_ms;
    double ys_candidates, ys_tests, ys_touching;
    int count_frames_compared, count_frames_differing;
    long count_max_diff;
    // set check
    bool checked;
    int check_frames, check_frames_differing;  ///< World vs the yardstick.
    long check_cw_only, check_ys_only;
    long check_within_tolerance;               ///< Boxes: differences within collworld's 1e-6 tolerance.
    int direct_frames, direct_frames_differing; ///< World vs cw_overlap() on every candidate pair.
    long direct_world_only, direct_overlap_only;
    long event_errors, stats_vs_events;
    int last_check_frame;
    long last_check_cw, last_check_ys;
    long ref_cw_only_confirmed, ref_cw_only_unconfirmed, ref_cw_only_tested;
    long ref_ys_only_real, ref_ys_only_tested;
    long direct_count, direct_touching;        ///< Last frame: candidates given to cw_overlap(), touching.
    double direct_ms;                          ///< Time of those cw_overlap() calls alone.
} result;

static inline cw_world *make_world(const options *o, cw_contact_fn *on_begin, cw_contact_fn *on_end, void *context,
                                   bool timed) {
    cw_world_def def = cw_default_world_def();
    def.cell_size = o->cell;
    def.on_begin = timed && o->no_callbacks ? NULL : on_begin;
    def.on_end = timed && o->no_callbacks ? NULL : on_end;
    def.on_stay = NULL;
    def.manifolds = o->manifolds;
    def.report_stays = timed && o->stays;
    def.context = context;
    return cw_world_create(&def);
}

static inline bool add_bodies(cw_world *w, const ws_scene *s, cw_body_id *ids) {
    for (int i = 0; i < s->n; i++) {
        cw_body_def d = cw_default_body_def();
        d.shape = s->shape[i];
        d.transform = s->xf[i];
        d.user_data = (void *)(uintptr_t)i;
        ids[i] = cw_body_create(w, &d);
        if (cw_body_id_is_null(ids[i])) {
            fprintf(stderr, "bench_world: cw_body_create failed for body %d: %s\n", i, cw_last_error());
            return false;
        }
    }
    return true;
}

/// Sets every body's transform from the scene; counts failures.
static inline int push_transforms(cw_world *w, const ws_scene *s, const cw_body_id *ids) {
    int failed = 0;
    for (int i = 0; i < s->n; i++) {
        failed += !cw_body_set_transform(w, ids[i], &s->xf[i]);
    }
    return failed;
}

/// Steps a second world (callbacks record every event) through the same frames as the timed runs
/// and compares its touching sets (world_check.c); fills the result's set-check fields.
void wc_check_sets(ws_scene *s, const options *o, result *r);

#endif
