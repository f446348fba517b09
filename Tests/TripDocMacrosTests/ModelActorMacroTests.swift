import SwiftSyntaxMacrosTestSupport
import XCTest

/// `@ModelActor`: the executor, the container and `init(modelContainer:)`, and the conformance.
final class ModelActorMacroTests: XCTestCase {
    func testActorGetsExecutorContainerInitAndConformance() {
        assertMacroExpansion(
            """
            @ModelActor
            actor TripImporter {
                func count() -> Int { 0 }
            }
            """,
            expandedSource: """
                actor TripImporter {
                    func count() -> Int { 0 }

                    nonisolated let modelExecutor: any TripDoc.ModelExecutor

                    nonisolated let modelContainer: TripDoc.ModelContainer

                    init(modelContainer: TripDoc.ModelContainer) {
                        let modelContext = TripDoc.ModelContext(modelContainer)
                        self.modelExecutor = TripDoc.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension TripImporter: TripDoc.ModelActor {
                }
                """,
            macroSpecs: tripDocMacroSpecs)
    }

    func testPublicActorGetsPublicMembers() {
        assertMacroExpansion(
            """
            @ModelActor
            public actor TripImporter {
            }
            """,
            expandedSource: """
                public actor TripImporter {

                    public nonisolated let modelExecutor: any TripDoc.ModelExecutor

                    public nonisolated let modelContainer: TripDoc.ModelContainer

                    public init(modelContainer: TripDoc.ModelContainer) {
                        let modelContext = TripDoc.ModelContext(modelContainer)
                        self.modelExecutor = TripDoc.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension TripImporter: TripDoc.ModelActor {
                }
                """,
            macroSpecs: tripDocMacroSpecs)
    }

    func testModelActorOnAClassIsAnError() {
        assertMacroExpansion(
            """
            @ModelActor
            final class TripImporter {
            }
            """,
            expandedSource: """
                final class TripImporter {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@ModelActor can only be applied to an actor: write '@ModelActor actor Name { … }'", line: 1,
                    column: 1)
            ],
            macroSpecs: tripDocMacroSpecs)
    }
}
