// The example from README.md, built and run by `make test` so that it cannot go stale.
#include <collworld.h>
#include <stdio.h>

int main(void)
{
    uint8_t a[16 * 16 * 4] = {0}, b[16 * 16 * 4] = {0}; // two 16 x 16 RGBA sprites
    for (int i = 0; i < 16 * 16; i++) {
        a[4 * i + 3] = (i % 16 < 8) ? 255 : 0; // A: left half opaque
        b[4 * i + 3] = (i / 16 < 4) ? 255 : 0; // B: top quarter opaque
    }
    cw_mask *ma = cw_mask_from_rgba(a, 16, 16, 16 * 4, 128);
    cw_mask *mb = cw_mask_from_rgba(b, 16, 16, 16 * 4, 128);
    cw_shape sa = cw_shape_mask(ma), sb = cw_shape_mask(mb);
    cw_transform ta = cw_default_transform(), tb = cw_default_transform();
    tb.position = (cw_vec2){4, 4}; // where B's origin (its texel corner 0, 0) lands
    tb.rotation = 0.3f;            // radians, clockwise on a y-down screen
    cw_manifold m;
    if (cw_overlap(&sa, &ta, &sb, &tb, &m))
        printf("touching at (%.1f, %.1f): push B along (%.2f, %.2f) by %.2f\n", m.point.x, m.point.y, m.normal.x,
               m.normal.y, m.depth);
    cw_mask_destroy(ma);
    cw_mask_destroy(mb);
    return 0;
}
