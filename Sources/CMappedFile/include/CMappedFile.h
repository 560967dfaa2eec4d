#ifndef DRAIN_C_MAPPED_FILE_H
#define DRAIN_C_MAPPED_FILE_H

#include <stddef.h>

/// Maps the first `length` bytes of the open file `descriptor` read-only and guards the
/// mapping: if the file shrinks while it is mapped, a read past its new end does not kill the
/// process with SIGBUS; the rest of the mapping reads as zeros from then on and
/// `drain_mapping_faulted` says so. Returns NULL with errno set when the file cannot be mapped
/// or too many mappings are guarded at once (ENFILE).
const void *drain_map_guarded(int descriptor, size_t length);

/// Whether a read of the guarded mapping at `start` found the file shorter than it was mapped
/// (the bytes from that page on read as zeros).
int drain_mapping_faulted(const void *start);

/// Stops guarding the mapping at `start` and unmaps its `length` bytes.
void drain_unmap_guarded(const void *start, size_t length);

/// Asks the processor to bring the cache line holding `address` in ahead of a read. Never
/// faults, whatever the address.
static inline void drain_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
