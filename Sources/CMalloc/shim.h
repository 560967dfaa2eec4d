#ifndef DRAIN_CMALLOC_SHIM_H
#define DRAIN_CMALLOC_SHIM_H
// glibc's malloc extensions (malloc_trim), where the C library has them.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif
#endif
