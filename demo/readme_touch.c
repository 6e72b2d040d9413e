#include <collworld.h>
#include <stdio.h>

static cw_body_id add_box(cw_world *world, float w, float h, float x, float y, int32_t group, const char *name)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(w, h);
    def.transform.position = (cw_vec2){x, y}; // the box's corner; y grows downward
    def.group = group;
    def.user_data = (void *)name;
    return cw_body_create(world, &def);
}

int main(void)
{
    cw_world_def world_def = cw_default_world_def(); // no callbacks: the events are read after each step
    world_def.report_stays = true;                    // keeps every touching pair's manifold
    cw_world *world = cw_world_create(&world_def);
    add_box(world, 200, 20, -100, 100, 0, "the ground");
    cw_body_id coin = add_box(world, 8, 8, 4, 60, 0, "a coin");
    cw_body_id hero = add_box(world, 16, 24, 0, 0, -1, "the hero");
    cw_body_id sword = add_box(world, 20, 4, 10, 10, -1, "the sword"); // group -1: never the hero

    for (int frame = 1; frame <= 12; frame++) {
        // Is the hero standing on something? Ask the world, with the normals toward what it touches.
        cw_touch touches[8];
        int n = cw_body_touching(world, hero, touches, 8);
        bool standing = false;
        for (int k = 0; k < n && k < 8; k++)
            standing |= touches[k].manifold.normal.y > 0.7f; // pointing down, from the hero
        cw_vec2 fall = {0, standing ? 0.0f : 8.0f};
        cw_transform t = cw_body_transform(world, hero), s = cw_body_transform(world, sword);
        t.position.y += fall.y, s.position.y += fall.y;
        cw_body_set_transform(world, hero, &t);
        cw_body_set_transform(world, sword, &s);
        cw_world_step(world);

        cw_events events = cw_world_events(world);
        for (int k = 0; k < events.begin_count; k++) {
            const cw_contact *c = &events.begins[k];
            printf("frame %d: %s touches %s\n", frame, (const char *)c->user_a, (const char *)c->user_b);
            if (c->a.index == coin.index || c->b.index == coin.index) {
                cw_body_set_enabled(world, coin, false); // picked up: off, kept for the next level
                printf("frame %d: coin picked up\n", frame); // its end event comes with the next step
            }
        }
        if (standing)
            printf("frame %d: the hero stands on %s\n", frame, (const char *)touches[0].user_data);
    }
    cw_world_destroy(world);
    return 0;
}
