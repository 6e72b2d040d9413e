// The shooter scene: a ship in the middle turns and fires 4x4 bullets at 2,400 px/s (40 px a
// frame) at drifting asteroids and at walls 6 px thick. The bullets are swept bodies: every hit
// is a begin event at the moment of first touch, flashed with its point and normal, and the
// bullet is removed inside the callback. Press S to make them plain bodies: then a bullet that
// jumps over a wall between two frames is never reported, and the HUD counts those, found with a
// shape cast along each bullet's last move (cw_world_cast_shape_closest).
#include "scene.h"

#include <math.h>

enum { MAX_BULLETS = 400 };
static const float BULLET_SPEED = 2400, FIRE_INTERVAL = 1 / 30.0f, BULLET_SIZE = 4;

static bool is_bullet(const scene *s, cw_body_id id)
{
    const sprite *sp = scene_sprite(s, id);
    return sp != NULL && sp->is_bullet;
}

static void remove_sprite(scene *s, sprite *sp)
{
    cw_body_destroy(s->world, sp->id);
    *sp = (sprite){0};
    s->count--;
}

static sprite *add_box(scene *s, cw_vec2 at, cw_vec2 size, float rotation, bool is_static, uint32_t category,
                       uint32_t collides_with)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(size.x, size.y);
    def.transform = cw_default_transform();
    def.transform.position = at, def.transform.rotation = rotation;
    def.transform.origin = (cw_vec2){size.x / 2, size.y / 2};
    def.is_static = is_static, def.category = category, def.collides_with = collides_with;
    sprite *sp = scene_add_body(s, KIND_BLOB, &def);
    if (sp != NULL)
        sp->size = size;
    return sp;
}

void shooter_init(scene *s)
{
    cw_vec2 mid = {s->size.x / 2, s->size.y / 2};
    cw_body_def ship = cw_default_body_def();
    ship.shape = cw_shape_mask(s->images[KIND_STAR].mask);
    ship.transform = scene_centred(mid, 0, (cw_vec2){2.2f, 2.2f});
    ship.category = CAT_SHIP, ship.collides_with = CAT_ROCK | CAT_WALL;
    sprite *sp = scene_add_body(s, KIND_STAR, &ship);
    if (sp != NULL)
        sp->is_player = true, s->selected = sp->id;
    // Thin walls around the ship, at a distance: 6 px thick, well under a bullet's 40 px stride.
    for (int k = 0; k < 6; k++) {
        float angle = (float)k * 1.0472f + 0.3f, r = 0.3f * fminf(s->size.x, s->size.y);
        cw_vec2 at = {mid.x + r * cosf(angle), mid.y + r * sinf(angle)};
        sprite *wall = add_box(s, at, (cw_vec2){6, 160}, angle, true, CAT_WALL, CAT_SHIP | CAT_BULLET | CAT_ROCK);
        if (wall != NULL)
            wall->is_wall = true;
    }
    // Asteroids: the rounder sprites, scaled up, drifting and turning.
    static const sprite_kind rocks[4] = {KIND_BLOB, KIND_GEAR, KIND_RING, KIND_STAR};
    for (int k = 0; k < 90; k++) {
        cw_vec2 at = {scene_random(s, 0, s->size.x), scene_random(s, 0, s->size.y)};
        if (hypotf(at.x - mid.x, at.y - mid.y) < 0.2f * fminf(s->size.x, s->size.y))
            continue; // keep the ship clear
        float size = scene_random(s, 0.8f, 2.4f);
        cw_body_def def = cw_default_body_def();
        sprite_kind kind = rocks[(int)scene_random(s, 0, 4)];
        def.shape = cw_shape_mask(s->images[kind].mask);
        def.transform = scene_centred(at, scene_random(s, -3.14f, 3.14f), (cw_vec2){size, size});
        def.category = CAT_ROCK;
        sprite *rock = scene_add_body(s, kind, &def);
        if (rock == NULL)
            continue;
        float heading = scene_random(s, -3.14f, 3.14f), speed = scene_random(s, 10, 40);
        rock->velocity = (cw_vec2){speed * cosf(heading), speed * sinf(heading)};
        rock->spin = scene_random(s, -1, 1);
    }
}

