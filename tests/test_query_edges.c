// Queries where shapes, texels and cells meet, on hand-made cases: the slow reference itself
// (query_ref.h) on cases computed by hand; rays along texel edges (a graze where one side is opaque, a
// hit where both are), through texel corners and from inside, under quarter turns, scales and mirrors;
// tiles sharing edges (the half-open rule); and the cases found in review and by the world fuzzer:
// rays across cell boundaries and grazing cell edges at sprite corners, a ray from a box's outline,
// rays and points far from the origin or exactly on a box's corner.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "query_found.h"
#include "query_ref.h"
#include "suites.h"

static cw_mask *filled_or_checker_mask(int w, int h, bool checker)
{
    uint8_t alpha[64 * 64];
    assert_true(w * h <= 64 * 64);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            alpha[j * w + i] = (!checker || (i + j) % 2 == 0) ? 255 : 0;
    cw_mask *m = cw_mask_from_alpha(alpha, w, h, w, 128);
    assert_non_null(m);
    return m;
}

// The reference itself, on cases computed by hand (no library query is called).
static void test_reference_by_hand(void **state)
{
    (void)state;
    cw_shape box = cw_shape_box(10, 5);
    cw_transform id = cw_default_transform();
    assert_int_equal(qr_contains_point(&box, &id, (cw_vec2){0, 0}), QR_YES);
    assert_int_equal(qr_contains_point(&box, &id, (cw_vec2){10, 0}), QR_NO);
    assert_int_equal(qr_contains_point(&box, &id, (cw_vec2){9.5f, 4.5f}), QR_YES);
    assert_int_equal(qr_contains_point(&box, &id, (cw_vec2){5, 5}), QR_NO);
    assert_int_equal(qr_contains_point(&box, &id, (cw_vec2){-1e-7f, 2}), QR_UNSURE);
    cw_transform mirrored = qf_xf(0, 0, 0, -1, 1, 0, 0); // covers (-10, 0] x [0, 5)
    assert_int_equal(qr_contains_point(&box, &mirrored, (cw_vec2){0, 1}), QR_YES);
    assert_int_equal(qr_contains_point(&box, &mirrored, (cw_vec2){-10, 1}), QR_NO);
    qr_ray r;
    qr_raycast(&box, &id, (cw_vec2){-5, 2.5f}, (cw_vec2){20, 0}, &r);
    assert_int_equal(r.status, QR_YES);
    assert_true(fabs(r.fraction - 0.25) < 1e-12 && r.normal[0] == -1 && fabs(r.normal[1]) < 1e-12);
    qr_raycast(&box, &mirrored, (cw_vec2){-20, 2.5f}, (cw_vec2){40, 0}, &r);
    assert_true(r.status == QR_YES && fabs(r.fraction - 0.25) < 1e-12 && r.normal[0] == -1);
    qr_raycast(&box, &id, (cw_vec2){-5, 0}, (cw_vec2){20, 0}, &r); // along an edge
    assert_true(r.status == QR_NO && r.exact);
    qr_raycast(&box, &id, (cw_vec2){5, 2.5f}, (cw_vec2){3, 4}, &r); // starts inside
    assert_true(r.status == QR_YES && r.inside && r.fraction == 0 && fabs(r.normal[0] + 0.6) < 1e-12);
    qr_raycast(&box, &id, (cw_vec2){-1, 1}, (cw_vec2){2, -2}, &r); // through a corner only
    assert_int_equal(r.status, QR_UNSURE);
    cw_mask *m = filled_or_checker_mask(2, 2, false);
    cw_shape ms = cw_shape_mask(m);
    qr_raycast(&ms, &id, (cw_vec2){1, -1}, (cw_vec2){0, 4}, &r); // between two opaque columns
    assert_true(r.status == QR_YES && r.exact && fabs(r.fraction - 0.25) < 1e-12 && r.normal[1] == -1);
    qr_raycast(&ms, &id, (cw_vec2){0, -1}, (cw_vec2){0, 4}, &r); // along the outline
    assert_true(r.status == QR_NO && r.exact);
    cw_mask_destroy(m);
}

// The world normal of the local edge normal (nx, ny) under a transform: R * S^-1 n, normalised.
static void world_normal(const cw_transform *t, double nx, double ny, double out[2])
{
    double c, s;
    ref_cos_sin(t->rotation, &c, &s);
    double qx = nx / t->scale.x, qy = ny / t->scale.y, len = hypot(qx, qy);
    out[0] = (c * qx - s * qy) / len, out[1] = (s * qx + c * qy) / len;
}

