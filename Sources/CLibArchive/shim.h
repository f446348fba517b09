// The only file that includes libarchive. Swift reaches libarchive through this module alone,
// and only Sources/TripDocBundle/ZipArchive.swift calls it.
#ifndef CLIBARCHIVE_SHIM_H
#define CLIBARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

// File-type macros are casts, which Swift does not import.
static inline unsigned int CLibArchive_regularFile(void) { return AE_IFREG; }
static inline unsigned int CLibArchive_directory(void) { return AE_IFDIR; }
static inline unsigned int CLibArchive_symbolicLink(void) { return AE_IFLNK; }

#endif