static void fire(scene *s, const sprite *ship)
{
    cw_vec2 d = {cosf(s->shooter.aim), sinf(s->shooter.aim)};
    float reach = 36; // just outside the ship
    cw_vec2 at = {ship->transform.position.x + reach * d.x, ship->transform.position.y + reach * d.y};
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(BULLET_SIZE, BULLET_SIZE);
    def.transform = cw_default_transform();
    def.transform.position = at, def.transform.rotation = s->shooter.aim;
    def.transform.origin = (cw_vec2){BULLET_SIZE / 2, BULLET_SIZE / 2};
    def.category = CAT_BULLET, def.collides_with = CAT_ROCK | CAT_WALL; // never the ship, nor each other
    def.swept = !s->shooter.unswept;
    sprite *sp = scene_add_body(s, KIND_BLOB, &def);
    if (sp == NULL)
        return;
    sp->is_bullet = true, sp->size = (cw_vec2){BULLET_SIZE, BULLET_SIZE};
    sp->velocity = (cw_vec2){BULLET_SPEED * d.x, BULLET_SPEED * d.y};
    s->shooter.fired++;
}

static int bullet_count(const scene *s)
{
    int n = 0;
    for (int i = 1; i < s->capacity; i++)
        n += !cw_body_id_is_null(s->sprites[i].id) && s->sprites[i].is_bullet;
    return n;
}

void shooter_advance(scene *s, float dt)
{
    sprite *ship = scene_sprite(s, s->selected);
    s->shooter.aim = remainderf(s->shooter.aim + 0.9f * dt, 6.2831853f);
    if (ship != NULL) {
        cw_transform t = ship->transform;
        t.rotation = s->shooter.aim;
        scene_set_transform(s, ship, &t);
    }
    s->shooter.fire_timer -= dt;
    if (ship != NULL && s->shooter.fire_timer <= 0 && bullet_count(s) < MAX_BULLETS) {
        fire(s, ship);
        s->shooter.fire_timer = FIRE_INTERVAL;
    }
    for (int i = 1; i < s->capacity; i++) {
        sprite *sp = &s->sprites[i];
        if (cw_body_id_is_null(sp->id) || !sp->is_bullet)
            continue;
        cw_transform t = sp->transform;
        t.position.x += sp->velocity.x * dt, t.position.y += sp->velocity.y * dt;
        if (t.position.x < -50 || t.position.y < -50 || t.position.x > s->size.x + 50 || t.position.y > s->size.y + 50)
            remove_sprite(s, sp);
        else
            scene_set_transform(s, sp, &t);
    }
}

// Unswept bullets still alive after the step: a shape cast along the move they just made says
// whether they went through something the step never reported.
void shooter_after_step(scene *s)
{
    if (!s->shooter.unswept)
        return;
    cw_shape bullet = cw_shape_box(BULLET_SIZE, BULLET_SIZE);
    cw_query_filter solid = {CAT_BULLET, CAT_ROCK | CAT_WALL};
    for (int i = 1; i < s->capacity; i++) {
        sprite *sp = &s->sprites[i];
        if (cw_body_id_is_null(sp->id) || !sp->is_bullet)
            continue;
        cw_transform from = sp->transform;
        cw_vec2 move = {sp->velocity.x / 60.0f, sp->velocity.y / 60.0f};
        from.position.x -= move.x, from.position.y -= move.y;
        cw_ray_hit hit;
        if (cw_world_cast_shape_closest(s->world, &bullet, &from, move, solid, &hit)) {
            s->shooter.unseen++;
            remove_sprite(s, sp); // counted once
        }
    }
}

// A bullet's begin: where and how it first touched (the contact at its first touch), then it goes.
bool shooter_on_begin(scene *s, const cw_contact *c)
{
    bool a = is_bullet(s, c->a), b = is_bullet(s, c->b);
    if (!a && !b)
        return false;
    s->shooter.hits++;
    sprite *bullet = scene_sprite(s, a ? c->a : c->b), *target = scene_sprite(s, a ? c->b : c->a);
    cw_manifold m = c->manifold;
    if (a) // the normal goes from a to b: make it point back out of the target, toward the bullet
        m.normal = (cw_vec2){-m.normal.x, -m.normal.y};
    scene_keep_contact(s, &m);
    if (target != NULL)
        target->flash = FLASH_FRAMES;
    if (bullet != NULL)
        remove_sprite(s, bullet); // inside the callback: the world takes it out at the next step
    return true;
}

void shooter_set_unswept(scene *s, bool unswept)
{
    s->shooter.unswept = unswept;
    for (int i = 1; i < s->capacity; i++)
        if (!cw_body_id_is_null(s->sprites[i].id) && s->sprites[i].is_bullet)
            cw_body_set_swept(s->world, s->sprites[i].id, !unswept);
}
