#include "scene.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const float PI = 3.14159265f;

// --- a small deterministic random generator (xorshift64*), so --seed replays a scene ---

float scene_random(scene *s, float lo, float hi)
{
    s->rng ^= s->rng >> 12, s->rng ^= s->rng << 25, s->rng ^= s->rng >> 27;
    uint32_t bits = (uint32_t)((s->rng * 2685821657736338717ull) >> 40); // 24 random bits
    return lo + (hi - lo) * (float)bits / (float)(1u << 24);
}

// --- contact events: the world tells us who starts and stops touching ---

sprite *scene_sprite(const scene *s, cw_body_id id)
{
    if (id.index == 0 || id.index >= (uint32_t)s->capacity)
        return NULL;
    sprite *sp = &s->sprites[id.index];
    return sp->id.generation == id.generation ? sp : NULL; // ends of destroyed bodies name stale ids
}

void scene_keep_contact(scene *s, const cw_manifold *m)
{
    if (s->contact_count == s->contact_capacity) {
        int capacity = s->contact_capacity ? 2 * s->contact_capacity : 1024;
        contact_mark *grown = realloc(s->contacts, (size_t)capacity * sizeof *grown);
        if (grown == NULL)
            return; // only a debug layer misses a point
        s->contacts = grown, s->contact_capacity = capacity;
    }
    s->contacts[s->contact_count++] = (contact_mark){*m, CONTACT_FRAMES};
}

static void touch(scene *s, cw_body_id id, int delta)
{
    sprite *sp = scene_sprite(s, id);
    if (sp == NULL)
        return;
    sp->touching += delta;
    if (delta > 0)
        sp->flash = FLASH_FRAMES;
}

static void on_begin(const cw_contact *c, void *context)
{
    scene *s = context;
    if (s->kind == SCENE_SHOOTER && shooter_on_begin(s, c))
        return;
    touch(context, c->a, +1);
    touch(context, c->b, +1);
    scene_keep_contact(context, &c->manifold);
}

static void on_end(const cw_contact *c, void *context)
{
    touch(context, c->a, -1);
    touch(context, c->b, -1);
}

// --- bodies ---

static cw_shape shape_of(const scene *s, sprite_kind kind)
{
    return s->boxes ? cw_shape_box(SPRITE_SIZE, SPRITE_SIZE) : cw_shape_mask(s->images[kind].mask);
}

static sprite *add_body(scene *s, sprite_kind kind, const cw_transform *t, bool is_static)
{
    cw_body_def def = cw_default_body_def();
    def.shape = shape_of(s, kind);
    def.transform = *t;
    def.is_static = is_static;
    return scene_add_body(s, kind, &def);
}

sprite *scene_add_body(scene *s, sprite_kind kind, const cw_body_def *def)
{
    const cw_transform *t = &def->transform;
    bool is_static = def->is_static;
    cw_body_id id = cw_body_create(s->world, def);
    if (cw_body_id_is_null(id))
        return NULL;
    if (id.index >= (uint32_t)s->capacity) {
        int capacity = s->capacity ? 2 * s->capacity : 1024;
        while ((uint32_t)capacity <= id.index)
            capacity *= 2;
        sprite *grown = realloc(s->sprites, (size_t)capacity * sizeof *grown);
        if (grown == NULL) {
            cw_body_destroy(s->world, id);
            return NULL;
        }
        memset(grown + s->capacity, 0, (size_t)(capacity - s->capacity) * sizeof *grown);
        s->sprites = grown, s->capacity = capacity;
    }
    sprite *sp = &s->sprites[id.index];
    *sp = (sprite){.id = id, .kind = kind, .transform = *t, .is_static = is_static};
    s->count++;
    return sp;
}

cw_transform scene_centred(cw_vec2 position, float rotation, cw_vec2 scale)
{
    cw_transform t = cw_default_transform();
    t.origin = (cw_vec2){SPRITE_SIZE / 2.0f, SPRITE_SIZE / 2.0f}; // turn about the sprite's centre
    t.position = position, t.rotation = rotation, t.scale = scale;
    return t;
}

