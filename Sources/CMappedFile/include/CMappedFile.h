// Keeps a read-only mapping of an input file from killing the process when the file shrinks
// while it is mapped (a log rotated, a file rewritten in place): the pages past the file's new
// end would raise SIGBUS when touched. A SIGBUS inside a registered mapping instead replaces
// the rest of that mapping with zero-filled memory and marks it as shrunk; the reader then
// reads zeros (which no document holds), and its caller reports that the file changed while it
// was read. Only Sources/TripDocCore/Files/DocumentFileReader.swift calls these functions.
#ifndef CMAPPEDFILE_H
#define CMAPPEDFILE_H

#include <stddef.h>

/// Registers the mapping of `length` bytes at `start` of the open file `fd` (kept open by the
/// caller until it unregisters), installing the SIGBUS handler on first use. Returns 0, or -1
/// when no more mappings can be registered (then read the file instead).
int CMappedFile_register(const void *start, size_t length, int fd);

/// Forgets the mapping at `start` (before it is unmapped).
void CMappedFile_unregister(const void *start);

/// Whether the file of the registered mapping at `start` shrank since it was mapped (pages were
/// lost, or the file is now shorter than the mapping): 1 or 0.
int CMappedFile_shrank(const void *start);

#endif
