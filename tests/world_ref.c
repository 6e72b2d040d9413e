// The brute-force reference world (see world_ref.h). Public API only.
#include "world_ref.h"
#include "world_ref_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// --- a small hash map from uint64 keys to int values (open addressing, tombstones) ---

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) {
        fprintf(stdout, "world_ref: out of memory\n");
        abort();
    }
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (q == NULL) {
        fprintf(stdout, "world_ref: out of memory\n");
        abort();
    }
    return q;
}

static size_t map_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return (size_t)k;
}

void map_init(wr_map *m, size_t cap)
{
    m->cap = cap;
    m->count = m->used = 0;
    m->keys = xcalloc(cap, sizeof *m->keys);
    m->vals = xcalloc(cap, sizeof *m->vals);
    for (size_t i = 0; i < cap; i++)
        m->keys[i] = MAP_EMPTY;
}

void map_free(wr_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

void map_clear(wr_map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        m->keys[i] = MAP_EMPTY;
    m->count = m->used = 0;
}

int *map_find(const wr_map *m, uint64_t key)
{
    size_t mask = m->cap - 1;
    for (size_t i = map_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->keys[i] == MAP_EMPTY)
            return NULL;
        if (m->keys[i] == key)
            return &m->vals[i];
    }
}


static void map_grow(wr_map *m)
{
    wr_map old = *m;
    size_t cap = old.cap;
    if (old.count * 2 >= old.cap / 2)
        cap *= 2;
    map_init(m, cap);
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i] < MAP_TOMB)
            map_put(m, old.keys[i], old.vals[i]);
    map_free(&old);
}

void map_put(wr_map *m, uint64_t key, int val)
{
    int *v = map_find(m, key);
    if (v) {
        *v = val;
        return;
    }
    if ((m->used + 1) * 10 > m->cap * 6) {
        map_grow(m);
    }
    size_t mask = m->cap - 1;
    size_t i = map_hash(key) & mask;
    while (m->keys[i] < MAP_TOMB)
        i = (i + 1) & mask;
    if (m->keys[i] == MAP_EMPTY)
        m->used++;
    m->keys[i] = key;
    m->vals[i] = val;
    m->count++;
}

bool map_del(wr_map *m, uint64_t key)
{
    int *v = map_find(m, key);
    if (v == NULL)
        return false;
    size_t i = (size_t)(v - m->vals);
    m->keys[i] = MAP_TOMB;
    m->count--;
    return true;
}

void wr_fail(wr_world *w, const char *format, ...)
{
    w->failures++;
    if (w->printed++ >= WR_MAX_PRINTED) {
        if (w->printed == WR_MAX_PRINTED + 1)
            fprintf(stdout, "  [%s] (further failures not printed)\n", w->name);
        return;
    }
    fprintf(stdout, "FAIL [%s, seed 0x%llx, step %d] ", w->name, (unsigned long long)w->opt.seed, w->steps);
    va_list ap;
    va_start(ap, format);
    vfprintf(stdout, format, ap);
    va_end(ap);
    fputc('\n', stdout);
}


static void on_begin(const cw_contact *c, void *context);
static void on_stay(const cw_contact *c, void *context);
static void on_end(const cw_contact *c, void *context);

