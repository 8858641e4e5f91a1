/* libFuzzer's entry point for programs with their own main (compiler-rt's FuzzerDriver). */
#ifndef STRATA_FUZZ_DRIVER_H
#define STRATA_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/* Symbolizes one address of the caller, which starts the sanitizers' symbolizer now: an
   llvm-symbolizer process on two pipes the runtime keeps for good. libFuzzer starts it at the
   first new function it reports (NEW_FUNC), in the middle of the run; started before the
   descriptor baseline, its pipes are part of it (WireFuzzer's descriptor check). */
void strata_fuzz_start_symbolizer(void);
#endif
