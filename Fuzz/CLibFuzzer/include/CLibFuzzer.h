// libFuzzer's entry point for a program that has its own main (a Swift executable always has
// one): it parses libFuzzer's flags from argv and calls `test` with each input.
#ifndef NOTIPLAY_CLIBFUZZER_H
#define NOTIPLAY_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

#endif
