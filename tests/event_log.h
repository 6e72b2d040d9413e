// A small log of contact events for hand-made world tests: each event with its phase, in the order
// the callbacks got them (up to 256 per log).
#ifndef CW_TEST_EVENT_LOG_H
#define CW_TEST_EVENT_LOG_H

#include <string.h>

#include "collworld.h"
#include "suites.h"

typedef struct logged {
    int phase; // 0 end, 1 begin, 2 stay
    cw_contact c;
} logged;

typedef struct event_log {
    logged e[256];
    int n;
} event_log;

static inline void log_event(event_log *log, int phase, const cw_contact *c)
{
    if (log->n < 256)
        log->e[log->n++] = (logged){phase, *c};
}

static inline void on_begin(const cw_contact *c, void *ctx) { log_event(ctx, 1, c); }
static inline void on_stay(const cw_contact *c, void *ctx) { log_event(ctx, 2, c); }
static inline void on_end(const cw_contact *c, void *ctx) { log_event(ctx, 0, c); }

// A default world with all three callbacks logging into `log` (emptied).
static inline cw_world *logging_world(event_log *log)
{
    cw_world_def def = cw_default_world_def();
    def.on_begin = on_begin, def.on_stay = on_stay, def.on_end = on_end, def.context = log;
    memset(log, 0, sizeof *log);
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    return world;
}

#endif
