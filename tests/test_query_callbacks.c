// The world queries' contract on small hand-made worlds: queries see the bodies as they are now
// (moved, created, destroyed, reshaped or refiltered since the last step, or never stepped), inside
// contact callbacks too; a query callback returning false stops the query; the ray callback's return
// value (1 all hits, 0 stop, -1 ignore, the fraction for the closest, any other value a new limit)
// and raycast_closest; filters; a query callback that tries to change the world; misuse with exact
// errors.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "gen.h"
#include "query_found.h"
#include "suites.h"

// A small world of axis-aligned boxes for the hand-made tests.
static cw_world *plain_world(cw_contact_fn *on_begin, void *context)
{
    cw_world_def wd = cw_default_world_def();
    wd.on_begin = on_begin;
    wd.context = context;
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    return w;
}

static cw_body_id add_box(cw_world *w, float x, float y, float bw, float bh, uint32_t category, void *user)
{
    cw_body_def bd = cw_default_body_def();
    bd.shape = cw_shape_box(bw, bh);
    bd.transform = qf_xf(x, y, 0, 1, 1, 0, 0);
    bd.category = category;
    bd.user_data = user;
    cw_body_id id = cw_body_create(w, &bd);
    assert_false(cw_body_id_is_null(id));
    return id;
}

// The bodies a default-filter point query reports, as a count; *first is one of them.
static int bodies_at(cw_world *w, float x, float y, cw_body_id *first)
{
    qf_found *f = qf_found_new();
    cw_clear_error();
    bool ok = cw_world_query_point(w, (cw_vec2){x, y}, cw_default_query_filter(), qf_collect, f);
    if (!ok)
        printf("  cw_world_query_point failed: %s\n", cw_last_error());
    int n = ok ? f->n : -1;
    if (first && n > 0)
        *first = f->ids[0];
    free(f);
    return n;
}

// Queries see the bodies as they are now: moved, created, destroyed, reshaped or refiltered since the
// last step (or with no step at all).
static void test_queries_see_the_world_now(void **state)
{
    (void)state;
    cw_world *w = plain_world(NULL, NULL);
    cw_body_id a = add_box(w, 0, 0, 10, 10, 1, &qf_users[1]), got = {0, 0};
    assert_int_equal(bodies_at(w, 5, 5, &got), 1); // never stepped
    assert_true(qf_same_id(got, a));
    cw_world_step(w);
    cw_transform t = qf_xf(100, 0, 0, 1, 1, 0, 0);
    assert_true(cw_body_set_transform(w, a, &t));
    assert_int_equal(bodies_at(w, 5, 5, NULL), 0);
    assert_int_equal(bodies_at(w, 105, 5, &got), 1);
    cw_body_id b = add_box(w, 0, 0, 10, 10, 1, &qf_users[2]);
    assert_int_equal(bodies_at(w, 5, 5, &got), 1);
    assert_true(qf_same_id(got, b));
    cw_body_destroy(w, a);
    assert_int_equal(bodies_at(w, 105, 5, NULL), 0);
    cw_shape small = cw_shape_box(2, 2);
    assert_true(cw_body_set_shape(w, b, &small));
    assert_int_equal(bodies_at(w, 5, 5, NULL), 0);
    assert_int_equal(bodies_at(w, 1, 1, NULL), 1);
    assert_true(cw_body_set_filter(w, b, 2, UINT32_MAX));
    qf_found *f = qf_found_new();
    cw_query_filter only1 = {UINT32_MAX, 1};
    assert_true(cw_world_query_point(w, (cw_vec2){1, 1}, only1, qf_collect, f));
    assert_int_equal(f->n, 0);
    cw_aabb box = {{-1, -1}, {1.5f, 1.5f}};
    qf_found_reset(f, 0);
    assert_true(cw_world_query_aabb(w, box, cw_default_query_filter(), qf_collect, f));
    assert_int_equal(f->n, 1);
    cw_ray_hit hit;
    assert_true(cw_world_raycast_closest(w, (cw_vec2){-10, 1}, (cw_vec2){20, 0}, cw_default_query_filter(), &hit));
    assert_true(qf_same_id(hit.body, b) && fabs(hit.fraction - 0.5) < 1e-6 && hit.user_data == &qf_users[2]);
    assert_true(cw_body_set_user_data(w, b, &qf_users[3]));
    assert_true(cw_world_raycast_closest(w, (cw_vec2){-10, 1}, (cw_vec2){20, 0}, cw_default_query_filter(), &hit));
    assert_ptr_equal(hit.user_data, &qf_users[3]);
    cw_world_step(w);
    assert_int_equal(bodies_at(w, 1, 1, NULL), 1);
    free(f);
    cw_world_destroy(w);
}

