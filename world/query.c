// World queries: point, box, shape and ray, through the grid. Bodies changed since the last step
// have stale places in the grid, so the grid's visits skip them and they are tested one by one
// from the dirty list: a query sees the world as it is now. Queries never allocate.
#include "internal.h"

#include <math.h>
#include <string.h>
#include <sched.h>

cw_query_filter cw_default_query_filter(void) { return (cw_query_filter){UINT32_MAX, UINT32_MAX}; }

// One query in progress.
typedef struct query query;
typedef bool query_test(query *q, uint32_t index); // the exact test; may report and stop the query

struct query {
    cw_world *world;
    cw_query_filter filter;
    int lane;                // the lane this query took (see claim_lane)
    uint16_t mark;           // this query's number in its lane's world->lane_seen
    query_test *test;
    cw_query_fn *fn;         // point, box and shape queries
    cw_ray_fn *ray_fn;       // rays
    void *context;
    bool stopped;
    cw__box box;             // box and shape queries: the region asked about
    cw_vec2 point;           // point queries; ray origin
    cw_vec2 translation;     // rays
    double limit;            // rays: hits must come before this fraction
    const cw__body *shape;   // shape queries and casts
    bool want_manifold;
};

// The world whose query runs on this thread (its callback may be running), or NULL.
static _Thread_local const cw_world *querying_here;

bool cw__in_query(const cw_world *world) { return world != NULL && querying_here == world; }

static bool begin_query(cw_world *world, bool has_callback)
{
    if (world == NULL || !has_callback) {
        cw__fail(world == NULL ? "The world is NULL." : "The query callback is NULL.");
        return false;
    }
    if (cw__in_query(world)) {
        cw__fail("Queries cannot be nested: a query callback may not start another query.");
        return false;
    }
    return true;
}

// Takes a free lane (its own marks, so that queries on other threads do not meet), waiting while
// CW_QUERY_LANES queries run.
static int claim_lane(cw_world *world)
{
    for (;;) {
        unsigned busy = atomic_load(&world->lanes_busy);
        for (int k = 0; k < CW_QUERY_LANES; k++)
            if (!(busy & (1u << k)) && atomic_compare_exchange_strong(&world->lanes_busy, &busy, busy | (1u << k)))
                return k;
        sched_yield();
    }
}

// A lane's marks, one a slot, are made by its first query: a world never queried keeps none, one
// queried from a single thread one lane's. False if memory runs out. Only this lane's query
// touches them (bodies are not created meanwhile: that waits for the queries).
static bool lane_ready(cw_world *world, int lane)
{
    if (world->lane_seen[lane] != NULL || world->slot_capacity == 0) // no slots: nothing to mark
        return true;
    size_t bytes = (size_t)world->slot_capacity * sizeof *world->lane_seen[lane];
    uint16_t *seen = cw__alloc(bytes);
    if (seen == NULL)
        return false;
    memset(seen, 0, bytes);
    world->lane_seen[lane] = seen;
    world->slot_array_capacity[CW__FIRST_LANE + lane] = world->slot_capacity;
    atomic_fetch_add(&world->lane_bytes, bytes);
    return true;
}

// Gives the query's lane back and lets the world change again.
static void finish(query *q)
{
    atomic_fetch_and(&q->world->lanes_busy, ~(1u << q->lane));
    querying_here = NULL;
    atomic_fetch_sub(&q->world->queries, 1);
}

// Numbers this query in its lane so each body is tested once though it sits in several cells.
// False (no query runs) if memory runs out making the lane's marks.
static bool start(query *q, cw_world *world)
{
    atomic_fetch_add(&world->queries, 1);
    querying_here = world;
    int lane = claim_lane(world);
    q->world = world;
    q->lane = lane;
    if (!lane_ready(world, lane)) {
        finish(q);
        return false;
    }
    if (++world->lane_mark[lane] == 0) { // wrapped: forget the lane's old marks
        if (world->slot_capacity > 0)
            memset(world->lane_seen[lane], 0, world->slot_capacity * sizeof *world->lane_seen[lane]);
        world->lane_mark[lane] = 1;
    }
    q->mark = world->lane_mark[lane];
    q->stopped = false;
    return true;
}

static bool accepts(const query *q, uint32_t index)
{
    const cw__hot *hot = &q->world->hot[index];
    return (hot->category & q->filter.collides_with) && (q->filter.category & hot->collides_with);
}

