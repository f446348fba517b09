import Foundation
import TripDocCore

/// The in-memory store a custom migration stage's context works on: a ``DocumentStore`` seeded
/// with the document being migrated, whose saves (and their history) become the document the
/// next phase gets.
struct MigrationStageStore: DocumentStoreConfiguration {
    typealias Store = DocumentStore<MigrationStageStore>

    /// The document between phases (an object, so that the configuration stays a value the
    /// container can copy).
    final class Workspace: @unchecked Sendable {
        var document: Document
        init(_ document: Document) { self.document = document }
    }

    let workspace: Workspace
    var name: String { "migration" }
    var schema: Schema?
    var url: URL { URL(fileURLWithPath: "/dev/null") }
    var isStoredInMemoryOnly: Bool { true }
    var allowsSave: Bool { true }

    func documentFormat() throws -> any DocumentFormat { throw ModelContextError.noStore(name) }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.workspace === rhs.workspace && lhs.schema == rhs.schema }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(workspace)) }

    /// Runs `body` with a context on `document` (whose schema is `schema`), saves what it left
    /// unsaved, and returns the document as the context left it.
    static func run(_ body: (ModelContext) throws -> Void, on document: Document, schema: Schema) throws -> Document {
        let configuration = MigrationStageStore(workspace: Workspace(document), schema: schema)
        let container = try ModelContainer(for: schema, configurations: [configuration])
        let context = ModelContext(container)
        try body(context)
        if context.hasChanges { try context.save() }
        guard let store = container.stores.first?.store as? Store else { throw ModelContextError.noStore(configuration.name) }
        return try store.currentDocument()
    }
}
