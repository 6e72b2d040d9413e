// The world target's queries (point, rays, shape casts, and the shape and box queries on a cast's
// input), each against brute force over the live bodies with the single-shape functions; and the
// debug draw (on a point query's input).
#define FZ_EXTRA_FILE
#include "fuzz_world.h"

// A point near a live body (or anywhere), from the input.
static cw_vec2 pick_point(fz_reader *r)
{
    cw_vec2 p = {fz_float(r, 64.0f), fz_float(r, 64.0f)};
    if (live_count > 0 && fz_u8(r) < 200) {
        const cw_transform *t = &live[fz_u8(r) % live_count].transform;
        p.x += t->position.x, p.y += t->position.y;
    }
    return p;
}

// Queries are compared with brute force where the header specifies them: every live body and the
// query itself at moderate magnitudes (beyond, they must only not crash or misbehave).
static bool moderate_world(void)
{
    for (int k = 0; k < live_count; k++)
        if (!fz_moderate(&live[k].shape, &live[k].transform))
            return false;
    return true;
}

static bool moderate_point(cw_vec2 p) { return fz_moderate_value(p.x, 0, 1e7f) && fz_moderate_value(p.y, 0, 1e7f); }

// The default query filter (all bits both ways) still skips a body with no category or no mask, and
// queries skip switched-off bodies.
static bool wanted_by_default_filter(const body *b) { return b->category != 0 && b->collides_with != 0 && !b->disabled; }

typedef struct reported {
    cw_body_id ids[MAX_LIVE];
    int count;
    bool overflow;
} reported;

static bool collect_body(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    reported *r = context;
    if (r->count == MAX_LIVE)
        r->overflow = true;
    else
        r->ids[r->count++] = body;
    return true;
}

// Every hit a ray or shape cast reports (its callback returns 1: go on to every hit).
typedef struct hits {
    cw_ray_hit items[MAX_LIVE];
    int count;
    bool overflow;
} hits;

static float collect_hit(const cw_ray_hit *hit, void *context)
{
    hits *h = context;
    if (h->count == MAX_LIVE)
        h->overflow = true;
    else
        h->items[h->count++] = *hit;
    return 1;
}

// The hit reported for live body k, or NULL; a body reported twice fails the run.
static const cw_ray_hit *hit_of(const hits *h, int k)
{
    const cw_ray_hit *found = NULL;
    for (int j = 0; j < h->count; j++)
        if (same_id(h->items[j].body, live[k].id)) {
            FZ_CHECK(found == NULL, "body (%u,%u) reported twice", live[k].id.index, live[k].id.generation);
            found = &h->items[j];
        }
    return found;
}

// Every reported hit names a live body (hit_of() has matched `matched` of them).
static void check_all_matched(const hits *h, int matched, const char *what)
{
    FZ_CHECK(!h->overflow && h->count == matched, "%s reported %d hits, %d of them live bodies it should hit", what,
             h->count, matched);
}

// Every hit of a ray (cw_world_raycast going on to every hit) is the body's own cw_shape_raycast() hit:
// the same bodies, fractions, points and normals.
static void check_every_ray_hit(cw_world *world, cw_vec2 o, cw_vec2 d)
{
    hits got = {.count = 0};
    FZ_CHECK(cw_world_raycast(world, o, d, cw_default_query_filter(), collect_hit, &got), "cw_world_raycast failed: %s",
             cw_last_error());
    int matched = 0;
    for (int k = 0; k < live_count; k++) {
        cw_ray_hit own;
        bool want = wanted_by_default_filter(&live[k]) && cw_shape_raycast(&live[k].shape, &live[k].transform, o, d, &own);
        const cw_ray_hit *h = hit_of(&got, k);
        FZ_CHECK((h != NULL) == want, "ray (%a, %a) + (%a, %a): body (%u,%u) hit %d, by itself %d", o.x, o.y, d.x, d.y,
                 live[k].id.index, live[k].id.generation, h != NULL, want);
        if (h == NULL)
            continue;
        matched++;
        FZ_CHECK(h->fraction == own.fraction && h->point.x == own.point.x && h->point.y == own.point.y &&
                     h->normal.x == own.normal.x && h->normal.y == own.normal.y,
                 "ray (%a, %a) + (%a, %a): body (%u,%u) hit at %a (%a, %a) normal (%a, %a), by itself at %a (%a, %a) "
                 "normal (%a, %a)", o.x, o.y, d.x, d.y, live[k].id.index, live[k].id.generation, h->fraction,
                 h->point.x, h->point.y, h->normal.x, h->normal.y, own.fraction, own.point.x, own.point.y,
                 own.normal.x, own.normal.y);
        FZ_CHECK(h->user_data == (void *)live[k].token, "a ray hit's user data differs");
    }
    check_all_matched(&got, matched, "cw_world_raycast");
}

