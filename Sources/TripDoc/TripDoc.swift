// The umbrella module: `import TripDoc` brings in the core (schema, identifiers, snapshots,
// documents and the archive-store engine), every document format, and the typed model layer
// (@Model, ModelContainer, ModelContext, the DataStore protocols, typed history), and Foundation,
// whose types (Date, UUID, URL, Data) models are written in, as `import SwiftData` does on Apple
// platforms.
@_exported import Foundation
@_exported import TripDocCore
@_exported import TripDocJSON
@_exported import TripDocPlist
@_exported import TripDocBundle
@_exported import TripDocModel
