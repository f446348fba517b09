import SwiftData
import TripDocTestSupport

/// The stores the app tests run against: the three document formats and memory.
struct AppStores {
    static let kinds = ["json", "plist", "tripbundle", "memory"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("swiftdata-app")
    }

    /// A configuration of `kind`: a document in the scratch folder, or memory.
    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("travel.\(kind)"))
    }

    /// A container for the app's models over a store of `kind`.
    func container(_ kind: String) throws -> ModelContainer {
        try ModelContainer(for: Journey.self, Note.self, configurations: configuration(kind))
    }
}