// Every body a shape cast reports (going on to every hit) has cw_shape_cast()'s fraction, and no other
// body is touched on the way.
static void check_every_cast_hit(cw_world *world, const cw_shape *shape, const cw_transform *t, cw_vec2 d)
{
    hits got = {.count = 0};
    FZ_CHECK(cw_world_cast_shape(world, shape, t, d, cw_default_query_filter(), collect_hit, &got),
             "cw_world_cast_shape failed: %s", cw_last_error());
    int matched = 0;
    for (int k = 0; k < live_count; k++) {
        float f = -1;
        bool want = wanted_by_default_filter(&live[k]) &&
                    cw_shape_cast(shape, t, d, &live[k].shape, &live[k].transform, &f, NULL);
        const cw_ray_hit *h = hit_of(&got, k);
        FZ_CHECK((h != NULL) == want, "cast: body (%u,%u) hit %d, by cw_shape_cast %d", live[k].id.index,
                 live[k].id.generation, h != NULL, want);
        if (h == NULL)
            continue;
        matched++;
        FZ_CHECK(h->fraction == f, "cast: body (%u,%u) hit at %a, cw_shape_cast at %a", live[k].id.index,
                 live[k].id.generation, h->fraction, f);
    }
    check_all_matched(&got, matched, "cw_world_cast_shape");
}

// A manifold a shape query reports, and the body it came with, for check_shape_query().
typedef struct shape_reports {
    reported bodies;
    cw_manifold manifolds[MAX_LIVE];
} shape_reports;

static bool collect_with_manifold(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    shape_reports *r = context;
    if (r->bodies.count < MAX_LIVE && manifold != NULL)
        r->manifolds[r->bodies.count] = *manifold;
    return collect_body(body, user_data, manifold, &r->bodies);
}

// How many times `got` lists live body k.
static int times_reported(const reported *got, int k)
{
    int seen = 0;
    for (int j = 0; j < got->count; j++)
        seen += same_id(got->ids[j], live[k].id);
    return seen;
}

// A shape query reports exactly the live bodies cw_overlap() finds the shape overlapping, each once;
// with manifolds, cw_overlap()'s manifold bit for bit (the query shape as A).
static void check_shape_query(cw_world *world, const cw_shape *shape, const cw_transform *t, bool want_manifold)
{
    shape_reports got = {.bodies = {.count = 0}};
    FZ_CHECK(cw_world_query_shape(world, shape, t, cw_default_query_filter(), want_manifold, collect_with_manifold, &got),
             "cw_world_query_shape failed: %s", cw_last_error());
    FZ_CHECK(!got.bodies.overflow, "cw_world_query_shape reported more than %d bodies", MAX_LIVE);
    int expected = 0;
    for (int k = 0; k < live_count; k++) {
        cw_manifold m;
        bool overlap = wanted_by_default_filter(&live[k]) &&
                       cw_overlap(shape, t, &live[k].shape, &live[k].transform, want_manifold ? &m : NULL);
        int seen = times_reported(&got.bodies, k);
        FZ_CHECK(seen == (overlap ? 1 : 0), "shape query: body (%u,%u) reported %d times, overlaps %d",
                 live[k].id.index, live[k].id.generation, seen, overlap);
        expected += overlap;
        for (int j = 0; want_manifold && overlap && j < got.bodies.count; j++)
            FZ_CHECK(!same_id(got.bodies.ids[j], live[k].id) || memcmp(&got.manifolds[j], &m, sizeof m) == 0,
                     "shape query: body (%u,%u)'s manifold differs from cw_overlap's", live[k].id.index,
                     live[k].id.generation);
    }
    FZ_CHECK(got.bodies.count == expected, "shape query reported %d bodies, %d overlap", got.bodies.count, expected);
}

