// The only file that includes zlib. Swift reaches zlib through this module alone, and only
// Sources/TripDocBundle/DeflatedEntry.swift calls it: a bundle's entries are deflated as the
// writer makes them (raw deflate, as zip's method 8 holds it, at zlib's default level).
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 and inflateInit2 are macros, which Swift does not import. The parameters are
// those libarchive's zip writer used: raw deflate (no zlib header, a 32 KiB window), memory
// level 8, the default strategy, zlib's default level.
static inline int CZlib_deflateInit(z_streamp stream) {
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

static inline int CZlib_inflateInit(z_streamp stream) {
    return inflateInit2(stream, -15);
}

#endif
