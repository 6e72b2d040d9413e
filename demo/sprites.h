// Sprites generated in code: RGBA pixels plus the collision mask built from their alpha.
#ifndef DEMO_SPRITES_H
#define DEMO_SPRITES_H

#include <collworld.h>

enum { SPRITE_SIZE = 32, ALPHA_THRESHOLD = 128 };

typedef enum sprite_kind { KIND_F, KIND_R, KIND_STAR, KIND_RING, KIND_GEAR, KIND_BLOB, KIND_COUNT } sprite_kind;

typedef struct sprite_image {
    uint8_t rgba[SPRITE_SIZE * SPRITE_SIZE * 4]; // light grey shape (tinted when drawn) + soft black shadow
    cw_mask *mask;                               // texels with alpha >= ALPHA_THRESHOLD: the shadow is not in it
} sprite_image;

// Paints every kind and builds its mask. Returns false (see cw_last_error()) if a mask fails.
bool sprite_images_create(sprite_image images[KIND_COUNT]);
void sprite_images_destroy(sprite_image images[KIND_COUNT]);

#endif