// A segment given in local coordinates: cw_shape_raycast and a one-body world must agree with the
// expectation (no hit, or a hit at `fraction` with one of two local edge normals, or from inside).
typedef struct local_ray {
    double u0, v0, u1, v1;
    bool hit, inside;
    double fraction, n1[2], n2[2]; // local normals (n2 = n1 unless entering at a corner)
} local_ray;

static void expect_local_ray(const cw_shape *shape, const cw_transform *t, const local_ray *lr)
{
    cw_vec2 o, e;
    assert_true(qr_exact_world(t, lr->u0, lr->v0, &o) && qr_exact_world(t, lr->u1, lr->v1, &e));
    cw_vec2 d = {e.x - o.x, e.y - o.y};
    assert_true(o.x + d.x == e.x && o.y + d.y == e.y);
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    cw_body_def bd = cw_default_body_def();
    bd.shape = *shape, bd.transform = *t;
    assert_false(cw_body_id_is_null(cw_body_create(w, &bd)));
    for (int which = 0; which < 2; which++) {
        cw_ray_hit hit;
        cw_clear_error();
        bool got = which ? cw_world_raycast_closest(w, o, d, cw_default_query_filter(), &hit)
                         : cw_shape_raycast(shape, t, o, d, &hit);
        bool ok = got == lr->hit && cw_last_error()[0] == '\0';
        double a[2], b[2], len = hypot(d.x, d.y);
        if (lr->inside)
            a[0] = b[0] = -d.x / len, a[1] = b[1] = -d.y / len;
        else
            world_normal(t, lr->n1[0], lr->n1[1], a), world_normal(t, lr->n2[0], lr->n2[1], b);
        if (ok && got)
            ok = fabs(hit.fraction - lr->fraction) < 1e-5 && qf_hit_sane(&hit, o, d) &&
                 (qf_vec_close(hit.normal.x, hit.normal.y, a[0], a[1], 1e-5) ||
                  qf_vec_close(hit.normal.x, hit.normal.y, b[0], b[1], 1e-5));
        if (!ok) {
            printf("  %s: local segment (%g, %g) -> (%g, %g): got %s (error \"%s\"), expected %s at %g\n",
                   which ? "cw_world_raycast_closest" : "cw_shape_raycast", lr->u0, lr->v0, lr->u1, lr->v1,
                   got ? "a hit" : "no hit", cw_last_error(), lr->hit ? "a hit" : "no hit", lr->fraction);
            if (got)
                qf_print_hit("library", &hit);
            gen_print_transform(stdout, "transform", t);
            cw_world_destroy(w);
            fail_msg("ray along texel edges or through corners");
        }
    }
    cw_world_destroy(w);
}

static const cw_transform *grid_transforms(int *count)
{
    static cw_transform ts[6];
    const float q = (float)(GEN_PI / 2);
    ts[0] = qf_xf(0, 0, 0, 1, 1, 0, 0);
    ts[1] = qf_xf(7, -3, q, 2, 1, 1, 0.5f);
    ts[2] = qf_xf(-5, 11, 2 * q, -1, 1, 3, 0);
    ts[3] = qf_xf(100, 40, -q, 1.5f, -2, 0, 2);
    ts[4] = qf_xf(-60, -20, 3 * q, -0.5f, -0.5f, 2.5f, 1);
    ts[5] = qf_xf(3, 4, 4 * q, 3, -1, 0, 0);
    *count = 6;
    return ts;
}

