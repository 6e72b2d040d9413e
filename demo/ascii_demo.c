// A terminal demo of cw_overlap: two generated sprites (a letter F and a ring) are rotated, scaled
// and moved step by step; each frame is drawn in text ('#' sprite A, 'o' sprite B, '@' both) with
// the exact answer and the manifold. Runs anywhere, no display needed. The SDL2 stress demo is
// the next milestone; this one stays as the smallest complete example of the narrowphase API.
#include <collworld.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { SIZE = 24, COLS = 100, ROWS = 30 };

// RGBA pixels for a letter F: opaque strokes, a soft shadow (alpha 60) the threshold ignores.
static void paint_f(uint8_t *rgba)
{
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            bool stem = x >= 4 && x < 9 && y >= 2 && y < 22;
            bool top = y >= 2 && y < 6 && x >= 4 && x < 20, mid = y >= 10 && y < 13 && x >= 4 && x < 16;
            uint8_t *p = rgba + 4 * (y * SIZE + x);
            p[0] = 230, p[1] = 120, p[2] = 40;
            p[3] = (stem || top || mid) ? 255 : (x >= 6 && x < 11 && y >= 4 && y < 24) ? 60 : 0;
        }
}

static void paint_ring(uint8_t *rgba)
{
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            double r = hypot(x + 0.5 - SIZE / 2.0, y + 0.5 - SIZE / 2.0);
            uint8_t *p = rgba + 4 * (y * SIZE + x);
            p[0] = 40, p[1] = 160, p[2] = 230;
            p[3] = (r < 11.5 && r > 6.5) ? 255 : 0;
        }
}

// Whether world point (x, y) is inside an opaque texel of the sprite: the inverse transform.
static bool covers(const cw_mask *mask, const cw_transform *t, double x, double y)
{
    double c = cos(t->rotation), s = sin(t->rotation), dx = x - t->position.x, dy = y - t->position.y;
    double lx = (c * dx + s * dy) / t->scale.x + t->origin.x, ly = (-s * dx + c * dy) / t->scale.y + t->origin.y;
    return lx >= 0 && ly >= 0 && cw_mask_get(mask, (int)lx, (int)ly);
}

static void draw(const cw_mask *a, const cw_transform *ta, const cw_mask *b, const cw_transform *tb)
{
    for (int row = 0; row < ROWS; row++) {
        char line[COLS + 1];
        for (int col = 0; col < COLS; col++) {
            double x = col * 0.5 + 0.25, y = row + 0.5; // terminal cells are about twice as tall as wide
            bool in_a = covers(a, ta, x, y), in_b = covers(b, tb, x, y);
            line[col] = in_a && in_b ? '@' : in_a ? '#' : in_b ? 'o' : '.';
        }
        line[COLS] = '\0';
        puts(line);
    }
}

int main(void)
{
    static uint8_t f_pixels[SIZE * SIZE * 4], ring_pixels[SIZE * SIZE * 4];
    paint_f(f_pixels);
    paint_ring(ring_pixels);
    cw_mask *f = cw_mask_from_rgba(f_pixels, SIZE, SIZE, SIZE * 4, 128);
    cw_mask *ring = cw_mask_from_rgba(ring_pixels, SIZE, SIZE, SIZE * 4, 128);
    if (f == NULL || ring == NULL) {
        fprintf(stderr, "demo: %s\n", cw_last_error());
        return 1;
    }
    cw_shape shape_f = cw_shape_mask(f), shape_ring = cw_shape_mask(ring);
    cw_transform tf = cw_default_transform(), tr = cw_default_transform();
    tf.origin = tr.origin = (cw_vec2){SIZE / 2.0f, SIZE / 2.0f}; // rotate about the centres
    tf.position = (cw_vec2){14, 15};
    tf.rotation = 0.5f;
    tf.scale = (cw_vec2){-1.0f, 1.1f}; // mirrored
    tr.scale = (cw_vec2){0.9f, 0.9f};
    for (int frame = 0; frame < 6; frame++) {
        tr.position = (cw_vec2){44.0f - 4.0f * frame, 15.0f};
        tr.rotation = -0.3f * frame;
        cw_manifold m;
        bool hit = cw_overlap(&shape_f, &tf, &shape_ring, &tr, &m);
        printf("\nframe %d: ring at x = %.1f -> %s", frame, tr.position.x, hit ? "OVERLAP" : "apart");
        if (hit)
            printf(" (point %.1f, %.1f  normal %.2f, %.2f  depth %.2f)", m.point.x, m.point.y, m.normal.x, m.normal.y,
                   m.depth);
        printf("\n");
        draw(f, &tf, ring, &tr);
    }
    cw_mask_destroy(f);
    cw_mask_destroy(ring);
    return 0;
}
