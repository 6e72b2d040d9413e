// libFuzzer target: a world driven by a sequence of operations read from the input (create, destroy,
// set_transform or a list of moves, set_shape, set_filter, step), with stale and made-up ids and
// invalid shapes and transforms. After each step it checks the event semantics of include/collworld.h:
//   - ends, then begins, then the ends of pairs begun in the step (swept bodies that passed
//     through), then stays, each group in ascending (a.index, b.index), a.index < b.index;
//   - fractions: in [0, 1], and 1 for every event but the begins of pairs with a swept body;
//   - user_a/user_b are the bodies' user data (here fixed per body, so also for ended dead bodies);
//   - begin/end balance: a begin for a pair not touching, an end or a stay only for a touching one;
//   - the touching set built from the events equals brute force over all live pairs (filters both
//     ways, not both static, cw_overlap true), and the stats agree; a stay for every pair that kept
//     touching; a step over max_pairs (touching pairs included) fails and changes nothing;
//   - a pass-through (begin and end in one step) iff cw_shape_cast finds the swept pair touching
//     over the motion (moderate placements, one body moved by a translation floats hold);
//   - manifolds unit for moderate placements, zero without manifolds or stay_manifolds;
//   - calls that must fail (stale ids, invalid input) fail with an error and change nothing;
//   - groups and switched-off bodies (cw_body_set_group, cw_body_set_enabled) filter as documented,
//     cw_body_touching and cw_pair_touching agree with brute force, and cw_world_events holds the
//     contacts the callbacks got, in their order;
//   - queries (point, box, shape, rays and shape casts, closest and every hit) report exactly what
//     brute force over the live bodies finds with the single-shape functions, and the debug draw
//     draws what they hold (world_queries.c).
// At the end every body is destroyed and one more step must end every contact.
#include "fuzz_world.h"
#include "../tests/hooks.h" // cw__test_near_wrap: the library is compiled in, hooks included

typedef struct event {
    int phase; // 0 end, 1 begin, 2 stay
    cw_contact c;
} event;

typedef struct pair {
    cw_body_id a, b;
} pair;

body live[MAX_LIVE];
int live_count;
static cw_body_id records[MAX_RECORDS]; // every id ever returned; token = position + 1
static int record_count;
static event events[MAX_EVENTS];
static int event_count;
static bool event_overflow;
static pair touching[MAX_PAIRS];
static int touching_count;
static cw_mask *masks[3];

static void record(int phase, const cw_contact *c)
{
    if (event_count == MAX_EVENTS) {
        event_overflow = true;
        return;
    }
    events[event_count].phase = phase;
    events[event_count].c = *c;
    event_count++;
}

static void on_end(const cw_contact *c, void *context) { (void)context, record(0, c); }
static void on_begin(const cw_contact *c, void *context) { (void)context, record(1, c); }
static void on_stay(const cw_contact *c, void *context) { (void)context, record(2, c); }

static int find_pair(const pair *set, int n, cw_body_id a, cw_body_id b)
{
    for (int i = 0; i < n; i++)
        if (same_id(set[i].a, a) && same_id(set[i].b, b))
            return i;
    return -1;
}

static const body *find_live(cw_body_id id)
{
    for (int k = 0; k < live_count; k++)
        if (same_id(live[k].id, id))
            return &live[k];
    return NULL;
}

static uintptr_t token_of(cw_body_id id)
{
    for (int i = 0; i < record_count; i++)
        if (same_id(records[i], id))
            return (uintptr_t)i + 1;
    return 0;
}

static uint32_t pick_bits(fz_reader *r)
{
    static const uint32_t common[] = {1, 2, 3, 0xffffffffu, 0, 4, 5};
    uint8_t m = fz_u8(r);
    return m < 224 ? common[m % 7] : fz_u32(r);
}


cw_shape pick_shape(fz_reader *r)
{
    uint8_t kind = fz_u8(r);
    if (kind < 80)
        return cw_shape_mask(masks[kind % 3]);
    if (kind < 240)
        return cw_shape_box(0.5f + (float)(fz_u8(r) % 32) / 2.0f, 0.5f + (float)(fz_u8(r) % 32) / 2.0f);
    if (kind < 248)
        return cw_shape_box(fz_float(r, 8.0f), fz_float(r, 8.0f));
    cw_shape odd = cw_shape_mask(NULL);
    if (kind & 1)
        odd = cw_shape_box(1, 1), odd.type = (cw_shape_type)7;
    return odd;
}

