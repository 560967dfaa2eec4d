// SwiftPM builds a C target from its sources; the declaration in include/ is all there is:
// the definition comes from libFuzzer, linked by -sanitize=fuzzer.
#include "CFuzzerDriver.h"
