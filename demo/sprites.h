// Sprites generated in code: RGBA pixels plus the collision mask built from their alpha.
#ifndef DEMO_SPRITES_H
#define DEMO_SPRITES_H

#include <collworld.h>

enum { SPRITE_SIZE = 32, ALPHA_THRESHOLD = 128 };

typedef enum sprite_kind { KIND_F, KIND_R, KIND_STAR, KIND_RING, KIND_GEAR, KIND_BLOB, KIND_COUNT } sprite_kind;

typedef struct sprite_image {
    uint8_t rgba[SPRITE_SIZE * SPRITE_SIZE * 4]; // light grey shape (tinted when drawn) + soft black shadow
    const cw_mask *mask;                         // texels with alpha >= ALPHA_THRESHOLD: the shadow is not in it
} sprite_image;

// The sprites as a game has them: one sheet image with a frame per kind, cut into masks by a
// cw_sheet (frames "sprite/0" ... "sprite/5"), which owns the masks.
typedef struct sprite_set {
    sprite_image images[KIND_COUNT];
    cw_sheet *sheet;
} sprite_set;

// Paints every kind into a sheet and builds the masks. Returns false (see cw_last_error()) if that fails.
// Loads the sheet demo/art/sprites.png (one row of SPRITE_SIZE frames, KIND_COUNT of them) through
// SDL2_image and cuts it into frames with cw_sheet_add_grid; without SDL2_image, or if the file is
// not found, paints the same sprites from their rules.
bool sprite_set_create(sprite_set *set);
// Writes the painted sheet as a PNG (make demo-art); false without SDL2_image.
bool sprite_art_write(const char *path);
// Whether demo/art/sprites.png holds exactly what the rules paint: 1, 0 (stale: make demo-art), or
// -1 when it cannot be loaded (no SDL2_image, or run away from the repository).
int sprite_art_check(void);
void sprite_set_destroy(sprite_set *set);

#endif
