#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CInterruptCleanup.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define CINTERRUPTCLEANUP_SLOTS 64
#define CINTERRUPTCLEANUP_PATH 4096

// A slot is in use while its flag is 1; its path is written before the flag is set, so the
// handler reads only complete paths.
static char paths[CINTERRUPTCLEANUP_SLOTS][CINTERRUPTCLEANUP_PATH];
static atomic_int used[CINTERRUPTCLEANUP_SLOTS];
static pthread_mutex_t tableLock = PTHREAD_MUTEX_INITIALIZER;

int CInterruptCleanup_remember(const char *path) {
    size_t length = strlen(path);
    if (length >= CINTERRUPTCLEANUP_PATH) return -1;
    int result = -1;
    pthread_mutex_lock(&tableLock);
    for (int slot = 0; slot < CINTERRUPTCLEANUP_SLOTS; slot++) {
        if (atomic_load(&used[slot])) continue;
        memcpy(paths[slot], path, length + 1);
        atomic_store(&used[slot], 1);
        result = slot;
        break;
    }
    pthread_mutex_unlock(&tableLock);
    return result;
}

void CInterruptCleanup_forget(int slot) {
    if (slot < 0 || slot >= CINTERRUPTCLEANUP_SLOTS) return;
    atomic_store(&used[slot], 0);
}

static void CInterruptCleanup_handler(int signal) {
    // unlink, signal and raise are async-signal-safe.
    for (int slot = 0; slot < CINTERRUPTCLEANUP_SLOTS; slot++) {
        if (atomic_load(&used[slot])) unlink(paths[slot]);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
    raise(signal);
}

void CInterruptCleanup_install(void) {
    int signals[] = {SIGINT, SIGTERM, SIGHUP};
    sigset_t handled;
    sigemptyset(&handled);
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction previous;
        if (sigaction(signals[index], NULL, &previous) != 0 || previous.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = CInterruptCleanup_handler;
        sigemptyset(&action.sa_mask);
        if (sigaction(signals[index], &action, NULL) == 0) sigaddset(&handled, signals[index]);
    }
    // A parent may start the process with these signals blocked (the mask is inherited across
    // exec): they would then never end it. Handled ones are let through.
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
}