wr_world *wr_create(const wr_options *options)
{
    wr_world *w = xcalloc(1, sizeof *w);
    w->opt = *options;
    // cw_body_touching() is the body index's only reader, so a world builds the index the first time
    // it is asked: worlds in turn are first asked after their first step (an empty or new set) or
    // after the second to fourth (a set that holds pairs already, and changes after).
    static int worlds_made;
    w->touch_checks_from = 1 + worlds_made++ % 4;
    snprintf(w->name, sizeof w->name, "%s", options->name ? options->name : "world");
    map_init(&w->ids, 1024);
    map_init(&w->open, 1024);
    map_init(&w->expect, 1024);
    map_init(&w->begun, 256);
    map_init(&w->stayed, 1024);
    map_init(&w->moving, 256);
    cw_world_def def = cw_default_world_def();
    def.cell_size = options->cell_size;
    def.on_begin = on_begin;
    def.on_end = on_end;
    def.on_stay = options->no_stay ? NULL : on_stay;
    def.manifolds = !options->no_manifolds;
    def.context = w;
    def.worker_count = options->worker_count > 0 ? options->worker_count : 1;
    def.enqueue_task = options->enqueue_task;
    def.finish_task = options->finish_task;
    def.user_task_context = options->task_context;
    cw_clear_error();
    w->world = cw_world_create(&def);
    if (w->world == NULL) {
        wr_fail(w, "cw_world_create failed: %s", cw_last_error());
        fprintf(stdout, "  (giving up on this world)\n");
        map_free(&w->ids);
        map_free(&w->open);
        map_free(&w->expect);
        map_free(&w->begun);
        map_free(&w->stayed);
        map_free(&w->moving);
        free(w);
        return NULL;
    }
    return w;
}

void wr_destroy(wr_world *w)
{
    if (w == NULL)
        return;
    cw_world_destroy(w->world);
    map_free(&w->ids);
    map_free(&w->open);
    map_free(&w->expect);
    map_free(&w->moving);
    free(w->motions);
    map_free(&w->begun);
    map_free(&w->stayed);
    free(w->recs);
    free(w->live);
    free(w->tpairs);
    free(w->log);
    free(w->stream);
    free(w);
}

cw_world *wr_cw(wr_world *w) { return w->world; }
int wr_steps(const wr_world *w) { return w->steps; }
int wr_failures(const wr_world *w) { return w->failures; }
int wr_live_count(const wr_world *w) { return w->live_count; }
int wr_live_at(const wr_world *w, int k) { return w->live[k]; }
bool wr_is_live(const wr_world *w, int h) { return h >= 0 && h < w->rec_count && w->recs[h].live; }
cw_body_id wr_id(const wr_world *w, int h) { return w->recs[h].id; }
int wr_tag(const wr_world *w, int h) { return w->recs[h].tag; }
bool wr_is_static(const wr_world *w, int h) { return w->recs[h].is_static; }
cw_transform wr_transform(const wr_world *w, int h) { return w->recs[h].transform; }
wr_totals wr_get_totals(const wr_world *w) { return w->totals; }

int wr_handle_of(const wr_world *w, cw_body_id id)
{
    const int *h = map_find(&w->ids, id_key(id));
    return h ? *h : -1;
}

static void describe_shape(const cw_shape *s, char *buf, size_t n)
{
    if (s->type == CW_SHAPE_BOX)
        snprintf(buf, n, "box %.9g x %.9g (%a, %a)", (double)s->size.x, (double)s->size.y, (double)s->size.x,
                 (double)s->size.y);
    else if (s->type == CW_SHAPE_MASK)
        snprintf(buf, n, "mask %dx%d (%d opaque) at %p", cw_mask_width(s->mask), cw_mask_height(s->mask),
                 cw_mask_count(s->mask), (const void *)s->mask);
    else
        snprintf(buf, n, "shape of type %d", (int)s->type);
}

void wr_print_body(const wr_world *w, int h)
{
    if (h < 0 || h >= w->rec_count) {
        fprintf(stdout, "    (no record %d)\n", h);
        return;
    }
    const wr_rec *r = &w->recs[h];
    char shape[160];
    describe_shape(&r->shape, shape, sizeof shape);
    const cw_transform *t = &r->transform;
    fprintf(stdout,
            "    body {%u, %u} (record %d, tag %d%s%s): category 0x%x collides_with 0x%x, user %p, %s\n"
            "      transform {.position = {%a, %a}, .rotation = %a, .scale = {%a, %a}, .origin = {%a, %a}}"
            " (position %.9g, %.9g)\n",
            r->id.index, r->id.generation, h, r->tag, r->is_static ? ", static" : "", r->live ? "" : ", destroyed",
            r->category, r->collides_with, r->user, shape, (double)t->position.x, (double)t->position.y,
            (double)t->rotation, (double)t->scale.x, (double)t->scale.y, (double)t->origin.x, (double)t->origin.y,
            (double)t->position.x, (double)t->position.y);
}

