#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CMappedFile.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// A fixed table, read by the signal handler without locks: a slot is free when its start is 0.
#define CMAPPEDFILE_SLOTS 256

struct CMappedFile_slot {
    _Atomic(uintptr_t) start;
    _Atomic(size_t) length;
    atomic_int shrank;
    int fd;
};

static struct CMappedFile_slot slots[CMAPPEDFILE_SLOTS];
static struct sigaction previous;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static int installFailed = 0;
static uintptr_t pageSize = 4096;
// Serialises registering and forgetting (never taken by the handler).
static pthread_mutex_t tableLock = PTHREAD_MUTEX_INITIALIZER;

static void CMappedFile_handler(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int index = 0; index < CMAPPEDFILE_SLOTS; index++) {
        uintptr_t start = atomic_load(&slots[index].start);
        size_t length = atomic_load(&slots[index].length);
        if (start == 0 || address < start || address >= start + length) continue;
        // Zero-filled pages from the faulting one to the end of the mapping: the read that
        // faulted then finds a zero, and so does every later one. mmap is async-signal-safe.
        uintptr_t page = address & ~(pageSize - 1);
        void *replaced = mmap((void *)page, start + length - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (replaced == MAP_FAILED) break;
        atomic_store(&slots[index].shrank, 1);
        return;
    }
    // Not a mapping of ours: the previous handler (or the default action) gets the signal when
    // the instruction runs again.
    (void)signal;
    (void)context;
    sigaction(SIGBUS, &previous, NULL);
}

static void CMappedFile_install(void) {
    long size = sysconf(_SC_PAGESIZE);
    if (size > 0) pageSize = (uintptr_t)size;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = CMappedFile_handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous) != 0) installFailed = 1;
}

int CMappedFile_register(const void *start, size_t length, int fd) {
    pthread_once(&installed, CMappedFile_install);
    if (installFailed || start == NULL || length == 0) return -1;
    int result = -1;
    pthread_mutex_lock(&tableLock);
    for (int index = 0; index < CMAPPEDFILE_SLOTS; index++) {
        if (atomic_load(&slots[index].start) != 0) continue;
        // The length is set before the slot's start publishes it to the handler.
        atomic_store(&slots[index].length, length);
        atomic_store(&slots[index].shrank, 0);
        slots[index].fd = fd;
        atomic_store(&slots[index].start, (uintptr_t)start);
        result = 0;
        break;
    }
    pthread_mutex_unlock(&tableLock);
    return result;
}

void CMappedFile_unregister(const void *start) {
    pthread_mutex_lock(&tableLock);
    for (int index = 0; index < CMAPPEDFILE_SLOTS; index++) {
        if (atomic_load(&slots[index].start) == (uintptr_t)start) {
            atomic_store(&slots[index].start, 0);
            break;
        }
    }
    pthread_mutex_unlock(&tableLock);
}

int CMappedFile_shrank(const void *start) {
    int result = 0;
    pthread_mutex_lock(&tableLock);
    for (int index = 0; index < CMAPPEDFILE_SLOTS; index++) {
        if (atomic_load(&slots[index].start) != (uintptr_t)start) continue;
        // A cut inside the last page raises no SIGBUS (the page's tail reads as zeros): the
        // file's size tells.
        struct stat status;
        result = atomic_load(&slots[index].shrank)
            || (fstat(slots[index].fd, &status) == 0 && (size_t)status.st_size < atomic_load(&slots[index].length));
        break;
    }
    pthread_mutex_unlock(&tableLock);
    return result;
}
