// Random query scenes (query_scene.h): a world and a mirror of its live bodies, as the test set them.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query_scene.h"
#include "suites.h" // cmocka, for the scenes' assertions

void qs_fail(qs_scene *sc, const char *format, ...)
{
    if (sc->failures++ >= QS_MAX_PRINT)
        return;
    printf("  [scene \"%s\" seed 0x%llx round %d] ", sc->p->name, (unsigned long long)sc->p->seed, sc->round);
    va_list ap;
    va_start(ap, format);
    vprintf(format, ap);
    va_end(ap);
    printf("\n");
}

void qs_print_body(const qs_scene *sc, const qs_body *b)
{
    printf("    body {%u, %u} user %d filter %#x/%#x%s\n", b->id.index, b->id.generation, qf_user_index(b->user),
           b->category, b->collides_with, b->is_static ? " static" : "");
    gen_print_shape(stdout, "shape", &sc->pal[b->shape]);
    gen_print_transform(stdout, "transform", &b->t);
}

const cw_shape *qs_body_shape(const qs_scene *sc, const qs_body *b) { return &sc->pal[b->shape].shape; }

int qs_body_index(const qs_scene *sc, cw_body_id id)
{
    for (int k = 0; k < sc->n; k++)
        if (qf_same_id(sc->b[k].id, id))
            return k;
    return -1;
}

static void make_palette(qs_scene *sc)
{
    gen_rng r = gen_seed(sc->p->seed ^ 0x9a1e77e);
    for (int k = 0; k < QS_PAL_BOXES; k++)
        gen_random_box(&r, &sc->pal[k]);
    for (int k = QS_PAL_BOXES; k < QS_PAL_EMPTY; k++)
        assert_true(gen_random_mask(&r, &sc->pal[k]));
    int w = gen_int(&r, 1, 12), h = gen_int(&r, 1, 12);
    unsigned char *solid = calloc((size_t)w * (size_t)h, 1);
    assert_non_null(solid);
    assert_true(gen_mask_shape(&sc->pal[QS_PAL_EMPTY], solid, w, h, GEN_EMPTY, 0, 1));
    gen_box_shape(&sc->pal[QS_PAL_WALL], 3000, 12); // many cells long
    gen_box_shape(&sc->pal[QS_PAL_SLAB], 700, 500);
}

cw_vec2 qs_random_spot(qs_scene *sc, double margin)
{
    double s = sc->p->spread * margin;
    return (cw_vec2){(float)(sc->p->cx + gen_range(&sc->r, -s, s)), (float)(sc->p->cy + gen_range(&sc->r, -s, s))};
}

void qs_snapped(gen_rng *r, double cx, double cy, double spread, cw_transform *t)
{
    static const float scales[] = {1, 2, 0.5f, 3, 1.5f, 1};
    t->rotation = (float)(gen_int(r, -4, 4) * (GEN_PI / 2));
    t->scale.x = scales[gen_int(r, 0, 5)] * (gen_chance(r, 0.3) ? -1.0f : 1.0f);
    t->scale.y = scales[gen_int(r, 0, 5)] * (gen_chance(r, 0.3) ? -1.0f : 1.0f);
    t->origin = (cw_vec2){(float)(gen_int(r, -4, 12) * 0.5), (float)(gen_int(r, -4, 12) * 0.5)};
    t->position = (cw_vec2){(float)floor(cx + gen_range(r, -spread, spread)), (float)floor(cy + gen_range(r, -spread, spread))};
}

static void snapped_transform(qs_scene *sc, cw_transform *t) { qs_snapped(&sc->r, sc->p->cx, sc->p->cy, sc->p->spread, t); }

static void random_body_transform(qs_scene *sc, int shape, cw_transform *t)
{
    if (shape < QS_PAL_EMPTY && gen_chance(&sc->r, 0.35)) {
        snapped_transform(sc, t);
        return;
    }
    gen_random_transform(&sc->r, &sc->pal[shape], t);
    if (shape >= QS_PAL_BOXES && shape < QS_PAL_EMPTY && gen_chance(&sc->r, 0.06)) { // a huge sprite
        t->scale.x *= 12, t->scale.y *= 12;
    }
    t->position = qs_random_spot(sc, 1);
}

void qs_random_body_transform(qs_scene *sc, int shape, cw_transform *t)
{
    random_body_transform(sc, shape, t);
    if (sc->p->scale_decades > 0) {
        double d = sc->p->scale_decades, f = pow(10.0, gen_range(&sc->r, -d, d));
        t->scale.x = (float)(t->scale.x * f), t->scale.y = (float)(t->scale.y * f);
    }
}

