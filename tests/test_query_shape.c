// The single-shape queries, cw_shape_contains_point and cw_shape_raycast, on random boxes and masks
// (some on the texel grid) against the slow reference (query_ref.h): points near and in the shape and
// exactly on texel edges and corners; rays random, axis-aligned, exactly along edge lines and aimed at
// the shape. Near-degenerate cases the reference cannot decide are skipped, counted, and required to
// be rare. CW_TEST_SCALE divides the case counts.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "query_found.h"
#include "query_ref.h"
#include "query_scene.h"
#include "suites.h"

typedef struct shape_case {
    gen_shape s;
    cw_transform t;
    bool snapped;
} shape_case;

static void shape_case_make(gen_rng *r, shape_case *c)
{
    if (gen_chance(r, 0.4))
        gen_random_box(r, &c->s);
    else
        assert_true(gen_random_mask(r, &c->s));
    c->snapped = gen_chance(r, 0.4);
    if (c->snapped) {
        qs_snapped(r, 0, 0, 50, &c->t);
    } else {
        gen_random_transform(r, &c->s, &c->t);
        c->t.position = (cw_vec2){(float)gen_range(r, -50, 50), (float)gen_range(r, -50, 50)};
    }
}

// A random world point near the shape, inside it, or on a texel corner or edge.
static cw_vec2 shape_point(gen_rng *r, const shape_case *c, bool on_edges)
{
    double w, h, wx, wy;
    qr_shape_size(&c->s.shape, &w, &h);
    double u = gen_range(r, -0.2 * w - 1, 1.2 * w + 1), v = gen_range(r, -0.2 * h - 1, 1.2 * h + 1);
    cw_vec2 p;
    if (on_edges && c->snapped && gen_chance(r, 0.5)) {
        u = c->s.is_box ? gen_int(r, 0, 4) * w / 4 : gen_int(r, 0, (int)w) + 0.5 * gen_int(r, 0, 1);
        v = c->s.is_box ? gen_int(r, 0, 4) * h / 4 : gen_int(r, 0, (int)h) + 0.5 * gen_int(r, 0, 1);
        if (qr_exact_world(&c->t, u, v, &p))
            return p;
        u = gen_range(r, -0.2 * w - 1, 1.2 * w + 1), v = gen_range(r, -0.2 * h - 1, 1.2 * h + 1);
    }
    ref_to_world(&c->t, u, v, &wx, &wy);
    return (cw_vec2){(float)wx, (float)wy};
}

static void check_shape_point(const shape_case *c, cw_vec2 p, qs_tally *t, int *failures)
{
    qr_answer want = qr_contains_point(&c->s.shape, &c->t, p);
    t->cases++;
    if (want == QR_UNSURE) {
        t->skipped++;
        return;
    }
    cw_clear_error();
    bool got = cw_shape_contains_point(&c->s.shape, &c->t, p);
    if (got != (want == QR_YES) || cw_last_error()[0] != '\0') {
        if ((*failures)++ < QS_MAX_PRINT) {
            printf("  cw_shape_contains_point(%a, %a) = %d (error \"%s\"), the reference says %d\n", (double)p.x,
                   (double)p.y, got, cw_last_error(), want == QR_YES);
            gen_print_shape(stdout, "shape", &c->s);
            gen_print_transform(stdout, "transform", &c->t);
        }
    }
}

static void shape_ray(gen_rng *r, const shape_case *c, cw_vec2 *o, cw_vec2 *d)
{
    double w, h;
    qr_shape_size(&c->s.shape, &w, &h);
    int kind = gen_int(r, 0, 3);
    *o = shape_point(r, c, false);
    double len = exp(gen_range(r, log(0.05), log(300)));
    *d = qs_random_direction(r, len);
    if (kind == 1) { // axis-aligned
        *d = gen_chance(r, 0.5) ? (cw_vec2){(float)len, 0} : (cw_vec2){0, (float)-len};
    } else if (kind == 2 && c->snapped) { // along an edge line, if it maps exactly
        double k = c->s.is_box ? (gen_chance(r, 0.5) ? 0 : w) : gen_int(r, 0, (int)w);
        double v0 = gen_int(r, -2, (int)h + 2) + 0.25 * gen_int(r, 1, 3), v1 = gen_int(r, -2, (int)h + 2) + 0.5;
        cw_vec2 p0, p1;
        if (qr_exact_world(&c->t, k, v0, &p0) && qr_exact_world(&c->t, k, v1, &p1))
            *o = p0, *d = (cw_vec2){p1.x - p0.x, p1.y - p0.y};
    } else if (kind == 3) { // aimed at a point of the shape
        cw_vec2 target = shape_point(r, c, true);
        *d = (cw_vec2){(target.x - o->x) * 1.5f, (target.y - o->y) * 1.5f};
    }
    if (d->x == 0 && d->y == 0)
        d->y = 1;
}

static void check_shape_ray(const shape_case *c, cw_vec2 o, cw_vec2 d, qs_tally *t, int *failures)
{
    qr_ray ref;
    qr_raycast(&c->s.shape, &c->t, o, d, &ref);
    t->cases++;
    if (ref.status == QR_UNSURE) {
        t->skipped++;
        return;
    }
    cw_ray_hit hit;
    memset(&hit, 0, sizeof hit);
    hit.body = (cw_body_id){7, 7};
    hit.user_data = qf_users;
    cw_clear_error();
    bool got = cw_shape_raycast(&c->s.shape, &c->t, o, d, &hit);
    bool ok = got == (ref.status == QR_YES) && cw_last_error()[0] == '\0';
    if (ok && got)
        ok = qf_hit_matches(&hit, &ref, o, d) && qf_hit_sane(&hit, o, d) && cw_body_id_is_null(hit.body) && !hit.user_data;
    if (!ok && (*failures)++ < QS_MAX_PRINT) {
        printf("  cw_shape_raycast = %d (error \"%s\") disagrees with the reference\n", got, cw_last_error());
        qf_print_ray(o, d, cw_default_query_filter());
        if (got)
            qf_print_hit("library", &hit);
        qf_print_ref(&ref);
        gen_print_shape(stdout, "shape", &c->s);
        gen_print_transform(stdout, "transform", &c->t);
    }
}

static void test_shape_queries(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x5a9e);
    qs_tally points = {0, 0}, rays = {0, 0};
    int failures = 0, shapes = gen_scaled(300);
    for (int s = 0; s < shapes && failures < QS_MAX_FAILURES; s++) {
        shape_case c;
        shape_case_make(&r, &c);
        for (int q = 0; q < 30; q++)
            check_shape_point(&c, shape_point(&r, &c, true), &points, &failures);
        for (int q = 0; q < 20; q++) {
            cw_vec2 o, d;
            shape_ray(&r, &c, &o, &d);
            check_shape_ray(&c, o, d, &rays, &failures);
        }
        gen_shape_free(&c.s);
    }
    qs_print_tally("points", &points);
    qs_print_tally("rays", &rays);
    assert_int_equal(failures, 0);
    qs_expect_rare("points", &points);
    qs_expect_rare("rays", &rays);
}

const struct CMUnitTest query_shape_tests[] = {
    cmocka_unit_test(test_shape_queries),
};