// Queries from inside a contact callback, before and after the callback moves a body.
typedef struct in_callback {
    cw_world *w;
    cw_body_id a, b;
    int calls, before, after_old, after_new;
    bool ray_ok;
} in_callback;

static void querying_begin(const cw_contact *c, void *context)
{
    (void)c;
    in_callback *q = context;
    cw_world *w = q->w;
    q->calls++;
    q->before = bodies_at(w, 7, 7, NULL);
    cw_transform t = qf_xf(100, 100, 0, 1, 1, 0, 0);
    cw_body_set_transform(w, q->a, &t);
    q->after_old = bodies_at(w, 7, 7, NULL);
    q->after_new = bodies_at(w, 105, 105, NULL);
    cw_ray_hit hit;
    q->ray_ok = cw_world_raycast_closest(w, (cw_vec2){-10, 7}, (cw_vec2){30, 0}, cw_default_query_filter(), &hit) &&
                qf_same_id(hit.body, q->b) && fabs(hit.fraction - 0.5) < 1e-6;
}

static void test_queries_in_contact_callbacks(void **state)
{
    (void)state;
    in_callback q;
    memset(&q, 0, sizeof q);
    q.w = plain_world(querying_begin, &q);
    q.a = add_box(q.w, 0, 0, 10, 10, 1, NULL);
    q.b = add_box(q.w, 5, 5, 10, 10, 1, NULL);
    cw_world_step(q.w);
    assert_int_equal(q.calls, 1);
    assert_int_equal(q.before, 2);
    assert_int_equal(q.after_old, 1); // the move made in the callback is seen at once
    assert_int_equal(q.after_new, 1);
    assert_true(q.ray_ok);
    cw_world_destroy(q.w);
}

// A query callback that tries to change the world: every attempt must fail with an error.
typedef struct meddler {
    cw_world *w;
    cw_body_id a;
    int calls, refused, begins;
} meddler;

static void count_begin(const cw_contact *c, void *context)
{
    (void)c;
    ((meddler *)context)->begins++;
}

static void refused(meddler *m, bool failed)
{
    m->refused += failed && cw_last_error()[0] != '\0';
    cw_clear_error();
}

static void meddle(meddler *m)
{
    m->calls++;
    cw_clear_error();
    cw_body_def bd = cw_default_body_def();
    refused(m, cw_body_id_is_null(cw_body_create(m->w, &bd)));
    cw_body_destroy(m->w, m->a);
    refused(m, cw_body_is_valid(m->w, m->a));
    cw_transform t = qf_xf(500, 500, 0, 1, 1, 0, 0);
    refused(m, !cw_body_set_transform(m->w, m->a, &t));
    cw_shape s = cw_shape_box(1, 1);
    refused(m, !cw_body_set_shape(m->w, m->a, &s));
    refused(m, !cw_body_set_filter(m->w, m->a, 4, 4));
    refused(m, !cw_body_set_user_data(m->w, m->a, &qf_users[9]));
    cw_world_step(m->w);
    refused(m, m->begins == 0);
    cw_world_destroy(m->w);
    refused(m, cw_body_is_valid(m->w, m->a));
}

static bool meddling_query(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    meddle(context);
    return true;
}

static float meddling_ray(const cw_ray_hit *hit, void *context)
{
    (void)hit;
    meddle(context);
    return 1;
}