// Rays along texel edges (a graze where only one side is opaque, a hit where both are), through
// texel corners diagonally, and starting inside, under quarter turns, scales and mirrors.
static void test_grazes_and_corners(void **state)
{
    (void)state;
    cw_mask *filled = filled_or_checker_mask(4, 4, false), *checker = filled_or_checker_mask(6, 6, true);
    cw_shape fs = cw_shape_mask(filled), cs = cw_shape_mask(checker), box = cw_shape_box(4, 4);
    const local_ray filled_rays[] = {
        {1, -1, 1, 4, true, false, 0.2, {0, -1}, {0, -1}},          // between two opaque columns
        {3, 5.5, 3, -0.5, true, false, 0.25, {0, 1}, {0, 1}},       // the same, upward
        {0, -1, 0, 5, false, false, 0, {0, 0}, {0, 0}},             // along the outline
        {4, 5, 4, -1, false, false, 0, {0, 0}, {0, 0}},
        {-1, 0, 5, 0, false, false, 0, {0, 0}, {0, 0}},
        {-1, 2, 4.5, 2, true, false, 0.25 / 1.375, {-1, 0}, {-1, 0}}, // between two opaque rows
        {2, 2.5, 2, 6.5, true, true, 0, {0, 0}, {0, 0}},            // starts on an interior edge: inside
        {-1, -1, 5, 5, true, false, 1.0 / 6, {-1, 0}, {0, -1}},     // enters at a corner
        {-1, 1, 1, -1, false, false, 0, {0, 0}, {0, 0}},            // touches a corner only
        {5, 3, 3, 5, false, false, 0, {0, 0}, {0, 0}},
        {1.5, 1.5, 9, 1.5, true, true, 0, {0, 0}, {0, 0}},          // starts inside
    };
    const local_ray checker_rays[] = {
        {-1, 0, 7, 8, false, false, 0, {0, 0}, {0, 0}},           // through corners where texels touch diagonally
        {7, 6, -1, -2, false, false, 0, {0, 0}, {0, 0}},
        {-1, 2, 5, 8, false, false, 0, {0, 0}, {0, 0}},
        {-1, -1, 7, 7, true, false, 1.0 / 8, {-1, 0}, {0, -1}},   // through the opaque diagonal
        {2, -1, 2, 7, false, false, 0, {0, 0}, {0, 0}},           // along a column edge: never two opaque sides
        {-1, 3, 7, 3, false, false, 0, {0, 0}, {0, 0}},
    };
    const local_ray box_rays[] = {
        {0, -1, 0, 5, false, false, 0, {0, 0}, {0, 0}},
        {-1, 4, 5, 4, false, false, 0, {0, 0}, {0, 0}},
        {-1, 1, 1, -1, false, false, 0, {0, 0}, {0, 0}},
        {-2, 1, 6, 1, true, false, 0.25, {-1, 0}, {-1, 0}},
        {-1, -1, 5, 5, true, false, 1.0 / 6, {-1, 0}, {0, -1}},
        {0, 1, -3, 1, false, false, 0, {0, 0}, {0, 0}},             // starts on an edge, leaves
        {0, 1, 3, 1, true, false, 0, {-1, 0}, {-1, 0}},             // starts on an edge, enters
        {-2, 1, 0, 1, false, false, 0, {0, 0}, {0, 0}},             // ends on an edge
    };
    int nt;
    const cw_transform *ts = grid_transforms(&nt);
    for (int k = 0; k < nt; k++) {
        for (size_t i = 0; i < sizeof filled_rays / sizeof filled_rays[0]; i++)
            expect_local_ray(&fs, &ts[k], &filled_rays[i]);
        for (size_t i = 0; i < sizeof checker_rays / sizeof checker_rays[0]; i++)
            expect_local_ray(&cs, &ts[k], &checker_rays[i]);
        for (size_t i = 0; i < sizeof box_rays / sizeof box_rays[0]; i++)
            expect_local_ray(&box, &ts[k], &box_rays[i]);
    }
    cw_mask_destroy(filled);
    cw_mask_destroy(checker);
}

// Tiles sharing edges: every point of the tiled area, edges and corners included, is in exactly one
// tile (the half-open rule), for boxes and opaque masks under quarter turns, scales and mirrors.
static void test_half_open_tiling(void **state)
{
    (void)state;
    cw_mask *filled = filled_or_checker_mask(4, 3, false);
    const cw_shape shapes[2] = {cw_shape_box(4, 3), cw_shape_mask(filled)};
    int nt;
    const cw_transform *ts = grid_transforms(&nt);
    qf_found *f = qf_found_new();
    for (int k = 0; k < nt; k++)
        for (int s = 0; s < 2; s++) {
            cw_world_def wd = cw_default_world_def();
            cw_world *w = cw_world_create(&wd);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    cw_body_def bd = cw_default_body_def();
                    bd.shape = shapes[s];
                    bd.transform = ts[k];
                    assert_true(qr_exact_world(&ts[k], 4 * a + ts[k].origin.x, 3 * b + ts[k].origin.y,
                                               &bd.transform.position));
                    assert_false(cw_body_id_is_null(cw_body_create(w, &bd)));
                }
            for (int i = -2; i <= 26; i++)
                for (int j = -2; j <= 20; j++) {
                    cw_vec2 p;
                    assert_true(qr_exact_world(&ts[k], i * 0.5, j * 0.5, &p));
                    qf_found_reset(f, 0);
                    assert_true(cw_world_query_point(w, p, cw_default_query_filter(), qf_collect, f));
                    bool in = i >= 0 && i < 24 && j >= 0 && j < 18;
                    if (f->n != (in ? 1 : 0)) {
                        printf("  tiling %d/%d: local (%g, %g) = world (%a, %a) is in %d tiles, expected %d\n", k, s,
                               i * 0.5, j * 0.5, (double)p.x, (double)p.y, f->n, in);
                        fail_msg("half-open rule");
                    }
                }
            cw_world_destroy(w);
        }
    free(f);
    cw_mask_destroy(filled);
}

