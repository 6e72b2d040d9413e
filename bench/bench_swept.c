/// @file bench_swept.c
/// Contacts over motion: the "bullets" scene. 10,000 rotating asteroid sprites (the world
/// benchmark's 32x32 masks, scaled to 8-64 units, moving up to 2 units a frame) and 1,000 bullets
/// (3x3 masks) flying at 30-60 units a frame, wrapping at the world's edges (a teleport, so the wrap
/// does not sweep across the world). Per frame every body is set and the world stepped, with
/// counting callbacks and manifolds off (as in bench_world's headline).
///
/// Three ways round, each on the same frames, in one process:
///   - swept: the bullets are swept bodies, so no hit is missed;
///   - unswept: the same world with the bullets unswept (what sweeping costs);
///   - sub-stepped: unswept, every body set and the world stepped 8 times per frame at interpolated
///     positions (the usual fallback), and the hits it still misses, counted against the swept
///     world's (a hit: a bullet-asteroid pair not touching after the last frame that touched at some
///     time in this one, that is a begin; for the sub-stepped world, a begin in any of the substeps).
/// Then cw_shape_cast() on bullet-asteroid pairs and cw_world_cast_shape_closest() through the
/// world, per call. Timings are medians over frames of the median of REPEATS runs made afresh.
///
/// Usage: bench_swept [--quick] [--frames K] [--only M]
///   --only M   time only mode M (0 swept, 1 unswept, 2 sub-stepped), once (for callgrind)
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "collworld.h"
#include "rng.h"
#include "world_scene.h"

#define ASTEROIDS 10000
#define BULLETS 1000
#define SUBSTEPS 8
#define REPEATS 3
#define WARMUP 5
#define FRAMES 30
#define SEED 2025u

typedef struct bullets {
    cw_vec2 pos[BULLETS], vel[BULLETS];
    bool wrapped[BULLETS]; ///< wrapped at an edge in the last advance (moved without motion)
} bullets;

static void bullets_reset(bullets *b)
{
    bench_rng r = bench_rng_make(SEED ^ 0xb011e7);
    for (int i = 0; i < BULLETS; i++) {
        b->pos[i] = (cw_vec2){(float)bench_rng_range(&r, 0, WS_WORLD_SIZE), (float)bench_rng_range(&r, 0, WS_WORLD_SIZE)};
        double speed = bench_rng_range(&r, 30, 60), angle = bench_rng_range(&r, 0, 6.283185307179586);
        b->vel[i] = (cw_vec2){(float)(speed * cos(angle)), (float)(speed * sin(angle))};
        b->wrapped[i] = false;
    }
}

static float wrap(float x, bool *wrapped)
{
    if (x < 0 || x >= WS_WORLD_SIZE) {
        *wrapped = true;
        return x < 0 ? x + WS_WORLD_SIZE : x - WS_WORLD_SIZE;
    }
    return x;
}

static void bullets_advance(bullets *b)
{
    for (int i = 0; i < BULLETS; i++) {
        b->wrapped[i] = false;
        b->pos[i].x = wrap(b->pos[i].x + b->vel[i].x, &b->wrapped[i]);
        b->pos[i].y = wrap(b->pos[i].y + b->vel[i].y, &b->wrapped[i]);
    }
}

// --- a world of the scene, and the bullet contacts each frame ---

#define PAIR_SET 65536 // open addressing over (bullet, asteroid) keys, cleared each frame

typedef struct run {
    cw_world *world;
    cw_body_id asteroid[ASTEROIDS], bullet[BULLETS];
    uint64_t seen[PAIR_SET]; // bullet contacts this frame (0 = empty)
    int seen_count;
    long events;
} run;

static uint64_t pair_of(const cw_contact *c)
{
    uintptr_t a = (uintptr_t)c->user_a, b = (uintptr_t)c->user_b; // 1 + body number; bullets above ASTEROIDS
    if (a < b) {
        uintptr_t t = a;
        a = b, b = t;
    }
    return a > ASTEROIDS && b <= ASTEROIDS ? ((uint64_t)a << 32) | b : 0;
}

