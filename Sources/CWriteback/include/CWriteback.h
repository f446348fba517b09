// The system calls Swift's Glibc module does not offer: sync_file_range and renameat2 are GNU
// extensions, declared only with _GNU_SOURCE, which the module is built without. Only
// Sources/TripDocCore/Files/FileSystemCalls.swift calls them.
#ifndef CWRITEBACK_H
#define CWRITEBACK_H

#include <stdint.h>

/// Asks the kernel to start writing `count` bytes of `fd` from `offset` to disk, without waiting
/// for the writes to finish (sync_file_range with SYNC_FILE_RANGE_WRITE on Linux; it may still
/// wait while the device's queue is full). A hint: it does not make the bytes durable, and where
/// the call does not exist it does nothing and returns 0.
/// Returns 0, or -1 with errno set.
int CWriteback_start(int fd, int64_t offset, int64_t count);

/// Renames `from` to `to` unless `to` exists (renameat2 with RENAME_NOREPLACE on Linux): of two
/// callers, one succeeds and the other fails with EEXIST. Where the file system or the system
/// does not support it, returns -1 with errno EINVAL or ENOSYS.
/// Returns 0, or -1 with errno set.
int CWriteback_renameWithoutReplacing(const char *from, const char *to);

#endif
