#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked in by -sanitize=fuzzer): parses libFuzzer's flags
/// from argv and runs `callback` on each input. See https://llvm.org/docs/LibFuzzer.html.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
