/// @file world_scene.h
/// The "sprites scene" of the world benchmark (bench_world.c): N bodies in an 8192 x 8192 world,
/// boxes 8-64 units a side or 32x32 sprites scaled to that, each moving by a fixed random velocity
/// in [-2, 2] per axis per frame (bouncing at the edges) and spinning by a fixed random amount in
/// [-0.05, 0.05] rad per frame. Everything comes from a fixed seed, so two runs of the same scene
/// (collworld and the yardstick) see exactly the same transforms frame after frame.
#ifndef BENCH_WORLD_SCENE_H
#define BENCH_WORLD_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "collworld.h"
#include "textbook.h"

/// Side of the square world, in world units.
#define WS_WORLD_SIZE 8192.0f
/// Smallest and largest box side / scaled sprite side, in world units.
#define WS_MIN_SIZE 8.0
#define WS_MAX_SIZE 64.0
/// Largest speed per axis (units per frame) and spin (rad per frame).
#define WS_MAX_SPEED 2.0
#define WS_MAX_SPIN 0.05
/// The sprites are WS_SPRITE_SIZE x WS_SPRITE_SIZE RGBA, opaque iff alpha >= WS_SPRITE_THRESHOLD.
#define WS_SPRITE_SIZE 32
#define WS_SPRITE_THRESHOLD 128

typedef enum ws_kind {
    WS_BOXES,
    WS_MASKS,
} ws_kind;

typedef enum ws_sprite_id {
    WS_DISC,
    WS_RING,
    WS_PLUS,
    WS_F,
    WS_DIAMOND,
    WS_DITHER,
    WS_SPRITE_COUNT
} ws_sprite_id;

/// One 32x32 sprite in both representations, built from the same RGBA pixels.
typedef struct ws_sprite {
    const char *name;
    cw_mask *mask;   ///< collworld mask.
    tb_mask tbmask;  ///< textbook byte mask.
    int opaque;      ///< Opaque texels.
} ws_sprite;

/// Builds every sprite. Masks go through the allocator installed at the time. False on failure.
bool ws_sprites_build(ws_sprite sprites[WS_SPRITE_COUNT]);

/// Frees what ws_sprites_build() made.
void ws_sprites_free(ws_sprite sprites[WS_SPRITE_COUNT]);

/// A scene: per-body shape and motion, and the current transforms.
typedef struct ws_scene {
    ws_kind kind;
    int n;              ///< Bodies.
    uint64_t seed;
    int frame;          ///< Frames advanced since ws_scene_reset() (0 = initial state).
    cw_shape *shape;    ///< Per body: a box, or a mask shape over one of the sprites.
    uint8_t *sprite;    ///< Masks: which sprite (ws_sprite_id); boxes: unused.
    cw_transform *xf;   ///< Current transforms (origin at the shape's centre).
    cw_vec2 *vel;       ///< Units per frame.
    float *spin;        ///< Rad per frame.
    const ws_sprite *sprites; ///< Masks: the sprites the shapes borrow.
    float size;         ///< Side of the square world: WS_WORLD_SIZE unless ws_scene_set_size() changed it.
} ws_scene;

/// Allocates a scene of `n` bodies (with malloc, not through collworld) and puts it in its initial
/// state. `sprites` is needed for masks only. False if memory runs out.
bool ws_scene_init(ws_scene *s, ws_kind kind, int n, uint64_t seed, const ws_sprite *sprites);

/// Makes the world `size` units a side (the same bodies spread over it: the density changes) and
/// puts the scene back in its initial state.
void ws_scene_set_size(ws_scene *s, float size);

/// Puts the scene back in its initial state (frame 0): same seed, same bodies, same motion.
void ws_scene_reset(ws_scene *s);

/// Advances every body by one frame: position += velocity (reflected at the world's edges),
/// rotation += spin (kept in [-pi, pi]).
void ws_scene_advance(ws_scene *s);

/// Frees the scene's arrays.
void ws_scene_free(ws_scene *s);

#endif
