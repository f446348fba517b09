import SwiftSyntaxMacrosTestSupport
import TripDocMacros
import XCTest

/// `@_PersistedProperty`, which `@Model` puts on each persisted property.
final class PersistedPropertyMacroTests: XCTestCase {
    func testPropertyReadsAndWritesBackingDataByKeyPath() {
        assertMacroExpansion(
            """
            final class Trip {
                @_PersistedProperty
                var name: String
            }
            """,
            expandedSource: #"""
                final class Trip {
                    var name: String {
                        @storageRestrictions(initializes: _name, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.name, to: initialValue)
                            _name = ()
                        }
                        get {
                            _$backingData.getValue(forKey: \Trip.name)
                        }
                        set {
                            _$backingData.setValue(forKey: \Trip.name, to: newValue)
                        }
                    }

                    private var _name: Void
                }
                """#,
            macros: ["_PersistedProperty": PersistedPropertyMacro.self])
    }

    func testKeyPathNamesTheInnermostType() {
        assertMacroExpansion(
            """
            enum Travel {
                final class Trip {
                    @_PersistedProperty
                    var `default`: Bool
                }
            }
            """,
            expandedSource: #"""
                enum Travel {
                    final class Trip {
                        var `default`: Bool {
                            @storageRestrictions(initializes: _default, accesses: _$backingData)
                            init(initialValue) {
                                _$backingData.setValue(forKey: \Trip.`default`, to: initialValue)
                                _default = ()
                            }
                            get {
                                _$backingData.getValue(forKey: \Trip.`default`)
                            }
                            set {
                                _$backingData.setValue(forKey: \Trip.`default`, to: newValue)
                            }
                        }

                        private var _default: Void
                    }
                }
                """#,
            macros: ["_PersistedProperty": PersistedPropertyMacro.self])
    }

    func testOutsideAClassIsAnError() {
        assertMacroExpansion(
            """
            @_PersistedProperty
            var name: String
            """,
            expandedSource: """
                var name: String
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@_PersistedProperty is added by @Model; use it only on a property of a @Model class",
                    line: 1, column: 1)
            ],
            macros: ["_PersistedProperty": PersistedPropertyMacro.self])
    }
}
