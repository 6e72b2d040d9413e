// The shooter scene: a ship in the middle turns and fires 4x4 bullets at 2,400 px/s (40 px a
// frame) at drifting asteroids and at walls 6 px thick. The bullets are swept bodies: every hit
// is a begin event at the moment of first touch, flashed with its point and normal, and the
// bullet is removed inside the callback. Press S to make them plain bodies: then a bullet that
// jumps over a wall between two frames is never reported, and the HUD counts those, found with a
// shape cast along each bullet's last move (cw_world_cast_shape_closest).
//
// The ship and its bullets share a negative collision group, so they never touch whatever their
// categories say, and the bullets come from a pool made once: firing switches one on where the
// gun is (enabling never sweeps from where it was switched off), a hit or leaving the screen
// switches it off again. The HUD's "touching the ship" asks the world (cw_body_touching) rather
// than keeping count of begins and ends.
#include "scene.h"

#include <math.h>

enum { MAX_BULLETS = 400 };
static const float BULLET_SPEED = 2400, FIRE_INTERVAL = 1 / 30.0f, BULLET_SIZE = 4;

static bool is_bullet(const scene *s, cw_body_id id)
{
    const sprite *sp = scene_sprite(s, id);
    return sp != NULL && sp->is_bullet;
}

// Back to the pool: the body keeps its id, out of the grid, of queries and of contacts.
static void pool_bullet(scene *s, sprite *sp)
{
    cw_body_set_enabled(s->world, sp->id, false);
    sp->off = true;
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
    ship.category = CAT_SHIP, ship.group = GROUP_SHIP; // collides with everything but its own bullets
    sprite *sp = scene_add_body(s, KIND_STAR, &ship);
    if (sp != NULL)
        sp->is_player = true, s->selected = s->shooter.ship = sp->id;
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
    // The bullet pool: every bullet made once, switched off until fired.
    for (int k = 0; k < MAX_BULLETS; k++) {
        cw_body_def def = cw_default_body_def();
        def.shape = cw_shape_box(BULLET_SIZE, BULLET_SIZE);
        def.transform = cw_default_transform();
        def.transform.position = mid;
        def.transform.origin = (cw_vec2){BULLET_SIZE / 2, BULLET_SIZE / 2};
        def.category = CAT_BULLET, def.group = GROUP_SHIP; // hits everything but the ship and each other
        def.swept = !s->shooter.unswept;
        sprite *bullet = scene_add_body(s, KIND_BLOB, &def);
        if (bullet == NULL)
            break;
        bullet->is_bullet = true, bullet->size = (cw_vec2){BULLET_SIZE, BULLET_SIZE};
        pool_bullet(s, bullet);
    }
}

static sprite *pooled_bullet(scene *s)
{
    for (int i = 1; i < s->capacity; i++)
        if (!cw_body_id_is_null(s->sprites[i].id) && s->sprites[i].is_bullet && s->sprites[i].off)
            return &s->sprites[i];
    return NULL;
}

// A bullet from the pool, placed at the gun (where it is switched off: no motion) and switched on.
static void fire(scene *s, const sprite *ship)
{
    sprite *sp = pooled_bullet(s);
    if (sp == NULL)
        return;
    cw_vec2 d = {cosf(s->shooter.aim), sinf(s->shooter.aim)};
    float reach = 10; // inside the ship's sprite: the group keeps them apart
    cw_transform t = sp->transform;
    t.position = (cw_vec2){ship->transform.position.x + reach * d.x, ship->transform.position.y + reach * d.y};
    t.rotation = s->shooter.aim;
    scene_set_transform(s, sp, &t);
    cw_body_set_enabled(s->world, sp->id, true);
    sp->off = false;
    sp->velocity = (cw_vec2){BULLET_SPEED * d.x, BULLET_SPEED * d.y};
    s->shooter.fired++;
}

void shooter_advance(scene *s, float dt)
{
    sprite *ship = scene_sprite(s, s->shooter.ship);
    s->shooter.aim = remainderf(s->shooter.aim + 0.9f * dt, 6.2831853f);
    if (ship != NULL) {
        cw_transform t = ship->transform;
        t.rotation = s->shooter.aim;
        scene_set_transform(s, ship, &t);
    }
    s->shooter.fire_timer -= dt;
    if (ship != NULL && s->shooter.fire_timer <= 0) {
        fire(s, ship);
        s->shooter.fire_timer = FIRE_INTERVAL;
    }
    for (int i = 1; i < s->capacity; i++) {
        sprite *sp = &s->sprites[i];
        if (cw_body_id_is_null(sp->id) || !sp->is_bullet || sp->off)
            continue;
        cw_transform t = sp->transform;
        t.position.x += sp->velocity.x * dt, t.position.y += sp->velocity.y * dt;
        if (t.position.x < -50 || t.position.y < -50 || t.position.x > s->size.x + 50 || t.position.y > s->size.y + 50)
            pool_bullet(s, sp);
        else
            scene_set_transform(s, sp, &t);
    }
}

// What touches the ship now, asked of the world. Then unswept bullets still flying after the step:
// a shape cast along the move they just made says whether they went through something the step
// never reported.
void shooter_after_step(scene *s)
{
    int touching = cw_body_touching(s->world, s->shooter.ship, NULL, 0);
    s->shooter.touching_ship = touching > 0 ? touching : 0;
    if (!s->shooter.unswept)
        return;
    cw_shape bullet = cw_shape_box(BULLET_SIZE, BULLET_SIZE);
    cw_query_filter solid = {CAT_BULLET, CAT_ROCK | CAT_WALL};
    for (int i = 1; i < s->capacity; i++) {
        sprite *sp = &s->sprites[i];
        if (cw_body_id_is_null(sp->id) || !sp->is_bullet || sp->off)
            continue;
        cw_transform from = sp->transform;
        cw_vec2 move = {sp->velocity.x / 60.0f, sp->velocity.y / 60.0f};
        from.position.x -= move.x, from.position.y -= move.y;
        cw_ray_hit hit;
        if (cw_world_cast_shape_closest(s->world, &bullet, &from, move, solid, &hit)) {
            s->shooter.unseen++;
            pool_bullet(s, sp); // counted once
        }
    }
}

// A bullet's begin: where and how it first touched (the contact at its first touch), then it goes.
bool shooter_on_begin(scene *s, const cw_contact *c)
{
    bool a = is_bullet(s, c->a), b = is_bullet(s, c->b);
    if (!a && !b)
        return false;
    sprite *bullet = scene_sprite(s, a ? c->a : c->b), *target = scene_sprite(s, a ? c->b : c->a);
    if (bullet != NULL && bullet->off)
        return true; // it hit something else first in this step, and is back in the pool
    s->shooter.hits++;
    cw_manifold m = c->manifold;
    if (a) // the normal goes from a to b: make it point back out of the target, toward the bullet
        m.normal = (cw_vec2){-m.normal.x, -m.normal.y};
    scene_keep_contact(s, &m);
    if (target != NULL)
        target->flash = FLASH_FRAMES;
    if (bullet != NULL)
        pool_bullet(s, bullet); // inside the callback: its contacts end at the next step
    return true;
}

void shooter_set_unswept(scene *s, bool unswept)
{
    s->shooter.unswept = unswept;
    for (int i = 1; i < s->capacity; i++)
        if (!cw_body_id_is_null(s->sprites[i].id) && s->sprites[i].is_bullet)
            cw_body_set_swept(s->world, s->sprites[i].id, !unswept);
}
