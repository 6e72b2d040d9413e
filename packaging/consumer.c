// A program that uses an installed collworld the way an engine would: built by `make check-install`
// with `pkg-config --cflags --libs collworld`, linked static and shared, and run.
#include <collworld.h>

#include <stdio.h>
#include <string.h>

static int begins, ends;

static void on_begin(const cw_contact *contact, void *context)
{
    (void)contact;
    (void)context;
    begins++;
}

static void on_end(const cw_contact *contact, void *context)
{
    (void)contact;
    (void)context;
    ends++;
}

int main(void)
{
    if (strcmp(cw_version(), CW_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: header says %s, library says %s\n", CW_VERSION_STRING, cw_version());
        return 1;
    }
    uint8_t alpha[8 * 8];
    for (int i = 0; i < 8 * 8; i++)
        alpha[i] = (uint8_t)((i % 8 + i / 8) % 2 ? 255 : 0); // a checkerboard
    cw_mask *mask = cw_mask_from_alpha(alpha, 8, 8, 8, 128);
    if (mask == NULL || cw_mask_count(mask) != 32) {
        fprintf(stderr, "consumer: mask: %s\n", cw_last_error());
        return 1;
    }
    cw_shape sprite = cw_shape_mask(mask), box = cw_shape_box(2, 2);
    cw_transform ta = cw_default_transform(), tb = cw_default_transform();
    tb.position = (cw_vec2){7, 0}; // the box covers texel column 7 (rows 0 and 1): opaque at (7, 0)
    if (!cw_overlap(&sprite, &ta, &box, &tb, NULL) || !cw_overlap(&box, &tb, &sprite, &ta, NULL)) {
        fprintf(stderr, "consumer: expected an overlap\n");
        return 1;
    }
    if (cw_mask_from_alpha(NULL, 8, 8, 8, 1) != NULL || cw_last_error()[0] == '\0') {
        fprintf(stderr, "consumer: expected an error for NULL pixels\n");
        return 1;
    }

    cw_world_def wdef = cw_default_world_def();
    wdef.on_begin = on_begin;
    wdef.on_end = on_end;
    cw_world *world = cw_world_create(&wdef);
    cw_body_def bdef = cw_default_body_def();
    bdef.shape = sprite;
    cw_body_id a = cw_body_create(world, &bdef);
    bdef.shape = box;
    bdef.transform = tb;
    cw_body_id b = cw_body_create(world, &bdef);
    cw_world_step(world);
    cw_body_destroy(world, b);
    cw_world_step(world);
    int ok = world != NULL && cw_body_is_valid(world, a) && !cw_body_is_valid(world, b) && begins == 1 && ends == 1;
    cw_world_destroy(world);
    cw_mask_destroy(mask);
    if (!ok) {
        fprintf(stderr, "consumer: world events: %d begins, %d ends\n", begins, ends);
        return 1;
    }
    printf("consumer: collworld %s works\n", cw_version());
    return 0;
}
