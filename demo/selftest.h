// --selftest: the demo's drawing and cw_overlap agree, pixel by pixel.
#ifndef DEMO_SELFTEST_H
#define DEMO_SELFTEST_H

#include <stdbool.h>

bool run_selftest(void);

#endif