// Grid visitor: each live, unchanged body that passes the filter, once.
static bool visit(void *context, uint32_t index)
{
    query *q = context;
    cw_world *world = q->world;
    uint16_t *seen = world->lane_seen[q->lane];
    if (seen[index] == q->mark || world->hot[index].state != CW__ALIVE || world->hot[index].dirty ||
        world->hot[index].disabled)
        return true;
    seen[index] = q->mark;
    if (accepts(q, index))
        q->stopped = !q->test(q, index);
    return !q->stopped;
}

// Bodies changed since the last step, which the grid does not know where to find.
static void visit_changed(query *q)
{
    const cw_world *world = q->world;
    for (uint32_t k = 0; k < world->dirty.count && !q->stopped; k++) {
        uint32_t index = world->dirty.items[k];
        if (world->hot[index].state == CW__ALIVE && !world->hot[index].disabled && world->hot[index].dirty &&
            accepts(q, index))
            q->stopped = !q->test(q, index);
    }
}

static cw_body_id id_of(const cw_world *world, uint32_t index) { return (cw_body_id){index, world->slots[index].generation}; }

static bool report_hit(query *q, uint32_t index, const cw_manifold *manifold)
{
    return q->fn(id_of(q->world, index), q->world->slots[index].user_data, manifold, q->context);
}

// Whether two boxes intersect with positive area (a box of zero width overlaps nothing).
static bool boxes_overlap(const cw__box *a, const cw__box *b)
{
    return fmaxf(a->min_x, b->min_x) < fminf(a->max_x, b->max_x) && fmaxf(a->min_y, b->min_y) < fminf(a->max_y, b->max_y);
}


// Runs a point, box or shape query over the grid cells of q->box and the changed bodies.
static bool run_region_query(query *q)
{
    cw__grid_query_box(&q->world->grid, &q->box, visit, q);
    visit_changed(q);
    finish(q);
    return true;
}

// --- point ---

// A body's box for the cheap filters of point and ray queries, widened by a millionth of its
// coordinates: the exact tests work in the shape's own frame, where a point within rounding of a
// tight AABB's edge can still test inside an edge texel (a corner at the pivot lands exactly on the
// AABB, and the point's local coordinate rounds onto the texel's closed side), and far from the
// origin a float AABB can have no extent at all. False if the widening is not finite: then the
// box says nothing and the exact test decides.
static bool widened_box(const cw__box *box, double lo[2], double hi[2])
{
    const double margin[2] = {1e-6 * (fabs(box->min_x) + fabs(box->max_x)) + 1e-30,
                              1e-6 * (fabs(box->min_y) + fabs(box->max_y)) + 1e-30};
    if (!isfinite(margin[0]) || !isfinite(margin[1]))
        return false;
    lo[0] = box->min_x - margin[0], lo[1] = box->min_y - margin[1];
    hi[0] = box->max_x + margin[0], hi[1] = box->max_y + margin[1];
    return true;
}

static bool test_point(query *q, uint32_t index)
{
    cw__box box = cw__body_box(q->world, index);
    double lo[2], hi[2];
    if (widened_box(&box, lo, hi) &&
        !(lo[0] <= q->point.x && q->point.x <= hi[0] && lo[1] <= q->point.y && q->point.y <= hi[1]))
        return true; // the widened AABB holds everything the exact test could find
    cw__body scratch;
    if (!cw__body_contains(cw__slot_body(q->world, index, &scratch), q->point.x, q->point.y))
        return true;
    return report_hit(q, index, NULL);
}

bool cw_world_query_point(cw_world *world, cw_vec2 point, cw_query_filter filter, cw_query_fn *fn, void *context)
{
    if (!begin_query(world, fn != NULL))
        return false;
    if (!isfinite(point.x) || !isfinite(point.y)) {
        cw__fail("The point is not finite.");
        return false;
    }
    query q = {.filter = filter, .test = test_point, .fn = fn, .context = context, .point = point};
    // The cells around the point, not just its own: an AABB computed in double (centre minus half
    // extent) can fall a hair inside a shape's true corner, and a point exactly there belongs to the
    // shape. The hair is far below a millionth of the shape's size and place.
    float size = world->grid.cell_size;
    float ex = (fabsf(point.x) + size) * 1e-6f, ey = (fabsf(point.y) + size) * 1e-6f;
    q.box = (cw__box){point.x - ex, point.y - ey, point.x + ex, point.y + ey};
    if (!start(&q, world))
        return false;
    return run_region_query(&q);
}

