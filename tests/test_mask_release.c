// When a world lets go of a mask: once cw_body_destroy() or cw_body_set_shape() returns, the world
// no longer reads the body's old mask, so the caller may free it at once, even from a contact
// callback in the middle of a step (an animation that swaps frames it builds on the fly, a sprite
// whose texture goes with it). Seeded random worlds do exactly that: every mask let go is freed
// at once and a new one, of the same size and other texels, is made in its place (so a stale read
// likely lands on different bits). After each step the touching set must be brute force's over
// cw_overlap, and queries and the debug draw must run; AddressSanitizer and valgrind (make test)
// see any read of a freed mask.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collworld.h"
#include "gen.h"
#include "suites.h"

enum { RELEASE_BODIES = 40, RELEASE_STEPS = 24, RELEASE_SIDE = 12 };

typedef struct release_body {
    cw_body_id id;      // null once destroyed
    cw_mask *mask;      // owned here; NULL for a box
    cw_shape shape;
    cw_transform t;
} release_body;

typedef struct release_world {
    cw_world *world;
    release_body bodies[RELEASE_BODIES];
    gen_rng rng;
    bool in_callbacks_may_change; // off for the checking step
    int destroyed, reshaped, in_callbacks;
} release_world;

// A mask of RELEASE_SIDE x RELEASE_SIDE texels, about half of them opaque, from the generator.
static cw_mask *random_mask(gen_rng *r)
{
    unsigned char alpha[RELEASE_SIDE * RELEASE_SIDE];
    for (int k = 0; k < RELEASE_SIDE * RELEASE_SIDE; k++)
        alpha[k] = gen_chance(r, 0.55) ? 255 : 0;
    cw_mask *mask = cw_mask_from_alpha(alpha, RELEASE_SIDE, RELEASE_SIDE, RELEASE_SIDE, 128);
    assert_non_null(mask);
    return mask;
}

static int body_of(const release_world *rw, cw_body_id id)
{
    for (int k = 0; k < RELEASE_BODIES; k++)
        if (rw->bodies[k].id.index == id.index && rw->bodies[k].id.generation == id.generation &&
            !cw_body_id_is_null(id))
            return k;
    return -1;
}

static void destroy(release_world *rw, int k)
{
    release_body *b = &rw->bodies[k];
    cw_body_destroy(rw->world, b->id);
    cw_mask_destroy(b->mask); // at once: the world reads it no more
    b->mask = NULL;
    b->id = (cw_body_id){0, 0};
    rw->destroyed++;
}

// A fresh mask for the body; the old one is freed at once (after a mask, or the box it was).
static void reshape(release_world *rw, int k)
{
    release_body *b = &rw->bodies[k];
    cw_mask *fresh = random_mask(&rw->rng);
    cw_shape shape = cw_shape_mask(fresh);
    assert_true(cw_body_set_shape(rw->world, b->id, &shape));
    cw_mask_destroy(b->mask);
    b->mask = fresh, b->shape = shape;
    rw->reshaped++;
}

static void change_in_callback(const cw_contact *c, void *context)
{
    release_world *rw = context;
    if (!rw->in_callbacks_may_change || !gen_chance(&rw->rng, 0.03))
        return;
    int k = body_of(rw, gen_chance(&rw->rng, 0.5) ? c->a : c->b);
    if (k < 0 || !cw_body_is_valid(rw->world, rw->bodies[k].id))
        return; // destroyed earlier in this delivery: its ends still come
    if (rw->bodies[k].mask != NULL && gen_chance(&rw->rng, 0.5))
        destroy(rw, k);
    else
        reshape(rw, k);
    rw->in_callbacks++;
}

static void create(release_world *rw, int k)
{
    release_body *b = &rw->bodies[k];
    bool box = gen_chance(&rw->rng, 0.2);
    b->mask = box ? NULL : random_mask(&rw->rng);
    b->shape = box ? cw_shape_box((float)gen_range(&rw->rng, 2, 10), (float)gen_range(&rw->rng, 2, 10))
                   : cw_shape_mask(b->mask);
    b->t = cw_default_transform();
    b->t.position = (cw_vec2){(float)gen_range(&rw->rng, 0, 60), (float)gen_range(&rw->rng, 0, 60)};
    b->t.rotation = gen_chance(&rw->rng, 0.5) ? (float)gen_range(&rw->rng, -3, 3) : 0;
    cw_body_def def = cw_default_body_def();
    def.shape = b->shape, def.transform = b->t, def.swept = gen_chance(&rw->rng, 0.2);
    b->id = cw_body_create(rw->world, &def);
    assert_false(cw_body_id_is_null(b->id));
}

