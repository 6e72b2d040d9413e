#include <collworld.h>
#include <stdio.h>

int main(void)
{
    uint8_t disc[32 * 32] = {0}; // a 32 x 32 alpha sprite: a disc
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++)
            disc[32 * y + x] = (x - 15.5f) * (x - 15.5f) + (y - 15.5f) * (y - 15.5f) < 16 * 16 ? 255 : 0;
    cw_mask *mask = cw_mask_from_alpha(disc, 32, 32, 32, 128);
    cw_shape player = cw_shape_mask(mask), enemy = cw_shape_box(12, 12);
    cw_transform tp = cw_default_transform();
    tp.position = (cw_vec2){100, 100};
    tp.origin = (cw_vec2){16, 16}; // turn about the disc's centre
    tp.rotation = 0.7f;
    cw_placed placed_player; // checked and prepared once this frame...
    if (!cw_place(&player, &tp, &placed_player))
        return 1;
    int hits = 0;
    for (int i = 0; i < 100; i++) { // ...then tested against every enemy
        cw_transform te = cw_default_transform();
        te.position = (cw_vec2){(float)(20 * (i % 10)), (float)(20 * (i / 10))};
        cw_placed placed_enemy;
        cw_place(&enemy, &te, &placed_enemy); // in a game, each enemy once a frame too
        hits += cw_placed_overlap(&placed_player, &placed_enemy, NULL);
    }
    printf("the player touches %d of 100 enemies\n", hits);
    cw_mask_destroy(mask);
    return 0;
}
