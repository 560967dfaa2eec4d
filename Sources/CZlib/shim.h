#ifndef DRAIN_CZLIB_SHIM_H
#define DRAIN_CZLIB_SHIM_H
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <zlib.h>

/* inflateInit2 and deflateInit2 are macros, which Swift does not import. Window bits 15 + 16:
   gzip members (RFC 1952) with the largest window. */
static inline int drain_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

static inline int drain_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#if defined(__linux__)
/* glibc's and musl's fopencookie(3): a FILE * whose reads call back into Drain, so that
   libpcap reads a gzip capture as zlib decompresses it. Swift's Glibc module leaves it out
   (it is declared only under _GNU_SOURCE), so it is declared here under another name; the
   struct has the layout of cookie_io_functions_t. */
typedef struct {
    ssize_t (*read)(void *cookie, char *buffer, size_t size);
    ssize_t (*write)(void *cookie, const char *buffer, size_t size);
    int (*seek)(void *cookie, int64_t *offset, int whence);
    int (*close)(void *cookie);
} drain_cookie_functions;

extern FILE *drain_fopencookie(void *cookie, const char *mode, drain_cookie_functions functions) __asm__("fopencookie");
#endif

#endif