static void expect_untouched(meddler *m, cw_body_id b)
{
    assert_int_equal(m->begins, 0);
    assert_int_equal(cw_world_get_stats(m->w).bodies, 2);
    assert_true(cw_body_is_valid(m->w, m->a) && cw_body_is_valid(m->w, b));
    cw_transform t = cw_body_transform(m->w, m->a);
    assert_true(t.position.x == 0 && t.position.y == 0);
    cw_shape s = cw_body_shape(m->w, m->a);
    assert_true(s.type == CW_SHAPE_BOX && s.size.x == 10);
    uint32_t category, collides_with;
    assert_true(cw_body_filter(m->w, m->a, &category, &collides_with));
    assert_true(category == 1 && collides_with == UINT32_MAX);
    assert_ptr_equal(cw_body_user_data(m->w, m->a), &qf_users[1]);
}

static void test_query_callbacks_cannot_change_the_world(void **state)
{
    (void)state;
    meddler m;
    memset(&m, 0, sizeof m);
    m.w = plain_world(count_begin, &m);
    m.a = add_box(m.w, 0, 0, 10, 10, 1, &qf_users[1]);
    cw_body_id b = add_box(m.w, 5, 5, 10, 10, 1, &qf_users[2]); // overlapping: a step would begin a contact
    cw_query_filter all = cw_default_query_filter();
    cw_aabb box = {{0, 0}, {20, 20}};
    cw_shape s = cw_shape_box(3, 3);
    cw_transform t = qf_xf(6, 6, 0, 1, 1, 0, 0);
    for (int kind = 0; kind < 4; kind++) {
        int before = m.calls;
        bool ok = kind == 0   ? cw_world_query_point(m.w, (cw_vec2){7, 7}, all, meddling_query, &m)
                  : kind == 1 ? cw_world_query_aabb(m.w, box, all, meddling_query, &m)
                  : kind == 2 ? cw_world_query_shape(m.w, &s, &t, all, false, meddling_query, &m)
                              : cw_world_raycast(m.w, (cw_vec2){-5, 7}, (cw_vec2){30, 0}, all, meddling_ray, &m);
        if (!ok)
            printf("  query kind %d failed: %s\n", kind, cw_last_error());
        assert_true(ok);
        assert_int_equal(m.calls - before, 2);
        assert_int_equal(m.refused, 8 * m.calls); // every attempt failed with an error
        expect_untouched(&m, b);
    }
    // Once the query is over, the same calls work.
    cw_transform moved = qf_xf(1, 0, 0, 1, 1, 0, 0);
    assert_true(cw_body_set_transform(m.w, m.a, &moved));
    cw_world_step(m.w);
    assert_int_equal(m.begins, 1);
    cw_world_destroy(m.w);
}

// The ray callback's return value: 1 all hits, 0 stop, the fraction for the closest, a negative value
// to ignore a body, any other value as the new limit.
typedef struct limit_rec {
    int calls, late_beyond;
    float returned;
    bool seen[6];
} limit_rec;

static float constant_limit(const cw_ray_hit *hit, void *context)
{
    limit_rec *r = context;
    if (r->calls++ > 0 && hit->fraction > r->returned)
        r->late_beyond++;
    r->seen[qf_user_index(hit->user_data)] = true;
    return r->returned;
}

// Five boxes in a row, entered at fractions 0.1, 0.2, ..., 0.5 by the ray from (0, 0) along (100, 0).
static cw_world *row_of_boxes(cw_body_id ids[5])
{
    cw_world *w = plain_world(NULL, NULL);
    for (int k = 0; k < 5; k++)
        ids[k] = add_box(w, 10.0f * (float)(k + 1), -1, 2, 2, 1, &qf_users[k]);
    return w;
}

static void expect_row_hits(const qf_rays_found *f, const cw_body_id ids[5])
{
    assert_int_equal(f->n, 5);
    for (int h = 0; h < f->n; h++) {
        int k = qf_user_index(f->hits[h].user_data);
        assert_true(k >= 0 && k < 5 && qf_same_id(f->hits[h].body, ids[k]));
        assert_true(fabs(f->hits[h].fraction - 0.1 * (k + 1)) < 1e-6);
        assert_true(fabs(f->hits[h].normal.x + 1) < 1e-6 && fabs(f->hits[h].normal.y) < 1e-6);
        assert_true(fabs(f->hits[h].point.x - 10.0 * (k + 1)) < 1e-4 && fabs(f->hits[h].point.y) < 1e-6);
    }
}