// --- box ---

static bool test_box(query *q, uint32_t index)
{
    cw__box box = cw__body_box(q->world, index);
    return boxes_overlap(&box, &q->box) ? report_hit(q, index, NULL) : true;
}

bool cw_world_query_aabb(cw_world *world, cw_aabb box, cw_query_filter filter, cw_query_fn *fn, void *context)
{
    if (!begin_query(world, fn != NULL))
        return false;
    if (!(isfinite(box.min.x) && isfinite(box.min.y) && isfinite(box.max.x) && isfinite(box.max.y))) {
        cw__fail("The query box has a non-finite coordinate.");
        return false;
    }
    if (box.min.x > box.max.x || box.min.y > box.max.y) {
        cw__fail("The query box is inverted: min must not exceed max.");
        return false;
    }
    query q = {.filter = filter, .test = test_box, .fn = fn, .context = context};
    q.box = (cw__box){box.min.x, box.min.y, box.max.x, box.max.y};
    if (!start(&q, world))
        return false;
    return run_region_query(&q);
}

// --- shape ---

static bool test_shape(query *q, uint32_t index)
{
    cw__box box = cw__body_box(q->world, index);
    if (!cw__boxes_meet(&box, &q->box)) // not positive area: cw_overlap works in double
        return true;
    cw_manifold manifold;
    cw__body scratch;
    if (!cw__overlap_bodies(q->shape, cw__slot_body(q->world, index, &scratch), q->want_manifold ? &manifold : NULL))
        return true;
    return report_hit(q, index, q->want_manifold ? &manifold : NULL);
}

bool cw_world_query_shape(cw_world *world, const cw_shape *shape, const cw_transform *transform,
                          cw_query_filter filter, bool want_manifold, cw_query_fn *fn, void *context)
{
    cw__body body;
    if (!begin_query(world, fn != NULL) || !cw__prepare(shape, transform, &body))
        return false;
    query q = {.filter = filter, .test = test_shape, .fn = fn, .context = context, .shape = &body,
               .want_manifold = want_manifold};
    cw_aabb aabb = cw__body_aabb(&body);
    q.box = (cw__box){aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y};
    if (!start(&q, world))
        return false;
    return run_region_query(&q);
}

// --- rays ---

// Whether the segment, up to the current limit, passes through the (widened) box: a cheap filter.
static bool ray_meets_box(const query *q, const cw__box *box)
{
    double t0 = 0, t1 = q->limit;
    const double o[2] = {q->point.x, q->point.y}, d[2] = {q->translation.x, q->translation.y};
    double lo[2], hi[2];
    if (!widened_box(box, lo, hi))
        return true; // beyond the float range the box says nothing: the exact test decides
    for (int axis = 0; axis < 2; axis++) {
        if (d[axis] == 0) {
            if (o[axis] < lo[axis] || o[axis] > hi[axis])
                return false;
            continue;
        }
        double a = (lo[axis] - o[axis]) / d[axis], b = (hi[axis] - o[axis]) / d[axis];
        t0 = fmax(t0, fmin(a, b));
        t1 = fmin(t1, fmax(a, b));
    }
    return t0 <= t1;
}

static bool test_ray(query *q, uint32_t index)
{
    cw_world *world = q->world;
    cw__box box = cw__body_box(world, index);
    cw__ray_result result;
    cw__body scratch;
    if (!ray_meets_box(q, &box) ||
        !cw__body_raycast(cw__slot_body(world, index, &scratch), q->point.x, q->point.y, q->translation.x,
                          q->translation.y, q->limit, &result))
        return true;
    cw_ray_hit hit = cw__ray_hit_of(q->point, q->translation, &result);
    hit.body = id_of(world, index);
    hit.user_data = world->slots[index].user_data;
    float limit = q->ray_fn(&hit, q->context);
    if (limit == 0)
        return false;
    if (limit > 0 && limit < q->limit)
        q->limit = limit;
    return true;
}

bool cw_world_raycast(cw_world *world, cw_vec2 origin, cw_vec2 translation, cw_query_filter filter, cw_ray_fn *fn,
                      void *context)
{
    if (!begin_query(world, fn != NULL) || !cw__ray_is_valid(origin, translation))
        return false;
    query q = {.filter = filter, .test = test_ray, .ray_fn = fn, .context = context, .point = origin,
               .translation = translation, .limit = 1.0};
    if (!start(&q, world))
        return false;
    cw__grid_query_ray(&world->grid, origin.x, origin.y, translation.x, translation.y, &q.limit, visit, &q);
    visit_changed(&q);
    finish(&q);
    return true;
}

