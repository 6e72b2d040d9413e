/// @file bench_moves.c
/// What moving every body costs each frame, three ways, on the sprites scene (world_scene.c: 10k
/// rotating sprites, 10k and 100k boxes, and 100k boxes moved in a random order, as a game whose
/// bodies were made and destroyed over time lists them): one cw_body_set_transform() call a body,
/// one cw_world_set_transforms() call for the whole list on one worker, and the same call in a
/// world with two workers (its own threads). The step runs after every frame's moves, untimed, as in a
/// game. Timings are the moves alone: medians over frames of the median of REPEATS interleaved runs,
/// in one process. The three ways must leave the same AABBs (checked after the last frame).
///
/// Usage: bench_moves [--quick]
///   --quick  fewer frames and 2k bodies (smoke runs)
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collworld.h"
#include "measure.h"
#include "world_scene.h"

#define REPEATS 5
#define SEED 2024u

typedef enum way { ONE_A_CALL, LIST, LIST_TWO_WORKERS, WAYS } way;
static const char *const WAY_NAMES[WAYS] = {"cw_body_set_transform x N", "cw_world_set_transforms, 1 worker",
                                            "cw_world_set_transforms, 2 workers"};

typedef struct run {
    cw_world *world;
    cw_body_id *ids;
    double *frame_ms;
    cw_body_id *list_ids; // this frame's list, in the game's order (filled untimed)
    cw_transform *list_to;
} run;

static bool start(run *r, const ws_scene *s, way w, int frames)
{
    cw_world_def def = cw_default_world_def();
    def.manifolds = false;
    def.worker_count = w == LIST_TWO_WORKERS ? 2 : 1;
    r->world = cw_world_create(&def);
    r->ids = malloc((size_t)s->n * sizeof *r->ids);
    r->frame_ms = malloc((size_t)frames * sizeof *r->frame_ms);
    r->list_ids = malloc((size_t)s->n * sizeof *r->list_ids);
    r->list_to = malloc((size_t)s->n * sizeof *r->list_to);
    if (r->world == NULL || r->ids == NULL || r->frame_ms == NULL || r->list_ids == NULL || r->list_to == NULL)
        return false;
    for (int i = 0; i < s->n; i++) {
        cw_body_def d = cw_default_body_def();
        d.shape = s->shape[i], d.transform = s->xf[i];
        r->ids[i] = cw_body_create(r->world, &d);
    }
    return true;
}

// The game's list for this frame: body order[k] k-th.
static void fill_list(run *r, const ws_scene *s, const int *order)
{
    for (int k = 0; k < s->n; k++)
        r->list_ids[k] = r->ids[order[k]], r->list_to[k] = s->xf[order[k]];
}

static bool move_all(run *r, const ws_scene *s, way w, const int *order)
{
    if (w != ONE_A_CALL)
        return cw_world_set_transforms(r->world, r->list_ids, r->list_to, s->n);
    bool ok = true;
    for (int k = 0; k < s->n; k++)
        ok &= cw_body_set_transform(r->world, r->ids[order[k]], &s->xf[order[k]]);
    return ok;
}

static void stop(run *r)
{
    cw_world_destroy(r->world);
    free(r->ids), free(r->frame_ms), free(r->list_ids), free(r->list_to);
}

// The three ways' worlds, each moved through the same frames of one scene (interleaved frame by
// frame, so that the machine's slow moments fall on all three); the per-way median into ms[way].
static bool run_once(ws_kind kind, int n, bool shuffled, int frames, const ws_sprite *sprites, double ms[WAYS])
{
    ws_scene s;
    int *order = malloc((size_t)n * sizeof *order);
    if (order == NULL || !ws_scene_init(&s, kind, n, SEED, sprites))
        return false;
    uint64_t state = SEED;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; shuffled && i > 0; i--) { // Fisher-Yates on a fixed xorshift stream
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        int j = (int)(state % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    run runs[WAYS] = {{0}};
    bool ok = true;
    for (int w = 0; w < WAYS; w++)
        ok &= start(&runs[w], &s, (way)w, frames);
    for (int f = -3; ok && f < frames; f++) { // three untimed frames first
        ws_scene_advance(&s);
        for (int w = 0; w < WAYS; w++) {
            fill_list(&runs[w], &s, order);
            double t0 = bm_now_ms();
            ok &= move_all(&runs[w], &s, (way)w, order);
            if (f >= 0)
                runs[w].frame_ms[f] = bm_now_ms() - t0;
            cw_world_step(runs[w].world);
        }
    }
    for (int i = 0; ok && i < n; i++) { // the same bodies every way
        cw_aabb a, b;
        for (int w = 1; w < WAYS; w++)
            ok &= cw_body_aabb(runs[0].world, runs[0].ids[i], &a) && cw_body_aabb(runs[w].world, runs[w].ids[i], &b) &&
                  memcmp(&a, &b, sizeof a) == 0;
    }
    for (int w = 0; w < WAYS; w++) {
        ms[w] = ok ? bm_median(runs[w].frame_ms, frames) : 0;
        stop(&runs[w]);
    }
    ws_scene_free(&s);
    free(order);
    return ok;
}

static bool bench(ws_kind kind, int n, bool shuffled, int frames, const ws_sprite *sprites)
{
    double repeats[WAYS][REPEATS], ms[WAYS];
    for (int k = 0; k < REPEATS; k++) {
        if (!run_once(kind, n, shuffled, frames, sprites, ms)) {
            fprintf(stderr, "bench_moves: the run failed (%s)\n", cw_last_error());
            return false;
        }
        for (int w = 0; w < WAYS; w++)
            repeats[w][k] = ms[w];
    }
    printf("| %dk %s%s |", n / 1000, kind == WS_BOXES ? "boxes" : "sprites", shuffled ? ", in random order" : "");
    const double base = bm_median(repeats[ONE_A_CALL], REPEATS);
    for (int w = 0; w < WAYS; w++) {
        const double m = bm_median(repeats[w], REPEATS);
        printf(w == ONE_A_CALL ? " %.3f |" : " %.3f (%.2fx) |", m, base / m);
    }
    printf("\n");
    return true;
}

int main(int argc, char **argv)
{
    const bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    ws_sprite sprites[WS_SPRITE_COUNT];
    if (!ws_sprites_build(sprites))
        return 1;
    printf("bench_moves: ms per frame to move every body (medians over frames and %d repeats)\n\n", REPEATS);
    printf("| bodies | %s | %s | %s |\n|---|---:|---:|---:|\n", WAY_NAMES[0], WAY_NAMES[1], WAY_NAMES[2]);
    const int frames = quick ? 5 : 60;
    const int n = quick ? 2000 : 10000;
    bool ok = bench(WS_MASKS, n, false, frames, sprites) && bench(WS_BOXES, n, false, frames, sprites) &&
              (quick || (bench(WS_BOXES, 100000, false, 20, sprites) && bench(WS_BOXES, 100000, true, 20, sprites)));
    ws_sprites_free(sprites);
    return ok ? 0 : 1;
}