// 1: every hit; 0: stop; -1: ignore (every hit still comes); the fraction: closest; -1 for some.
static void test_ray_callback_modes(void **state)
{
    (void)state;
    cw_body_id ids[5];
    cw_world *w = row_of_boxes(ids);
    cw_vec2 o = {0, 0}, d = {100, 0};
    cw_query_filter all = cw_default_query_filter();
    qf_rays_found *f = qf_rays_new();
    qf_rays_reset(f, QF_RAY_ALL);
    assert_true(cw_world_raycast(w, o, d, all, qf_ray_collect, f));
    expect_row_hits(f, ids);
    qf_rays_reset(f, QF_RAY_STOP);
    assert_true(cw_world_raycast(w, o, d, all, qf_ray_collect, f));
    assert_int_equal(f->calls, 1);
    qf_rays_reset(f, QF_RAY_IGNORE_ALL);
    assert_true(cw_world_raycast(w, o, d, all, qf_ray_collect, f));
    expect_row_hits(f, ids);
    qf_rays_reset(f, QF_RAY_CLOSEST);
    assert_true(cw_world_raycast(w, o, d, all, qf_ray_collect, f));
    assert_int_equal(f->beyond_limit, 0);
    assert_true(fabs(f->limit - 0.1) < 1e-6);
    qf_rays_reset(f, QF_RAY_IGNORE_ODD); // bodies 1 and 3 ignored: the closest kept is body 0
    assert_true(cw_world_raycast(w, o, d, all, qf_ray_collect, f));
    assert_true(fabs(f->limit - 0.1) < 1e-6 && f->beyond_limit == 0);
    free(f);
    cw_world_destroy(w);
}

// Any other value is the new limit: later calls stay within it; raycast_closest; a start inside; a miss.
static void test_ray_limits_and_closest(void **state)
{
    (void)state;
    cw_body_id ids[5];
    cw_world *w = row_of_boxes(ids);
    cw_vec2 o = {0, 0}, d = {100, 0};
    cw_query_filter all = cw_default_query_filter();
    limit_rec r = {0, 0, 0.35f, {false}};
    assert_true(cw_world_raycast(w, o, d, all, constant_limit, &r));
    assert_int_equal(r.late_beyond, 0);
    assert_true(r.seen[0] && r.seen[1] && r.seen[2]); // hits within the limit are all still reported
    assert_true(r.calls <= 4);
    cw_ray_hit hit;
    assert_true(cw_world_raycast_closest(w, o, d, all, &hit));
    assert_true(qf_same_id(hit.body, ids[0]) && fabs(hit.fraction - 0.1) < 1e-6 && hit.user_data == &qf_users[0]);
    // Starting inside body 2: fraction 0, normal minus the direction.
    cw_vec2 inside = {30.5f, 0.5f}, dir = {30, 40};
    assert_true(cw_world_raycast_closest(w, inside, dir, all, &hit));
    assert_true(qf_same_id(hit.body, ids[2]) && hit.fraction == 0);
    assert_true(fabs(hit.normal.x + 0.6) < 1e-6 && fabs(hit.normal.y + 0.8) < 1e-6);
    assert_true(fabs(hit.point.x - inside.x) < 1e-5 && fabs(hit.point.y - inside.y) < 1e-5);
    // Nothing hit: false, hit untouched, no error.
    cw_ray_hit untouched;
    memset(&untouched, 0x3c, sizeof untouched);
    hit = untouched;
    cw_clear_error();
    assert_false(cw_world_raycast_closest(w, (cw_vec2){0, 50}, d, all, &hit));
    expect_no_error();
    assert_memory_equal(&hit, &untouched, sizeof hit);
    cw_world_destroy(w);
}

