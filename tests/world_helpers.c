// Helpers shared by the hand-made world tests (see world_helpers.h).
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "world_helpers.h"

// Runs one checked step and fails the test at once if the reference found anything.
void wh_step_at(wr_world *w, const char *file, int line)
{
    if (!wr_step(w)) {
        printf("  %s:%d: the step above failed the reference checks\n", file, line);
        fail_msg("world step disagrees with the reference");
    }
}

char wh_users[64];

cw_transform wh_at(float x, float y)
{
    cw_transform t = cw_default_transform();
    t.position = (cw_vec2){x, y};
    return t;
}

// Adds a w x h box with its corner at (x, y).
int wh_add_box(wr_world *w, float x, float y, float bw, float bh, bool is_static, void *user, int tag)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(bw, bh);
    def.transform = wh_at(x, y);
    def.is_static = is_static;
    def.user_data = user;
    ref_shape ref = ref_box(bw, bh);
    int h = wr_body_create(w, &def, &ref, tag);
    assert_true(h >= 0);
    return h;
}

wr_world *wh_make_world(const char *name, wr_hook_fn *hook, void *context)
{
    wr_options o;
    memset(&o, 0, sizeof o);
    o.name = name;
    o.hook = hook;
    o.hook_context = context;
    wr_world *w = wr_create(&o);
    assert_non_null(w);
    return w;
}

void wh_finish(wr_world *w)
{
    int failures = wr_failures(w);
    wr_destroy(w);
    assert_int_equal(failures, 0);
}

int wh_count_phase(wr_world *w, int phase)
{
    int n, c = 0;
    const wr_event *e = wr_events(w, &n);
    for (int k = 0; k < n; k++)
        c += e[k].phase == phase;
    return c;
}
