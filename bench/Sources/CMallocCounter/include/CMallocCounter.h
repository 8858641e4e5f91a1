#pragma once
#include <stdint.h>

/// Allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made in
/// this process while counting was on. Single-threaded use: the counters are plain globals.
uint64_t strata_malloc_count(void);
/// Turns counting on or off (off at start).
void strata_malloc_counting(int on);

/// Turns callgrind's collection on or off (a no-op outside valgrind): run under
/// `valgrind --tool=callgrind --collect-atstart=no` to count only the bracketed part.
void strata_callgrind_collect(int on);
