#include "strata-deferred.h"
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIDDEN __attribute__((visibility("hidden")))

static const char *const library_names[] = {
#define DEFERRED_LIBRARY(index, name) [index] = name,
#define DEFERRED(library, name)
#include "deferred-symbols.inc"
#undef DEFERRED_LIBRARY
#undef DEFERRED
};
enum { LIBRARY_COUNT = sizeof library_names / sizeof library_names[0] };

static const struct { unsigned char library; const char *name; } functions[] = {
#define DEFERRED_LIBRARY(index, name)
#define DEFERRED(library, name) { library, #name },
#include "deferred-symbols.inc"
#undef DEFERRED_LIBRARY
#undef DEFERRED
};
enum { FUNCTION_COUNT = sizeof functions / sizeof functions[0] };

/* Each stub's target once looked up (zero until then): read by the stubs. */
HIDDEN void *_Atomic strata_deferred_slots[FUNCTION_COUNT];
static void *_Atomic handles[LIBRARY_COUNT];

/* The loop is one thread, but WLCS and the tests run clients on others: opening twice at once is
 * harmless (dlopen counts references; the same handle comes back). */
static void *open_library(unsigned library, const char **error) {
	void *handle = atomic_load(&handles[library]);
	if (handle) return handle;
	handle = dlopen(library_names[library], RTLD_NOW | RTLD_GLOBAL);
	if (!handle) {
		if (error) *error = dlerror();
		return NULL;
	}
	atomic_store(&handles[library], handle);
	return handle;
}

static int library_of(const char *function) {
	for (unsigned i = 0; i < FUNCTION_COUNT; i++)
		if (strcmp(functions[i].name, function) == 0) return functions[i].library;
	return -1;
}

int strata_deferred_open(const char *function, const char **error) {
	int library = library_of(function);
	if (library < 0) {
		if (error) *error = "not a deferred function";
		return 0;
	}
	return open_library((unsigned)library, error) != NULL;
}

void *strata_deferred_data(const char *function, const char *symbol) {
	int library = library_of(function);
	void *handle = library < 0 ? NULL : open_library((unsigned)library, NULL);
	return handle ? dlsym(handle, symbol) : NULL;
}

/* Called by a stub's first call (deferred-stubs.S, all argument registers saved): the function's
 * address, stored for the next calls. */
HIDDEN void *strata_deferred_resolve(unsigned long index) {
	if (index >= FUNCTION_COUNT) abort();
	const char *error = "no such function";
	void *handle = open_library(functions[index].library, &error);
	void *address = handle ? dlsym(handle, functions[index].name) : NULL;
	if (!address) {
		if (handle) error = dlerror();
		fprintf(stderr, "strata: cannot call %s from %s: %s\n", functions[index].name,
			library_names[functions[index].library], error ? error : "not found");
		abort();
	}
	atomic_store(&strata_deferred_slots[index], address);
	return address;
}