typedef struct closest {
    cw_ray_hit hit;
    bool found;
} closest;

static float keep_closest(const cw_ray_hit *hit, void *context)
{
    closest *c = context;
    c->hit = *hit;
    c->found = true;
    return hit->fraction;
}

// The closest cast hit; among hits at the same fraction the lowest body index, so that the answer
// does not depend on the order the grid visits them in.
static float keep_closest_cast(const cw_ray_hit *hit, void *context)
{
    closest *c = context;
    if (!c->found || hit->fraction < c->hit.fraction ||
        (hit->fraction == c->hit.fraction && hit->body.index < c->hit.body.index))
        c->hit = *hit, c->found = true;
    return nextafterf(c->hit.fraction, 2.0f); // equal fractions still come, to settle ties
}

bool cw_world_raycast_closest(cw_world *world, cw_vec2 origin, cw_vec2 translation, cw_query_filter filter,
                              cw_ray_hit *hit)
{
    if (hit == NULL) {
        cw__fail("The hit output pointer is NULL.");
        return false;
    }
    closest c;
    memset(&c, 0, sizeof c);
    if (!cw_world_raycast(world, origin, translation, filter, keep_closest, &c) || !c.found)
        return false;
    *hit = c.hit;
    return true;
}

// --- shape casts ---

// Casts the query's shape against one body over the whole translation (so a body's answer does not
// depend on what was found before it); reported if it comes before the limit.
static bool test_cast(query *q, uint32_t index)
{
    cw_world *world = q->world;
    cw__box box = cw__body_box(world, index);
    if (!cw__boxes_meet(&box, &q->box))
        return true;
    float fraction;
    cw_manifold contact;
    cw__body scratch;
    if (!cw__cast_bodies(q->shape, cw__slot_body(world, index, &scratch), q->translation.x, q->translation.y, &fraction,
                         &contact) ||
        !(fraction < q->limit))
        return true;
    cw_ray_hit hit;
    memset(&hit, 0, sizeof hit);
    hit.body = id_of(world, index);
    hit.user_data = world->slots[index].user_data;
    hit.point = contact.point;
    hit.normal = (cw_vec2){-contact.normal.x, -contact.normal.y}; // facing the moving shape
    hit.fraction = fraction;
    float limit = q->ray_fn(&hit, q->context);
    if (limit == 0)
        return false;
    if (limit > 0 && limit < 1 && limit < q->limit)
        q->limit = limit;
    return true;
}

bool cw_world_cast_shape(cw_world *world, const cw_shape *shape, const cw_transform *transform, cw_vec2 translation,
                         cw_query_filter filter, cw_ray_fn *fn, void *context)
{
    cw__body body;
    if (!begin_query(world, fn != NULL) || !cw__prepare(shape, transform, &body))
        return false;
    if (!isfinite(translation.x) || !isfinite(translation.y)) {
        cw__fail("The translation is not finite.");
        return false;
    }
    // A cast may first touch at the very end (fraction 1): the limit starts just past it.
    query q = {.filter = filter, .test = test_cast, .ray_fn = fn, .context = context, .shape = &body,
               .translation = translation, .limit = 1.0 + 0x1p-20};
    cw__body end = cw__body_moved(&body, translation.x, translation.y);
    cw_aabb from = cw__body_aabb(&body), to = cw__body_aabb(&end);
    q.box = (cw__box){fminf(from.min.x, to.min.x), fminf(from.min.y, to.min.y), fmaxf(from.max.x, to.max.x),
                      fmaxf(from.max.y, to.max.y)};
    if (!start(&q, world))
        return false;
    return run_region_query(&q);
}

bool cw_world_cast_shape_closest(cw_world *world, const cw_shape *shape, const cw_transform *transform,
                                 cw_vec2 translation, cw_query_filter filter, cw_ray_hit *hit)
{
    if (hit == NULL) {
        cw__fail("The hit output pointer is NULL.");
        return false;
    }
    closest c;
    memset(&c, 0, sizeof c);
    if (!cw_world_cast_shape(world, shape, transform, translation, filter, keep_closest_cast, &c) || !c.found)
        return false;
    *hit = c.hit;
    return true;
}