// A box query reports exactly the live bodies whose cw_body_aabb() overlaps the box with positive area.
static void check_aabb_query(cw_world *world, cw_aabb box)
{
    reported got = {.count = 0};
    FZ_CHECK(cw_world_query_aabb(world, box, cw_default_query_filter(), collect_body, &got),
             "cw_world_query_aabb failed: %s", cw_last_error());
    FZ_CHECK(!got.overflow, "cw_world_query_aabb reported more than %d bodies", MAX_LIVE);
    int expected = 0;
    for (int k = 0; k < live_count; k++) {
        cw_aabb b;
        FZ_CHECK(cw_body_aabb(world, live[k].id, &b), "cw_body_aabb failed: %s", cw_last_error());
        // Positive area: a body that covers nothing has a point for a box, which meets no box so.
        bool meets = wanted_by_default_filter(&live[k]) && fminf(b.max.x, box.max.x) > fmaxf(b.min.x, box.min.x) &&
                     fminf(b.max.y, box.max.y) > fmaxf(b.min.y, box.min.y);
        int seen = times_reported(&got, k);
        FZ_CHECK(seen == (meets ? 1 : 0), "box (%a %a %a %a): body (%u,%u) reported %d times, its box meets it %d",
                 box.min.x, box.min.y, box.max.x, box.max.y, live[k].id.index, live[k].id.generation, seen, meets);
        expected += meets;
    }
    FZ_CHECK(got.count == expected, "box query reported %d bodies, %d boxes meet it", got.count, expected);
}

// --- the debug draw: a read-only view of the world, like a query ---

typedef struct drawn {
    cw_aabb view;
    bool bounded, moderate;
    int aabbs[MAX_LIVE], contacts, texts;
    cw_aabb boxes[MAX_LIVE];
    int strangers; // AABBs of bodies not in live[]
} drawn;

static int live_index(cw_body_id id)
{
    for (int k = 0; k < live_count; k++)
        if (same_id(live[k].id, id))
            return k;
    return -1;
}

static void drawn_polygon(const cw_vec2 *v, int count, const cw_debug_item *item, void *context)
{
    drawn *d = context;
    FZ_CHECK(count == 4, "the debug draw gave a polygon of %d vertices", count);
    if (item->what == CW_DRAW_AABBS) {
        int k = live_index(item->body);
        if (k < 0) {
            d->strangers++;
        } else {
            d->aabbs[k]++;
            d->boxes[k] = (cw_aabb){v[0], v[2]};
        }
    } else if (item->what == CW_DRAW_GRID && d->bounded && d->moderate) {
        // A cell in view, at least touching it (to within rounding of a thousandth of a cell).
        float slack = (v[2].x - v[0].x) * 1e-3f;
        FZ_CHECK(v[0].x <= d->view.max.x + slack && d->view.min.x <= v[2].x + slack &&
                     v[0].y <= d->view.max.y + slack && d->view.min.y <= v[2].y + slack,
                 "a grid cell (%a %a %a %a) drawn outside the view", v[0].x, v[0].y, v[2].x, v[2].y);
    }
}

static void drawn_segment(cw_vec2 a, cw_vec2 b, const cw_debug_item *item, void *context)
{
    (void)a, (void)b;
    drawn *d = context;
    if (item->what == CW_DRAW_CONTACTS) {
        d->contacts++;
        FZ_CHECK(live_index(item->body) >= 0 && live_index(item->other) >= 0,
                 "a contact drawn for a body that is not alive");
    }
}

static void drawn_point(cw_vec2 p, float size, const cw_debug_item *item, void *context)
{
    (void)p, (void)size, (void)item, (void)context;
}

static void drawn_text(cw_vec2 p, const char *text, const cw_debug_item *item, void *context)
{
    (void)p;
    char want[16];
    snprintf(want, sizeof want, "%u", (unsigned)item->body.index);
    FZ_CHECK(strcmp(text, want) == 0, "the debug draw labelled body %u as '%s'", item->body.index, text);
    ((drawn *)context)->texts++;
}

