// Each kind is a predicate "is texel centre (x, y) inside the shape" on a SPRITE_SIZE square.
// Painting adds a darker outline and a soft shadow whose alpha stays below ALPHA_THRESHOLD,
// so the shadow is drawn but never collides.
#include "sprites.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { N = SPRITE_SIZE, SHADOW_ALPHA = 96 };
static const double PI = 3.14159265358979323846;

static bool in_rect(double x, double y, double x0, double y0, double x1, double y1)
{
    return x >= x0 && x < x1 && y >= y0 && y < y1;
}

static double polar_angle(double x, double y)
{
    return atan2(y - (N / 2.0 - 1), x - N / 2.0);
}

static double polar_radius(double x, double y)
{
    return hypot(x - N / 2.0, y - (N / 2.0 - 1)); // a little high: room for the shadow
}

// Distance from (x, y) to the segment from (ax, ay) to (bx, by).
static double segment_distance(double x, double y, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay;
    double t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(x - ax - t * dx, y - ay - t * dy);
}

static bool in_letter_f(double x, double y)
{
    return in_rect(x, y, 6, 3, 12, 27) || in_rect(x, y, 6, 3, 25, 8) || in_rect(x, y, 6, 13, 20, 18);
}

static bool in_letter_r(double x, double y)
{
    double bowl = hypot(x - 17, y - 10.5);
    bool stem = in_rect(x, y, 6, 3, 12, 27);
    bool bars = in_rect(x, y, 6, 3, 17, 8) || in_rect(x, y, 6, 13, 17, 18);
    bool round = x >= 17 && bowl < 7.5 && bowl >= 2.5;
    return stem || bars || round || segment_distance(x, y, 14, 17, 22, 25) < 3;
}

// A five-pointed star: the usual even-odd test against its ten corners.
static bool in_star(double x, double y)
{
    bool in = false;
    for (int k = 0, prev = 9; k < 10; prev = k++) {
        double ak = -PI / 2 + k * PI / 5, ap = -PI / 2 + prev * PI / 5;
        double rk = k % 2 ? 5.5 : 14, rp = prev % 2 ? 5.5 : 14;
        double xk = N / 2.0 + rk * cos(ak), yk = N / 2.0 - 1 + rk * sin(ak);
        double xp = N / 2.0 + rp * cos(ap), yp = N / 2.0 - 1 + rp * sin(ap);
        if ((yk > y) != (yp > y) && x < xk + (y - yk) * (xp - xk) / (yp - yk))
            in = !in;
    }
    return in;
}

static bool in_ring(double x, double y)
{
    double r = polar_radius(x, y);
    return r >= 7 && r < 13.5;
}

static bool in_gear(double x, double y)
{
    double r = polar_radius(x, y), a = polar_angle(x, y);
    bool tooth = cos(10 * a) > 0.1;
    return r >= 4 && r < (tooth ? 13.5 : 10);
}

static bool in_blob(double x, double y)
{
    double a = polar_angle(x, y);
    return polar_radius(x, y) < 10 + 2.5 * sin(3 * a + 0.7) + 1.2 * sin(5 * a + 2.1);
}

static bool inside(sprite_kind kind, int i, int j)
{
    double x = i + 0.5, y = j + 0.5;
    switch (kind) {
    case KIND_F: return in_letter_f(x, y);
    case KIND_R: return in_letter_r(x, y);
    case KIND_STAR: return in_star(x, y);
    case KIND_RING: return in_ring(x, y);
    case KIND_GEAR: return in_gear(x, y);
    default: return in_blob(x, y);
    }
}

static bool at(const bool *shape, int i, int j)
{
    return i >= 0 && j >= 0 && i < N && j < N && shape[j * N + i];
}

// Shadow alpha: how much of a 5 x 5 neighbourhood, offset down and right, is inside the shape.
static uint8_t shadow_alpha(const bool *shape, int i, int j)
{
    int hits = 0;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            hits += at(shape, i - 2 + dx, j - 3 + dy);
    return (uint8_t)(SHADOW_ALPHA * hits / 25);
}

static void paint(sprite_kind kind, uint8_t *rgba)
{
    bool shape[N * N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            shape[j * N + i] = inside(kind, i, j);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            uint8_t *p = rgba + 4 * (j * N + i);
            if (!at(shape, i, j)) {
                memset(p, 0, 3);
                p[3] = shadow_alpha(shape, i, j);
                continue;
            }
            bool edge = !at(shape, i - 1, j) || !at(shape, i + 1, j) || !at(shape, i, j - 1) || !at(shape, i, j + 1);
            uint8_t light = edge ? 150 : (uint8_t)(255 - 2 * (i + j) / 3); // a gentle top-left light
            memset(p, light, 3);
            p[3] = 255;
        }
}