// A point, box or shape query callback returning false stops the query.
static void test_query_callback_stops(void **state)
{
    (void)state;
    cw_world *w = plain_world(NULL, NULL);
    for (int k = 0; k < 6; k++)
        add_box(w, (float)k, (float)k, 20, 20, 1, &qf_users[k]);
    cw_query_filter all = cw_default_query_filter();
    cw_aabb box = {{10, 10}, {12, 12}};
    cw_shape s = cw_shape_box(2, 2);
    cw_transform t = qf_xf(10, 10, 0.3f, 1, 1, 1, 1);
    qf_found *f = qf_found_new();
    for (int stop = 0; stop <= 2; stop++)
        for (int kind = 0; kind < 3; kind++) {
            qf_found_reset(f, stop);
            bool ok = kind == 0   ? cw_world_query_point(w, (cw_vec2){11, 11}, all, qf_collect, f)
                      : kind == 1 ? cw_world_query_aabb(w, box, all, qf_collect, f)
                                  : cw_world_query_shape(w, &s, &t, all, kind == 2, qf_collect, f);
            assert_true(ok);
            assert_int_equal(f->calls, stop == 0 ? 6 : stop);
        }
    free(f);
    cw_world_destroy(w);
}

// Filters: a body is reported iff (body.category & filter.collides_with) && (filter.category & body.collides_with).
static void test_query_filters(void **state)
{
    (void)state;
    cw_world *w = plain_world(NULL, NULL);
    const uint32_t cats[4] = {1, 2, 4, 8}, masks[4] = {UINT32_MAX, 1, 6, 0};
    cw_body_id ids[4];
    for (int k = 0; k < 4; k++) {
        ids[k] = add_box(w, 0, 0, 10, 10, cats[k], &qf_users[k]);
        assert_true(cw_body_set_filter(w, ids[k], cats[k], masks[k]));
    }
    const cw_query_filter filters[] = {{UINT32_MAX, UINT32_MAX}, {1, UINT32_MAX}, {2, 3}, {4, 12}, {8, 8}, {0, UINT32_MAX}};
    cw_query_filter def = cw_default_query_filter();
    assert_true(def.category == UINT32_MAX && def.collides_with == UINT32_MAX);
    qf_found *f = qf_found_new();
    for (size_t q = 0; q < sizeof filters / sizeof filters[0]; q++) {
        qf_found_reset(f, 0);
        assert_true(cw_world_query_point(w, (cw_vec2){5, 5}, filters[q], qf_collect, f));
        for (int k = 0; k < 4; k++)
            assert_int_equal(qf_found_index(f, ids[k]) >= 0, qf_filter_ok(cats[k], masks[k], filters[q]));
        cw_ray_hit hit;
        bool any = false;
        for (int k = 0; k < 4; k++)
            any |= qf_filter_ok(cats[k], masks[k], filters[q]);
        assert_int_equal(cw_world_raycast_closest(w, (cw_vec2){-5, 5}, (cw_vec2){20, 0}, filters[q], &hit), any);
    }
    free(f);
    cw_world_destroy(w);
}

// Bad input fails with an error, reports nothing and (for raycast_closest) leaves the hit alone.
typedef struct misuse {
    cw_world *w;
    qf_found *f;
    qf_rays_found *rf;
} misuse;