// Everything drawn (within `view` if bounded): each live, switched-on body's AABB once where it
// meets the view, nothing of bodies not alive, grid cells in view, contacts of live pairs only.
static void check_debug_draw(cw_world *world, cw_aabb view, bool bounded)
{
    drawn d = {.view = view, .bounded = bounded, .moderate = moderate_world() && moderate_point(view.min)};
    cw_debug_draw draw = cw_default_debug_draw();
    draw.draw_polygon = drawn_polygon, draw.draw_segment = drawn_segment, draw.draw_point = drawn_point;
    draw.draw_text = drawn_text, draw.context = &d;
    draw.flags = CW_DRAW_AABBS | CW_DRAW_BOXES | CW_DRAW_MASK_OUTLINES | CW_DRAW_GRID | CW_DRAW_CONTACTS | CW_DRAW_IDS;
    draw.use_bounds = bounded, draw.bounds = view;
    cw_clear_error();
    bool ok = cw_world_debug_draw(world, &draw);
    if (bounded && !(isfinite(view.min.x) && isfinite(view.min.y) && isfinite(view.max.x) && isfinite(view.max.y))) {
        expect_failure(ok, "cw_world_debug_draw with bounds that are not finite");
        return;
    }
    FZ_CHECK(ok, "cw_world_debug_draw failed: %s", cw_last_error());
    FZ_CHECK(d.strangers == 0, "the debug draw drew %d AABBs of bodies not alive", d.strangers);
    int shown = 0;
    for (int k = 0; k < live_count; k++) {
        cw_aabb b;
        FZ_CHECK(cw_body_aabb(world, live[k].id, &b), "cw_body_aabb failed: %s", cw_last_error());
        bool meets = !bounded || (b.min.x <= view.max.x && view.min.x <= b.max.x && b.min.y <= view.max.y &&
                                  view.min.y <= b.max.y);
        bool want = !live[k].disabled && meets;
        FZ_CHECK(d.aabbs[k] == (want ? 1 : 0), "body (%u,%u): its AABB drawn %d times, expected %d",
                 live[k].id.index, live[k].id.generation, d.aabbs[k], want);
        const cw_aabb *g = &d.boxes[k];
        FZ_CHECK(!want || (g->min.x == b.min.x && g->min.y == b.min.y && g->max.x == b.max.x && g->max.y == b.max.y),
                 "body (%u,%u): its AABB drawn as (%a %a %a %a)",
                 live[k].id.index, live[k].id.generation, d.boxes[k].min.x, d.boxes[k].min.y, d.boxes[k].max.x,
                 d.boxes[k].max.y);
        shown += want;
    }
    FZ_CHECK(d.texts == shown, "the debug draw labelled %d bodies, drew %d", d.texts, shown);
    FZ_CHECK(d.contacts <= cw_world_get_stats(world).touching_pairs, "the debug draw drew %d contacts, %d touch",
             d.contacts, cw_world_get_stats(world).touching_pairs);
}

// The bodies a point query reports are exactly the live ones that contain the point, each once.
void check_point_query(cw_world *world, fz_reader *r)
{
    cw_vec2 p = pick_point(r);
    reported got = {{{0, 0}}, 0, false};
    bool ok = cw_world_query_point(world, p, cw_default_query_filter(), collect_body, &got);
    if (!isfinite(p.x) || !isfinite(p.y)) {
        expect_failure(ok, "cw_world_query_point at a non-finite point");
        return;
    }
    FZ_CHECK(ok && !got.overflow, "cw_world_query_point failed: %s", cw_last_error());
    // The same input draws the world around the point, and all of it (no bytes of its own).
    check_debug_draw(world, (cw_aabb){{p.x - 64, p.y - 64}, {p.x + 64, p.y + 64}}, true);
    check_debug_draw(world, (cw_aabb){{0, 0}, {0, 0}}, false);
    if (!moderate_world() || !moderate_point(p))
        return;
    int expected = 0;
    for (int k = 0; k < live_count; k++) {
        bool inside = wanted_by_default_filter(&live[k]) && cw_shape_contains_point(&live[k].shape, &live[k].transform, p);
        int seen = 0;
        for (int j = 0; j < got.count; j++)
            seen += same_id(got.ids[j], live[k].id);
        FZ_CHECK(seen == (inside ? 1 : 0), "point (%a, %a): body (%u,%u) reported %d times, contains it: %d", p.x,
                 p.y, live[k].id.index, live[k].id.generation, seen, inside);
        expected += inside;
    }
    FZ_CHECK(got.count == expected, "point query reported %d bodies, %d contain the point", got.count, expected);
}

