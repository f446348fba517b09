// The umbrella module: `import TripDoc` brings in the core (schema, identifiers, snapshots,
// the DataStore protocols, documents and the archive-store engine) and every document format.
@_exported import TripDocCore
@_exported import TripDocJSON
@_exported import TripDocPlist
@_exported import TripDocBundle
