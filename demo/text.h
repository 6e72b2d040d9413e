// HUD text: SDL2_ttf with a DejaVu font when both exist, else a small built-in bitmap font.
#ifndef DEMO_TEXT_H
#define DEMO_TEXT_H

#include <SDL.h>

typedef struct text text;

text *text_create(SDL_Renderer *renderer); // NULL only when out of memory
void text_destroy(text *t);
void text_draw(text *t, int x, int y, const char *s, SDL_Color color); // one line
int text_width(text *t, const char *s);
int text_line_height(const text *t);
const char *text_font_name(const text *t);

#endif
