import CJemalloc
import TripDocCommandLine

// `tripdoc`: the command of TripDocCommandLine with tripdoc's own formats, on jemalloc (see
// Sources/CJemalloc/shim.h).
TripDocTool.main()
