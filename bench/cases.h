/// @file cases.h
/// Sprites generated in code and the four fixed, seeded lists of pairs the benchmark times.
#ifndef BENCH_CASES_H
#define BENCH_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "bitmask_peer.h"
#include "collworld.h"
#include "textbook.h"

/// Every sprite is SPRITE_SIZE x SPRITE_SIZE RGBA, opaque iff alpha >= SPRITE_THRESHOLD.
#define SPRITE_SIZE 64
#define SPRITE_THRESHOLD 128

/// Disc radius, ring radii (texel centres within them are opaque), in texels.
#define DISC_RADIUS 30.0
#define RING_OUTER 31.0
#define RING_INNER 21.0
/// Case 3: largest distance between the disc's centre and the ring's centre, in world units.
#define CASE3_MAX_OFFSET 2.0

typedef enum sprite_id {
    SPRITE_DISC,
    SPRITE_RING,
    SPRITE_PLUS,
    SPRITE_F,
    SPRITE_NOISE,
    SPRITE_COMB,
    SPRITE_COUNT
} sprite_id;

/// One sprite in both representations, built from the same RGBA pixels.
typedef struct sprite {
    const char *name;
    uint8_t *rgba;     ///< SPRITE_SIZE * SPRITE_SIZE * 4 bytes.
    cw_mask *mask;     ///< collworld mask.
    cw_shape shape;    ///< collworld shape over `mask`.
    tb_mask tbmask;    ///< textbook byte mask.
    bp_mask bpmask[2]; ///< pygame-style bitmask, as is and mirrored in x.
} sprite;

/// One pair to test: shape a under ta against shape b under tb.
typedef struct bench_pair {
    sprite_id a;
    sprite_id b;
    cw_transform ta;
    cw_transform tb;
} bench_pair;

/// A case: a fixed list of pairs.
typedef struct bench_case {
    int number;          ///< 1..CASE_COUNT
    const char *name;    ///< Short description for the table.
    const char *target;  ///< Speed-up target, e.g. ">= 50x".
    double target_ratio; ///< Same target as a number.
    bench_pair *pairs;
    int count;
} bench_case;

/// Builds every sprite (RGBA pixels, collworld mask, textbook mask, pygame-style bitmasks). Returns
/// false on failure.
bool sprites_build(sprite sprites[SPRITE_COUNT]);

/// Frees what sprites_build() made.
void sprites_free(sprite sprites[SPRITE_COUNT]);

/// The cases: 1-4 with the targets, 5 (made as case 2, B mirrored in x: one sprite facing
/// each way) without one.
#define CASE_COUNT 5

/// Builds case `number` (1..CASE_COUNT) with `count` pairs from a fixed seed. Returns false on failure.
bool case_build(bench_case *c, int number, int count);

/// Frees the pair list of a case.
void case_free(bench_case *c);

#endif
