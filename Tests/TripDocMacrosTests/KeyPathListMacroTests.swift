import SwiftSyntaxMacrosTestSupport
import XCTest

/// `#Unique` and `#Index`: static lists of key-path arrays, copied verbatim and checked against
/// the model type, in a property whose type does not name it (so a non-final class can have it).
final class KeyPathListMacroTests: XCTestCase {
    func testUniqueListsItsConstraints() {
        assertMacroExpansion(
            #"""
            final class Trip {
                #Unique<Trip>([\.name, \.startDate], [\.code])
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    public static var _$uniquenessConstraints: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Trip>]] = [[\.name, \.startDate], [\.code]]
                        return keyPaths
                    }
                }
                """#,
            macros: tripDocMacros)
    }

    func testAnEmptyArrayConstrainsNothingAndIsLeftOut() {
        // SwiftData accepts `[]` among the arrays (seen in a public app); a constraint on no
        // property would make every two models equal, so it is not listed.
        assertMacroExpansion(
            #"""
            final class Movement {
                #Unique<Movement>([\.id], [])
            }
            """#,
            expandedSource: #"""
                final class Movement {
                    public static var _$uniquenessConstraints: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Movement>]] = [[\.id]]
                        return keyPaths
                    }
                }
                """#,
            macros: tripDocMacros)
    }

    func testIndexListsItsIndices() {
        assertMacroExpansion(
            #"""
            final class Trip {
                #Index<Trip>([\.name], [\Trip.startDate, \.endDate])
            }
            """#,
            expandedSource: #"""
                final class Trip {
                    public static var _$indices: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Trip>]] = [[\.name], [\Trip.startDate, \.endDate]]
                        return keyPaths
                    }
                }
                """#,
            macros: tripDocMacros)
    }

    func testMissingModelTypeIsAnError() {
        assertMacroExpansion(
            #"""
            final class Trip {
                #Unique([\.name])
            }
            """#,
            expandedSource: """
                final class Trip {
                }
                """,
            diagnostics: [DiagnosticSpec(message: #"write the model type: #Unique<Trip>([\.name])"#, line: 2, column: 5)],
            macros: tripDocMacros)
    }

    func testMissingArgumentsIsAnError() {
        assertMacroExpansion(
            """
            final class Trip {
                #Index<Trip>()
            }
            """,
            expandedSource: """
                final class Trip {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: #"#Index needs at least one array of key paths, like #Index<Trip>([\.name, \.startDate])"#,
                    line: 2, column: 5)
            ],
            macros: tripDocMacros)
    }

    func testArgumentThatIsNotAnArrayOfKeyPathsIsAnError() {
        assertMacroExpansion(
            #"""
            final class Trip {
                #Index<Trip>(\.name, ["startDate"], [])
            }
            """#,
            expandedSource: """
                final class Trip {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: #"each argument of #Index must be an array literal of key paths, like [\.name, \.startDate]"#,
                    line: 2, column: 18),
                DiagnosticSpec(
                    message: #"each argument of #Index must be an array literal of key paths, like [\.name, \.startDate]"#,
                    line: 2, column: 26),
            ],
            macros: tripDocMacros)
    }

    func testOutsideATypeIsAnError() {
        assertMacroExpansion(
            #"""
            #Unique<Trip>([\.name])
            """#,
            expandedSource: "",
            diagnostics: [
                DiagnosticSpec(message: "#Unique must be written inside the @Model class it describes", line: 1, column: 1)
            ],
            macros: tripDocMacros)
    }
}
