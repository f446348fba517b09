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
                            _name = TripDoc.PersistedPropertyStorage()
                        }
                        get {
                            _$backingData.getValue(forKey: \Trip.name)
                        }
                        set {
                            _$backingData.setValue(forKey: \Trip.name, to: newValue)
                        }
                    }

                    private var _name: TripDoc.PersistedPropertyStorage
                }
                """#,
            macros: ["_PersistedProperty": PersistedPropertyMacro.self])
    }

    func testObserversRunAroundTheChangeInTheSetter() {
        assertMacroExpansion(
            """
            final class Trip {
                @_PersistedProperty
                var nights: Int {
                    willSet(next) { print(next) }
                    didSet {
                        guard oldValue != nights else { return }
                        changed = true
                    }
                }
            }
            """,
            expandedSource: #"""
                final class Trip {
                    var nights: Int {
                        willSet(next) { print(next) }
                        didSet {
                            guard oldValue != nights else { return }
                            changed = true
                        }
                        @storageRestrictions(initializes: _nights, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.nights, to: initialValue)
                            _nights = TripDoc.PersistedPropertyStorage()
                        }

                        get {
                            _$backingData.getValue(forKey: \Trip.nights)
                        }

                        set {
                            guard TripDoc.PersistedPropertyObservers.begin(self, \Trip.nights) else {
                                _$backingData.setValue(forKey: \Trip.nights, to: newValue)
                                return
                            }
                            defer {
                                TripDoc.PersistedPropertyObservers.end(self, \Trip.nights)
                            }
                            let oldValue = _$backingData.getValue(forKey: \Trip.nights)
                            _ = { () -> Void in
                                let next = newValue
                                print(next)
                            }()
                            _$backingData.setValue(forKey: \Trip.nights, to: newValue)
                            _ = { () -> Void in
                                guard oldValue != self.nights else {
                                    return
                                }
                                changed = true
                            }()
                        }
                    }

                    private var _nights: TripDoc.PersistedPropertyStorage
                }
                """#,
            macros: ["_PersistedProperty": PersistedPropertyMacro.self])
    }

    func testObserversUseTheirOwnPropertyThroughSelf() {
        // In the setter, a bare use of the property itself would make the compiler warn
        // ("attempting to modify 'nights' within its own setter"); a stored property's observer
        // writes it without a warning, so the setter writes `self.nights`. A member of another
        // value, a key path, an argument label and a body declaring the name stay as written.
        assertMacroExpansion(
            """
            final class Trip {
                @_PersistedProperty
                var nights: Int {
                    didSet {
                        if nights < 0 { nights = 0 }
                        other.nights += nights
                        log(nights: \\Trip.nights)
                    }
                }
                @_PersistedProperty
                var days: Int {
                    willSet { let days = newValue * 2; print(days) }
                }
            }
            """,
            expandedSource: #"""
                final class Trip {
                    var nights: Int {
                        didSet {
                            if nights < 0 { nights = 0 }
                            other.nights += nights
                            log(nights: \Trip.nights)
                        }
                        @storageRestrictions(initializes: _nights, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.nights, to: initialValue)
                            _nights = TripDoc.PersistedPropertyStorage()
                        }

                        get {
                            _$backingData.getValue(forKey: \Trip.nights)
                        }

                        set {
                            guard TripDoc.PersistedPropertyObservers.begin(self, \Trip.nights) else {
                                _$backingData.setValue(forKey: \Trip.nights, to: newValue)
                                return
                            }
                            defer {
                                TripDoc.PersistedPropertyObservers.end(self, \Trip.nights)
                            }
                            _$backingData.setValue(forKey: \Trip.nights, to: newValue)
                            _ = { () -> Void in
                                if self.nights < 0 {
                                    self.nights = 0
                                }
                                other.nights += self.nights
                                log(nights: \Trip.nights)
                            }()
                        }
                    }

                    private var _nights: TripDoc.PersistedPropertyStorage
                    var days: Int {
                        willSet { let days = newValue * 2; print(days) }
                        @storageRestrictions(initializes: _days, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.days, to: initialValue)
                            _days = TripDoc.PersistedPropertyStorage()
                        }

                        get {
                            _$backingData.getValue(forKey: \Trip.days)
                        }

                        set {
                            guard TripDoc.PersistedPropertyObservers.begin(self, \Trip.days) else {
                                _$backingData.setValue(forKey: \Trip.days, to: newValue)
                                return
                            }
                            defer {
                                TripDoc.PersistedPropertyObservers.end(self, \Trip.days)
                            }
                            _ = { () -> Void in
                                let days = newValue * 2;
                                print(days)
                            }()
                            _$backingData.setValue(forKey: \Trip.days, to: newValue)
                        }
                    }

                    private var _days: TripDoc.PersistedPropertyStorage
                }
                """#,
            macros: ["_PersistedProperty": PersistedPropertyMacro.self])
    }

    func testObserversThatMayMeanSomethingElseByThePropertysNameKeepTheirText() {
        // A closure capturing the name, and an observer whose parameter has the property's name:
        // a bare use there means the capture or the parameter, not the property.
        assertMacroExpansion(
            """
            final class Trip {
                @_PersistedProperty
                var nights: Int {
                    didSet { Task { [nights] in await sync(nights) } }
                }
                @_PersistedProperty
                var days: Int {
                    willSet(days) { print(days) }
                }
            }
            """,
            expandedSource: #"""
                final class Trip {
                    var nights: Int {
                        didSet { Task { [nights] in await sync(nights) } }
                        @storageRestrictions(initializes: _nights, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.nights, to: initialValue)
                            _nights = TripDoc.PersistedPropertyStorage()
                        }

                        get {
                            _$backingData.getValue(forKey: \Trip.nights)
                        }

                        set {
                            guard TripDoc.PersistedPropertyObservers.begin(self, \Trip.nights) else {
                                _$backingData.setValue(forKey: \Trip.nights, to: newValue)
                                return
                            }
                            defer {
                                TripDoc.PersistedPropertyObservers.end(self, \Trip.nights)
                            }
                            _$backingData.setValue(forKey: \Trip.nights, to: newValue)
                            _ = { () -> Void in
                                Task { [nights] in
                                    await sync(nights)
                                }
                            }()
                        }
                    }

                    private var _nights: TripDoc.PersistedPropertyStorage
                    var days: Int {
                        willSet(days) { print(days) }
                        @storageRestrictions(initializes: _days, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.days, to: initialValue)
                            _days = TripDoc.PersistedPropertyStorage()
                        }

                        get {
                            _$backingData.getValue(forKey: \Trip.days)
                        }

                        set {
                            guard TripDoc.PersistedPropertyObservers.begin(self, \Trip.days) else {
                                _$backingData.setValue(forKey: \Trip.days, to: newValue)
                                return
                            }
                            defer {
                                TripDoc.PersistedPropertyObservers.end(self, \Trip.days)
                            }
                            _ = { () -> Void in
                                let days = newValue
                                print(days)
                            }()
                            _$backingData.setValue(forKey: \Trip.days, to: newValue)
                        }
                    }

                    private var _days: TripDoc.PersistedPropertyStorage
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
                                _default = TripDoc.PersistedPropertyStorage()
                            }
                            get {
                                _$backingData.getValue(forKey: \Trip.`default`)
                            }
                            set {
                                _$backingData.setValue(forKey: \Trip.`default`, to: newValue)
                            }
                        }

                        private var _default: TripDoc.PersistedPropertyStorage
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