// Found in review: the ray's walk over the grid must put cell boundaries where the bodies were
// filed (x times the float reciprocal of the cell size), or a closer body just across a boundary
// is skipped once a farther hit in the next cell has lowered the limit.
static void test_ray_cell_boundaries(void **state)
{
    (void)state;
    cw_world_def wd = cw_default_world_def();
    wd.cell_size = 28.75f;
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_body_def near_def = cw_default_body_def(), far_def = cw_default_body_def();
    near_def.shape = cw_shape_box(0.5f, 1);
    near_def.transform.position = (cw_vec2){5478686.0f, 0};
    far_def.shape = cw_shape_box(4, 4);
    far_def.transform.position = (cw_vec2){5478684.0f, 0};
    far_def.transform.origin = (cw_vec2){2, 2};
    far_def.transform.rotation = 0.78539816f;
    cw_body_id near_id = cw_body_create(w, &near_def);
    assert_false(cw_body_id_is_null(cw_body_create(w, &far_def)));
    cw_world_step(w);
    cw_ray_hit alone, hit;
    cw_vec2 origin = {5478700.0f, 0.45f}, ray = {-100, 0};
    assert_true(cw_shape_raycast(&near_def.shape, &near_def.transform, origin, ray, &alone));
    assert_true(cw_world_raycast_closest(w, origin, ray, cw_default_query_filter(), &hit));
    assert_int_equal(hit.body.index, near_id.index);
    assert_true(hit.fraction == alone.fraction);
    cw_world_destroy(w);
}

