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
                        "declare each property of '(adults, children)' separately: @Model persists one named property per declaration",
                    line: 3, column: 9)
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
                @Relationship(deleteRule: .cascade) let stops: [Stop]
            }
            """,
            expandedSource: """
                final class Trip {
                    let stops: [Stop]
                \(modelMembers("Trip"))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Relationship can't be applied to 'stops' because it is a 'let': the context sets a "
                        + "relationship when its inverse changes; declare it 'var'",
                    line: 3, column: 41)
            ],
            macroSpecs: tripDocMacroSpecs)
    }
}