// Between steps: moves, reshapes, destroys and respawns.
static void change_between_steps(release_world *rw)
{
    for (int k = 0; k < RELEASE_BODIES; k++) {
        release_body *b = &rw->bodies[k];
        if (cw_body_id_is_null(b->id)) {
            if (gen_chance(&rw->rng, 0.3))
                create(rw, k);
            continue;
        }
        double roll = gen_unit(&rw->rng);
        if (roll < 0.05 && b->mask != NULL)
            destroy(rw, k);
        else if (roll < 0.12)
            reshape(rw, k);
        else if (roll < 0.7) {
            b->t.position.x += (float)gen_range(&rw->rng, -6, 6);
            b->t.position.y += (float)gen_range(&rw->rng, -6, 6);
            b->t.rotation += (float)gen_range(&rw->rng, -0.5, 0.5);
            assert_true(cw_body_set_transform(rw->world, b->id, &b->t));
        }
    }
}

static bool count_found(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    ++*(int *)context;
    return true;
}

static void count_segment(cw_vec2 a, cw_vec2 b, const cw_debug_item *item, void *context)
{
    (void)a, (void)b, (void)item;
    ++*(int *)context;
}

static void count_polygon(const cw_vec2 *vertices, int count, const cw_debug_item *item, void *context)
{
    (void)vertices, (void)count, (void)item;
    ++*(int *)context;
}

static void count_point(cw_vec2 p, float size, const cw_debug_item *item, void *context)
{
    (void)p, (void)size, (void)item;
    ++*(int *)context;
}

// The touching set of a step that changed nothing must be brute force's; queries and the debug
// draw read every live body's shape.
static void expect_world_right(release_world *rw, uint64_t seed, int step)
{
    rw->in_callbacks_may_change = false;
    cw_world_step(rw->world); // the changes, and the motion a swept body may pass through on
    cw_world_step(rw->world); // no motion: the set is where the bodies are
    for (int i = 0; i < RELEASE_BODIES; i++)
        for (int j = i + 1; j < RELEASE_BODIES; j++) {
            const release_body *a = &rw->bodies[i], *b = &rw->bodies[j];
            if (cw_body_id_is_null(a->id) || cw_body_id_is_null(b->id))
                continue;
            bool want = cw_overlap(&a->shape, &a->t, &b->shape, &b->t, NULL);
            if (cw_pair_touching(rw->world, a->id, b->id) != want)
                fail_msg("seed %llu step %d: bodies %d and %d touch %d in the world, %d by cw_overlap",
                         (unsigned long long)seed, step, i, j, !want, want);
        }
    int found = 0, lines = 0;
    cw_shape probe = cw_shape_box(30, 30);
    cw_transform at = cw_default_transform();
    at.position = (cw_vec2){30, 30};
    assert_true(cw_world_query_shape(rw->world, &probe, &at, cw_default_query_filter(), true, count_found, &found));
    cw_debug_draw draw = cw_default_debug_draw();
    draw.draw_segment = count_segment, draw.draw_polygon = count_polygon, draw.draw_point = count_point;
    draw.flags = CW_DRAW_MASK_OUTLINES | CW_DRAW_CONTACTS | CW_DRAW_AABBS, draw.context = &lines;
    assert_true(cw_world_debug_draw(rw->world, &draw));
    assert_true(lines > 0);
    rw->in_callbacks_may_change = true;
}

static void run_release_world(uint64_t seed, release_world *rw)
{
    memset(rw, 0, sizeof *rw);
    rw->rng = gen_seed(seed);
    cw_world_def def = cw_default_world_def();
    def.on_begin = change_in_callback, def.on_stay = change_in_callback, def.on_end = change_in_callback;
    def.report_stays = true, def.context = rw;
    rw->world = cw_world_create(&def);
    assert_non_null(rw->world);
    rw->in_callbacks_may_change = true;
    for (int k = 0; k < RELEASE_BODIES; k++)
        create(rw, k);
    for (int step = 0; step < RELEASE_STEPS; step++) {
        cw_world_step(rw->world);
        change_between_steps(rw);
        if (step % 3 == 2)
            expect_world_right(rw, seed, step);
    }
    cw_world_destroy(rw->world);
    for (int k = 0; k < RELEASE_BODIES; k++)
        cw_mask_destroy(rw->bodies[k].mask);
}

static void test_masks_freed_once_let_go(void **state)
{
    (void)state;
    static release_world rw;
    int worlds = gen_scaled(40), destroyed = 0, reshaped = 0, in_callbacks = 0;
    for (int w = 0; w < worlds; w++) {
        run_release_world(0x7e1ea5e0ull + (uint64_t)w, &rw);
        destroyed += rw.destroyed, reshaped += rw.reshaped, in_callbacks += rw.in_callbacks;
    }
    printf("  %d worlds: %d masks freed by destroying their body, %d by reshaping it (%d from callbacks)\n", worlds,
           destroyed, reshaped, in_callbacks);
    assert_true(in_callbacks > worlds); // the callbacks did change bodies mid-delivery
}

const struct CMUnitTest mask_release_tests[] = {
    cmocka_unit_test(test_masks_freed_once_let_go),
};
