/// @file rng.h
/// Small deterministic PRNG for the benchmark (splitmix64). Fixed seeds make every run use the same
/// sprites and pair lists.
#ifndef BENCH_RNG_H
#define BENCH_RNG_H

#include <stdint.h>

typedef struct bench_rng {
    uint64_t state;
} bench_rng;

static inline bench_rng bench_rng_make(uint64_t seed) {
    bench_rng r;
    r.state = seed;
    return r;
}

static inline uint64_t bench_rng_next(bench_rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// Uniform double in [0, 1).
static inline double bench_rng_unit(bench_rng *r) {
    return (double)(bench_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/// Uniform double in [lo, hi).
static inline double bench_rng_range(bench_rng *r, double lo, double hi) {
    return lo + (hi - lo) * bench_rng_unit(r);
}

/// Uniform integer in [lo, hi] (inclusive).
static inline int bench_rng_int(bench_rng *r, int lo, int hi) {
    return lo + (int)(bench_rng_next(r) % (uint64_t)(hi - lo + 1));
}

#endif