static void note(run *r, const cw_contact *c)
{
    r->events++;
    uint64_t key = pair_of(c);
    if (key == 0)
        return;
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 48) & (PAIR_SET - 1);
    while (r->seen[i] != 0 && r->seen[i] != key)
        i = (i + 1) & (PAIR_SET - 1);
    if (r->seen[i] == 0 && r->seen_count < PAIR_SET / 2)
        r->seen[i] = key, r->seen_count++;
}

static bool has_seen(const run *r, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 48) & (PAIR_SET - 1);
    while (r->seen[i] != 0 && r->seen[i] != key)
        i = (i + 1) & (PAIR_SET - 1);
    return r->seen[i] == key;
}

// Hits are begins: a bullet-asteroid pair that was not touching after the last frame (or substep)
// and touched in this one.
static void on_contact(const cw_contact *c, void *context) { note(context, c); }
static void on_stay_count(const cw_contact *c, void *context) { ((run *)context)->events++, (void)c; }

static bool run_open(run *r, const ws_scene *scene, const bullets *b, const cw_mask *bullet_mask, bool swept)
{
    memset(r, 0, sizeof *r);
    cw_world_def def = cw_default_world_def();
    def.on_begin = on_contact, def.on_stay = on_stay_count, def.on_end = NULL, def.context = r;
    def.manifolds = false;
    r->world = cw_world_create(&def);
    if (r->world == NULL)
        return false;
    for (int i = 0; i < ASTEROIDS; i++) {
        cw_body_def bd = cw_default_body_def();
        bd.shape = scene->shape[i], bd.transform = scene->xf[i], bd.user_data = (void *)(uintptr_t)(i + 1);
        r->asteroid[i] = cw_body_create(r->world, &bd);
    }
    for (int i = 0; i < BULLETS; i++) {
        cw_body_def bd = cw_default_body_def();
        bd.shape = cw_shape_mask(bullet_mask), bd.transform = cw_default_transform();
        bd.transform.position = b->pos[i], bd.transform.origin = (cw_vec2){1.5f, 1.5f};
        bd.user_data = (void *)(uintptr_t)(ASTEROIDS + 1 + i), bd.swept = swept;
        r->bullet[i] = cw_body_create(r->world, &bd);
    }
    cw_world_step(r->world);
    return true;
}

// Sets every body at fraction `t` of the way from (ax, bx) (the last frame's places) to the scene.
static void set_all(run *r, const ws_scene *scene, const cw_transform *from, const bullets *b, const cw_vec2 *bfrom,
                    double t)
{
    for (int i = 0; i < ASTEROIDS; i++) {
        cw_transform x = scene->xf[i];
        x.position.x = (float)(from[i].position.x + t * (scene->xf[i].position.x - from[i].position.x));
        x.position.y = (float)(from[i].position.y + t * (scene->xf[i].position.y - from[i].position.y));
        cw_body_set_transform(r->world, r->asteroid[i], &x);
    }
    for (int i = 0; i < BULLETS; i++) {
        cw_transform x = cw_default_transform();
        x.origin = (cw_vec2){1.5f, 1.5f};
        bool jump = b->wrapped[i];
        x.position.x = jump ? b->pos[i].x : (float)(bfrom[i].x + t * (b->pos[i].x - bfrom[i].x));
        x.position.y = jump ? b->pos[i].y : (float)(bfrom[i].y + t * (b->pos[i].y - bfrom[i].y));
        if (jump)
            cw_body_teleport(r->world, r->bullet[i], &x);
        else
            cw_body_set_transform(r->world, r->bullet[i], &x);
    }
}

typedef struct result {
    double ms;           ///< median ms per frame
    long contacts;       ///< bullet contacts over the timed frames
    long missed;         ///< of the swept run's, not seen (sub-stepped only)
} result;