#define EXPECT_FAIL(call, word)                                                                                        \
    do {                                                                                                               \
        qf_found_reset(m->f, 0);                                                                                          \
        qf_rays_reset(m->rf, QF_RAY_ALL);                                                                                    \
        cw_clear_error();                                                                                              \
        if (call) {                                                                                                    \
            printf("  %s:%d: %s succeeded\n", __FILE__, __LINE__, #call);                                             \
            fail_msg("bad input accepted");                                                                            \
        }                                                                                                              \
        expect_error(word);                                                                                            \
        assert_int_equal(m->f->calls + m->rf->calls, 0);                                                               \
    } while (0)

static void misuse_points_and_boxes(misuse *m)
{
    cw_query_filter all = cw_default_query_filter();
    const float bad[] = {NAN, INFINITY, -INFINITY};
    cw_clear_error();
    assert_true(cw_world_query_point(m->w, (cw_vec2){1, 1}, all, qf_collect, m->f)); // valid input works
    expect_no_error();
    EXPECT_FAIL(cw_world_query_point(NULL, (cw_vec2){1, 1}, all, qf_collect, m->f), "NULL");
    EXPECT_FAIL(cw_world_query_point(m->w, (cw_vec2){1, 1}, all, NULL, m->f), "NULL");
    for (int k = 0; k < 3; k++) {
        EXPECT_FAIL(cw_world_query_point(m->w, (cw_vec2){bad[k], 1}, all, qf_collect, m->f), NULL);
        EXPECT_FAIL(cw_world_query_point(m->w, (cw_vec2){1, bad[k]}, all, qf_collect, m->f), NULL);
        cw_aabb box = {{0, 0}, {5, 5}};
        box.min.x = bad[k];
        EXPECT_FAIL(cw_world_query_aabb(m->w, box, all, qf_collect, m->f), NULL);
        box = (cw_aabb){{0, 0}, {5, 5}};
        box.max.y = bad[k];
        EXPECT_FAIL(cw_world_query_aabb(m->w, box, all, qf_collect, m->f), NULL);
    }
    cw_aabb box = {{0, 0}, {5, 5}}, inverted_x = {{6, 0}, {5, 5}}, inverted_y = {{0, 6}, {5, 5}};
    assert_true(cw_world_query_aabb(m->w, box, all, qf_collect, m->f));
    EXPECT_FAIL(cw_world_query_aabb(NULL, box, all, qf_collect, m->f), "NULL");
    EXPECT_FAIL(cw_world_query_aabb(m->w, box, all, NULL, m->f), "NULL");
    EXPECT_FAIL(cw_world_query_aabb(m->w, inverted_x, all, qf_collect, m->f), NULL);
    EXPECT_FAIL(cw_world_query_aabb(m->w, inverted_y, all, qf_collect, m->f), NULL);
    // A box of zero area is valid and overlaps nothing with positive area.
    qf_found_reset(m->f, 0);
    cw_aabb flat = {{1, 1}, {1, 9}};
    assert_true(cw_world_query_aabb(m->w, flat, all, qf_collect, m->f));
    assert_int_equal(m->f->calls, 0);
}

static void misuse_shapes(misuse *m)
{
    cw_query_filter all = cw_default_query_filter();
    cw_shape s = cw_shape_box(2, 2), zero = cw_shape_box(0, 2), nan_box = cw_shape_box(NAN, 1);
    cw_shape no_mask = cw_shape_mask(NULL), unknown = s;
    unknown.type = (cw_shape_type)0;
    cw_transform t = qf_xf(1, 1, 0, 1, 1, 0, 0), zero_scale = t, nan_rot = t, inf_pos = t;
    zero_scale.scale.y = 0, nan_rot.rotation = NAN, inf_pos.position.x = INFINITY;
    cw_clear_error();
    assert_true(cw_world_query_shape(m->w, &s, &t, all, true, qf_collect, m->f));
    expect_no_error();
    EXPECT_FAIL(cw_world_query_shape(NULL, &s, &t, all, false, qf_collect, m->f), "NULL");
    EXPECT_FAIL(cw_world_query_shape(m->w, NULL, &t, all, false, qf_collect, m->f), "NULL");
    EXPECT_FAIL(cw_world_query_shape(m->w, &s, NULL, all, false, qf_collect, m->f), "NULL");
    EXPECT_FAIL(cw_world_query_shape(m->w, &s, &t, all, false, NULL, m->f), "NULL");
    const cw_shape *bad_shapes[] = {&zero, &nan_box, &no_mask, &unknown};
    const cw_transform *bad_transforms[] = {&zero_scale, &nan_rot, &inf_pos};
    for (int k = 0; k < 4; k++) {
        EXPECT_FAIL(cw_world_query_shape(m->w, bad_shapes[k], &t, all, false, qf_collect, m->f), NULL);
        EXPECT_FAIL(cw_shape_contains_point(bad_shapes[k], &t, (cw_vec2){1, 1}), NULL);
        cw_ray_hit hit;
        EXPECT_FAIL(cw_shape_raycast(bad_shapes[k], &t, (cw_vec2){0, 0}, (cw_vec2){5, 5}, &hit), NULL);
    }
    for (int k = 0; k < 3; k++) {
        EXPECT_FAIL(cw_world_query_shape(m->w, &s, bad_transforms[k], all, false, qf_collect, m->f), NULL);
        EXPECT_FAIL(cw_shape_contains_point(&s, bad_transforms[k], (cw_vec2){1, 1}), NULL);
        cw_ray_hit hit;
        EXPECT_FAIL(cw_shape_raycast(&s, bad_transforms[k], (cw_vec2){0, 0}, (cw_vec2){5, 5}, &hit), NULL);
    }
    assert_true(cw_shape_contains_point(&s, &t, (cw_vec2){1, 1}));
    EXPECT_FAIL(cw_shape_contains_point(NULL, &t, (cw_vec2){1, 1}), "NULL");
    EXPECT_FAIL(cw_shape_contains_point(&s, NULL, (cw_vec2){1, 1}), "NULL");
    EXPECT_FAIL(cw_shape_contains_point(&s, &t, (cw_vec2){NAN, 1}), NULL);
    EXPECT_FAIL(cw_shape_contains_point(&s, &t, (cw_vec2){1, -INFINITY}), NULL);
}

static void misuse_rays(misuse *m)
{
    cw_query_filter all = cw_default_query_filter();
    cw_shape s = cw_shape_box(2, 2);
    cw_transform t = qf_xf(1, 1, 0, 1, 1, 0, 0);
    cw_vec2 o = {0, 0}, d = {5, 5};
    cw_ray_hit hit;
    assert_true(cw_world_raycast(m->w, o, d, all, qf_ray_collect, m->rf));
    assert_true(cw_world_raycast_closest(m->w, o, d, all, &hit));
    assert_true(cw_shape_raycast(&s, &t, o, d, &hit));
    EXPECT_FAIL(cw_world_raycast(NULL, o, d, all, qf_ray_collect, m->rf), "NULL");
    EXPECT_FAIL(cw_world_raycast(m->w, o, d, all, NULL, m->rf), "NULL");
    EXPECT_FAIL(cw_world_raycast_closest(NULL, o, d, all, &hit), "NULL");
    EXPECT_FAIL(cw_world_raycast_closest(m->w, o, d, all, NULL), "NULL");
    EXPECT_FAIL(cw_shape_raycast(NULL, &t, o, d, &hit), "NULL");
    EXPECT_FAIL(cw_shape_raycast(&s, NULL, o, d, &hit), "NULL");
    EXPECT_FAIL(cw_shape_raycast(&s, &t, o, d, NULL), "NULL");
    const cw_vec2 bad[] = {{NAN, 0}, {0, NAN}, {INFINITY, 0}, {0, -INFINITY}};
    const cw_vec2 zero[] = {{0, 0}, {-0.0f, 0}, {0, -0.0f}};
    for (int k = 0; k < 4 + 3; k++) {
        cw_vec2 bo = k < 4 ? bad[k] : o, bd = k < 4 ? d : zero[k - 4];
        for (int swap = 0; swap < (k < 4 ? 2 : 1); swap++) {
            cw_vec2 ro = swap ? o : bo, rd = swap ? bo : bd;
            cw_ray_hit untouched;
            memset(&untouched, 0x3c, sizeof untouched);
            hit = untouched;
            EXPECT_FAIL(cw_world_raycast(m->w, ro, rd, all, qf_ray_collect, m->rf), NULL);
            EXPECT_FAIL(cw_world_raycast_closest(m->w, ro, rd, all, &hit), NULL);
            EXPECT_FAIL(cw_shape_raycast(&s, &t, ro, rd, &hit), NULL);
        }
    }
}

static void test_misuse(void **state)
{
    (void)state;
    misuse mu = {plain_world(NULL, NULL), qf_found_new(), qf_rays_new()}, *m = &mu;
    add_box(m->w, 0, 0, 10, 10, 1, NULL);
    misuse_points_and_boxes(m);
    misuse_shapes(m);
    misuse_rays(m);
    free(m->f);
    free(m->rf);
    cw_world_destroy(m->w);
}

const struct CMUnitTest query_callback_tests[] = {
    cmocka_unit_test(test_misuse),
    cmocka_unit_test(test_query_filters),
    cmocka_unit_test(test_query_callback_stops),
    cmocka_unit_test(test_ray_callback_modes),
    cmocka_unit_test(test_ray_limits_and_closest),
    cmocka_unit_test(test_queries_see_the_world_now),
    cmocka_unit_test(test_queries_in_contact_callbacks),
    cmocka_unit_test(test_query_callbacks_cannot_change_the_world),
};
