// `import SwiftData` on Linux: the module re-exports tripdoc's whole API (`import TripDoc`,
// which brings Foundation in too, as `import SwiftData` does on Apple platforms), so code written
// for SwiftData compiles unchanged and `SwiftData.Schema`, `SwiftData.ModelContext` and the other
// qualified names resolve.
@_exported import TripDoc