// One random sprite: a tenth are static obstacles, a quarter mirrored, sizes vary by two.
static void add_random_sprite(scene *s)
{
    bool is_static = scene_random(s, 0, 1) < 0.1f;
    float size = is_static ? scene_random(s, 0.6f, 1.0f) : scene_random(s, 0.3f, 0.55f);
    cw_vec2 scale = {size, size * scene_random(s, 0.85f, 1.15f)};
    if (scene_random(s, 0, 1) < 0.25f)
        scale.x = -scale.x;
    cw_vec2 at = {scene_random(s, 0, s->size.x), scene_random(s, 0, s->size.y)};
    cw_transform t = scene_centred(at, scene_random(s, -PI, PI), scale);
    sprite *sp = add_body(s, (sprite_kind)(int)scene_random(s, 0, KIND_COUNT), &t, is_static);
    if (sp == NULL || is_static)
        return;
    float heading = scene_random(s, -PI, PI), speed = scene_random(s, 20, 90);
    sp->velocity = (cw_vec2){speed * cosf(heading), speed * sinf(heading)};
    sp->spin = scene_random(s, -2, 2);
}

void scene_add_sprites(scene *s, int n)
{
    // A wave of sprites: room for all of them made at once, exactly (cw_world_reserve), rather than
    // grown by half again as they come. If it cannot be made, they still come, grown one by one.
    int bodies = cw_world_get_stats(s->world).bodies;
    if (n > 0 && bodies <= INT_MAX - 1 - n)
        cw_world_reserve(s->world, bodies + n);
    for (int i = 0; i < n; i++)
        add_random_sprite(s);
}

void scene_remove_sprites(scene *s, int n)
{
    for (int i = s->capacity - 1; i > 0 && n > 0; i--) {
        sprite *sp = &s->sprites[i];
        if (cw_body_id_is_null(sp->id) || sp->is_player)
            continue;
        cw_body_destroy(s->world, sp->id);
        *sp = (sprite){0};
        s->count--, n--;
    }
}

static void add_player(scene *s, sprite_kind kind, cw_vec2 at, float rotation, cw_vec2 scale)
{
    cw_transform t = scene_centred(at, rotation, scale);
    sprite *sp = add_body(s, kind, &t, false);
    if (sp == NULL)
        return;
    sp->is_player = true;
    if (cw_body_id_is_null(s->selected))
        s->selected = sp->id;
}

bool scene_init(scene *s, scene_kind kind, int count, uint64_t seed, cw_vec2 size, const sprite_image *images,
                int workers)
{
    *s = (scene){.kind = kind, .images = images, .size = size, .rng = seed * 0x9E3779B97F4A7C15ull + 1};
    cw_world_def def = cw_default_world_def();
    def.worker_count = workers; // the world's own threads share the exact tests
    def.on_begin = on_begin, def.on_end = on_end, def.context = s; // no on_stay: stays then cost nothing
    if (kind != SCENE_INSPECT && kind != SCENE_SHOOTER && count > 0 && count < (1 << 30))
        def.body_capacity = count + 1; // the sprites and the player: room made once, none spare
    if ((s->world = cw_world_create(&def)) == NULL)
        return false;
    cw_vec2 mid = {size.x / 2, size.y / 2};
    if (kind == SCENE_INSPECT) {
        float big = fminf(size.x, size.y) / 48; // screen pixels a texel
        add_player(s, KIND_F, (cw_vec2){mid.x - 9 * big, mid.y}, 0.35f, (cw_vec2){big, big});
        add_player(s, KIND_R, (cw_vec2){mid.x + 9 * big, mid.y}, -0.6f, (cw_vec2){big, big * 0.9f});
        return true;
    }
    if (kind == SCENE_SHOOTER) {
        shooter_init(s);
        return true;
    }
    add_player(s, KIND_F, mid, 0.3f, (cw_vec2){5, 5});
    scene_add_sprites(s, count);
    return true;
}

void scene_free(scene *s)
{
    cw_world_destroy(s->world);
    free(s->sprites);
    free(s->contacts);
    free(s->move_ids);
    free(s->move_to);
    *s = (scene){0};
}

void scene_set_transform(scene *s, sprite *sp, const cw_transform *t)
{
    sp->transform = *t;
    cw_body_set_transform(s->world, sp->id, t);
}

void scene_set_boxes(scene *s, bool boxes)
{
    s->boxes = boxes;
    for (int i = 1; i < s->capacity; i++)
        if (!cw_body_id_is_null(s->sprites[i].id) && !s->sprites[i].is_bullet && !s->sprites[i].is_wall) {
            cw_shape shape = shape_of(s, s->sprites[i].kind);
            cw_body_set_shape(s->world, s->sprites[i].id, &shape);
        }
}

