/// @file measure.c
/// Time and memory for the benchmarks (see measure.h).
#define _GNU_SOURCE

#include "measure.h"

#include "collworld.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

double bm_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *x, const void *y) {
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double bm_median(const double *v, int n) {
    if (n <= 0) {
        return 0.0;
    }
    double *c = malloc(sizeof(double) * (size_t)n);
    if (c == NULL) {
        return v[0];
    }
    memcpy(c, v, sizeof(double) * (size_t)n);
    qsort(c, (size_t)n, sizeof(double), cmp_double);
    const double m = (n % 2) ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}

double bm_min(const double *v, int n) {
    double m = n > 0 ? v[0] : 0.0;
    for (int i = 1; i < n; i++) {
        m = v[i] < m ? v[i] : m;
    }
    return m;
}

double bm_max(const double *v, int n) {
    double m = n > 0 ? v[0] : 0.0;
    for (int i = 1; i < n; i++) {
        m = v[i] > m ? v[i] : m;
    }
    return m;
}

long bm_peak_rss_kb(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) {
        return -1;
    }
    return ru.ru_maxrss;
}

long bm_current_rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) {
        return -1;
    }
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb;
}

bool bm_reset_peak_rss(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f == NULL) {
        return false;
    }
    const bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

void bm_trim_heap(void) {
#if defined(__GLIBC__)
    (void)malloc_trim(0);
#endif
}

static size_t g_live, g_peak;

static void *counting_alloc(size_t size, void *context) {
    (void)context;
    void *p = malloc(size);
    if (p != NULL) {
        g_live += size;
        g_peak = g_live > g_peak ? g_live : g_peak;
    }
    return p;
}

static void counting_free(void *memory, size_t size, void *context) {
    (void)context;
    g_live -= size;
    free(memory);
}

bool bm_count_collworld_memory(void) {
    return cw_set_allocator(counting_alloc, counting_free, NULL);
}

void bm_collworld_reset_peak(void) {
    g_peak = g_live;
}

double bm_collworld_live(void) {
    return (double)g_live;
}

double bm_collworld_peak(void) {
    return (double)g_peak;
}
