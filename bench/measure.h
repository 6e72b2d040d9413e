/// @file measure.h
/// Time and memory for the benchmarks: a monotonic clock, medians, and the process's resident
/// memory (current, peak, and resetting the peak between runs, Linux).
#ifndef BENCH_MEASURE_H
#define BENCH_MEASURE_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Milliseconds on a monotonic clock.
double bm_now_ms(void);
/// Median of v[0..n) (sorts a copy); 0 for n == 0.
double bm_median(const double *v, int n);
/// Smallest / largest of v[0..n); 0 for n == 0.
double bm_min(const double *v, int n);
double bm_max(const double *v, int n);
/// Peak RSS of the process in KiB (getrusage ru_maxrss), or -1.
long bm_peak_rss_kb(void);
/// Current RSS in KiB from /proc/self/status, or -1.
long bm_current_rss_kb(void);
/// Resets the kernel's peak-RSS mark to the current RSS (Linux); false if that is not possible,
/// in which case the peak is the whole process's so far.
bool bm_reset_peak_rss(void);
/// Gives freed heap memory back to the system where the C library can (glibc), so that the RSS
/// before a run does not include what the previous run freed.
void bm_trim_heap(void);

/// Installs a counting allocator as collworld's (cw_set_allocator over malloc/free): then
/// bm_collworld_live() and bm_collworld_peak() say what the library holds, now and at most since
/// bm_collworld_reset_peak().
bool bm_count_collworld_memory(void);
void bm_collworld_reset_peak(void);
double bm_collworld_live(void);
double bm_collworld_peak(void);

#ifdef __cplusplus
}
#endif

#endif