bool shape_valid(const cw_shape *s)
{
    if (s->type == CW_SHAPE_MASK)
        return s->mask != NULL;
    return s->type == CW_SHAPE_BOX && isfinite(s->size.x) && isfinite(s->size.y) && s->size.x > 0 && s->size.y > 0;
}

cw_transform pick_transform(fz_reader *r, bool huge)
{
    cw_transform t = fz_transform(r, huge ? 1e6f : 40.0f);
    return t;
}

// A target id: a live body (returns its index in live[]) or a stale / made-up id (returns -1).
static int pick_target(fz_reader *r, cw_body_id *id)
{
    uint8_t m = fz_u8(r);
    if (m < 200 && live_count > 0) {
        int k = m % live_count;
        *id = live[k].id;
        return k;
    }
    if (m < 240 && record_count > 0) {
        cw_body_id old = records[fz_u8(r) % record_count];
        for (int k = 0; k < live_count; k++)
            if (same_id(live[k].id, old))
                return *id = old, k;
        *id = old;
        return -1;
    }
    id->index = fz_u8(r) < 128 ? fz_u8(r) % 8 : fz_u32(r);
    id->generation = fz_u8(r) < 128 ? fz_u8(r) % 4 : fz_u32(r);
    for (int k = 0; k < live_count; k++)
        if (same_id(live[k].id, *id))
            return k;
    return -1;
}

// The filter of the header: switched-off bodies never touch; the same nonzero group decides; else
// the categories both ways.
static bool filters_pass(const body *x, const body *y)
{
    if (x->disabled || y->disabled)
        return false;
    if (x->group == y->group && x->group != 0)
        return x->group > 0;
    return (x->category & y->collides_with) && (y->category & x->collides_with);
}

static bool touches(const body *x, const body *y)
{
    if (!filters_pass(x, y) || (x->is_static && y->is_static))
        return false;
    cw_clear_error();
    bool hit = cw_overlap(&x->shape, &x->transform, &y->shape, &y->transform, NULL);
    FZ_CHECK(cw_last_error()[0] == '\0', "brute force cw_overlap failed: %s", cw_last_error());
    return hit;
}

static void print_world(void);

// After a step: each live body's cw_body_touching() is its brute-force partners in ascending index
// order, cw_pair_touching() agrees on every pair, and the event arrays equal the callbacks' events.
static void check_touching(cw_world *world, const pair *expected, int expected_count)
{
    static cw_touch out[MAX_LIVE];
    for (int i = 0; i < live_count; i++) {
        cw_body_id id = live[i].id;
        int n = cw_body_touching(world, id, out, MAX_LIVE), want = 0;
        for (int p = 0; p < expected_count; p++)
            want += same_id(expected[p].a, id) || same_id(expected[p].b, id);
        FZ_CHECK(n == want, "cw_body_touching of (%u,%u): %d bodies, brute force %d", id.index, id.generation, n, want);
        for (int k = 0; k < n && k < MAX_LIVE; k++) {
            FZ_CHECK(k == 0 || out[k - 1].body.index < out[k].body.index, "cw_body_touching not in ascending order");
            cw_body_id lo = id.index < out[k].body.index ? id : out[k].body, hi = same_id(lo, id) ? out[k].body : id;
            FZ_CHECK(find_pair(expected, expected_count, lo, hi) >= 0, "cw_body_touching of (%u,%u) lists (%u,%u)",
                     id.index, id.generation, out[k].body.index, out[k].body.generation);
        }
        for (int j = 0; j < live_count; j++) {
            cw_body_id other = live[j].id;
            bool lower = id.index < other.index;
            bool want_pair = i != j && find_pair(expected, expected_count, lower ? id : other, lower ? other : id) >= 0;
            FZ_CHECK(cw_pair_touching(world, id, other) == want_pair, "cw_pair_touching((%u,%u), (%u,%u)) is not %d",
                     id.index, id.generation, other.index, other.generation, want_pair);
        }
    }
    cw_events ev = cw_world_events(world);
    const cw_contact *arrays[3] = {ev.ends, ev.begins, ev.stays};
    int counts[3] = {ev.end_count, ev.begin_count, ev.stay_count}, seen[3] = {0, 0, 0};
    for (int e = 0; e < event_count; e++) {
        int phase = events[e].phase, at = seen[phase]++;
        FZ_CHECK(at < counts[phase] && memcmp(&arrays[phase][at], &events[e].c, sizeof(cw_contact)) == 0,
                 "cw_world_events: event %d (phase %d) differs from the callback's", e, phase);
    }
    FZ_CHECK(seen[0] == counts[0] && seen[1] == counts[1] && seen[2] == counts[2],
             "cw_world_events: %d/%d/%d events, the callbacks got %d/%d/%d", counts[0], counts[1], counts[2], seen[0],
             seen[1], seen[2]);
}