static int random_shape(qs_scene *sc)
{
    double u = gen_unit(&sc->r);
    if (u < 0.03)
        return gen_chance(&sc->r, 0.5) ? QS_PAL_WALL : QS_PAL_SLAB;
    if (u < 0.06)
        return QS_PAL_EMPTY;
    return gen_chance(&sc->r, 0.5) ? gen_int(&sc->r, 0, QS_PAL_BOXES - 1) : gen_int(&sc->r, QS_PAL_BOXES, QS_PAL_EMPTY - 1);
}

static void random_filter(gen_rng *r, uint32_t *category, uint32_t *collides_with)
{
    *category = gen_chance(r, 0.1) ? (uint32_t)gen_int(r, 1, 15) : 1u << gen_int(r, 0, 3);
    *collides_with = gen_chance(r, 0.5) ? UINT32_MAX : (uint32_t)gen_int(r, 0, 15);
}

cw_query_filter qs_random_query_filter(gen_rng *r)
{
    cw_query_filter f = cw_default_query_filter();
    if (gen_chance(r, 0.6))
        return f;
    random_filter(r, &f.category, &f.collides_with);
    return f;
}

static void *random_user(gen_rng *r) { return gen_chance(r, 0.15) ? NULL : &qf_users[gen_int(r, 0, 63)]; }

static void add_body(qs_scene *sc)
{
    if (sc->n == sc->cap) {
        sc->cap = sc->cap ? 2 * sc->cap : 64;
        sc->b = realloc(sc->b, (size_t)sc->cap * sizeof *sc->b);
        assert_non_null(sc->b);
    }
    qs_body *b = &sc->b[sc->n];
    b->shape = random_shape(sc);
    qs_random_body_transform(sc, b->shape, &b->t);
    random_filter(&sc->r, &b->category, &b->collides_with);
    b->is_static = gen_chance(&sc->r, 0.2);
    b->user = random_user(&sc->r);
    cw_body_def def = cw_default_body_def();
    def.shape = *qs_body_shape(sc, b);
    def.transform = b->t;
    def.category = b->category;
    def.collides_with = b->collides_with;
    def.is_static = b->is_static;
    def.user_data = b->user;
    b->id = cw_body_create(sc->w, &def);
    assert_false(cw_body_id_is_null(b->id));
    sc->n++;
}

static void destroy_body(qs_scene *sc, int k)
{
    cw_body_destroy(sc->w, sc->b[k].id);
    assert_false(cw_body_is_valid(sc->w, sc->b[k].id));
    sc->b[k] = sc->b[--sc->n];
}

// One random change to body k: a move or teleport, a new shape, filter or user data.
static void change_body(qs_scene *sc, int k)
{
    qs_body *b = &sc->b[k];
    int what = gen_int(&sc->r, 0, 5);
    if (what <= 2) {
        if (what == 0) {
            qs_random_body_transform(sc, b->shape, &b->t);
        } else {
            b->t.position.x += (float)gen_range(&sc->r, -20, 20);
            b->t.rotation += what == 1 ? (float)gen_range(&sc->r, -0.5, 0.5) : 0.0f;
        }
        assert_true(cw_body_set_transform(sc->w, b->id, &b->t));
    } else if (what == 3) {
        b->shape = random_shape(sc);
        assert_true(cw_body_set_shape(sc->w, b->id, qs_body_shape(sc, b)));
    } else if (what == 4) {
        random_filter(&sc->r, &b->category, &b->collides_with);
        assert_true(cw_body_set_filter(sc->w, b->id, b->category, b->collides_with));
    } else {
        b->user = random_user(&sc->r);
        assert_true(cw_body_set_user_data(sc->w, b->id, b->user));
    }
}

// Changes after the last step: moves, reshapes, refilters, creates and destroys.
static void change_world(qs_scene *sc)
{
    int changes = sc->n / 4;
    for (int c = 0; c < changes && sc->n > 0; c++)
        change_body(sc, gen_int(&sc->r, 0, sc->n - 1));
    int destroys = sc->n / 10;
    for (int c = 0; c < destroys && sc->n > 1; c++)
        destroy_body(sc, gen_int(&sc->r, 0, sc->n - 1));
    int creates = sc->p->bodies / 10;
    for (int c = 0; c < creates; c++)
        add_body(sc);
}

static void scene_open(qs_scene *sc, const qs_params *p)
{
    memset(sc, 0, sizeof *sc);
    sc->p = p;
    sc->r = gen_seed(p->seed);
    make_palette(sc);
    cw_world_def def = cw_default_world_def();
    def.cell_size = p->cell_size;
    sc->w = cw_world_create(&def);
    assert_non_null(sc->w);
    int bodies = p->bodies / (gen_test_scale() > 1 ? 2 : 1);
    for (int k = 0; k < bodies; k++)
        add_body(sc);
    sc->found = qf_found_new();
    sc->rays_found = qf_rays_new();
}

