// A malloc counter: these definitions in the executable take precedence over libc's for every
// library in the process (ELF symbol interposition); each forwards to glibc's __libc_* entry.
#include "CMallocCounter.h"
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static volatile int counting;
static volatile uint64_t count;

uint64_t strata_malloc_count(void) { return count; }
void strata_malloc_counting(int on) { counting = on; }

#define COUNT() do { if (counting) count++; } while (0)

void *malloc(size_t size) { COUNT(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { COUNT(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { COUNT(); return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t alignment, size_t size) { COUNT(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { COUNT(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    COUNT();
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p && size) return ENOMEM;
    *out = p;
    return 0;
}

#include <valgrind/callgrind.h>

static int collecting;

void strata_callgrind_collect(int on) {
    if (!!on != collecting) {
        CALLGRIND_TOGGLE_COLLECT;
        collecting = !!on;
    }
}