// Found by the world fuzzer in CI: a ray 5e-26 below a rotated sprite's corner, which sits on a cell
// edge. In the sprite's frame that offset is below double resolution and the exact test enters the
// corner; the grid walked only the cells below the edge and never offered the sprite. Random sprites
// with a corner on a cell corner on an axis, rays along that axis at tiny offsets either side: the world's
// closest hit must be the brute-force one over cw_shape_raycast() (the fuzzer's invariant).
static void test_rays_grazing_cell_edges(void **state)
{
    (void)state;
    enum { BODIES = 40 };
    const float cell = 4;
    gen_rng r = gen_seed(0x9a2e);
    gen_shape shapes[4];
    for (int k = 0; k < 4; k++)
        if (k % 2 == 0)
            gen_random_box(&r, &shapes[k]);
        else
            assert_true(gen_random_mask(&r, &shapes[k]));
    cw_world_def wd = cw_default_world_def();
    wd.cell_size = cell;
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_body_def defs[BODIES];
    for (int k = 0; k < BODIES; k++) {
        defs[k] = cw_default_body_def();
        defs[k].shape = shapes[k % 4].shape;
        // On the axes, so that a ray's offset from the corner survives in float.
        bool on_x_axis = k % 2 == 0;
        float spot = cell * (float)gen_int(&r, -20, 20);
        defs[k].transform = qf_xf(on_x_axis ? spot : 0, on_x_axis ? 0 : spot,
                               (float)gen_range(&r, -3.2, 3.2), (float)gen_range(&r, 0.05, 0.6) * (gen_chance(&r, 0.5) ? -1 : 1),
                               (float)gen_range(&r, 0.05, 0.6) * (gen_chance(&r, 0.5) ? -1 : 1), 0, 0);
        assert_false(cw_body_id_is_null(cw_body_create(w, &defs[k])));
    }
    cw_world_step(w);
    int n = gen_scaled(4000), hits = 0;
    for (int k = 0; k < n; k++) {
        const cw_transform *corner = &defs[gen_int(&r, 0, BODIES - 1)].transform;
        float offset = ldexpf(gen_chance(&r, 0.5) ? 1.0f : -1.0f, -gen_int(&r, 10, 100));
        float along = (float)gen_range(&r, -100, 100), length = (float)gen_range(&r, 10, 400) * (gen_chance(&r, 0.5) ? 1 : -1);
        bool horizontal = corner->position.y == 0; // along the axis the corner is on
        cw_vec2 o = horizontal ? (cw_vec2){along, offset} : (cw_vec2){offset, along};
        cw_vec2 d = horizontal ? (cw_vec2){length, 0} : (cw_vec2){0, length};
        float best = 2;
        for (int b = 0; b < BODIES; b++) {
            cw_ray_hit own;
            if (cw_shape_raycast(&defs[b].shape, &defs[b].transform, o, d, &own) && own.fraction < best)
                best = own.fraction;
        }
        cw_ray_hit hit;
        bool world_hit = cw_world_raycast_closest(w, o, d, cw_default_query_filter(), &hit);
        if (world_hit != (best <= 1) || (world_hit && hit.fraction != best)) {
            printf("  ray (%a, %a) + (%a, %a): world %d at %a, brute force %d at %a\n", (double)o.x, (double)o.y,
                   (double)d.x, (double)d.y, world_hit, world_hit ? (double)hit.fraction : 0.0, best <= 1, (double)best);
            fail_msg("world ray disagrees with cw_shape_raycast");
        }
        hits += world_hit;
    }
    printf("  %d rays grazing cell edges at sprite corners: %d hit\n", n, hits);
    assert_true(hits > n / 10);
    cw_world_destroy(w);
    for (int k = 0; k < 4; k++)
        gen_shape_free(&shapes[k]);
}

// Found in review: a ray that starts on a box's outline and enters it diagonally enters through
// that edge (its normal), not from inside (minus the direction).
static void test_ray_from_outline(void **state)
{
    (void)state;
    cw_shape box = cw_shape_box(10, 10);
    cw_transform t = cw_default_transform();
    cw_ray_hit hit;
    assert_false(cw_shape_contains_point(&box, &t, (cw_vec2){10, 5})); // half-open: on the outline
    assert_true(cw_shape_raycast(&box, &t, (cw_vec2){10, 5}, (cw_vec2){-10, 5}, &hit));
    assert_true(hit.fraction == 0);
    assert_true(hit.normal.x == 1 && hit.normal.y == 0);
}

// Found by the world fuzzer: at y = -1e30 a sprite's float AABB has no height, while the exact
// test in the sprite's own frame still finds where a ray from its corner enters it.
static void test_ray_far_from_origin(void **state)
{
    (void)state;
    unsigned char alpha[24];
    memset(alpha, 255, sizeof alpha);
    cw_mask *mask = cw_mask_from_alpha(alpha, 12, 2, 12, 128);
    assert_non_null(mask);
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_mask(mask);
    def.transform.position = (cw_vec2){0, -1e30f};
    def.transform.scale = (cw_vec2){0.33f, 0.33f};
    assert_false(cw_body_id_is_null(cw_body_create(w, &def)));
    cw_vec2 origin = {-1, -1e30f}, ray = {100, 1e-37f};
    for (int step = 0; step < 2; step++) { // changed since the last step, then filed in the grid
        cw_ray_hit alone, hit;
        assert_true(cw_shape_raycast(&def.shape, &def.transform, origin, ray, &alone));
        assert_true(cw_world_raycast_closest(w, origin, ray, cw_default_query_filter(), &hit));
        assert_true(hit.fraction == alone.fraction);
        cw_world_step(w);
    }
    cw_world_destroy(w);
    cw_mask_destroy(mask);
}

// --- rays that start on a texel edge ---

// The world normal of a sprite's local axis normal (nx, ny): scaled by the inverse scale (whose
// signs are all that is left once normalised) and turned by a quarter-turn rotation q.
static void world_axis_normal(int q, cw_vec2 scale, double nx, double ny, double out[2])
{
    double x = scale.x < 0 ? -nx : nx, y = scale.y < 0 ? -ny : ny;
    const double c[4] = {1, 0, -1, 0}, s[4] = {0, 1, 0, -1};
    out[0] = c[q] * x - s[q] * y, out[1] = s[q] * x + c[q] * y;
}