static const cw_manifold no_manifold;                  // what a contact carries without one
static int current_max_pairs = CW_DEFAULT_MAX_PAIRS; // the world's limit on candidate pairs a step
static bool current_stay_manifolds = true;             // the world's cw_world_def::stay_manifolds
static bool current_manifolds = true;                  // the world's cw_world_def::manifolds

// A pair with a swept body judged over the step's motion against cw_shape_cast(): of moderate
// placements, unchanged since the last step, where one body moved (by a translation floats hold)
// and the other did not. The world's motion is a translation, so the mover is cast as it is now
// from where it was. -1 for a pair not judged here, else whether the cast hits (and *fraction;
// *same_frame: the mover is the pair's lower index, which the world moves back along the relative
// motion, so it casts the very same bodies; else the same motion seen from the other body, whose
// rounding may move the first touch by up to the cast's precision, 2^-20).
static int motion_cast(const body *x, const body *y, float *fraction, bool *same_frame)
{
    if (!(x->swept || y->swept) || !filters_pass(x, y) || (x->is_static && y->is_static) || x->changed || y->changed ||
        !fz_moderate(&x->shape, &x->transform) || !fz_moderate(&y->shape, &y->transform))
        return -1;
    bool x_moved = !x->fresh && (x->transform.position.x != x->from.x || x->transform.position.y != x->from.y);
    bool y_moved = !y->fresh && (y->transform.position.x != y->from.x || y->transform.position.y != y->from.y);
    if (x_moved == y_moved)
        return -1;
    const body *mover = x_moved ? x : y, *other = x_moved ? y : x;
    double dx = (double)mover->transform.position.x - mover->from.x;
    double dy = (double)mover->transform.position.y - mover->from.y;
    cw_vec2 d = {(float)dx, (float)dy};
    cw_transform start = mover->transform;
    start.position = mover->from;
    if (d.x != dx || d.y != dy || !fz_moderate(&mover->shape, &start))
        return -1;
    *same_frame = mover->id.index < other->id.index;
    cw_clear_error();
    return cw_shape_cast(&mover->shape, &start, d, &other->shape, &other->transform, fraction, NULL);
}

// A pair that touched neither before nor after the step began (and ended) in it iff the cast hits
// (seen from the other body, a graze within rounding of the tolerance could go either way).
static void check_pass(const body *x, const body *y, bool passed)
{
    float fraction;
    bool same_frame;
    int cast = motion_cast(x, y, &fraction, &same_frame);
    FZ_CHECK(cast < 0 || !same_frame || passed == cast,
             "bodies (%u,%u) and (%u,%u): the world says they %s, cw_shape_cast %s", x->id.index, x->id.generation,
             y->id.index, y->id.generation, passed ? "passed through" : "did not meet", cast ? "hits" : "misses");
}

