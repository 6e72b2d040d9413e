// The simulation: a collworld world of sprites that move, spin and report their contacts.
// No SDL here: the scene only knows transforms, shapes and the world.
#ifndef DEMO_SCENE_H
#define DEMO_SCENE_H

#include "sprites.h"

typedef enum scene_kind { SCENE_DEFAULT, SCENE_INSPECT, SCENE_SHOOTER } scene_kind;

typedef struct sprite {
    cw_body_id id;      // null while the slot is free
    sprite_kind kind;
    cw_transform transform;
    cw_vec2 velocity;   // world units per second
    float spin;         // radians per second
    bool is_static, is_player;
    bool is_bullet, is_wall; // the shooter's: a bullet (a small box), a wall (a long thin box)
    bool off;                // switched off (cw_body_set_enabled): a pooled bullet, not drawn
    cw_vec2 size;            // bullets and walls: the box's size
    int touching;       // pairs it is part of, counted from begin and end events
    int flash;          // frames left of the flash a begin event starts
} sprite;

enum { FLASH_FRAMES = 8, CONTACT_FRAMES = 30 };

typedef struct contact_mark {
    cw_manifold manifold; // from the begin event
    int frames;           // frames left on screen
} contact_mark;

typedef struct scene {
    cw_world *world;
    scene_kind kind;
    const sprite_image *images;
    sprite *sprites;    // indexed by cw_body_id.index, so events find their sprite at once
    int capacity;
    int count;          // live sprites
    cw_body_id selected;
    cw_vec2 size;       // the playfield, in world units (pixels)
    bool boxes;         // bodies use their box instead of their mask
    uint64_t rng;
    contact_mark *contacts; // where recent begin events happened (for the contacts layer)
    int contact_count, contact_capacity;
    cw_body_id *move_ids;   // this frame's moves, made by one cw_world_set_transforms() call
    cw_transform *move_to;
    int move_capacity;
    struct shooter {        // the shooter scene
        bool unswept;       // bullets are plain bodies (press S): fast ones pass through things unseen
        float fire_timer, aim;
        long fired, hits, unseen; // unseen: bullets that went through something without a begin
        cw_body_id ship;
        int touching_ship;  // bodies touching the ship after the last step (cw_body_touching)
    } shooter;
} scene;

bool scene_init(scene *s, scene_kind kind, int count, uint64_t seed, cw_vec2 size, const sprite_image *images,
                int workers);
void scene_free(scene *s);

void scene_add_sprites(scene *s, int n);
void scene_remove_sprites(scene *s, int n); // the newest moving sprites first; players stay
void scene_advance(scene *s, float dt);     // moves everything, then steps the world
void scene_set_boxes(scene *s, bool boxes);

// The sprite of a live body, or NULL (also for a stale id).
sprite *scene_sprite(const scene *s, cw_body_id id);
// Moves, turns or scales a sprite (its body follows).
void scene_set_transform(scene *s, sprite *sp, const cw_transform *t);
// The body under world point p, players first, or the null id.
cw_body_id scene_pick(const scene *s, cw_vec2 p);

// The shooter scene (shooter.c): a ship firing fast swept bullets at asteroids and thin walls.
void shooter_init(scene *s);
void shooter_advance(scene *s, float dt);     // fires and moves the bullets (before the step)
void shooter_after_step(scene *s);            // counts what unswept bullets went through unseen
bool shooter_on_begin(scene *s, const cw_contact *c); // a bullet's hit: true if it was one
void shooter_set_unswept(scene *s, bool unswept);
enum { CAT_SHIP = 1, CAT_BULLET = 2, CAT_ROCK = 4, CAT_WALL = 8 };
enum { GROUP_SHIP = -1 }; // the ship and its bullets: never each other, whatever the categories

// Shared by scene.c and shooter.c: bodies with their sprite slot, placed about their centre.
sprite *scene_add_body(scene *s, sprite_kind kind, const cw_body_def *def);
cw_transform scene_centred(cw_vec2 position, float rotation, cw_vec2 scale);
float scene_random(scene *s, float lo, float hi);
void scene_keep_contact(scene *s, const cw_manifold *m); // for the contacts layer

// Helpers shared with drawing: a local point in the world, and exact point coverage.
cw_vec2 local_to_world(const cw_transform *t, cw_vec2 local);
bool shape_covers(const cw_shape *shape, const cw_transform *t, cw_vec2 p);

#endif
