/* libFuzzer's entry point for programs with their own main (compiler-rt's FuzzerDriver). */
#ifndef STRATA_FUZZ_DRIVER_H
#define STRATA_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