// One timed run of a mode (0 swept, 1 unswept, 2 sub-stepped), frames after WARMUP; the swept
// run's contacts (per frame) are kept for the sub-stepped run to be counted against.
static result time_mode(int mode, int frames, const ws_sprite *sprites, const cw_mask *bullet_mask,
                        uint64_t **swept_frames, int *swept_counts)
{
    static ws_scene scene;
    static bullets b;
    static run r;
    static cw_transform from[ASTEROIDS];
    static cw_vec2 bfrom[BULLETS];
    result out = {0, 0, 0};
    if (!ws_scene_init(&scene, WS_MASKS, ASTEROIDS, SEED, sprites))
        return out;
    bullets_reset(&b);
    if (!run_open(&r, &scene, &b, bullet_mask, mode == 0))
        return out;
    double *ms = malloc(sizeof *ms * (size_t)frames);
    for (int f = 0; f < WARMUP + frames; f++) {
        memcpy(from, scene.xf, sizeof from);
        memcpy(bfrom, b.pos, sizeof bfrom);
        ws_scene_advance(&scene);
        bullets_advance(&b);
        memset(r.seen, 0, sizeof r.seen);
        r.seen_count = 0;
        double t0 = bm_now_ms() / 1e3;
        int steps = mode == 2 ? SUBSTEPS : 1;
        for (int s = 1; s <= steps; s++) {
            set_all(&r, &scene, from, &b, bfrom, (double)s / steps);
            cw_world_step(r.world);
        }
        double t1 = bm_now_ms() / 1e3;
        if (f < WARMUP)
            continue;
        int k = f - WARMUP;
        ms[k] = (t1 - t0) * 1e3;
        out.contacts += r.seen_count;
        if (mode == 0 && swept_frames != NULL) { // keep this frame's contacts
            swept_counts[k] = 0;
            swept_frames[k] = malloc(sizeof(uint64_t) * (size_t)(r.seen_count + 1));
            for (int i = 0; i < PAIR_SET; i++)
                if (r.seen[i])
                    swept_frames[k][swept_counts[k]++] = r.seen[i];
        }
        if (mode == 2 && swept_frames != NULL)
            for (int i = 0; i < swept_counts[k]; i++)
                out.missed += !has_seen(&r, swept_frames[k][i]);
    }
    out.ms = bm_median(ms, frames);
    free(ms);
    cw_world_destroy(r.world);
    ws_scene_free(&scene);
    return out;
}

static void time_casts(const ws_sprite *sprites, const cw_mask *bullet_mask)
{
    static ws_scene scene;
    if (!ws_scene_init(&scene, WS_MASKS, ASTEROIDS, SEED, sprites))
        return;
    cw_world *world = cw_world_create(&(cw_world_def){.cell_size = 0, .manifolds = false, .worker_count = 1});
    for (int i = 0; i < ASTEROIDS; i++) {
        cw_body_def bd = cw_default_body_def();
        bd.shape = scene.shape[i], bd.transform = scene.xf[i];
        cw_body_create(world, &bd);
    }
    cw_world_step(world);
    bench_rng rng = bench_rng_make(SEED ^ 0xca57);
    cw_shape bullet = cw_shape_mask(bullet_mask);
    enum { CASTS = 20000 };
    // cw_shape_cast: a bullet at 30-60 units a frame fired past an asteroid, hitting about half.
    double t0 = bm_now_ms() / 1e3;
    long hits = 0;
    for (int k = 0; k < CASTS; k++) {
        int i = bench_rng_int(&rng, 0, ASTEROIDS - 1);
        double angle = bench_rng_range(&rng, 0, 6.283185307179586), speed = bench_rng_range(&rng, 30, 60);
        cw_transform bt = cw_default_transform();
        double miss = bench_rng_range(&rng, -30, 30);
        bt.position.x = (float)(scene.xf[i].position.x - 0.5 * speed * cos(angle) - miss * sin(angle));
        bt.position.y = (float)(scene.xf[i].position.y - 0.5 * speed * sin(angle) + miss * cos(angle));
        float f;
        hits += cw_shape_cast(&bullet, &bt, (cw_vec2){(float)(speed * cos(angle)), (float)(speed * sin(angle))},
                              &scene.shape[i], &scene.xf[i], &f, NULL);
    }
    double per_cast = (bm_now_ms() / 1e3 - t0) / CASTS * 1e9;
    // cw_world_cast_shape_closest: from random places, 40 units.
    t0 = bm_now_ms() / 1e3;
    long world_hits = 0;
    for (int k = 0; k < CASTS; k++) {
        cw_transform bt = cw_default_transform();
        bt.position = (cw_vec2){(float)bench_rng_range(&rng, 0, WS_WORLD_SIZE), (float)bench_rng_range(&rng, 0, WS_WORLD_SIZE)};
        double angle = bench_rng_range(&rng, 0, 6.283185307179586);
        cw_ray_hit hit;
        world_hits += cw_world_cast_shape_closest(world, &bullet, &bt, (cw_vec2){(float)(40 * cos(angle)), (float)(40 * sin(angle))},
                                                  cw_default_query_filter(), &hit);
    }
    double per_world = (bm_now_ms() / 1e3 - t0) / CASTS * 1e9;
    printf("\n| call | ns/call | hits |\n|---|---:|---:|\n");
    printf("| cw_shape_cast, 3x3 bullet at 30-60 units past a 32x32 asteroid | %.0f | %.0f%% |\n", per_cast,
           100.0 * hits / CASTS);
    printf("| cw_world_cast_shape_closest, 3x3 bullet over 40 units, 10k asteroids | %.0f | %.0f%% |\n", per_world,
           100.0 * world_hits / CASTS);
    cw_world_destroy(world);
    ws_scene_free(&scene);
}