// Straight flight, bouncing off the playfield's edges: the sprite's next transform (kept in it).
static void fly(scene *s, sprite *sp, float dt)
{
    cw_transform t = sp->transform;
    t.position.x += sp->velocity.x * dt, t.position.y += sp->velocity.y * dt;
    t.rotation = remainderf(t.rotation + sp->spin * dt, 2 * PI);
    if ((t.position.x < 0 && sp->velocity.x < 0) || (t.position.x > s->size.x && sp->velocity.x > 0))
        sp->velocity.x = -sp->velocity.x;
    if ((t.position.y < 0 && sp->velocity.y < 0) || (t.position.y > s->size.y && sp->velocity.y > 0))
        sp->velocity.y = -sp->velocity.y;
    sp->transform = t;
}

// Room for a move of every sprite slot in the frame's list.
static bool reserve_moves(scene *s)
{
    if (s->move_capacity >= s->capacity)
        return true;
    cw_body_id *ids = realloc(s->move_ids, (size_t)s->capacity * sizeof *ids);
    if (ids != NULL)
        s->move_ids = ids;
    cw_transform *to = realloc(s->move_to, (size_t)s->capacity * sizeof *to);
    if (to != NULL)
        s->move_to = to;
    if (ids == NULL || to == NULL)
        return false;
    s->move_capacity = s->capacity;
    return true;
}

void scene_advance(scene *s, float dt)
{
    // Every moving sprite in one call: the world places a long list on its workers.
    int moves = 0;
    const bool listed = reserve_moves(s);
    for (int i = 1; i < s->capacity; i++) {
        sprite *sp = &s->sprites[i];
        if (cw_body_id_is_null(sp->id))
            continue;
        if (sp->flash > 0)
            sp->flash--;
        if (!sp->is_bullet && (sp->velocity.x != 0 || sp->velocity.y != 0 || sp->spin != 0)) {
            fly(s, sp, dt);
            if (listed)
                s->move_ids[moves] = sp->id, s->move_to[moves++] = sp->transform;
            else // out of memory for the list: one call a sprite
                cw_body_set_transform(s->world, sp->id, &sp->transform);
        }
    }
    if (listed)
        cw_world_set_transforms(s->world, s->move_ids, s->move_to, moves);
    int kept = 0;
    for (int i = 0; i < s->contact_count; i++)
        if (--s->contacts[i].frames > 0)
            s->contacts[kept++] = s->contacts[i];
    s->contact_count = kept;
    if (s->kind == SCENE_SHOOTER)
        shooter_advance(s, dt);
    cw_world_step(s->world);
    if (s->kind == SCENE_SHOOTER)
        shooter_after_step(s);
}

// --- geometry shared with drawing ---

cw_vec2 local_to_world(const cw_transform *t, cw_vec2 local)
{
    float x = (local.x - t->origin.x) * t->scale.x, y = (local.y - t->origin.y) * t->scale.y;
    float c = cosf(t->rotation), sn = sinf(t->rotation);
    return (cw_vec2){t->position.x + c * x - sn * y, t->position.y + sn * x + c * y};
}

// Whether the shape covers point p (the pixel under a cursor: texels are half-open).
bool shape_covers(const cw_shape *shape, const cw_transform *t, cw_vec2 p)
{
    return cw_shape_contains_point(shape, t, p);
}

typedef struct pick {
    const scene *s;
    cw_body_id best;
    bool best_is_player;
} pick;

// Keeps the topmost body under the point: players first, then the newest sprite.
static bool consider(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    pick *k = context;
    const sprite *sp = scene_sprite(k->s, body);
    bool player = sp != NULL && sp->is_player;
    if (cw_body_id_is_null(k->best) || player > k->best_is_player ||
        (player == k->best_is_player && body.index > k->best.index)) {
        k->best = body;
        k->best_is_player = player;
    }
    return true;
}

// A point query: only the sprites whose opaque pixels are under the cursor.
cw_body_id scene_pick(const scene *s, cw_vec2 p)
{
    pick k = {s, {0, 0}, false};
    cw_world_query_point(s->world, p, cw_default_query_filter(), consider, &k);
    return k.best;
}