static int add_rec(wr_world *w)
{
    if (w->rec_count == w->rec_cap) {
        w->rec_cap = w->rec_cap ? 2 * w->rec_cap : 256;
        w->recs = xrealloc(w->recs, (size_t)w->rec_cap * sizeof *w->recs);
    }
    int h = w->rec_count++;
    memset(&w->recs[h], 0, sizeof w->recs[h]);
    return h;
}

static bool same_transform(const cw_transform *a, const cw_transform *b)
{
    return memcmp(&a->position.x, &b->position.x, sizeof(float)) == 0 &&
           memcmp(&a->position.y, &b->position.y, sizeof(float)) == 0 &&
           memcmp(&a->rotation, &b->rotation, sizeof(float)) == 0 &&
           memcmp(&a->scale.x, &b->scale.x, sizeof(float)) == 0 &&
           memcmp(&a->scale.y, &b->scale.y, sizeof(float)) == 0 &&
           memcmp(&a->origin.x, &b->origin.x, sizeof(float)) == 0 &&
           memcmp(&a->origin.y, &b->origin.y, sizeof(float)) == 0;
}

static bool same_shape(const cw_shape *a, const cw_shape *b)
{
    return a->type == b->type && memcmp(&a->size.x, &b->size.x, sizeof(float)) == 0 &&
           memcmp(&a->size.y, &b->size.y, sizeof(float)) == 0 && a->mask == b->mask;
}

int wr_body_create(wr_world *w, const cw_body_def *def, const ref_shape *ref, int tag)
{
    cw_clear_error();
    cw_body_id id = cw_body_create(w->world, def);
    if (cw_body_id_is_null(id)) {
        wr_fail(w, "cw_body_create failed: %s", cw_last_error());
        return -1;
    }
    if (id.index == 0 || id.generation == 0)
        wr_fail(w, "cw_body_create returned {%u, %u}: index and generation must be >= 1", id.index, id.generation);
    if (!cw_body_is_valid(w->world, id))
        wr_fail(w, "a new body {%u, %u} is not valid", id.index, id.generation);
    if (map_find(&w->ids, id_key(id)) != NULL) {
        int old = *map_find(&w->ids, id_key(id));
        wr_fail(w, "cw_body_create returned {%u, %u}, the id of an earlier body (record %d, %s)", id.index,
                id.generation, old, w->recs[old].live ? "still live" : "destroyed");
    }
    for (int k = 0; k < w->live_count; k++)
        if (w->recs[w->live[k]].id.index == id.index)
            wr_fail(w, "cw_body_create returned slot %u which live record %d also has", id.index, w->live[k]);
    int h = add_rec(w);
    wr_rec *r = &w->recs[h];
    r->id = id;
    r->tag = tag;
    r->live = true;
    r->live_at_step = false;
    r->created_step = w->steps;
    r->created_in_step = w->in_step;
    r->destroy_step = -1;
    r->destroy_seq = -1;
    r->shape = def->shape;
    r->ref = *ref;
    r->transform = def->transform;
    r->category = def->category;
    r->collides_with = def->collides_with;
    r->is_static = def->is_static;
    r->group = def->group;
    r->swept = def->swept;
    r->fresh = true;
    r->from = def->transform.position;
    r->user = def->user_data;
    map_put(&w->ids, id_key(id), h);
    if (w->live_count == w->live_cap) {
        w->live_cap = w->live_cap ? 2 * w->live_cap : 256;
        w->live = xrealloc(w->live, (size_t)w->live_cap * sizeof *w->live);
    }
    r->live_pos = w->live_count;
    w->live[w->live_count++] = h;
    if (w->in_step) {
        w->step_creates++;
        w->totals.callback_creates++;
    }
    return h;
}

