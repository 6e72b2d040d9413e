// Draws pairs of sprites offscreen with draw_sprite(), reads the pixels back and checks them against
// collworld: a pixel shows sprite A iff A covers the pixel's centre (cw_shape_contains_point),
// except near A's outline: SDL's software renderer rounds the scaled, rotated image's size and
// place to whole pixels, so pixels up to OUTLINE pixels from an edge may go either way. Pixels both sprites cover far from any
// outline must exist exactly when cw_overlap says the sprites overlap. A sprite drawn turning the
// wrong way must fail the same check, so the test can tell.
#include "selftest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "draw.h"

enum { W = 192, H = 192, CASES = 40, OUTLINE = 2 };

typedef struct pair_case {
    sprite_kind kind[2];
    cw_transform t[2];
} pair_case;

typedef struct tally {
    long pixels, edge_misses, misses; // compared, differing on an outline, differing elsewhere
    int overlap_disagreements;
} tally;

static float uniform(unsigned *state, float lo, float hi)
{
    *state = *state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(*state >> 8) / (float)(1u << 24);
}

static pair_case random_case(unsigned *rng)
{
    pair_case c;
    for (int i = 0; i < 2; i++) {
        c.kind[i] = (sprite_kind)(int)uniform(rng, 0, KIND_COUNT);
        c.t[i] = cw_default_transform();
        c.t[i].origin = (cw_vec2){uniform(rng, 0, SPRITE_SIZE), uniform(rng, 0, SPRITE_SIZE)};
        c.t[i].position = (cw_vec2){W / 2 + uniform(rng, -30, 30), H / 2 + uniform(rng, -30, 30)};
        c.t[i].rotation = uniform(rng, -4, 4);
        c.t[i].scale = (cw_vec2){uniform(rng, 1.5f, 3.5f), uniform(rng, 1.5f, 3.5f)};
        if (uniform(rng, 0, 1) < 0.3f)
            c.t[i].scale.x = -c.t[i].scale.x;
        if (uniform(rng, 0, 1) < 0.3f)
            c.t[i].scale.y = -c.t[i].scale.y;
    }
    return c;
}

// Whether grid[x, y] differs from a pixel at most OUTLINE pixels away (in x and in y).
static bool on_outline(const bool *grid, int x, int y)
{
    for (int dy = -OUTLINE; dy <= OUTLINE; dy++)
        for (int dx = -OUTLINE; dx <= OUTLINE; dx++) {
            int nx = x + dx, ny = y + dy;
            if (nx >= 0 && ny >= 0 && nx < W && ny < H && grid[ny * W + nx] != grid[y * W + x])
                return true;
        }
    return false;
}

// What collworld says each pixel centre shows.
static void expected_cover(const cw_shape *shape, const cw_transform *t, bool *grid)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            grid[y * W + x] = shape_covers(shape, t, (cw_vec2){x + 0.5f, y + 0.5f});
}

// Draws A in red and B in green, added, and reads the pixels back.
static bool render_case(SDL_Renderer *r, SDL_Texture *const *textures, const pair_case *c, const cw_transform *drawn,
                        Uint32 *pixels)
{
    SDL_SetRenderDrawColor(r, 0, 0, 0, 255);
    SDL_RenderClear(r);
    for (int i = 0; i < 2; i++) {
        SDL_Texture *texture = textures[c->kind[i]];
        SDL_SetTextureColorMod(texture, i == 0 ? 255 : 0, i == 1 ? 255 : 0, 0);
        draw_sprite(r, texture, &drawn[i]);
    }
    return SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_RGBA32, pixels, W * 4) == 0;
}

static void compare(const Uint32 *pixels, const bool *const expect[2], const cw_shape *shapes, const pair_case *c,
                    tally *t)
{
    long inner_both = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const Uint8 *rgba = (const Uint8 *)&pixels[y * W + x];
            bool shown[2] = {rgba[0] >= 75, rgba[1] >= 75}, inner = true;
            for (int i = 0; i < 2; i++) {
                bool outline = on_outline(expect[i], x, y);
                inner = inner && !outline;
                if (shown[i] != expect[i][y * W + x])
                    outline ? t->edge_misses++ : t->misses++;
            }
            inner_both += inner && shown[0] && shown[1];
            t->pixels++;
        }
    bool overlap = cw_overlap(&shapes[0], &c->t[0], &shapes[1], &c->t[1], NULL);
    if (inner_both > 0 && !overlap)
        t->overlap_disagreements++;
}

