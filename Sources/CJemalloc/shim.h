// The only file that includes jemalloc. The command-line tools link it as their allocator:
// jemalloc's malloc and free replace the C library's for the whole process. Its per-thread
// caches return memory freed on one thread to the arena of the thread that allocated it in
// batches, where glibc takes that arena's lock for each block: the pipelined conversions
// allocate snapshots on one thread and free them on another.
#ifndef CJEMALLOC_SHIM_H
#define CJEMALLOC_SHIM_H

#include <jemalloc/jemalloc.h>

#endif
