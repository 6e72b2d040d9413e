// The world example from README.md, built and run by `make test` so that it cannot go stale.
#include <collworld.h>
#include <stdio.h>

static void on_begin(const cw_contact *contact, void *context)
{
    int *frame = context;
    printf("frame %d: %s starts touching %s\n", *frame, (const char *)contact->user_a, (const char *)contact->user_b);
}

static void on_end(const cw_contact *contact, void *context)
{
    int *frame = context;
    printf("frame %d: %s stops touching %s\n", *frame, (const char *)contact->user_a, (const char *)contact->user_b);
}

int main(void)
{
    int frame = 0;
    cw_world_def world_def = cw_default_world_def();
    world_def.on_begin = on_begin;
    world_def.on_end = on_end;
    world_def.context = &frame;
    cw_world *world = cw_world_create(&world_def);

    cw_body_def wall = cw_default_body_def();
    wall.shape = cw_shape_box(10, 100); // 10 x 100 units, its corner at (100, -50)
    wall.transform.position = (cw_vec2){100, -50};
    wall.is_static = true;
    wall.user_data = "the wall";
    cw_body_create(world, &wall);

    cw_body_def ship = cw_default_body_def();
    ship.shape = cw_shape_box(16, 8);
    ship.transform.origin = (cw_vec2){8, 4}; // turn about its centre
    ship.user_data = "the ship";
    cw_body_id ship_id = cw_body_create(world, &ship);

    for (frame = 1; frame <= 30; frame++) {
        cw_transform t = cw_body_transform(world, ship_id);
        t.position.x += 5; // the game moves its sprites...
        t.rotation += 0.1f;
        cw_body_set_transform(world, ship_id, &t);
        cw_world_step(world); // ...and the world reports who starts and stops touching
    }
    cw_world_destroy(world);
    return 0;
}
