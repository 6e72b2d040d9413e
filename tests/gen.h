// Seeded random generators for the tests: a local PRNG (splitmix64, never rand()), sprite patterns,
// shapes, transforms and whole random cases that can be printed and reproduced from their seed.
#ifndef CW_TEST_GEN_H
#define CW_TEST_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <collworld.h>

#include "reference.h"

#define GEN_PI 3.14159265358979323846

typedef struct gen_rng {
    uint64_t state;
} gen_rng;

gen_rng gen_seed(uint64_t seed);
uint64_t gen_next(gen_rng *r);
double gen_unit(gen_rng *r);                       ///< uniform in [0, 1)
double gen_range(gen_rng *r, double lo, double hi); ///< uniform in [lo, hi)
int gen_int(gen_rng *r, int lo, int hi);           ///< uniform in [lo, hi], inclusive
bool gen_chance(gen_rng *r, double p);

/// CW_TEST_SCALE (integer >= 1, default 1).
int gen_test_scale(void);
/// `count` divided by CW_TEST_SCALE, at least 1.
int gen_scaled(int count);
/// CW_TEST_ONLY=<seed> (decimal or 0x hex): run only the random case with that seed, verbosely.
bool gen_only_seed(uint64_t *seed);

/// Sprite patterns.
typedef enum gen_pattern {
    GEN_EMPTY,
    GEN_FILLED,
    GEN_NOISE,
    GEN_DISC,
    GEN_RING,
    GEN_HLINES,
    GEN_VLINES,
    GEN_COMB,
    GEN_CHECKER,
    GEN_DIAGONAL,
    GEN_FRAME,
    GEN_PATTERN_COUNT
} gen_pattern;

const char *gen_pattern_name(gen_pattern p);

/// Fills `solid` (w * h, row-major) with pattern `p`; everything random comes from `seed`.
void gen_pattern_fill(unsigned char *solid, int w, int h, gen_pattern p, double density, uint64_t seed);

/// Builds a mask from `solid` with cw_mask_from_alpha (threshold 128, random alpha on either side
/// of it, random padding in a pitch wider than the row). NULL if the library fails.
cw_mask *gen_make_mask(const unsigned char *solid, int w, int h, uint64_t seed);

/// A random shape, with what is needed to rebuild and print it.
typedef struct gen_shape {
    bool is_box;
    float box_w, box_h;     ///< boxes
    int w, h;               ///< masks
    gen_pattern pattern;    ///< masks
    double density;         ///< masks, GEN_NOISE
    uint64_t pattern_seed;  ///< masks
    unsigned char *solid;   ///< masks: w * h
    cw_mask *mask;          ///< masks: built by the library
    cw_shape shape;         ///< the library's shape
    ref_shape ref;          ///< the reference's view of it
} gen_shape;

void gen_box_shape(gen_shape *s, float w, float h);
/// Takes ownership of `solid` (malloc'd). Returns false if the library failed to build the mask.
bool gen_mask_shape(gen_shape *s, unsigned char *solid, int w, int h, gen_pattern p, double density, uint64_t seed);
void gen_random_box(gen_rng *r, gen_shape *s);

// Adds `count` boxes to a world: sides in [min_side, max_side), positions in [0, extent) on both
// axes, rotations in [0, max_rotation) (cmocka-asserts every body is made).
void gen_add_boxes(cw_world *world, gen_rng *r, int count, double min_side, double max_side, double extent,
                   double max_rotation);
bool gen_random_mask(gen_rng *r, gen_shape *s);
/// A random box if `box`, else a random mask; false if the library failed to build the mask.
bool gen_random_shape(gen_rng *r, gen_shape *s, bool box);
void gen_shape_free(gen_shape *s);

/// Random rotation, scale (0.3-3 per axis, sometimes negative), origin; position left at 0.
void gen_random_transform(gen_rng *r, const gen_shape *s, cw_transform *t);

/// Places A (near the world origin or, if `far`, near (50000, -30000)) and then B so that their
/// world AABBs overlap in most cases.
void gen_place_pair(gen_rng *r, const gen_shape *a, cw_transform *ta, const gen_shape *b, cw_transform *tb, bool far);

/// Random streams: the top bits of a case seed. Cases of GEN_STREAM_CONTACT are moved into near
/// contact after placement (see gen_case_make).
enum { GEN_STREAM_OVERLAP = 1, GEN_STREAM_MANIFOLD = 2, GEN_STREAM_CONTACT = 3, GEN_STREAM_MIRROR = 4 };

/// Kinds of random case.
typedef enum gen_kind { GEN_BOX_BOX, GEN_BOX_MASK, GEN_MASK_BOX, GEN_MASK_MASK } gen_kind;

/// A whole random case; everything follows from `seed`.
typedef struct gen_case {
    uint64_t seed;
    gen_kind kind;
    bool far;
    double contact_offset; ///< GEN_STREAM_CONTACT: signed distance from contact along contact_dir
    double contact_dir[2];
    gen_shape a, b;
    cw_transform ta, tb;
} gen_case;

/// Seed of case `index` of random stream `stream` (so every test has its own seeds).
uint64_t gen_case_seed(unsigned stream, gen_kind kind, uint32_t index);
/// Builds the case for `seed`. Returns false if the library failed to build a mask. For
/// GEN_STREAM_CONTACT seeds, B is then slid along a random direction to where the reference says the
/// two shapes first touch (bisection) and moved 0.003 to 0.03 world units into or out of contact.
bool gen_case_make(gen_case *c, uint64_t seed);
void gen_case_free(gen_case *c);

void gen_print_transform(FILE *f, const char *name, const cw_transform *t);
void gen_print_shape(FILE *f, const char *name, const gen_shape *s);
void gen_case_print(FILE *f, const gen_case *c);

/// Whether `haystack` contains `needle`, ignoring ASCII case.
bool gen_contains_nocase(const char *haystack, const char *needle);

#endif
