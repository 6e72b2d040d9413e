// The public header must compile cleanly as C++ (`make check-cxx`) and link as extern "C".
#include <collworld.h>

static_assert(CW_VERSION_MAJOR >= 0, "version macros are integer constants");

int main()
{
    cw_transform t = cw_default_transform();
    cw_shape box = cw_shape_box(1.0f, 1.0f);
    cw_world_def def = cw_default_world_def();
    cw_world *world = cw_world_create(&def);
    cw_body_def body = cw_default_body_def();
    body.shape = box;
    body.transform = t;
    cw_body_id id = cw_body_create(world, &body);
    cw_world_step(world);
    bool ok = cw_body_is_valid(world, id) && cw_overlap(&box, &t, &box, &t, nullptr) && cw_version()[0] != '\0';
    cw_world_destroy(world);
    return ok ? 0 : 1;
}
