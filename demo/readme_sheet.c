// The sprite sheet example from README.md, built and run by `make test` so that it cannot go stale.
#include <collworld.h>
#include <stdio.h>
#include <stdlib.h>

// A 4-frame walk cycle, 16x16 frames side by side; frames 1 and 3 are the same pose.
static unsigned char *paint_walk_sheet(void)
{
    unsigned char *rgba = calloc(64 * 16 * 4, 1);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 64; x++) {
            int frame = x / 16, u = x % 16, stride = frame == 2 ? 5 : frame == 0 ? 0 : 3;
            int body = u >= 5 && u < 11 && y < 10, legs = y >= 10 && (u == 7 - stride / 2 || u == 8 + stride / 2);
            rgba[(y * 64 + x) * 4 + 3] = (body || legs) ? 255 : 0;
        }
    return rgba;
}

int main(void)
{
    unsigned char *pixels = paint_walk_sheet(); // or stb_image, SDL_Surface->pixels, LoadImage()...
    cw_sheet *sheet = cw_sheet_create();
    int frames = cw_sheet_add_grid(sheet, "walk", pixels, 64, 16, 64 * 4, 16, 16, 128); // "walk/0" ... "walk/3"
    free(pixels); // the sheet keeps masks, not pixels
    cw_sheet_stats stats = cw_sheet_get_stats(sheet);
    printf("%d frames, %d distinct masks, %zu bytes\n", frames, stats.masks, stats.bytes);

    cw_world_def world_def = cw_default_world_def();
    cw_world *world = cw_world_create(&world_def);
    cw_body_def hero = cw_default_body_def();
    hero.shape = cw_shape_mask(cw_sheet_find(sheet, "walk/0"));
    cw_body_id id = cw_body_create(world, &hero);
    for (int step = 0; step < 8; step++) { // the animation: each step shows the next frame
        char name[16];
        snprintf(name, sizeof name, "walk/%d", step % frames);
        cw_shape frame = cw_shape_mask(cw_sheet_find(sheet, name));
        cw_body_set_shape(world, id, &frame);
        cw_world_step(world);
    }
    cw_world_destroy(world); // bodies first: the sheet owns the masks they use
    cw_sheet_destroy(sheet);
    return 0;
}