static bool check_live(wr_world *w, int h, const char *what)
{
    if (h < 0 || h >= w->rec_count || !w->recs[h].live) {
        wr_fail(w, "test bug: %s on record %d which is not live", what, h);
        return false;
    }
    return true;
}

void wr_body_destroy(wr_world *w, int h)
{
    if (!check_live(w, h, "destroy"))
        return;
    wr_rec *r = &w->recs[h];
    cw_body_destroy(w->world, r->id);
    if (cw_body_is_valid(w->world, r->id))
        wr_fail(w, "body {%u, %u} still valid after cw_body_destroy", r->id.index, r->id.generation);
    r->live = false;
    r->user_destroy = r->user;
    if (w->in_step) {
        r->destroy_step = w->steps;
        r->destroy_seq = w->log_count;
        w->step_destroys++;
        w->totals.callback_destroys++;
    }
    int pos = r->live_pos, last = w->live[w->live_count - 1];
    w->live[pos] = last;
    w->recs[last].live_pos = pos;
    w->live_count--;
}

void wr_set_transform(wr_world *w, int h, const cw_transform *t)
{
    if (!check_live(w, h, "set_transform"))
        return;
    wr_rec *r = &w->recs[h];
    cw_clear_error();
    if (!cw_body_set_transform(w->world, r->id, t)) {
        wr_fail(w, "cw_body_set_transform failed: %s", cw_last_error());
        return;
    }
    r->transform = *t;
    r->aabb_valid = false;
    // A body does not move in its first step, so a new one starts where it is put; but once its first
    // step is running (from a callback), that step's motion stays as it was (its events are checked
    // against it), and the next starts where the step leaves it.
    if (r->fresh && !(w->in_step && r->live_at_step))
        r->from = t->position;
}

// The next motion starts at `at`. From a callback the running step's motion stays as it was (the
// events of the step are checked against it); the next one starts there.
static void restart_motion(wr_world *w, wr_rec *r, cw_vec2 at)
{
    if (w->in_step) {
        r->next_from = at;
        r->teleported = true;
    } else {
        r->from = at;
    }
}

void wr_teleport(wr_world *w, int h, const cw_transform *t)
{
    if (!check_live(w, h, "teleport"))
        return;
    wr_rec *r = &w->recs[h];
    cw_clear_error();
    if (!cw_body_teleport(w->world, r->id, t)) {
        wr_fail(w, "cw_body_teleport failed: %s", cw_last_error());
        return;
    }
    r->transform = *t;
    r->aabb_valid = false;
    restart_motion(w, r, t->position);
}

void wr_set_group(wr_world *w, int h, int32_t group)
{
    if (!check_live(w, h, "set_group"))
        return;
    cw_clear_error();
    if (!cw_body_set_group(w->world, w->recs[h].id, group)) {
        wr_fail(w, "cw_body_set_group failed: %s", cw_last_error());
        return;
    }
    w->recs[h].group = group;
}

void wr_set_enabled(wr_world *w, int h, bool enabled)
{
    if (!check_live(w, h, "set_enabled"))
        return;
    wr_rec *r = &w->recs[h];
    cw_clear_error();
    if (!cw_body_set_enabled(w->world, r->id, enabled)) {
        wr_fail(w, "cw_body_set_enabled failed: %s", cw_last_error());
        return;
    }
    if (enabled && r->disabled) // back without a motion
        restart_motion(w, r, r->transform.position);
    r->disabled = !enabled;
}

bool wr_is_enabled(const wr_world *w, int h) { return !w->recs[h].disabled; }

void wr_set_swept(wr_world *w, int h, bool swept)
{
    if (!check_live(w, h, "set_swept"))
        return;
    cw_clear_error();
    if (!cw_body_set_swept(w->world, w->recs[h].id, swept)) {
        wr_fail(w, "cw_body_set_swept failed: %s", cw_last_error());
        return;
    }
    w->recs[h].swept = swept;
}