// Steps (unless the scene never steps), then changes the world after the step.
static void scene_round(qs_scene *sc, int round)
{
    sc->round = round;
    if (!sc->p->never_step) {
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k < sc->n; k++)
                if (gen_chance(&sc->r, 0.3))
                    change_body(sc, k);
            cw_world_step(sc->w);
        }
    }
    change_world(sc);
    free(sc->refs);
    sc->refs = calloc((size_t)sc->n + 1, sizeof *sc->refs);
    assert_non_null(sc->refs);
}

static void scene_close(qs_scene *sc)
{
    cw_world_destroy(sc->w);
    for (int k = 0; k < QS_PAL_COUNT; k++)
        gen_shape_free(&sc->pal[k]);
    free(sc->b);
    free(sc->refs);
    free(sc->found);
    free(sc->rays_found);
}

bool qs_stopped(const qs_scene *sc) { return sc->failures >= QS_MAX_FAILURES; }

cw_vec2 qs_point_in_body(qs_scene *sc, const qs_body *b)
{
    double w, h;
    qr_shape_size(qs_body_shape(sc, b), &w, &h);
    double u = gen_range(&sc->r, 0, w), v = gen_range(&sc->r, 0, h), wx, wy;
    ref_to_world(&b->t, u, v, &wx, &wy);
    return (cw_vec2){(float)wx, (float)wy};
}

cw_vec2 qs_random_direction(gen_rng *r, double length)
{
    double a = gen_range(r, 0, 2 * GEN_PI);
    return (cw_vec2){(float)(length * cos(a)), (float)(length * sin(a))};
}

static const qs_params scenes[] = {
    {"automatic cells", 0x51, 0, 200, 2, 0, 0, 300, false, 0},
    {"small cells", 0x52, 6, 150, 2, 100, -50, 250, false, 0},
    {"huge cells", 0x53, 2000, 150, 2, 0, 0, 300, false, 0},
    {"crowded", 0x54, 0, 250, 2, 0, 0, 120, false, 0},
    {"away from the origin", 0x55, 0, 150, 2, 20000, -12000, 300, false, 0},
    {"never stepped", 0x56, 0, 150, 1, -40, 30, 250, true, 0},
    {"sizes over six decades", 0x57, 0, 150, 2, 0, 0, 300, false, 3},
};

void qs_print_tally(const char *name, const qs_tally *t)
{
    if (t->cases)
        printf("  %-12s %6ld compared, %4ld (%.2f%%) with a near-degenerate body skipped\n", name, t->cases, t->skipped,
               100.0 * (double)t->skipped / (double)t->cases);
}

static void tally_add(qs_tally *sum, const qs_tally *t)
{
    sum->cases += t->cases;
    sum->skipped += t->skipped;
}

static void run_scene(const qs_params *p, int checks, qs_round_fn *check_round, qs_totals *tot)
{
    qs_scene sc;
    scene_open(&sc, p);
    for (int round = 0; round < p->rounds && !qs_stopped(&sc); round++) {
        scene_round(&sc, round);
        check_round(&sc, checks);
    }
    tally_add(&tot->points, &sc.points);
    tally_add(&tot->edges, &sc.edges);
    tally_add(&tot->boxes, &sc.boxes);
    tally_add(&tot->shapes, &sc.shapes);
    tally_add(&tot->rays, &sc.rays);
    tot->edge_inexact += sc.edge_inexact;
    tot->failures += sc.failures;
    scene_close(&sc);
}

void qs_expect_rare(const char *name, const qs_tally *t)
{
    if (t->cases == 0 || (double)t->skipped > 0.02 * (double)t->cases + 1) {
        printf("  %s: %ld of %ld cases skipped as near-degenerate\n", name, t->skipped, t->cases);
        fail_msg("too many near-degenerate cases: the reference decides too little");
    }
}

void qs_run_scenes(int checks, qs_round_fn *check_round, qs_totals *tot)
{
    memset(tot, 0, sizeof *tot);
    uint64_t only;
    bool one = gen_only_seed(&only);
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++)
        if (!one || scenes[k].seed == only)
            run_scene(&scenes[k], checks, check_round, tot);
    qs_print_tally("points", &tot->points);
    qs_print_tally("edge points", &tot->edges);
    qs_print_tally("AABBs", &tot->boxes);
    qs_print_tally("shapes", &tot->shapes);
    qs_print_tally("rays", &tot->rays);
    if (tot->edge_inexact)
        printf("  %ld edge points not exactly representable in the world (not compared)\n", tot->edge_inexact);
    if (tot->failures)
        printf("  %d failure(s) (rerun one scene with CW_TEST_ONLY=<seed>)\n", tot->failures);
    assert_int_equal(tot->failures, 0);
}