static bool texel_at(const cw_mask *m, int i, int j)
{
    return i >= 0 && j >= 0 && i < cw_mask_width(m) && j < cw_mask_height(m) && cw_mask_get(m, i, j);
}

// A ray from a point on texel edge line `k` (x = k if `vertical`, else y = k), between lines
// `j` and j + 1 of the other axis, going `dl` in local units: what the texels either side decide.
// Returns 1 for a hit at fraction 0 (`normal` filled: minus the direction if it starts inside the
// covered region, else the edge's), 0 for no hit at fraction 0, -1 when it runs along the line
// beside one opaque texel (a graze: left to the random tests' reference).
static int edge_start_answer(const cw_mask *m, bool vertical, int k, int j, const int dl[2], int q, cw_vec2 scale,
                             const double d[2], double normal[2])
{
    bool before = vertical ? texel_at(m, k - 1, j) : texel_at(m, j, k - 1);
    bool after = vertical ? texel_at(m, k, j) : texel_at(m, j, k);
    int across = vertical ? dl[0] : dl[1];
    if (before && after) { // the interior of the covered region: starts inside
        double len = hypot(d[0], d[1]);
        normal[0] = -d[0] / len, normal[1] = -d[1] / len;
        return 1;
    }
    if (across == 0)
        return before || after ? -1 : 0;
    if (!(across > 0 ? after : before))
        return 0;
    double n = across > 0 ? -1 : 1; // the edge's normal faces the ray
    world_axis_normal(q, scale, vertical ? n : 0, vertical ? 0 : n, normal);
    return 1;
}

