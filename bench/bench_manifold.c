/// @file bench_manifold.c
/// What a manifold costs: cw_overlap() with and without one on the world benchmark's 32x32 sprites
/// (discs, rings, pluses, letters, diamonds, dither), rotated and scaled 0.75-1.5, in two lists of
/// 2,000 overlapping pairs: pairs that just touch (the sprite slid out along a random direction to
/// where it stops overlapping, then back in by up to 1.5 units: what begin events see), and pairs
/// overlapping anywhere (centres up to 1.3 sprite sizes apart: what stays see). Medians of 7 runs.
///
/// Usage: bench_manifold [--quick]
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collworld.h"
#include "rng.h"
#include "world_scene.h"

#define PAIRS 2000
#define RUNS 7

typedef struct pair {
    cw_shape a, b;
    cw_transform ta, tb;
} pair;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static cw_transform placed(bench_rng *r, cw_vec2 at)
{
    cw_transform t = cw_default_transform();
    float s = (float)bench_rng_range(r, 0.75, 1.5);
    t.position = at, t.rotation = (float)bench_rng_range(r, -3.14159, 3.14159), t.scale = (cw_vec2){s, s};
    t.origin = (cw_vec2){WS_SPRITE_SIZE / 2.0f, WS_SPRITE_SIZE / 2.0f};
    return t;
}

static cw_transform along(const cw_transform *t, double angle, double distance)
{
    cw_transform m = *t;
    m.position = (cw_vec2){(float)(distance * cos(angle)), (float)(distance * sin(angle))};
    return m;
}

// PAIRS overlapping pairs; `shallow`: just touching.
static void make_pairs(const ws_sprite *sprites, bool shallow, pair *out)
{
    bench_rng r = bench_rng_make(shallow ? 0x5a11u : 0xdee9u);
    for (int n = 0; n < PAIRS;) {
        pair p;
        p.a = cw_shape_mask(sprites[bench_rng_int(&r, 0, WS_SPRITE_COUNT - 1)].mask);
        p.b = cw_shape_mask(sprites[bench_rng_int(&r, 0, WS_SPRITE_COUNT - 1)].mask);
        p.ta = placed(&r, (cw_vec2){0, 0});
        double angle = bench_rng_range(&r, 0, 6.283185307179586);
        cw_transform tb = placed(&r, (cw_vec2){0, 0});
        p.tb = along(&tb, angle, bench_rng_range(&r, 0, 1.3 * WS_SPRITE_SIZE));
        if (!cw_overlap(&p.a, &p.ta, &p.b, &p.tb, NULL))
            continue;
        if (shallow) { // out along the direction until apart (bisection), then back in a little
            double lo = 0, hi = 3.0 * WS_SPRITE_SIZE;
            for (int k = 0; k < 40; k++) {
                double mid = 0.5 * (lo + hi);
                cw_transform t = along(&p.tb, angle, mid);
                if (cw_overlap(&p.a, &p.ta, &p.b, &t, NULL))
                    lo = mid;
                else
                    hi = mid;
            }
            p.tb = along(&p.tb, angle, hi - bench_rng_range(&r, 0, 1.5));
            if (!cw_overlap(&p.a, &p.ta, &p.b, &p.tb, NULL))
                continue;
        }
        out[n++] = p;
    }
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

// Median ns per call over RUNS passes of the list.
static double time_list(const pair *pairs, int n, bool with, int runs)
{
    double t[RUNS], sink = 0;
    for (int run = 0; run < runs; run++) {
        double start = now_seconds();
        for (int i = 0; i < n; i++) {
            cw_manifold m;
            sink += cw_overlap(&pairs[i].a, &pairs[i].ta, &pairs[i].b, &pairs[i].tb, with ? &m : NULL) ? 1 : 0;
        }
        t[run] = (now_seconds() - start) / n * 1e9;
    }
    qsort(t, (size_t)runs, sizeof *t, by_value);
    return sink >= 0 ? t[runs / 2] : 0;
}

// The worst case for a manifold: two giant checkerboards (every texel its own run) overlapping
// by half a texel, where no texel centre lands in the overlap and the overlap's pieces must be
// swept. The sweep stops at its work budget (narrow/internal.h: CW__PIECES_WORK). Also the plain
// test when they are apart (a full sweep, its worst case).
static void giant_checkerboards(int n)
{
    unsigned char *alpha = malloc((size_t)n * (size_t)n);
    if (alpha == NULL)
        return;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            alpha[(size_t)y * (size_t)n + (size_t)x] = (x + y) % 2 ? 255 : 0;
    cw_mask *mask = cw_mask_from_alpha(alpha, n, n, n, 128);
    free(alpha);
    if (mask == NULL)
        return;
    cw_shape shape = cw_shape_mask(mask);
    cw_transform ta = cw_default_transform(), tb = cw_default_transform(), apart = cw_default_transform();
    tb.position = (cw_vec2){0.5f, 0.25f};
    apart.position = (cw_vec2){1, 0}; // every texel beside one of the other's: touching edges only
    cw_manifold m;
    double t0 = now_seconds();
    bool hit = cw_overlap(&shape, &ta, &shape, &tb, &m);
    double t1 = now_seconds();
    bool plain = cw_overlap(&shape, &ta, &shape, &tb, NULL);
    double t2 = now_seconds();
    bool apart_hit = cw_overlap(&shape, &ta, &shape, &apart, NULL);
    double t3 = now_seconds();
    printf("| %d x %d checkerboards, half a texel apart | %.1f ms (%s) | %.3f ms (%s) | apart: %.1f ms (%s) |\n", n, n,
           (t1 - t0) * 1e3, hit ? "overlap" : "none", (t2 - t1) * 1e3, plain ? "overlap" : "none", (t3 - t2) * 1e3,
           apart_hit ? "overlap" : "none");
    cw_mask_destroy(mask);
}

int main(int argc, char **argv)
{
    int runs = argc > 1 && strcmp(argv[1], "--quick") == 0 ? 1 : RUNS;
    static ws_sprite sprites[WS_SPRITE_COUNT];
    if (!ws_sprites_build(sprites))
        return 1;
    static pair shallow[PAIRS], deep[PAIRS];
    make_pairs(sprites, true, shallow);
    make_pairs(sprites, false, deep);
    printf("bench_manifold: cw_overlap on 32x32 sprites, %d overlapping pairs per list, median of %d runs\n\n", PAIRS,
           runs);
    printf("| pairs | with a manifold, ns/pair | plain, ns/pair | ratio |\n|---|---:|---:|---:|\n");
    const pair *lists[2] = {shallow, deep};
    static const char *const names[2] = {"just touching (begins)", "overlapping anywhere (stays)"};
    for (int k = 0; k < 2; k++) {
        double with = time_list(lists[k], PAIRS, true, runs), plain = time_list(lists[k], PAIRS, false, runs);
        printf("| %s | %.0f | %.0f | %.0fx |\n", names[k], with, plain, with / plain);
    }
    printf("\n| giant masks | with a manifold | plain | plain, a full sweep |\n|---|---:|---:|---:|\n");
    giant_checkerboards(runs == 1 ? 2048 : 16384);
    ws_sprites_free(sprites);
    return 0;
}