int main(int argc, char **argv)
{
    int frames = FRAMES, only = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            frames = 5;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_swept [--quick] [--frames K] [--only M]\n");
            return 2;
        }
    }
    if (frames < 1)
        frames = 1;
    static ws_sprite sprites[WS_SPRITE_COUNT];
    if (!ws_sprites_build(sprites))
        return 1;
    uint8_t full[9];
    memset(full, 255, sizeof full);
    cw_mask *bullet_mask = cw_mask_from_alpha(full, 3, 3, 3, 128);
    static const char *const names[3] = {"swept bullets", "unswept bullets (hits missed)",
                                         "unswept, sub-stepped x8"};
    double ms[3][REPEATS];
    long contacts[3] = {0, 0, 0}, missed = 0;
    if (only >= 0) {
        result res = time_mode(only, frames, sprites, bullet_mask, NULL, NULL);
        printf("%s: %.2f ms/frame, %ld hits\n", only <= 2 ? names[only] : "?", res.ms, res.contacts);
        return 0;
    }
    uint64_t **swept_frames = calloc((size_t)frames, sizeof *swept_frames);
    int *swept_counts = calloc((size_t)frames, sizeof *swept_counts);
    for (int rep = 0; rep < REPEATS; rep++)
        for (int mode = 0; mode < 3; mode++) { // interleaved, each run made afresh
            result res = time_mode(mode, frames, sprites, bullet_mask, rep == 0 ? swept_frames : NULL, swept_counts);
            ms[mode][rep] = res.ms;
            if (rep == 0)
                contacts[mode] = res.contacts;
            if (rep == 0 && mode == 2)
                missed = res.missed;
        }
    printf("bench_swept: %d asteroids (32x32 masks) + %d bullets (3x3) at 30-60 units/frame, %d timed frames, "
           "median of %d runs\n\n", ASTEROIDS, BULLETS, frames, REPEATS);
    printf("| bullets | ms/frame | vs swept | bullet hits (begins) | missed (vs swept) |\n|---|---:|---:|---:|---:|\n");
    double swept_ms = bm_median(ms[0], REPEATS);
    for (int mode = 0; mode < 3; mode++) {
        double m = bm_median(ms[mode], REPEATS);
        char miss[32] = "0";
        if (mode == 1)
            snprintf(miss, sizeof miss, "%ld", contacts[0] - contacts[1] > 0 ? contacts[0] - contacts[1] : 0);
        if (mode == 2)
            snprintf(miss, sizeof miss, "%ld (%.1f%%)", missed, contacts[0] ? 100.0 * missed / contacts[0] : 0);
        printf("| %s | %.2f | %.2fx | %ld | %s |\n", names[mode], m, m / swept_ms, contacts[mode], miss);
    }
    printf("\nswept vs unswept: %.2fx the cost (target <= 1.5x)\n", swept_ms / bm_median(ms[1], REPEATS));
    time_casts(sprites, bullet_mask);
    for (int k = 0; k < frames; k++)
        free(swept_frames[k]);
    free(swept_frames);
    free(swept_counts);
    cw_mask_destroy(bullet_mask);
    ws_sprites_free(sprites);
    return 0;
}
