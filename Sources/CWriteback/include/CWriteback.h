// The one system call Swift's Glibc module does not offer: sync_file_range is a GNU extension,
// declared only with _GNU_SOURCE, which the module is built without. Only
// Sources/TripDocCore/Files/FileSystemCalls.swift calls it.
#ifndef CWRITEBACK_H
#define CWRITEBACK_H

#include <stdint.h>

/// Asks the kernel to start writing `count` bytes of `fd` from `offset` to disk, without waiting
/// for the writes to finish (sync_file_range with SYNC_FILE_RANGE_WRITE on Linux; it may still
/// wait while the device's queue is full). A hint: it does not make the bytes durable, and where
/// the call does not exist it does nothing and returns 0.
/// Returns 0, or -1 with errno set.
int CWriteback_start(int fd, int64_t offset, int64_t count);

#endif
