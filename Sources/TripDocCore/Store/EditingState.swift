import Foundation

/// The context a request comes from: an identity and the author its saves are recorded under.
public struct EditingState: Hashable, Sendable {
    /// Identifies the editing context.
    public var id: UUID
    /// The author of the context's saves (SwiftData's `ModelContext.author`), such as `"widget"`.
    public var author: String?

    /// Creates an editing state.
    public init(id: UUID = UUID(), author: String? = nil) {
        self.id = id
        self.author = author
    }
}
