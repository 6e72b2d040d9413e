/// @file world_scene.c
/// The sprites scene of the world benchmark (see world_scene.h).
#include "world_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define WS_PI 3.14159265358979323846
#define WS_CENTRE (WS_SPRITE_SIZE / 2.0)

/// Whether texel (i, j) of sprite `id` is opaque. `noise` feeds the dithered sprite.
static bool ws_texel(ws_sprite_id id, int i, int j, bench_rng *noise) {
    const double cx = i + 0.5 - WS_CENTRE, cy = j + 0.5 - WS_CENTRE;
    const double d2 = cx * cx + cy * cy;
    switch (id) {
    case WS_DISC:
        return d2 <= 15.0 * 15.0;
    case WS_RING:
        return d2 <= 15.5 * 15.5 && d2 >= 10.0 * 10.0;
    case WS_PLUS: // two bars 8 texels thick, 28 long
        return (i >= 12 && i < 20 && j >= 2 && j < 30) || (j >= 12 && j < 20 && i >= 2 && i < 30);
    case WS_F: // stem, top bar, middle bar
        return (i >= 7 && i < 13 && j >= 3 && j < 29) || (i >= 7 && i < 26 && j >= 3 && j < 9) ||
               (i >= 7 && i < 22 && j >= 14 && j < 19);
    case WS_DIAMOND:
        return fabs(cx) + fabs(cy) <= 15.0;
    case WS_DITHER: // a disc with a quarter of its texels knocked out at random
        return d2 <= 14.0 * 14.0 && bench_rng_unit(noise) >= 0.25;
    case WS_SPRITE_COUNT:
        break;
    }
    return false;
}

static const char *const ws_sprite_names[WS_SPRITE_COUNT] = {"disc", "ring", "plus", "F", "diamond", "dither"};

bool ws_sprites_build(ws_sprite sprites[WS_SPRITE_COUNT]) {
    memset(sprites, 0, sizeof(ws_sprite) * WS_SPRITE_COUNT);
    const size_t bytes = (size_t)WS_SPRITE_SIZE * WS_SPRITE_SIZE * 4;
    uint8_t *rgba = malloc(bytes);
    if (rgba == NULL) {
        return false;
    }
    bool ok = true;
    for (int s = 0; s < WS_SPRITE_COUNT && ok; s++) {
        ws_sprite *sp = &sprites[s];
        bench_rng noise = bench_rng_make(0xD17E5ull + (uint64_t)s);
        bench_rng colour = bench_rng_make(0xC01001ull + (uint64_t)s);
        sp->name = ws_sprite_names[s];
        for (int j = 0; j < WS_SPRITE_SIZE; j++) {
            for (int i = 0; i < WS_SPRITE_SIZE; i++) {
                uint8_t *px = rgba + ((size_t)j * WS_SPRITE_SIZE + (size_t)i) * 4;
                const bool opaque = ws_texel((ws_sprite_id)s, i, j, &noise);
                px[0] = (uint8_t)bench_rng_int(&colour, 0, 255);
                px[1] = (uint8_t)bench_rng_int(&colour, 0, 255);
                px[2] = (uint8_t)bench_rng_int(&colour, 0, 255);
                // Transparent texels keep some alpha below the threshold, as anti-aliased art does.
                px[3] = opaque ? (uint8_t)bench_rng_int(&colour, WS_SPRITE_THRESHOLD, 255)
                               : (uint8_t)bench_rng_int(&colour, 0, WS_SPRITE_THRESHOLD - 1);
                sp->opaque += opaque;
            }
        }
        sp->mask = cw_mask_from_rgba(rgba, WS_SPRITE_SIZE, WS_SPRITE_SIZE, WS_SPRITE_SIZE * 4, WS_SPRITE_THRESHOLD);
        ok = sp->mask != NULL && tb_mask_from_rgba(&sp->tbmask, rgba, WS_SPRITE_SIZE, WS_SPRITE_SIZE,
                                                   WS_SPRITE_SIZE * 4, WS_SPRITE_THRESHOLD);
    }
    free(rgba);
    return ok;
}

void ws_sprites_free(ws_sprite sprites[WS_SPRITE_COUNT]) {
    for (int s = 0; s < WS_SPRITE_COUNT; s++) {
        cw_mask_destroy(sprites[s].mask);
        sprites[s].mask = NULL;
        tb_mask_free(&sprites[s].tbmask);
    }
}

