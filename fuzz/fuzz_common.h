// Shared by the libFuzzer targets: a reader that turns the input bytes into values (zeros once the
// input runs out, so every input is a valid program) and float choices that favour hard values.
#ifndef CW_FUZZ_COMMON_H
#define CW_FUZZ_COMMON_H

#include <collworld.h>

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_reader {
    const uint8_t *data;
    size_t size, at;
} fz_reader;

static inline uint8_t fz_u8(fz_reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }

static inline uint16_t fz_u16(fz_reader *r) { return (uint16_t)(fz_u8(r) | (fz_u8(r) << 8)); }

static inline uint32_t fz_u32(fz_reader *r) { return (uint32_t)fz_u16(r) | ((uint32_t)fz_u16(r) << 16); }

static inline bool fz_done(const fz_reader *r) { return r->at >= r->size; }

static inline float fz_bits_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

// A float: mostly small values that make shapes meet, sometimes the special values and raw bits.
static inline float fz_float(fz_reader *r, float small_range)
{
    static const float specials[] = {
        0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1e-7f, -1e-7f, 1e-30f, 1e30f, -1e30f, FLT_MIN, -FLT_MIN,
        1.4e-45f /* smallest denormal */, FLT_MAX, -FLT_MAX, 1.5707964f /* float pi/2 */, 3.1415927f,
        4.712389f, 6.2831855f, 1e5f, 1e7f, 50000.5f, INFINITY, -INFINITY, NAN,
    };
    uint8_t mode = fz_u8(r);
    switch (mode % 8) {
    case 0: return specials[fz_u8(r) % (sizeof specials / sizeof specials[0])];
    case 1: return fz_bits_float(fz_u32(r));
    case 2: return (float)(int8_t)fz_u8(r); // small integers: texel-aligned cases
    case 3: return (float)(int16_t)fz_u16(r) / 256.0f * small_range / 128.0f;
    default: return ((float)fz_u16(r) / 65535.0f * 2.0f - 1.0f) * small_range;
    }
}

// A scale component: usually moderate (mirrored half the time), sometimes anything fz_float gives.
static inline float fz_scale(fz_reader *r)
{
    uint8_t mode = fz_u8(r);
    if (mode < 200) {
        float s = 0.25f + (float)(mode % 100) / 25.0f; // 0.25 .. 4.2
        return mode >= 100 ? -s : s;
    }
    return fz_float(r, 4.0f);
}

static inline cw_transform fz_transform(fz_reader *r, float range)
{
    cw_transform t;
    t.position.x = fz_float(r, range);
    t.position.y = fz_float(r, range);
    t.rotation = fz_float(r, 4.0f);
    t.scale.x = fz_scale(r);
    t.scale.y = fz_u8(r) < 128 ? t.scale.x : fz_scale(r);
    t.origin.x = fz_u8(r) < 192 ? 0.0f : fz_float(r, 8.0f);
    t.origin.y = fz_u8(r) < 192 ? 0.0f : fz_float(r, 8.0f);
    return t;
}

// Whether the header promises to accept the transform: every field finite, no zero scale.
static inline bool fz_transform_valid(const cw_transform *t)
{
    return isfinite(t->position.x) && isfinite(t->position.y) && isfinite(t->rotation) &&
           isfinite(t->scale.x) && isfinite(t->scale.y) && isfinite(t->origin.x) && isfinite(t->origin.y) &&
           t->scale.x != 0.0f && t->scale.y != 0.0f;
}

// A small alpha mask (1..16 texels a side) from the input bytes; pixels are opaque with some
// probability picked by the input. The caller destroys it.
static inline cw_mask *fz_small_mask(fz_reader *r)
{
    int w = 1 + fz_u8(r) % 16, h = 1 + fz_u8(r) % 16;
    uint8_t density = fz_u8(r);
    uint8_t alpha[16 * 16];
    for (int i = 0; i < w * h; i++) {
        uint8_t bits = (i % 8 == 0) ? fz_u8(r) : 0;
        alpha[i] = density < 64 ? (uint8_t)((bits >> (i % 8)) & 1 ? 255 : 0)
                   : density < 128 ? 255
                   : density < 192 ? (uint8_t)((i * 7 + density) % 3 ? 255 : 0)
                                   : (uint8_t)(((i % w) + (i / w)) % 2 ? 255 : 0);
        if (density < 64 && i % 8 != 0)
            alpha[i] = alpha[i - 1] ^ (uint8_t)(r->at & 1 ? 255 : 0);
    }
    return cw_mask_from_alpha(alpha, w, h, w, 128);
}

static inline void fz_print_transform(const char *name, const cw_transform *t)
{
    fprintf(stderr, "  %s: position (%a, %a) rotation %a scale (%a, %a) origin (%a, %a)\n", name, t->position.x,
            t->position.y, t->rotation, t->scale.x, t->scale.y, t->origin.x, t->origin.y);
}

static inline void fz_print_shape(const char *name, const cw_shape *s)
{
    fprintf(stderr, "  %s: type %d size (%a, %a)", name, (int)s->type, s->size.x, s->size.y);
    if (s->type == CW_SHAPE_MASK && s->mask != NULL) {
        int w = cw_mask_width(s->mask), h = cw_mask_height(s->mask);
        fprintf(stderr, " mask %dx%d:\n", w, h);
        for (int y = 0; y < h && y < 16; y++) {
            fprintf(stderr, "    ");
            for (int x = 0; x < w && x < 16; x++)
                fputc(cw_mask_get(s->mask, x, y) ? '#' : '.', stderr);
            fputc('\n', stderr);
        }
    } else {
        fputc('\n', stderr);
    }
}

// Set by a target to print what it was doing when an invariant fails (defined below, in the
// target's main file).
extern void (*fz_context_printer)(void);

// Fails the run the way libFuzzer records: print and abort (an artifact is written).
#define FZ_CHECK(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (fz_context_printer)                                                                \
                fz_context_printer();                                                              \
            fprintf(stderr, "invariant violated: %s (%s:%d)\n  ", #cond, __FILE__, __LINE__);      \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)


// Sizes and scales within [1e-6, 1e6] and positions and origins below 1e7: where the header
// specifies manifolds (see cw_manifold).
static inline bool fz_moderate_value(float v, float lo, float hi) { return v == 0 || (fabsf(v) >= lo && fabsf(v) <= hi); }
static inline bool fz_moderate(const cw_shape *s, const cw_transform *t)
{
    bool size = s->type != CW_SHAPE_BOX ||
                (fz_moderate_value(s->size.x, 1e-6f, 1e6f) && fz_moderate_value(s->size.y, 1e-6f, 1e6f));
    return size && fz_moderate_value(t->scale.x, 1e-6f, 1e6f) && fz_moderate_value(t->scale.y, 1e-6f, 1e6f) &&
           fz_moderate_value(t->position.x, 0, 1e7f) && fz_moderate_value(t->position.y, 0, 1e7f) &&
           fz_moderate_value(t->origin.x, 0, 1e7f) && fz_moderate_value(t->origin.y, 0, 1e7f);
}

// FUZZ_VERBOSE=1: a target prints each case before checking it (sanitizer reports abort without
// context). libFuzzer calls the initializer once, before the first input.
extern bool fz_verbose;

// A target of more than one file defines FZ_EXTRA_FILE before including this in all but its main
// file, which alone holds the definitions below.
#ifndef FZ_EXTRA_FILE
void (*fz_context_printer)(void);
bool fz_verbose;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_verbose = getenv("FUZZ_VERBOSE") != NULL;
    return 0;
}
#endif

#endif