void wr_set_shape(wr_world *w, int h, const cw_shape *shape, const ref_shape *ref)
{
    if (!check_live(w, h, "set_shape"))
        return;
    wr_rec *r = &w->recs[h];
    cw_clear_error();
    if (!cw_body_set_shape(w->world, r->id, shape)) {
        wr_fail(w, "cw_body_set_shape failed: %s", cw_last_error());
        return;
    }
    r->shape = *shape;
    r->ref = *ref;
    r->aabb_valid = false;
}

void wr_set_filter(wr_world *w, int h, uint32_t category, uint32_t collides_with)
{
    if (!check_live(w, h, "set_filter"))
        return;
    wr_rec *r = &w->recs[h];
    cw_clear_error();
    if (!cw_body_set_filter(w->world, r->id, category, collides_with)) {
        wr_fail(w, "cw_body_set_filter failed: %s", cw_last_error());
        return;
    }
    r->category = category;
    r->collides_with = collides_with;
}

void wr_set_user(wr_world *w, int h, void *user_data)
{
    if (!check_live(w, h, "set_user_data"))
        return;
    wr_rec *r = &w->recs[h];
    cw_clear_error();
    if (!cw_body_set_user_data(w->world, r->id, user_data)) {
        wr_fail(w, "cw_body_set_user_data failed: %s", cw_last_error());
        return;
    }
    r->user = user_data;
}

// --- events ---

static void stream_put(wr_world *w, const void *data, size_t n)
{
    if (w->stream_len + n > w->stream_cap) {
        w->stream_cap = w->stream_cap ? 2 * w->stream_cap : 65536;
        while (w->stream_cap < w->stream_len + n)
            w->stream_cap *= 2;
        w->stream = xrealloc(w->stream, w->stream_cap);
    }
    memcpy(w->stream + w->stream_len, data, n);
    w->stream_len += n;
}

const unsigned char *wr_stream(const wr_world *w, size_t *length)
{
    *length = w->stream_len;
    return w->stream;
}

static void record(wr_world *w, int phase, const cw_contact *c)
{
    if (!w->in_step) {
        wr_fail(w, "a callback ran outside cw_world_step");
        return;
    }
    if (w->log_count == w->log_cap) {
        w->log_cap = w->log_cap ? 2 * w->log_cap : 1024;
        w->log = xrealloc(w->log, (size_t)w->log_cap * sizeof *w->log);
    }
    w->log[w->log_count].phase = phase;
    w->log[w->log_count].contact = *c;
    w->log_count++;
    if (w->opt.record_stream) {
        unsigned char p = (unsigned char)phase;
        uint32_t ids[4] = {c->a.index, c->a.generation, c->b.index, c->b.generation};
        uintptr_t users[2] = {(uintptr_t)c->user_a, (uintptr_t)c->user_b};
        float m[6] = {c->manifold.point.x, c->manifold.point.y, c->manifold.normal.x, c->manifold.normal.y,
                      c->manifold.depth, c->fraction};
        stream_put(w, &p, 1);
        stream_put(w, ids, sizeof ids);
        stream_put(w, users, sizeof users);
        stream_put(w, m, sizeof m);
    }
    // Validity as seen from inside the callback agrees with the mirror.
    const int *ha = map_find(&w->ids, id_key(c->a)), *hb = map_find(&w->ids, id_key(c->b));
    if (ha && hb) {
        bool va = cw_body_is_valid(w->world, c->a), vb = cw_body_is_valid(w->world, c->b);
        if (va != w->recs[*ha].live || vb != w->recs[*hb].live)
            wr_fail(w, "inside a callback cw_body_is_valid gives %d for {%u, %u} and %d for {%u, %u}; the mirror says %d, %d",
                    va, c->a.index, c->a.generation, vb, c->b.index, c->b.generation, w->recs[*ha].live,
                    w->recs[*hb].live);
    }
    if (w->opt.hook)
        w->opt.hook(w, phase, c, w->opt.hook_context);
}

