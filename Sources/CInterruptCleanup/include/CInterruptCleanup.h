// Removes the temporary files of writes in progress when the process is interrupted (SIGINT,
// SIGTERM, SIGHUP), then lets the signal end the process as it would have: an interrupted
// conversion leaves no hidden partial file behind. Only
// Sources/TripDocCore/Files/AtomicFileWriter.swift and the tool's main call these functions.
#ifndef CINTERRUPTCLEANUP_H
#define CINTERRUPTCLEANUP_H

/// Remembers `path` (copied) as a file to remove on interruption. Returns a slot number for
/// CInterruptCleanup_forget, or -1 when too many are remembered (the file is then not removed).
int CInterruptCleanup_remember(const char *path);

/// Forgets the path in `slot` (once the file was renamed into place or removed).
void CInterruptCleanup_forget(int slot);

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP (signals the process ignores stay
/// ignored) and unblocks those signals in the calling thread, should the parent have started the
/// process with them blocked. Call once, early, from a program's main thread.
void CInterruptCleanup_install(void);

#endif
