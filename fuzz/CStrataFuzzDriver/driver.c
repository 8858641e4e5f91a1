/* The header declares what libFuzzer's runtime defines, and one helper. */
#include "strata-fuzz-driver.h"

/* compiler-rt's sanitizer interface (sanitizer/common_interface_defs.h). */
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out_buf, size_t out_buf_size);

void strata_fuzz_start_symbolizer(void) {
	char description[256];
	__sanitizer_symbolize_pc(__builtin_return_address(0), "%p %F %L", description, sizeof description);
}