// Runs every case; `wrong_way` draws the sprites turning counterclockwise instead.
static bool run_cases(SDL_Renderer *r, SDL_Texture *const *textures, const sprite_image *images, bool wrong_way,
                      tally *t)
{
    bool *grids[2] = {malloc(W * H), malloc(W * H)};
    Uint32 *pixels = malloc(W * H * 4);
    bool ok = grids[0] != NULL && grids[1] != NULL && pixels != NULL;
    unsigned rng = 12345;
    for (int n = 0; ok && n < CASES; n++) {
        pair_case c = random_case(&rng);
        cw_shape shapes[2] = {cw_shape_mask(images[c.kind[0]].mask), cw_shape_mask(images[c.kind[1]].mask)};
        cw_transform drawn[2] = {c.t[0], c.t[1]};
        for (int i = 0; i < 2; i++) {
            expected_cover(&shapes[i], &c.t[i], grids[i]);
            drawn[i].rotation = wrong_way ? -drawn[i].rotation : drawn[i].rotation;
        }
        ok = render_case(r, textures, &c, drawn, pixels);
        if (ok)
            compare(pixels, (const bool *const *)grids, shapes, &c, t);
    }
    free(grids[0]), free(grids[1]), free(pixels);
    return ok;
}

static bool check(SDL_Renderer *r, SDL_Texture *const *textures, const sprite_image *images)
{
    tally right = {0}, wrong = {0};
    if (!run_cases(r, textures, images, false, &right) || !run_cases(r, textures, images, true, &wrong))
        return false;
    printf("selftest: %d sprite pairs drawn offscreen, %ld pixels compared with cw_shape_contains_point\n", CASES, right.pixels);
    printf("selftest: %ld pixels differ within %d px of an outline (rounding), %ld elsewhere, %d pair answers disagree\n",
           right.edge_misses, OUTLINE, right.misses, right.overlap_disagreements);
    printf("selftest: drawn turning the wrong way, %ld pixels differ off the outlines (must be many)\n", wrong.misses);
    return right.misses == 0 && right.overlap_disagreements == 0 && wrong.misses > 1000;
}

bool run_selftest(void)
{
    static sprite_set sprites; // masks NULL until created
    sprite_image *images = sprites.images;
    SDL_Surface *target = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *r = target != NULL ? SDL_CreateSoftwareRenderer(target) : NULL;
    SDL_Texture *textures[KIND_COUNT] = {0};
    // With SDL2_image the sheet must load (make runs this from the repository) to exactly what the
    // rules paint; without it there is nothing to load.
    int art = sprite_art_check();
#ifdef HAVE_SDL_IMAGE
    bool art_ok = art == 1;
#else
    bool art_ok = art == -1;
#endif
    printf("selftest: demo/art/sprites.png %s\n", art > 0    ? "loads to exactly the pixels demo/sprites.c paints"
                                                   : art == 0 ? "differs from what demo/sprites.c paints: run make demo-art"
                                                              : "was not loaded");
    bool ok = art_ok && r != NULL && sprite_set_create(&sprites);
    for (int k = 0; ok && k < KIND_COUNT; k++) {
        ok = (textures[k] = texture_from_rgba(r, images[k].rgba, SPRITE_SIZE, SPRITE_SIZE)) != NULL;
        SDL_SetTextureBlendMode(textures[k], SDL_BLENDMODE_ADD);
    }
    ok = ok && check(r, textures, images);
    for (int k = 0; k < KIND_COUNT; k++)
        if (textures[k] != NULL)
            SDL_DestroyTexture(textures[k]);
    if (r != NULL)
        SDL_DestroyRenderer(r);
    sprite_set_destroy(&sprites);
    SDL_FreeSurface(target);
    printf("selftest: %s\n", ok ? "ok" : "FAILED");
    return ok;
}