enum { SHEET_W = N * KIND_COUNT, PITCH = SHEET_W * 4 };

// The sheet as painted by the rules above (what demo/art/sprites.png was made from).
static void paint_sheet(uint8_t *sheet_rgba)
{
    uint8_t frame[N * N * 4];
    for (int k = 0; k < KIND_COUNT; k++) {
        paint((sprite_kind)k, frame);
        for (int row = 0; row < N; row++)
            memcpy(sheet_rgba + row * PITCH + k * N * 4, frame + row * N * 4, N * 4);
    }
}

#ifdef HAVE_SDL_IMAGE
#include <SDL.h>
#include <SDL_image.h>

// The sprite sheet from its PNG, as a game loads its art: SDL2_image, then the surface converted to
// RGBA bytes (whatever format the file had), then the pixels handed to collworld.
static bool load_sheet(uint8_t *sheet_rgba)
{
    static const char *const places[] = {"demo/art/sprites.png", "../demo/art/sprites.png"};
    SDL_Surface *loaded = NULL;
    for (size_t k = 0; k < sizeof places / sizeof places[0] && loaded == NULL; k++)
        loaded = IMG_Load(places[k]);
    SDL_Surface *rgba = loaded != NULL ? SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_RGBA32, 0) : NULL;
    bool ok = rgba != NULL && rgba->w == SHEET_W && rgba->h == N && SDL_LockSurface(rgba) == 0;
    if (ok) {
        for (int row = 0; row < N; row++)
            memcpy(sheet_rgba + row * PITCH, (const uint8_t *)rgba->pixels + row * rgba->pitch, PITCH);
        SDL_UnlockSurface(rgba);
    }
    SDL_FreeSurface(rgba);
    SDL_FreeSurface(loaded);
    return ok;
}

int sprite_art_check(void)
{
    static uint8_t loaded[N * PITCH], painted[N * PITCH];
    if (!load_sheet(loaded))
        return -1;
    paint_sheet(painted);
    return memcmp(loaded, painted, sizeof loaded) == 0;
}

bool sprite_art_write(const char *path)
{
    static uint8_t sheet_rgba[N * PITCH];
    paint_sheet(sheet_rgba);
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormatFrom(sheet_rgba, SHEET_W, N, 32, PITCH, SDL_PIXELFORMAT_RGBA32);
    bool ok = s != NULL && IMG_SavePNG(s, path) == 0;
    SDL_FreeSurface(s);
    return ok;
}
#else
static bool load_sheet(uint8_t *sheet_rgba)
{
    (void)sheet_rgba;
    return false;
}

bool sprite_art_write(const char *path)
{
    (void)path;
    return false;
}

int sprite_art_check(void) { return -1; }
#endif

bool sprite_set_create(sprite_set *set)
{
    static uint8_t sheet_rgba[N * PITCH];
    if (!load_sheet(sheet_rgba)) { // no SDL2_image, or the demo runs away from the repository
        fprintf(stderr, "demo: demo/art/sprites.png not loaded (SDL2_image missing or not found): painting the sprites\n");
        paint_sheet(sheet_rgba);
    }
    for (int k = 0; k < KIND_COUNT; k++)
        for (int row = 0; row < N; row++)
            memcpy(set->images[k].rgba + row * N * 4, sheet_rgba + row * PITCH + k * N * 4, N * 4);
    set->sheet = cw_sheet_create();
    if (set->sheet == NULL ||
        cw_sheet_add_grid(set->sheet, "sprite", sheet_rgba, SHEET_W, N, PITCH, N, N, ALPHA_THRESHOLD) != KIND_COUNT) {
        sprite_set_destroy(set);
        return false;
    }
    for (int k = 0; k < KIND_COUNT; k++) // by name, as a game finds its frames
        set->images[k].mask = cw_sheet_find(set->sheet, cw_sheet_frame_name(set->sheet, k));
    return true;
}

void sprite_set_destroy(sprite_set *set)
{
    cw_sheet_destroy(set->sheet);
    set->sheet = NULL;
    for (int k = 0; k < KIND_COUNT; k++)
        set->images[k].mask = NULL;
}
