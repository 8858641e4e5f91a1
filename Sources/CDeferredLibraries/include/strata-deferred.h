#ifndef STRATA_DEFERRED_H
#define STRATA_DEFERRED_H
/* The libraries a start does not need (the nested backends' libxcb-shm, libxkbcommon-x11,
 * libxcb-xkb, libwayland-client, and libxcb, which the XWM uses too) are not linked: each of their
 * functions is a stub (deferred-stubs.S) that opens its library with dlopen at the first call of
 * any of them, looks the function up once, and jumps to it with the caller's arguments untouched.
 * Code calls them as usual. docs/performance.md, "Start-up". */

/* Opens the library that defines `function` (a name of deferred-symbols.inc) if it is not open:
 * 1 when it is (or was) opened, 0 with a message in `error` (if not NULL) when it cannot be.
 * Callers that must fail cleanly (a nested backend) ask this first; a stub called without its
 * library prints why and aborts, as the dynamic loader would have refused to start. */
int strata_deferred_open(const char *function, const char **error);

/* The address of a data symbol (e.g. `xcb_shm_id`) of the library that defines `function`,
 * opening it; NULL when it cannot be found. */
void *strata_deferred_data(const char *function, const char *symbol);

#endif