// Found by coverage: no test started a ray exactly on a texel's edge, where the texel behind the
// edge decides between entering through it (its normal) and starting inside (minus the direction).
// Random masks under quarter turns, mirrors and power-of-two scales at whole positions, so every
// coordinate is exact; rays from the middle of edge segments (never a corner), in every direction
// of small whole steps; the single-shape cast and the world's closest hit both checked.
static void test_rays_from_texel_edges(void **state)
{
    (void)state;
    gen_rng rng = gen_seed(0xed6e5);
    const float scales[] = {1, -1, 2, -2, 0.5f, -0.5f};
    int decided = 0, inside = 0, entering = 0, later = 0;
    for (int c = 0; c < gen_scaled(400); c++) {
        int w = gen_int(&rng, 1, 9), h = gen_int(&rng, 1, 9);
        uint8_t alpha[81];
        for (int t = 0; t < w * h; t++)
            alpha[t] = gen_chance(&rng, 0.6) ? 255 : 0;
        cw_mask *mask = cw_mask_from_alpha(alpha, w, h, w, 128);
        assert_non_null(mask);
        cw_shape shape = cw_shape_mask(mask);
        int q = gen_int(&rng, 0, 3);
        cw_transform t = cw_default_transform();
        t.rotation = (float)(q * (GEN_PI / 2));
        t.scale = (cw_vec2){scales[gen_int(&rng, 0, 5)], scales[gen_int(&rng, 0, 5)]};
        t.origin = (cw_vec2){(float)gen_int(&rng, 0, w), (float)gen_int(&rng, 0, h)};
        t.position = (cw_vec2){(float)gen_int(&rng, -40, 40), (float)gen_int(&rng, -40, 40)};
        cw_world_def wd = cw_default_world_def();
        cw_world *world = cw_world_create(&wd);
        assert_non_null(world);
        cw_body_def bd = cw_default_body_def();
        bd.shape = shape, bd.transform = t;
        assert_false(cw_body_id_is_null(cw_body_create(world, &bd)));
        for (int r = 0; r < 12; r++) {
            bool vertical = gen_chance(&rng, 0.5);
            int k = gen_int(&rng, 0, vertical ? w : h), j = gen_int(&rng, 0, (vertical ? h : w) - 1);
            double along = j + 0.25 * gen_int(&rng, 1, 3); // the middle of an edge segment, never a corner
            double lu = vertical ? k : along, lv = vertical ? along : k;
            int dl[2] = {gen_int(&rng, -3, 3), gen_int(&rng, -3, 3)};
            if (dl[0] == 0 && dl[1] == 0)
                dl[0] = 1;
            // local -> world, exactly: position + R(q) ((local - origin) * scale)
            const double cq[4] = {1, 0, -1, 0}, sq[4] = {0, 1, 0, -1};
            double px = (lu - t.origin.x) * t.scale.x, py = (lv - t.origin.y) * t.scale.y;
            double dx = dl[0] * t.scale.x, dy = dl[1] * t.scale.y;
            cw_vec2 o = {(float)(t.position.x + cq[q] * px - sq[q] * py), (float)(t.position.y + sq[q] * px + cq[q] * py)};
            double d[2] = {cq[q] * dx - sq[q] * dy, sq[q] * dx + cq[q] * dy};
            cw_vec2 dv = {(float)d[0], (float)d[1]};
            double normal[2] = {0, 0};
            int want = edge_start_answer(mask, vertical, k, j, dl, q, t.scale, d, normal);
            cw_ray_hit hit, closest;
            bool got = cw_shape_raycast(&shape, &t, o, dv, &hit);
            bool world_got = cw_world_raycast_closest(world, o, dv, cw_default_query_filter(), &closest);
            assert_int_equal(got, world_got);
            if (got)
                assert_memory_equal(&closest.fraction, &hit.fraction, sizeof hit.fraction);
            if (want < 0)
                continue;
            decided++;
            bool at_start = got && hit.fraction == 0;
            if (at_start != (want == 1) || (want == 1 && (fabs(hit.normal.x - normal[0]) > 1e-6 ||
                                                          fabs(hit.normal.y - normal[1]) > 1e-6)))
                fail_msg("case %d ray %d: %dx%d mask, turn %d, scale (%g, %g): from local (%g, %g) by (%d, %d): "
                         "hit %d at %g normal (%g, %g); expected %s normal (%g, %g)",
                         c, r, w, h, q, t.scale.x, t.scale.y, lu, lv, dl[0], dl[1], got, got ? hit.fraction : -1,
                         hit.normal.x, hit.normal.y, want ? "a hit at 0 with" : "no hit at 0", normal[0], normal[1]);
            if (want == 1)
                assert_true(hit.point.x == o.x && hit.point.y == o.y && closest.normal.x == hit.normal.x &&
                            closest.normal.y == hit.normal.y);
            bool starts_inside = want == 1 && normal[0] == -d[0] / hypot(d[0], d[1]) &&
                                 normal[1] == -d[1] / hypot(d[0], d[1]);
            inside += starts_inside, entering += want == 1 && !starts_inside, later += want == 0 && got;
        }
        cw_world_destroy(world);
        cw_mask_destroy(mask);
    }
    printf("  %d rays from texel edges decided there: %d start inside, %d enter through the edge, %d hit later\n",
           decided, inside, entering, later);
}

// Found by the world fuzzer: a box's AABB, computed as centre minus half extent, fell a hair inside
// its true corner, so a point query exactly on the corner (inside by the half-open rule) missed it.
static void test_point_on_a_box_corner(void **state)
{
    (void)state;
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(12.5f, 12.5f);
    def.transform.position = (cw_vec2){0x1.b3p-1f, -0x1.002804p-83f};
    def.transform.rotation = 0x1.312dp+23f;
    def.transform.scale = (cw_vec2){-0x1p-126f, -0x1.7c28f6p+1f};
    assert_false(cw_body_id_is_null(cw_body_create(w, &def)));
    assert_true(cw_shape_contains_point(&def.shape, &def.transform, def.transform.position));
    for (int step = 0; step < 2; step++) {
        qf_found f;
        qf_found_reset(&f, 0);
        assert_true(cw_world_query_point(w, def.transform.position, cw_default_query_filter(), qf_collect, &f));
        assert_int_equal(f.calls, 1);
        cw_world_step(w);
    }
    cw_world_destroy(w);
}

const struct CMUnitTest query_edge_tests[] = {
    cmocka_unit_test(test_point_on_a_box_corner),
    cmocka_unit_test(test_ray_far_from_origin),
    cmocka_unit_test(test_ray_cell_boundaries),
    cmocka_unit_test(test_rays_grazing_cell_edges),
    cmocka_unit_test(test_ray_from_outline),
    cmocka_unit_test(test_rays_from_texel_edges),
    cmocka_unit_test(test_reference_by_hand),
    cmocka_unit_test(test_half_open_tiling),
    cmocka_unit_test(test_grazes_and_corners),
};
