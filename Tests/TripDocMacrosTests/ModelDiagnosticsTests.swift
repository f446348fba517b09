import SwiftSyntaxMacrosTestSupport
import XCTest

/// The errors `@Model` reports, each on the node it is about. A property that can't be
/// persisted is left as written (no accessors, no schema entry) so that the error is
/// the only thing the user has to fix.
final class ModelDiagnosticsTests: XCTestCase {
    func testModelOnAStructIsAnError() {
        assertMacroExpansion(
            """
            @Model
            struct Trip {
                var name: String
            }
            """,
            expandedSource: """
                struct Trip {
                    var name: String
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@Model can only be applied to a class", line: 1, column: 1)],
            macroSpecs: tripDocMacroSpecs)
    }

    func testModelOnAnEnumActorProtocolOrExtensionIsAnError() {
        for keyword in ["enum", "actor", "protocol", "extension"] {
            assertMacroExpansion(
                """
                @Model
                \(keyword) Trip {
                }
                """,
                expandedSource: """
                    \(keyword) Trip {
                    }
                    """,
                diagnostics: [DiagnosticSpec(message: "@Model can only be applied to a class", line: 1, column: 1)],
                macroSpecs: tripDocMacroSpecs)
        }
    }

    func testStoredLetIsAnErrorUnlessTransient() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                let id: String
                @Transient let createdBy = "tripdoc"
            }
            """,
            expandedSource: """
                final class Trip {
                    let id: String
                    let createdBy = "tripdoc"
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'id' is a 'let'; @Model persists only 'var' properties: declare it 'var', or mark it @Transient",
                    line: 3, column: 5)
            ],
            macroSpecs: tripDocMacroSpecs)
    }

    func testPersistedPropertyNeedsATypeAnnotation() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                var name = ""
            }
            """,
            expandedSource: """
                final class Trip {
                    var name = ""
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "add a type annotation to 'name': a persisted property's type must be written out",
                    line: 3, column: 9)
            ],
            macroSpecs: tripDocMacroSpecs)
    }

    func testSeveralPropertiesInOneDeclarationIsAnError() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                var adults, children: Int
            }
            """,
            expandedSource: """
                final class Trip {
                    var adults, children: Int
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [DiagnosticSpec(message: "declare 'adults' and 'children' separately", line: 3, column: 9)],
            macroSpecs: tripDocMacroSpecs)
    }

    func testDestructuringDeclarationIsAnError() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                var (adults, children): (Int, Int)
            }
            """,
            expandedSource: """
                final class Trip {
                    var (adults, children): (Int, Int)
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "declare each property of '(adults, children)' separately: @Model persists one named property per 'var'",
                    line: 3, column: 9)
            ],
            macroSpecs: tripDocMacroSpecs)
    }

    func testObserversOnPersistedPropertyAreUnsupported() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                var nights: Int { didSet { print(nights) } }
                @Transient var isSelected = false { didSet { print(isSelected) } }
            }
            """,
            expandedSource: """
                final class Trip {
                    var nights: Int { didSet { print(nights) } }
                    var isSelected = false { didSet { print(isSelected) } }
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "willSet/didSet on persisted property 'nights' is not supported: remove the observers, or mark 'nights' @Transient",
                    line: 3, column: 21)
            ],
            macroSpecs: tripDocMacroSpecs)
    }

    func testLazyPersistedPropertyIsUnsupported() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                lazy var summary: String = ""
            }
            """,
            expandedSource: """
                final class Trip {
                    lazy var summary: String = ""
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'summary' is 'lazy', which @Model does not support on persisted properties: remove 'lazy', or mark it @Transient",
                    line: 3, column: 5)
            ],
            macroSpecs: tripDocMacroSpecs)
    }

    func testTransientPropertyNeedsAnInitialValue() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                @Transient var scratch: Int
                @Transient var note: String?
            }
            """,
            expandedSource: """
                final class Trip {
                    var scratch: Int
                    var note: String?
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Transient property 'scratch' needs an initial value: it is not saved, so a fetched model must get it from somewhere",
                    line: 3, column: 20)
            ],
            macroSpecs: tripDocMacroSpecs)
    }

    func testMarkedLetIsReportedOnceByItsMarker() {
        assertMacroExpansion(
            """
            @Model
            final class Trip {
                @Attribute(.unique) let code: String
            }
            """,
            expandedSource: """
                final class Trip {
                    let code: String
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Attribute can't be applied to 'code' because it is a 'let': declare it 'var'",
                    line: 3, column: 25)
            ],
            macroSpecs: tripDocMacroSpecs)
    }
}
