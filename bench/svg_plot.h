/// @file svg_plot.h
/// A log-log line chart written as SVG, for the benchmark's scaling plots (no plotting package
/// needed on the machine).
#ifndef BENCH_SVG_PLOT_H
#define BENCH_SVG_PLOT_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One line: `count` points (x[k], y[k]), all positive.
typedef struct svg_series {
    const char *name;
    const char *color; ///< An SVG colour, e.g. "#d62728".
    const double *x, *y;
    int count;
} svg_series;

/// Writes the chart to `path`: log axes with decade grid lines, a legend. False if the file
/// cannot be written or no point is positive.
bool svg_loglog(const char *path, const char *title, const char *x_label, const char *y_label,
                const svg_series *series, int series_count);

#ifdef __cplusplus
}
#endif

#endif
