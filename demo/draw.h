// Drawing with SDL2: sprites placed exactly where collworld puts their masks, debug layers, HUD.
#ifndef DEMO_DRAW_H
#define DEMO_DRAW_H

#include <SDL.h>

#include "scene.h"
#include "text.h"

typedef struct layers {
    bool grid, aabbs, boxes, contacts, rays, help;
} layers;

typedef struct hud_info {
    const char *title; // the scene's name
    double fps, draw_ms;
    bool paused;
} hud_info;

typedef struct painter {
    SDL_Renderer *renderer;
    SDL_Texture *textures[KIND_COUNT];
    text *text;
} painter;

bool painter_init(painter *p, SDL_Renderer *renderer, const sprite_image images[KIND_COUNT]);
void painter_free(painter *p);

// Draws `texture` under collworld's transform convention (see the comment in draw.c).
void draw_sprite(SDL_Renderer *renderer, SDL_Texture *texture, const cw_transform *t);
SDL_Texture *texture_from_rgba(SDL_Renderer *renderer, const uint8_t *rgba, int width, int height);

void draw_scene(painter *p, const scene *s, const layers *l);
void draw_inspect(painter *p, const scene *s); // the overlapping texels of two sprites, highlighted
void draw_hud(painter *p, const scene *s, const hud_info *info, const layers *l);

#endif