// The closest hit of a ray is the nearest of every live body's own hit.
void check_ray_query(cw_world *world, fz_reader *r)
{
    cw_vec2 o = pick_point(r), d = {fz_float(r, 256.0f), fz_float(r, 256.0f)};
    cw_ray_hit hit;
    cw_clear_error();
    bool found = cw_world_raycast_closest(world, o, d, cw_default_query_filter(), &hit);
    if (!isfinite(o.x) || !isfinite(o.y) || !isfinite(d.x) || !isfinite(d.y) || (d.x == 0 && d.y == 0)) {
        expect_failure(found, "cw_world_raycast_closest with a bad ray");
        return;
    }
    FZ_CHECK(cw_last_error()[0] == '\0', "cw_world_raycast_closest failed: %s", cw_last_error());
    if (!moderate_world() || !moderate_point(o) || !moderate_point(d))
        return;
    float best = 2;
    for (int k = 0; k < live_count; k++) {
        cw_ray_hit own;
        if (wanted_by_default_filter(&live[k]) && cw_shape_raycast(&live[k].shape, &live[k].transform, o, d, &own) &&
            own.fraction < best)
            best = own.fraction;
    }
    FZ_CHECK(found == (best <= 1), "ray (%a, %a) + (%a, %a): world found %d, brute force %d", o.x, o.y, d.x, d.y,
             found, best <= 1);
    FZ_CHECK(!found || hit.fraction == best, "ray (%a, %a) + (%a, %a): closest fraction %a, brute force %a", o.x, o.y,
             d.x, d.y, hit.fraction, best);
    check_every_ray_hit(world, o, d);
}

// A shape cast through the world against cw_shape_cast over every live body (moderate worlds).
void check_cast_query(cw_world *world, fz_reader *r)
{
    cw_shape shape = pick_shape(r);
    cw_transform t = pick_transform(r, false);
    cw_vec2 d = pick_point(r);
    cw_ray_hit hit;
    cw_clear_error();
    bool found = cw_world_cast_shape_closest(world, &shape, &t, d, cw_default_query_filter(), &hit);
    if (!shape_valid(&shape) || !fz_transform_valid(&t)) {
        expect_failure(found, "a cast of a bad shape or transform");
        return;
    }
    if (!moderate_world() || !fz_moderate(&shape, &t) || !moderate_point(d))
        return;
    float best = 2;
    for (int k = 0; k < live_count; k++) {
        float f;
        if (wanted_by_default_filter(&live[k]) &&
            cw_shape_cast(&shape, &t, d, &live[k].shape, &live[k].transform, &f, NULL) && f < best)
            best = f;
    }
    FZ_CHECK(found == (best <= 1), "world cast %s, brute force %s", found ? "hits" : "misses",
             best <= 1 ? "hits" : "misses");
    FZ_CHECK(!found || hit.fraction == best, "world cast at %a, brute force at %a", hit.fraction, best);
    // The same input also drives the queries that take a shape or a box (no bytes of its own, so the
    // corpus's older inputs replay as they did): every hit of the cast, the shape where it starts,
    // and the box the motion sweeps.
    check_every_cast_hit(world, &shape, &t, d);
    check_shape_query(world, &shape, &t, signbit(d.x) != 0);
    cw_aabb start, end;
    cw_transform moved = t;
    moved.position.x += d.x, moved.position.y += d.y;
    if (cw_shape_aabb(&shape, &t, &start) && cw_shape_aabb(&shape, &moved, &end))
        check_aabb_query(world, (cw_aabb){{fminf(start.min.x, end.min.x), fminf(start.min.y, end.min.y)},
                                          {fmaxf(start.max.x, end.max.x), fmaxf(start.max.y, end.max.y)}});
}