static void step_and_check(cw_world *world, bool with_stay)
{
    if (fz_verbose) // FUZZ_VERBOSE=1: the world before each step (sanitizer reports abort without context)
        print_world();
    static pair before[MAX_PAIRS], expected[MAX_PAIRS];
    int before_count = touching_count;
    memcpy(before, touching, sizeof(pair) * (size_t)touching_count);
    int expected_count = 0;
    for (int i = 0; i < live_count; i++)
        for (int j = i + 1; j < live_count; j++)
            if (touches(&live[i], &live[j])) {
                bool order = live[i].id.index < live[j].id.index;
                expected[expected_count].a = order ? live[i].id : live[j].id;
                expected[expected_count].b = order ? live[j].id : live[i].id;
                expected_count++;
            }

    event_count = 0;
    event_overflow = false;
    cw_clear_error();
    cw_world_step(world);
    // A pile-up beyond max_pairs: the step fails at once and changes nothing (the model keeps its
    // touching set; the next step that succeeds is checked against brute force as usual). Touching
    // pairs are candidates, so more of them than the limit must fail.
    bool over = strncmp(cw_last_error(), "The step needs more than", 24) == 0;
    FZ_CHECK(!(expected_count > current_max_pairs) || over, "%d touching pairs over max_pairs %d, yet the step passed",
             expected_count, current_max_pairs);
    if (over) {
        FZ_CHECK(event_count == 0, "a step over max_pairs delivered %d events", event_count);
        FZ_CHECK(cw_world_get_stats(world).failed_steps > 0, "a step over max_pairs is not counted as failed");
        return;
    }
    FZ_CHECK(cw_last_error()[0] == '\0', "step failed: %s", cw_last_error());
    FZ_CHECK(!event_overflow, "more than %d events in one step", MAX_EVENTS);

    int counts[3] = {0, 0, 0}, group[MAX_EVENTS];
    static pair begun_now[MAX_EVENTS];
    int begun_count = 0;
    for (int e = 0; e < event_count; e++) {
        const event *ev = &events[e];
        const cw_contact *c = &ev->c;
        counts[ev->phase]++;
        FZ_CHECK(c->a.index < c->b.index, "event %d: a.index %u >= b.index %u", e, c->a.index, c->b.index);
        // Groups: ends 0, begins 1, ends of pairs begun in this step 2, stays 3.
        bool ends_begun = ev->phase == 0 && find_pair(begun_now, begun_count, c->a, c->b) >= 0;
        group[e] = ev->phase == 0 ? (ends_begun ? 2 : 0) : ev->phase == 1 ? 1 : 3;
        if (ev->phase == 1)
            begun_now[begun_count++] = (pair){c->a, c->b};
        FZ_CHECK(c->fraction >= 0 && c->fraction <= 1, "event %d: fraction %g", e, c->fraction);
        const body *x = find_live(c->a), *y = find_live(c->b);
        bool swept = (x && x->swept) || (y && y->swept);
        float first = 0;
        bool fresh_begin = ev->phase == 1 && x && y && find_pair(before, before_count, c->a, c->b) < 0, same_frame;
        int cast = fresh_begin ? motion_cast(x, y, &first, &same_frame) : -1;
        FZ_CHECK(cast != 0 || !same_frame, "event %d: a begin of a swept pair that cw_shape_cast misses", e);
        FZ_CHECK(cast < 0 || c->fraction == first || (!same_frame && fabsf(c->fraction - first) <= 0x1p-20f),
                 "event %d: a swept begin at fraction %a, cw_shape_cast %a", e, c->fraction, first);
        FZ_CHECK(c->fraction == 1 || (ev->phase == 1 && swept), "event %d (phase %d): fraction %g without a swept body",
                 e, ev->phase, c->fraction);
        if (e > 0) {
            const event *prev = &events[e - 1];
            FZ_CHECK(group[e - 1] <= group[e], "event %d: group %d after group %d", e, group[e], group[e - 1]);
            if (group[e - 1] == group[e])
                FZ_CHECK(prev->c.a.index < c->a.index || (prev->c.a.index == c->a.index && prev->c.b.index < c->b.index),
                         "event %d: phase %d not in ascending order ((%u,%u) after (%u,%u))", e, ev->phase, c->a.index,
                         c->b.index, prev->c.a.index, prev->c.b.index);
        }
        uintptr_t ta = token_of(c->a), tb = token_of(c->b);
        FZ_CHECK(ta != 0 && tb != 0, "event %d names an id the world never returned", e);
        FZ_CHECK((uintptr_t)c->user_a == ta && (uintptr_t)c->user_b == tb,
                 "event %d (phase %d): user data %p %p, expected %p %p", e, ev->phase, c->user_a, c->user_b,
                 (void *)ta, (void *)tb);
        int at = find_pair(touching, touching_count, c->a, c->b);
        if (ev->phase == 1) {
            FZ_CHECK(at < 0, "begin for a pair already touching (%u,%u)", c->a.index, c->b.index);
            FZ_CHECK(touching_count < MAX_PAIRS, "touching set overflow");
            touching[touching_count++] = (pair){c->a, c->b};
            bool moderate = x && y && fz_moderate(&x->shape, &x->transform) && fz_moderate(&y->shape, &y->transform);
            float len = hypotf(c->manifold.normal.x, c->manifold.normal.y);
            if (current_manifolds)
                FZ_CHECK(!moderate || fabsf(len - 1.0f) < 1e-3f, "begin manifold normal length %g", len);
            else
                FZ_CHECK(memcmp(&c->manifold, &no_manifold, sizeof no_manifold) == 0,
                         "a begin's manifold without manifolds");
        } else if (ev->phase == 0) {
            FZ_CHECK(at >= 0, "end for a pair not touching (%u,%u)", c->a.index, c->b.index);
            touching[at] = touching[--touching_count];
        } else {
            FZ_CHECK(with_stay, "a stay without on_stay");
            FZ_CHECK(at >= 0, "stay for a pair not touching (%u,%u)", c->a.index, c->b.index);
            FZ_CHECK(find_pair(before, before_count, c->a, c->b) >= 0, "stay for a pair that just began");
            bool moderate = x && y && fz_moderate(&x->shape, &x->transform) && fz_moderate(&y->shape, &y->transform);
            float len = hypotf(c->manifold.normal.x, c->manifold.normal.y);
            if (current_manifolds && current_stay_manifolds)
                FZ_CHECK(!moderate || fabsf(len - 1.0f) < 1e-3f, "stay manifold normal length %g", len);
            else
                FZ_CHECK(memcmp(&c->manifold, &no_manifold, sizeof no_manifold) == 0,
                         "a stay's manifold without manifolds or stay_manifolds");
        }
    }
    for (int i = 0; i < expected_count; i++) // the missing pair first: it says more than the counts
        FZ_CHECK(find_pair(touching, touching_count, expected[i].a, expected[i].b) >= 0,
                 "pair (%u,%u) touches by brute force but not by the events", expected[i].a.index,
                 expected[i].b.index);
    for (int i = 0; i < touching_count; i++) // likewise the extra one
        FZ_CHECK(find_pair(expected, expected_count, touching[i].a, touching[i].b) >= 0,
                 "pair (%u,%u) touches by the events but not by brute force", touching[i].a.index,
                 touching[i].b.index);
    FZ_CHECK(touching_count == expected_count, "events say %d pairs touch, brute force %d", touching_count,
             expected_count);
    if (with_stay) // every pair touching before and after, and not ended and begun again, stayed
        for (int i = 0; i < expected_count; i++) {
            if (find_pair(before, before_count, expected[i].a, expected[i].b) < 0)
                continue;
            int begun = 0, stayed = 0;
            for (int e = 0; e < event_count; e++)
                if (same_id(events[e].c.a, expected[i].a) && same_id(events[e].c.b, expected[i].b))
                    begun += events[e].phase == 1, stayed += events[e].phase == 2;
            FZ_CHECK(begun + stayed == 1, "pair (%u,%u) kept touching: %d begins, %d stays", expected[i].a.index,
                     expected[i].b.index, begun, stayed);
        }
    for (int i = 0; i < live_count; i++)
        for (int j = i + 1; j < live_count; j++) {
            pair p = {live[i].id, live[j].id};
            if (p.a.index > p.b.index)
                p = (pair){live[j].id, live[i].id};
            if (find_pair(before, before_count, p.a, p.b) < 0 && find_pair(expected, expected_count, p.a, p.b) < 0)
                check_pass(&live[i], &live[j], find_pair(begun_now, begun_count, p.a, p.b) >= 0);
        }
    for (int i = 0; i < live_count; i++) // the next step's motion starts here
        live[i].from = live[i].transform.position, live[i].changed = live[i].fresh = false;
    check_touching(world, expected, expected_count);
    cw_world_stats stats = cw_world_get_stats(world);
    FZ_CHECK(stats.bodies == live_count, "stats: %d bodies, %d live", stats.bodies, live_count);
    FZ_CHECK(stats.touching_pairs == expected_count, "stats: %d touching, %d expected", stats.touching_pairs,
             expected_count);
    FZ_CHECK(stats.begin_events == counts[1] && stats.end_events == counts[0] && stats.stay_events == counts[2],
             "stats: events %d/%d/%d, delivered %d/%d/%d", stats.begin_events, stats.end_events, stats.stay_events,
             counts[1], counts[0], counts[2]);
}

