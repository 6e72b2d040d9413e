// Random scenes for the query tests that compare the world with brute force over every live body:
// a world of boxes and masks (rotated, scaled, mirrored, some on the texel grid, some static, some
// spanning many cells, random filters; in one scene, sizes over six decades) and a mirror of its
// live bodies as the test set them, changed after its last step or never stepped at all, so that
// queries must see the bodies as they are now.
// Near-degenerate cases the slow reference (query_ref.h) cannot decide are skipped and counted in a
// tally; the tests require them to be rare. CW_TEST_ONLY=<seed> runs only the scene with that seed.
#ifndef CW_TEST_QUERY_SCENE_H
#define CW_TEST_QUERY_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include <collworld.h>

#include "gen.h"
#include "query_found.h"
#include "query_ref.h"

#define QS_MAX_PRINT 12    // failures printed per scene
#define QS_MAX_FAILURES 40 // a scene stops checking after this many

// The palette of a scene's shapes: random boxes, random masks, an empty mask, a wall many cells long
// and a slab.
enum {
    QS_PAL_BOXES = 8,
    QS_PAL_MASKS = 8,
    QS_PAL_EMPTY = QS_PAL_BOXES + QS_PAL_MASKS,
    QS_PAL_WALL,
    QS_PAL_SLAB,
    QS_PAL_COUNT
};

typedef struct qs_body {
    cw_body_id id;
    int shape; // palette index
    cw_transform t;
    uint32_t category, collides_with;
    bool is_static;
    void *user;
} qs_body;

typedef struct qs_params {
    const char *name;
    uint64_t seed;
    float cell_size;
    int bodies, rounds;
    double cx, cy, spread;
    bool never_step;
    double scale_decades; // bodies (and query shapes) scaled by 10^U(-d, d): sizes over 2d decades
} qs_params;

typedef struct qs_tally {
    long cases, skipped; // queries compared, and those with a body the reference could not decide
} qs_tally;

typedef struct qs_scene {
    const qs_params *p;
    int round;
    cw_world *w;
    gen_shape pal[QS_PAL_COUNT];
    qs_body *b;
    int n, cap;
    gen_rng r;
    int failures;
    qs_tally points, edges, boxes, shapes, rays;
    long edge_inexact; // edge points that did not map to the world exactly (not compared)
    qf_found *found;
    qf_rays_found *rays_found;
    qr_ray *refs; // per body, for the current ray
} qs_scene;

// Counts a failure of the scene's current round, printing the first QS_MAX_PRINT.
void qs_fail(qs_scene *sc, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void qs_print_body(const qs_scene *sc, const qs_body *b);
const cw_shape *qs_body_shape(const qs_scene *sc, const qs_body *b);
// Where body `id` is in the mirror, or -1.
int qs_body_index(const qs_scene *sc, cw_body_id id);
// Whether the scene has failed often enough to stop checking.
bool qs_stopped(const qs_scene *sc);

// A spot within `margin` times the scene's spread of its centre.
cw_vec2 qs_random_spot(qs_scene *sc, double margin);
// On the texel grid: a quarter turn, a scale of +-0.5, 1, 1.5, 2 or 3, half-integer origin, integer position.
void qs_snapped(gen_rng *r, double cx, double cy, double spread, cw_transform *t);
// A transform for palette shape `shape`: on the texel grid at times, now and then a huge sprite.
void qs_random_body_transform(qs_scene *sc, int shape, cw_transform *t);
cw_query_filter qs_random_query_filter(gen_rng *r);
// A point in a random opaque texel (or the box) of a random body, near its middle or anywhere in it.
cw_vec2 qs_point_in_body(qs_scene *sc, const qs_body *b);
cw_vec2 qs_random_direction(gen_rng *r, double length);

void qs_print_tally(const char *name, const qs_tally *t);
// Skips must be rare: at most 2% of the cases of each kind (and some cases must have been compared).
void qs_expect_rare(const char *name, const qs_tally *t);

typedef struct qs_totals {
    qs_tally points, edges, boxes, shapes, rays;
    long edge_inexact;
    int failures;
} qs_totals;

// A round's queries; `checks` is the test's own choice of them, passed through.
typedef void qs_round_fn(qs_scene *sc, int checks);

// Runs every scene: each round steps it (unless it never steps) and changes it after the step, then
// asks check_round's queries. Sums the scenes' tallies in *tot, prints them, and fails the test if
// any query failed.
void qs_run_scenes(int checks, qs_round_fn *check_round, qs_totals *tot);

#endif