static void on_begin(const cw_contact *c, void *context) { record(context, WR_BEGIN, c); }
static void on_stay(const cw_contact *c, void *context) { record(context, WR_STAY, c); }
static void on_end(const cw_contact *c, void *context) { record(context, WR_END, c); }

// --- the expected touching set ---

typedef struct sweep_item {
    double min_x, max_x, min_y, max_y;
    int h;
} sweep_item;

static int compare_sweep(const void *x, const void *y)
{
    const sweep_item *a = x, *b = y;
    if (a->min_x != b->min_x)
        return a->min_x < b->min_x ? -1 : 1;
    return (a->h > b->h) - (a->h < b->h);
}

static void update_aabb(wr_rec *r)
{
    if (r->aabb_valid)
        return;
    r->aabb_valid = true;
    r->aabb_empty = !ref_aabb(&r->ref, &r->transform, false, r->min, r->max);
}

static bool filters_match(const wr_rec *a, const wr_rec *b) { return wr_filters_match(a, b); }

static void add_tpair(wr_world *w, uint64_t key)
{
    if (w->tcount == w->tcap) {
        w->tcap = w->tcap ? 2 * w->tcap : 1024;
        w->tpairs = xrealloc(w->tpairs, (size_t)w->tcap * sizeof *w->tpairs);
    }
    w->tpairs[w->tcount].key = key;
    w->tpairs[w->tcount].was_open = map_find(&w->open, key) != NULL;
    map_put(&w->expect, key, w->tcount);
    w->tcount++;
}

static void compute_expected(wr_world *w)
{
    map_clear(&w->expect);
    w->tcount = 0;
    sweep_item *items = xcalloc((size_t)w->live_count + 1, sizeof *items);
    int n = 0;
    for (int k = 0; k < w->live_count; k++) {
        wr_rec *r = &w->recs[w->live[k]];
        update_aabb(r);
        if (r->aabb_empty)
            continue;
        // The sweep only prunes: its margin covers double rounding of the bounds, whose terms may be
        // far larger than the bounds (a pivot 1e30 away, cancelled by the position).
        const cw_transform *t = &r->transform;
        double big = fmax(fmax(fabs(r->min[0]), fabs(r->max[0])), fmax(fabs(r->min[1]), fabs(r->max[1])));
        big = fmax(big, fmax(fabs(t->position.x), fabs(t->position.y)));
        big = fmax(big, fmax(fabs(t->origin.x), fabs(t->origin.y)) * fmax(fabs(t->scale.x), fabs(t->scale.y)));
        double margin = 1e-3 + 1e-6 * big;
        items[n++] = (sweep_item){r->min[0] - margin, r->max[0] + margin, r->min[1] - margin, r->max[1] + margin,
                                  w->live[k]};
    }
    qsort(items, (size_t)n, sizeof *items, compare_sweep);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && items[j].min_x <= items[i].max_x; j++) {
            if (items[j].min_y > items[i].max_y || items[j].max_y < items[i].min_y)
                continue;
            const wr_rec *a = &w->recs[items[i].h], *b = &w->recs[items[j].h];
            if (a->is_static && b->is_static)
                continue;
            if (!filters_match(a, b))
                continue;
            cw_clear_error();
            bool hit = cw_overlap(&a->shape, &a->transform, &b->shape, &b->transform, NULL);
            if (cw_last_error()[0] != '\0')
                wr_fail(w, "cw_overlap on the mirror's shapes failed: %s", cw_last_error());
            if (hit)
                add_tpair(w, canon_key(w, items[i].h, items[j].h));
        }
    free(items);
    if (w->tcount > w->totals.max_touching)
        w->totals.max_touching = w->tcount;
}

// --- one step ---