void expect_failure(bool ok, const char *what)
{
    FZ_CHECK(!ok, "%s succeeded but should fail", what);
    FZ_CHECK(cw_last_error()[0] != '\0', "%s failed without an error", what);
}

static const char *current_op = "start";
static float current_cell_size;

static void print_world(void)
{
    fprintf(stderr, "  world: cell size %a; last operation: %s; %d live bodies:\n", current_cell_size, current_op,
            live_count);
    for (int k = 0; k < live_count; k++) {
        char name[64];
        snprintf(name, sizeof name, "body (%u,%u) category %#x collides %#x group %d%s%s", live[k].id.index,
                 live[k].id.generation, live[k].category, live[k].collides_with, (int)live[k].group,
                 live[k].is_static ? " static" : "", live[k].disabled ? " off" : "");
        fz_print_shape(name, &live[k].shape);
        fz_print_transform("   transform", &live[k].transform);
    }
}

// cw_world_set_transforms() on up to 8 entries from the input, stale and repeated ids and bad
// transforms among them: it succeeds, moving every body, iff each entry names a live body no other
// entry names and has a valid transform; else it fails and moves none.
static void move_list(cw_world *world, fz_reader *r, bool huge)
{
    current_op = "cw_world_set_transforms";
    cw_body_id ids[8];
    cw_transform to[8];
    int target[8], count = fz_u8(r) % 9;
    bool valid = true;
    for (int e = 0; e < count; e++) {
        target[e] = pick_target(r, &ids[e]);
        to[e] = pick_transform(r, huge);
        valid &= target[e] >= 0 && fz_transform_valid(&to[e]);
        for (int f = 0; f < e; f++)
            valid &= target[f] != target[e];
    }
    bool ok = cw_world_set_transforms(world, ids, to, count);
    if (!valid) {
        expect_failure(ok, "cw_world_set_transforms with a stale or repeated id or a bad transform");
        return;
    }
    FZ_CHECK(ok, "cw_world_set_transforms failed: %s", cw_last_error());
    for (int e = 0; e < count; e++)
        live[target[e]].transform = to[e];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size, 0};
    live_count = record_count = touching_count = 0;
    uint8_t flags = fz_u8(&r);
    bool with_stay = flags & 1, huge = (flags & 0x30) == 0x30;
    for (int i = 0; i < 3; i++)
        masks[i] = fz_small_mask(&r);

    cw_world_def def = cw_default_world_def();
    uint8_t cell = fz_u8(&r);
    def.cell_size = cell < 128 ? 0.0f : cell < 240 ? (float)(cell % 64) * 0.5f : fz_float(&r, 64.0f);
    def.body_capacity = cell < 128 ? cell & 0x1f : 0; // room made ahead: often fewer bodies, often more
    // With an automatic cell size, bit 0x20 gives the world a second worker and bit 0x40 turns
    // manifolds off: the same events either way, the manifolds zero without them.
    def.worker_count = cell < 128 && (cell & 0x20) ? 2 : 1;
    def.manifolds = current_manifolds = !(cell < 128 && (cell & 0x40));
    def.on_begin = on_begin;
    def.on_end = on_end;
    def.on_stay = with_stay ? on_stay : NULL;
    def.stay_manifolds = current_stay_manifolds = !(flags & 0x04); // stays with and without manifolds
    // Pile-ups (flag 0x40): a limit of a few pairs, which crowded inputs exceed. Wraps (flag 0x80):
    // every wrapping counter starts a few steps short of its wrap.
    def.max_pairs = flags & 0x40 ? 1 + (flags & 0x0f) * 3 : 0;
    current_max_pairs = def.max_pairs ? def.max_pairs : CW_DEFAULT_MAX_PAIRS;
    current_cell_size = def.cell_size;
    current_op = "cw_world_create";
    fz_context_printer = print_world;
    cw_clear_error();
    cw_world *world = cw_world_create(&def);
    bool cell_ok = isfinite(def.cell_size) && (def.cell_size == 0 || def.cell_size >= CW_MIN_CELL_SIZE);
    if (!cell_ok) {
        expect_failure(world != NULL, "cw_world_create with a bad cell size");
        goto done;
    }
    FZ_CHECK(world != NULL, "cw_world_create failed: %s", cw_last_error());
    if (flags & 0x80)
        cw__test_near_wrap(world, flags & 0x07);

    for (int op = 0; op < MAX_OPS && !fz_done(&r); op++) {
        uint8_t code = fz_u8(&r);
        cw_body_id id;
        cw_clear_error();
        // Codes 7 to 157 ending in 7 step the world (as every code ending in 7 did until casts took
        // them on 2026-11-25: the seed corpus's older inputs keep their steps), so that pairs touch
        // across steps (stays, ends); 167 to 247 cast.
        switch (code % 10 == 7 && code >= 160 ? 10 : code % 10) {
        case 0:
        case 1: { // create
            current_op = "cw_body_create";
            cw_body_def bd = cw_default_body_def();
            bd.shape = pick_shape(&r);
            bd.transform = pick_transform(&r, huge);
            bd.category = pick_bits(&r);
            bd.collides_with = pick_bits(&r);
            bd.is_static = fz_u8(&r) < 48;
            bd.swept = fz_u8(&r) < 64;
            bd.user_data = (void *)((uintptr_t)record_count + 1);
            if (live_count == MAX_LIVE || record_count == MAX_RECORDS)
                break;
            bool valid = shape_valid(&bd.shape) && fz_transform_valid(&bd.transform);
            id = cw_body_create(world, &bd);
            if (!valid) {
                expect_failure(!cw_body_id_is_null(id), "cw_body_create with a bad shape or transform");
                break;
            }
            FZ_CHECK(!cw_body_id_is_null(id), "cw_body_create failed: %s", cw_last_error());
            FZ_CHECK(token_of(id) == 0, "cw_body_create returned an id it returned before (%u,%u)", id.index,
                     id.generation);
            records[record_count++] = id;
            live[live_count++] = (body){id, bd.shape, bd.transform, bd.category, bd.collides_with, bd.is_static,
                                        bd.swept, (uintptr_t)record_count, 0, false, bd.transform.position, false, true};
            break;
        }
        case 2: { // destroy
            current_op = "cw_body_destroy";
            int k = pick_target(&r, &id);
            cw_body_destroy(world, id);
            if (k < 0) {
                expect_failure(false, "cw_body_destroy of a stale id");
                FZ_CHECK(!cw_body_is_valid(world, id), "a stale id is valid");
                break;
            }
            FZ_CHECK(cw_last_error()[0] == '\0', "cw_body_destroy failed: %s", cw_last_error());
            FZ_CHECK(!cw_body_is_valid(world, id), "a destroyed body is still valid");
            live[k] = live[--live_count];
            break;
        }
        case 3: { // set_transform, or (code >= 203) a list of moves
            if (code >= 203) {
                move_list(world, &r, huge);
                break;
            }
            current_op = "cw_body_set_transform";
            int k = pick_target(&r, &id);
            cw_transform t = pick_transform(&r, huge);
            bool ok = cw_body_set_transform(world, id, &t);
            if (k < 0 || !fz_transform_valid(&t)) {
                expect_failure(ok, "cw_body_set_transform of a stale id or bad transform");
                break;
            }
            FZ_CHECK(ok, "cw_body_set_transform failed: %s", cw_last_error());
            live[k].transform = t;
            break;
        }
        case 4: { // set_shape
            current_op = "cw_body_set_shape";
            int k = pick_target(&r, &id);
            cw_shape s = pick_shape(&r);
            bool ok = cw_body_set_shape(world, id, &s);
            if (k < 0 || !shape_valid(&s)) {
                expect_failure(ok, "cw_body_set_shape of a stale id or bad shape");
                break;
            }
            FZ_CHECK(ok, "cw_body_set_shape failed: %s", cw_last_error());
            live[k].shape = s, live[k].changed = true;
            break;
        }
        case 5: { // set_filter
            current_op = "cw_body_set_filter";
            int k = pick_target(&r, &id);
            uint32_t category = pick_bits(&r), collides_with = pick_bits(&r);
            bool ok = cw_body_set_filter(world, id, category, collides_with);
            if (k < 0) {
                expect_failure(ok, "cw_body_set_filter of a stale id");
                break;
            }
            FZ_CHECK(ok, "cw_body_set_filter failed: %s", cw_last_error());
            live[k].category = category, live[k].collides_with = collides_with, live[k].changed = true;
            break;
        }
        case 6: { // swept on or off, a group, switched off or on, or a teleport
            int k = pick_target(&r, &id);
            uint8_t what = fz_u8(&r);
            if (what >= 90 && what < 96) { // room for a count of bodies, made now (never shrinks)
                current_op = "cw_world_reserve";
                int count = (int)fz_u8(&r) - 16;
                bool ok = cw_world_reserve(world, count);
                if (count < 0) {
                    expect_failure(ok, "cw_world_reserve of a negative count");
                    break;
                }
                FZ_CHECK(ok, "cw_world_reserve failed: %s", cw_last_error());
                break;
            }
            if (what >= 96 && what < 112) {
                current_op = "cw_body_set_group";
                int32_t group = (int32_t)(what & 3) - 1; // -1, 0, 1, 2
                bool ok = cw_body_set_group(world, id, group);
                if (k < 0) {
                    expect_failure(ok, "cw_body_set_group of a stale id");
                    break;
                }
                FZ_CHECK(ok, "cw_body_set_group failed: %s", cw_last_error());
                live[k].group = group, live[k].changed = true;
                break;
            }
            if (what >= 112 && what < 128) {
                current_op = "cw_body_set_enabled";
                bool enabled = what & 1, ok = cw_body_set_enabled(world, id, enabled);
                if (k < 0) {
                    expect_failure(ok, "cw_body_set_enabled of a stale id");
                    break;
                }
                FZ_CHECK(ok, "cw_body_set_enabled failed: %s", cw_last_error());
                live[k].disabled = !enabled, live[k].changed = true;
                break;
            }
            if (what < 128) {
                current_op = "cw_body_set_swept";
                bool swept = what & 1, ok = cw_body_set_swept(world, id, swept);
                if (k < 0) {
                    expect_failure(ok, "cw_body_set_swept of a stale id");
                    break;
                }
                FZ_CHECK(ok, "cw_body_set_swept failed: %s", cw_last_error());
                live[k].swept = swept, live[k].changed = true;
                FZ_CHECK(cw_body_is_swept(world, id) == swept, "cw_body_is_swept differs");
                break;
            }
            current_op = "cw_body_teleport";
            cw_transform t = pick_transform(&r, huge);
            bool ok = cw_body_teleport(world, id, &t);
            if (k < 0 || !fz_transform_valid(&t)) {
                expect_failure(ok, "cw_body_teleport of a stale id or bad transform");
                break;
            }
            FZ_CHECK(ok, "cw_body_teleport failed: %s", cw_last_error());
            live[k].transform = t, live[k].from = t.position; // no motion through what lies between
            break;
        }
        case 10: // a closest shape cast against brute force
            current_op = "cw_world_cast_shape_closest";
            check_cast_query(world, &r);
            break;
        case 8: // a point query against brute force
            current_op = "cw_world_query_point";
            check_point_query(world, &r);
            break;
        case 9: // a closest-hit ray against brute force
            current_op = "cw_world_raycast_closest";
            check_ray_query(world, &r);
            break;
        default: // 7
            current_op = "cw_world_step";
            step_and_check(world, with_stay);
            break;
        }
        if (fz_verbose) // FUZZ_VERBOSE=1: each operation as it is done
            fprintf(stderr, "  op %d: %s (code %u)\n", op, current_op, code);
        // What the world reports for a body is what it was given.
        if (live_count > 0) {
            const body *b = &live[op % live_count];
            cw_transform t = cw_body_transform(world, b->id);
            uint32_t category, collides_with;
            FZ_CHECK(memcmp(&t, &b->transform, sizeof t) == 0, "cw_body_transform differs");
            FZ_CHECK(cw_body_filter(world, b->id, &category, &collides_with) && category == b->category &&
                         collides_with == b->collides_with,
                     "cw_body_filter differs");
            FZ_CHECK(cw_body_is_static(world, b->id) == b->is_static, "cw_body_is_static differs");
            FZ_CHECK(cw_body_is_swept(world, b->id) == b->swept, "cw_body_is_swept differs");
            FZ_CHECK(cw_body_group(world, b->id) == b->group, "cw_body_group differs");
            FZ_CHECK(cw_body_is_enabled(world, b->id) == !b->disabled, "cw_body_is_enabled differs");
            FZ_CHECK((uintptr_t)cw_body_user_data(world, b->id) == b->token, "cw_body_user_data differs");
        }
    }
    step_and_check(world, with_stay);
    while (live_count > 0) {
        cw_body_destroy(world, live[live_count - 1].id);
        live_count--;
    }
    step_and_check(world, with_stay);
    FZ_CHECK(touching_count == 0, "%d pairs still touching after every body was destroyed", touching_count);
    cw_world_destroy(world);
done:
    for (int i = 0; i < 3; i++)
        cw_mask_destroy(masks[i]);
    return 0;
}
