import SwiftSyntaxMacrosTestSupport
import XCTest

/// `@Attribute`, `@Relationship` and `@Transient` expand to nothing (`@Model` reads them);
/// on their own they only check that they are on a property they can describe.
final class MarkerMacroTests: XCTestCase {
    func testMarkersOnStoredPropertiesExpandToNothing() {
        assertMacroExpansion(
            #"""
            final class Trip {
                @Attribute(.unique, originalName: "trip_name") var name: String
                @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
                @Transient var isSelected = false
                @Transient let createdBy = "tripdoc"
            }
            """#,
            expandedSource: """
                final class Trip {
                    var name: String
                    var stops: [Stop] = []
                    var isSelected = false
                    let createdBy = "tripdoc"
                }
                """,
            macros: tripDocMacros)
    }

    func testAttributeOnComputedPropertyIsAWarningThatItHasNoEffect() {
        // SwiftData compiles it (`@Attribute(.ephemeral) var printObject: String { … }` in
        // public apps); a computed property is never saved.
        assertMacroExpansion(
            """
            final class Trip {
                @Attribute(.ephemeral) var code: String { "" }
            }
            """,
            expandedSource: """
                final class Trip {
                    var code: String { "" }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Attribute on computed property 'code' has no effect: only stored properties are saved; make it a stored 'var' to save it, or remove @Attribute",
                    line: 2, column: 5, severity: .warning)
            ],
            macros: tripDocMacros)
    }

    func testRelationshipOnComputedPropertyIsAnError() {
        assertMacroExpansion(
            """
            final class Trip {
                @Relationship var stops: [Stop] { [] }
            }
            """,
            expandedSource: """
                final class Trip {
                    var stops: [Stop] { [] }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Relationship can't be applied to computed property 'stops': only stored properties are saved; make it a stored 'var' or remove @Relationship",
                    line: 2, column: 5)
            ],
            macros: tripDocMacros)
    }

    func testRelationshipOnLetIsAnError() {
        assertMacroExpansion(
            """
            final class Trip {
                @Relationship(deleteRule: .cascade) let stops: [Stop]
            }
            """,
            expandedSource: """
                final class Trip {
                    let stops: [Stop]
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Relationship can't be applied to 'stops' because it is a 'let': the context sets a relationship when its "
                        + "inverse changes; declare it 'var'",
                    line: 2, column: 41)
            ],
            macros: tripDocMacros)
    }

    func testAttributeOnStaticPropertyIsAnError() {
        assertMacroExpansion(
            """
            final class Trip {
                @Attribute(.unique) static var code: String = ""
            }
            """,
            expandedSource: """
                final class Trip {
                    static var code: String = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Attribute can't be applied to static property 'code': only instance properties are saved",
                    line: 2, column: 5)
            ],
            macros: tripDocMacros)
    }

    func testAttributeOnAFunctionIsAnError() {
        assertMacroExpansion(
            """
            final class Trip {
                @Attribute(.unique) func code() -> String { "" }
            }
            """,
            expandedSource: """
                final class Trip {
                    func code() -> String { "" }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Attribute can only be applied to a stored property of a @Model class",
                    line: 2, column: 5)
            ],
            macros: tripDocMacros)
    }

    func testTransientOnAComputedPropertyChangesNothing() {
        // SwiftData accepts it (`@Transient var isEmpty: Bool { items.isEmpty }` in public
        // apps); a computed property is never saved either way.
        assertMacroExpansion(
            """
            final class Trip {
                @Transient var summary: String { "" }
                @Transient var status: Int {
                    get { 1 }
                    set { print(newValue) }
                }
            }
            """,
            expandedSource: """
                final class Trip {
                    var summary: String { "" }
                    var status: Int {
                        get { 1 }
                        set { print(newValue) }
                    }
                }
                """,
            macros: tripDocMacros)
    }

    func testTransientOnAFunctionIsAnError() {
        assertMacroExpansion(
            """
            final class Trip {
                @Transient func reset() {}
            }
            """,
            expandedSource: """
                final class Trip {
                    func reset() {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Transient can only be applied to a stored property of a @Model class", line: 2, column: 5)
            ],
            macros: tripDocMacros)
    }
}
