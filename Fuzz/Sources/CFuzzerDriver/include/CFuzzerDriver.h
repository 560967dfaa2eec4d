// libFuzzer's entry for programs with a main() of their own (compiler-rt's FuzzerDriver):
// runs the fuzzer with the command line's arguments, calling `callback` with each input.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
