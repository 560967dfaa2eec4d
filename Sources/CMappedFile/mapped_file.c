#include "CMappedFile.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// A fixed table the SIGBUS handler can read without locks or allocation: a slot is claimed,
// filled, then published by storing its start; the handler reads only published slots.
#define GUARDED_MAPPINGS 16

struct guarded_mapping {
    atomic_int claimed;
    _Atomic uintptr_t start;
    _Atomic size_t length;
    atomic_int faulted;
};

static struct guarded_mapping mappings[GUARDED_MAPPINGS];
static struct sigaction previous_action;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_failed;
static uintptr_t page_size;

// A read of a page the file no longer covers: the rest of that mapping becomes anonymous
// zeros, so the read (retried on return) succeeds and the reader finds the file shrank. A
// SIGBUS anywhere else is not ours: the previous action is put back and, on return, the
// faulting instruction runs again and meets it. A SIGBUS sent by a process (`kill`,
// `si_code <= 0`) has no address and no instruction to run again, so it is raised again; it is
// blocked until this handler returns, then meets the previous action.
static void on_bus_error(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    (void)context;
    if (info->si_code <= 0) {
        sigaction(SIGBUS, &previous_action, NULL);
        raise(SIGBUS);
        return;
    }
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int index = 0; index < GUARDED_MAPPINGS; index++) {
        uintptr_t start = atomic_load(&mappings[index].start);
        size_t length = atomic_load(&mappings[index].length);
        if (start == 0 || address < start || address >= start + length) continue;
        uintptr_t page = address & ~(page_size - 1);
        void *zeros = mmap((void *)page, start + length - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros == MAP_FAILED) break;
        atomic_store(&mappings[index].faulted, 1);
        return;
    }
    sigaction(SIGBUS, &previous_action, NULL);
}

static void install_handler(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    install_failed = sigaction(SIGBUS, &action, &previous_action) != 0;
}

const void *drain_map_guarded(int descriptor, size_t length) {
    pthread_once(&install_once, install_handler);
    if (install_failed || length == 0) {
        errno = install_failed ? ENOTSUP : EINVAL;
        return NULL;
    }
    int slot = -1;
    for (int index = 0; index < GUARDED_MAPPINGS && slot < 0; index++) {
        int unclaimed = 0;
        if (atomic_compare_exchange_strong(&mappings[index].claimed, &unclaimed, 1)) slot = index;
    }
    if (slot < 0) {
        errno = ENFILE;
        return NULL;
    }
    void *start = mmap(NULL, length, PROT_READ, MAP_PRIVATE, descriptor, 0);
    if (start == MAP_FAILED) {
        atomic_store(&mappings[slot].claimed, 0);
        return NULL;
    }
    atomic_store(&mappings[slot].length, length);
    atomic_store(&mappings[slot].faulted, 0);
    atomic_store(&mappings[slot].start, (uintptr_t)start);
    return start;
}

static int slot_of(const void *start) {
    for (int index = 0; index < GUARDED_MAPPINGS; index++) {
        if (atomic_load(&mappings[index].start) == (uintptr_t)start) return index;
    }
    return -1;
}

int drain_mapping_faulted(const void *start) {
    int slot = slot_of(start);
    return slot >= 0 && atomic_load(&mappings[slot].faulted);
}

void drain_unmap_guarded(const void *start, size_t length) {
    int slot = slot_of(start);
    if (slot >= 0) {
        atomic_store(&mappings[slot].start, 0);
        atomic_store(&mappings[slot].claimed, 0);
    }
    munmap((void *)start, length);
}