bool ws_scene_init(ws_scene *s, ws_kind kind, int n, uint64_t seed, const ws_sprite *sprites) {
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->n = n;
    s->seed = seed;
    s->sprites = sprites;
    s->size = WS_WORLD_SIZE;
    const size_t count = (size_t)(n > 0 ? n : 1);
    s->shape = malloc(count * sizeof *s->shape);
    s->sprite = malloc(count * sizeof *s->sprite);
    s->xf = malloc(count * sizeof *s->xf);
    s->vel = malloc(count * sizeof *s->vel);
    s->spin = malloc(count * sizeof *s->spin);
    if (s->shape == NULL || s->sprite == NULL || s->xf == NULL || s->vel == NULL || s->spin == NULL ||
        (kind == WS_MASKS && sprites == NULL)) {
        ws_scene_free(s);
        return false;
    }
    ws_scene_reset(s);
    return true;
}

void ws_scene_set_size(ws_scene *s, float size) {
    s->size = size;
    ws_scene_reset(s);
}

void ws_scene_reset(ws_scene *s) {
    bench_rng r = bench_rng_make(s->seed ^ (s->kind == WS_MASKS ? 0x4D41534Bull : 0x424F58ull));
    for (int i = 0; i < s->n; i++) {
        const double w = bench_rng_range(&r, WS_MIN_SIZE, WS_MAX_SIZE);
        const double h = bench_rng_range(&r, WS_MIN_SIZE, WS_MAX_SIZE);
        cw_transform t = cw_default_transform();
        t.position.x = (float)bench_rng_range(&r, 0.0, (double)s->size);
        t.position.y = (float)bench_rng_range(&r, 0.0, (double)s->size);
        t.rotation = (float)bench_rng_range(&r, -WS_PI, WS_PI);
        if (s->kind == WS_BOXES) {
            s->shape[i] = cw_shape_box((float)w, (float)h);
            s->sprite[i] = 0;
            t.origin.x = (float)(w / 2.0);
            t.origin.y = (float)(h / 2.0);
        } else {
            const int sp = bench_rng_int(&r, 0, WS_SPRITE_COUNT - 1);
            s->sprite[i] = (uint8_t)sp;
            s->shape[i] = cw_shape_mask(s->sprites[sp].mask);
            t.scale.x = (float)(w / WS_SPRITE_SIZE);
            t.scale.y = (float)(h / WS_SPRITE_SIZE);
            t.origin.x = (float)WS_CENTRE;
            t.origin.y = (float)WS_CENTRE;
        }
        s->xf[i] = t;
        s->vel[i].x = (float)bench_rng_range(&r, -WS_MAX_SPEED, WS_MAX_SPEED);
        s->vel[i].y = (float)bench_rng_range(&r, -WS_MAX_SPEED, WS_MAX_SPEED);
        s->spin[i] = (float)bench_rng_range(&r, -WS_MAX_SPIN, WS_MAX_SPIN);
    }
    s->frame = 0;
}

void ws_scene_advance(ws_scene *s) {
    const float size = s->size, pi = (float)WS_PI, two_pi = (float)(2.0 * WS_PI);
    for (int i = 0; i < s->n; i++) {
        cw_transform *t = &s->xf[i];
        cw_vec2 *v = &s->vel[i];
        t->position.x += v->x;
        t->position.y += v->y;
        if (t->position.x < 0.0f) {
            t->position.x = -t->position.x;
            v->x = -v->x;
        } else if (t->position.x > size) {
            t->position.x = 2.0f * size - t->position.x;
            v->x = -v->x;
        }
        if (t->position.y < 0.0f) {
            t->position.y = -t->position.y;
            v->y = -v->y;
        } else if (t->position.y > size) {
            t->position.y = 2.0f * size - t->position.y;
            v->y = -v->y;
        }
        t->rotation += s->spin[i];
        if (t->rotation > pi) {
            t->rotation -= two_pi;
        } else if (t->rotation < -pi) {
            t->rotation += two_pi;
        }
    }
    s->frame++;
}

void ws_scene_free(ws_scene *s) {
    free(s->shape);
    free(s->sprite);
    free(s->xf);
    free(s->vel);
    free(s->spin);
    s->shape = NULL;
    s->sprite = NULL;
    s->xf = NULL;
    s->vel = NULL;
    s->spin = NULL;
    s->n = 0;
}