bool wr_step(wr_world *w)
{
    int before = w->failures;
    for (int h = 0; h < w->rec_count; h++) {
        wr_rec *r = &w->recs[h];
        r->live_at_step = r->live;
        if (r->live) {
            r->user_step = r->user;
            r->shape_step = r->shape;
            r->ref_step = r->ref;
            r->transform_step = r->transform;
        }
    }
    compute_expected(w);
    wr_expect_motion(w);
    w->log_count = 0;
    w->step_destroys = w->step_creates = 0;
    w->steps++;
    w->in_step = true;
    cw_clear_error();
    cw_world_step(w->world);
    w->in_step = false;
    bool stepped = cw_last_error()[0] == '\0';
    if (!stepped)
        wr_fail(w, "cw_world_step recorded an error: %s", cw_last_error());
    wr_check_events(w);
    if (stepped && w->steps >= w->touch_checks_from)
        wr_check_touching(w);
    if (stepped)
        wr_check_event_arrays(w);
    for (int h = 0; h < w->rec_count && stepped; h++) { // the next motion starts where they were stepped
        wr_rec *r = &w->recs[h];
        if (r->teleported)
            r->from = r->next_from;
        else if (r->live_at_step)
            r->from = r->transform_step.position;
        if (r->live_at_step)
            r->fresh = false;
        r->teleported = false;
    }
    // The getters agree with the mirror (a few bodies per step).
    for (int k = 0; k < w->live_count && k < 8; k++) {
        int h = w->live[(k * 7919 + w->steps) % w->live_count];
        const wr_rec *r = &w->recs[h];
        cw_transform t = cw_body_transform(w->world, r->id);
        cw_shape s = cw_body_shape(w->world, r->id);
        uint32_t cat = 0, col = 0;
        bool ok = cw_body_filter(w->world, r->id, &cat, &col);
        if (!same_transform(&t, &r->transform) || !same_shape(&s, &r->shape) || !ok || cat != r->category ||
            col != r->collides_with || cw_body_user_data(w->world, r->id) != r->user ||
            cw_body_is_static(w->world, r->id) != r->is_static || cw_body_is_swept(w->world, r->id) != r->swept ||
            cw_body_group(w->world, r->id) != r->group || cw_body_is_enabled(w->world, r->id) == r->disabled) {
            wr_fail(w, "the getters of body {%u, %u} disagree with what was set", r->id.index, r->id.generation);
            wr_print_body(w, h);
        }
    }
    return w->failures == before;
}

const wr_event *wr_events(const wr_world *w, int *count)
{
    *count = w->log_count;
    return w->log;
}

int wr_count_events(const wr_world *w, int phase, int ha, int hb)
{
    int n = 0;
    for (int k = 0; k < w->log_count; k++) {
        const wr_event *e = &w->log[k];
        if (e->phase != phase)
            continue;
        cw_body_id a = w->recs[ha].id, b = w->recs[hb].id;
        const cw_contact *c = &e->contact;
        if ((id_key(c->a) == id_key(a) && id_key(c->b) == id_key(b)) ||
            (id_key(c->a) == id_key(b) && id_key(c->b) == id_key(a)))
            n++;
    }
    return n;
}

int wr_expected_count(const wr_world *w) { return w->tcount; }

bool wr_expected(const wr_world *w, int ha, int hb)
{
    return map_find(&w->expect, canon_key(w, ha, hb)) != NULL;
}

static int compare_quads(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y;
    for (int i = 0; i < 4; i++) {
        static const int order[4] = {0, 2, 1, 3};
        uint32_t u = a[order[i]], v = b[order[i]];
        if (u != v)
            return u < v ? -1 : 1;
    }
    return 0;
}

int wr_expected_pairs(const wr_world *w, uint32_t *out, int max)
{
    int n = w->tcount < max ? w->tcount : max;
    for (int i = 0; i < n; i++) {
        const wr_rec *a = &w->recs[key_a(w->tpairs[i].key)], *b = &w->recs[key_b(w->tpairs[i].key)];
        out[4 * i + 0] = a->id.index;
        out[4 * i + 1] = a->id.generation;
        out[4 * i + 2] = b->id.index;
        out[4 * i + 3] = b->id.generation;
    }
    qsort(out, (size_t)n, 4 * sizeof *out, compare_quads);
    return n;
}
