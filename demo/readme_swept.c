#include <collworld.h>
#include <stdio.h>

static void on_begin(const cw_contact *c, void *context)
{
    (void)context; // fraction: when along the step it first touched; manifold: that first touch
    printf("hit %.3f of the way through the step, at (%.1f, %.1f)\n", c->fraction, c->manifold.point.x,
           c->manifold.point.y);
}

int main(void)
{
    cw_world_def world_def = cw_default_world_def();
    world_def.on_begin = on_begin;
    cw_world *world = cw_world_create(&world_def);

    cw_body_def wall = cw_default_body_def();
    wall.shape = cw_shape_box(10, 100); // 10 units thick, at x = 100
    wall.transform.position = (cw_vec2){100, -50};
    wall.is_static = true;
    cw_body_create(world, &wall);

    cw_body_def bullet = cw_default_body_def();
    bullet.shape = cw_shape_box(4, 4);
    bullet.swept = true; // contacts anywhere along each step's motion count
    cw_body_id id = cw_body_create(world, &bullet);

    for (int frame = 1; frame <= 5; frame++) {
        cw_transform t = cw_body_transform(world, id);
        t.position.x += 40; // 40 units a frame: it never rests inside the wall
        cw_body_set_transform(world, id, &t);
        cw_world_step(world);
    }
    cw_world_destroy(world);
    return 0;
}
