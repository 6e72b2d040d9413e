/// @file svg_plot.c
/// A log-log line chart as SVG (see svg_plot.h).
#include "svg_plot.h"

#include <math.h>
#include <stdio.h>

enum { WIDTH = 720, HEIGHT = 400, LEFT = 70, RIGHT = 230, TOP = 40, BOTTOM = 50 };

typedef struct frame {
    double lx0, lx1, ly0, ly1; // log10 of the axes' ends (whole decades)
} frame;

static double px(const frame *f, double x) {
    return LEFT + (log10(x) - f->lx0) / (f->lx1 - f->lx0) * (WIDTH - LEFT - RIGHT);
}

static double py(const frame *f, double y) {
    return HEIGHT - BOTTOM - (log10(y) - f->ly0) / (f->ly1 - f->ly0) * (HEIGHT - TOP - BOTTOM);
}

static bool find_frame(const svg_series *series, int count, frame *f) {
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int s = 0; s < count; s++) {
        for (int k = 0; k < series[s].count; k++) {
            const double x = series[s].x[k], y = series[s].y[k];
            if (x > 0 && y > 0) {
                x0 = fmin(x0, x), x1 = fmax(x1, x), y0 = fmin(y0, y), y1 = fmax(y1, y);
            }
        }
    }
    if (!(x0 <= x1 && y0 <= y1)) {
        return false;
    }
    f->lx0 = floor(log10(x0)), f->lx1 = ceil(log10(x1)), f->ly0 = floor(log10(y0)), f->ly1 = ceil(log10(y1));
    f->lx1 += f->lx1 == f->lx0, f->ly1 += f->ly1 == f->ly0;
    return true;
}

// 1000 -> "1k", 1e6 -> "1M", 0.1 -> "0.1".
static void tick_label(char *out, size_t size, double v) {
    if (v >= 1e6) {
        snprintf(out, size, "%gM", v / 1e6);
    } else if (v >= 1e3) {
        snprintf(out, size, "%gk", v / 1e3);
    } else {
        snprintf(out, size, "%g", v);
    }
}

static void axes(FILE *out, const frame *f, const char *x_label, const char *y_label) {
    char label[32];
    for (double d = f->lx0; d <= f->lx1; d++) {
        const double x = px(f, pow(10, d));
        fprintf(out, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#ddd'/>\n", x, TOP, x, HEIGHT - BOTTOM);
        tick_label(label, sizeof label, pow(10, d));
        fprintf(out, "<text x='%.1f' y='%d' text-anchor='middle'>%s</text>\n", x, HEIGHT - BOTTOM + 18, label);
    }
    for (double d = f->ly0; d <= f->ly1; d++) {
        const double y = py(f, pow(10, d));
        fprintf(out, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>\n", LEFT, y, WIDTH - RIGHT, y);
        tick_label(label, sizeof label, pow(10, d));
        fprintf(out, "<text x='%d' y='%.1f' text-anchor='end'>%s</text>\n", LEFT - 6, y + 4, label);
    }
    fprintf(out, "<text x='%d' y='%d' text-anchor='middle'>%s</text>\n", (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 12,
            x_label);
    fprintf(out, "<text transform='translate(18 %d) rotate(-90)' text-anchor='middle'>%s</text>\n",
            (TOP + HEIGHT - BOTTOM) / 2, y_label);
}

static void line(FILE *out, const frame *f, const svg_series *s, int index) {
    fprintf(out, "<polyline fill='none' stroke='%s' stroke-width='2' points='", s->color);
    for (int k = 0; k < s->count; k++) {
        if (s->x[k] > 0 && s->y[k] > 0) {
            fprintf(out, "%.1f,%.1f ", px(f, s->x[k]), py(f, s->y[k]));
        }
    }
    fprintf(out, "'/>\n");
    for (int k = 0; k < s->count; k++) {
        if (s->x[k] > 0 && s->y[k] > 0) {
            fprintf(out, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>\n", px(f, s->x[k]), py(f, s->y[k]), s->color);
        }
    }
    const int ly = TOP + 10 + 20 * index;
    fprintf(out, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-width='2'/>\n", WIDTH - RIGHT + 12, ly,
            WIDTH - RIGHT + 32, ly, s->color);
    fprintf(out, "<text x='%d' y='%d'>%s</text>\n", WIDTH - RIGHT + 38, ly + 4, s->name);
}

bool svg_loglog(const char *path, const char *title, const char *x_label, const char *y_label,
                const svg_series *series, int series_count) {
    frame f;
    if (!find_frame(series, series_count, &f)) {
        return false;
    }
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        return false;
    }
    fprintf(out, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' "
                 "font-size='12'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
            WIDTH, HEIGHT);
    fprintf(out, "<text x='%d' y='22' font-size='15'>%s</text>\n", LEFT, title);
    axes(out, &f, x_label, y_label);
    for (int s = 0; s < series_count; s++) {
        line(out, &f, &series[s], s);
    }
    fprintf(out, "</svg>\n");
    return fclose(out) == 0;
}
