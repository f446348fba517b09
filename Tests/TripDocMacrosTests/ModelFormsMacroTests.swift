import SwiftSyntaxMacrosTestSupport
import XCTest

/// The forms of model that SwiftData apps write: classes that are not `final` (and `public` or
/// `open`), properties whose type the compiler infers from the initial value, and `let`s.
final class ModelFormsMacroTests: XCTestCase {
    /// The accessors `@_PersistedProperty` gives `name` in `type`, and its storage.
    private func accessors(_ type: String, _ name: String, declaration: String) -> String {
        #"""
            \#(declaration) {
                @storageRestrictions(initializes: _\#(name), accesses: _$backingData)
                init(initialValue) {
                    _$backingData.setValue(forKey: \\#(type).\#(name), to: initialValue)
                    _\#(name) = TripDoc.PersistedPropertyStorage()
                }
                get {
                    _$backingData.getValue(forKey: \\#(type).\#(name))
                }
                set {
                    _$backingData.setValue(forKey: \\#(type).\#(name), to: newValue)
                }
            }

            private var _\#(name): TripDoc.PersistedPropertyStorage
        """#
    }

    func testNonFinalPublicAndOpenClassesGetTheSameMembers() {
        for declaration in ["class", "public class", "open class", "final class"] {
            assertMacroExpansion(
                """
                @Model
                \(declaration) Trip {
                    public var name: String
                    #Unique<Trip>([\\.name])
                    public init(name: String) { self.name = name }
                }
                """,
                expandedSource: #"""
                    \#(declaration) Trip {
                    \#(accessors("Trip", "name", declaration: "public var name: String"))
                        public static var _$uniquenessConstraints: [[AnyKeyPath]] {
                            let keyPaths: [[PartialKeyPath<Trip>]] = [[\.name]]
                            return keyPaths
                        }
                        public init(name: String) { self.name = name }
                    \#(modelMembers("Trip", schema: [#"TripDoc.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil)"#], storage: ["_name"]))
                    }

                    extension Trip: TripDoc.PersistentModel {
                    }
                    """#,
                macroSpecs: tripDocMacroSpecs)
        }
    }

    /// Nothing `@Model` writes names a property's type, so the compiler infers it from the initial
    /// value as for any stored property. (The test expansion drops the initial value of a property
    /// that gets accessors; the compiler keeps it and runs it through the `init` accessor.)
    func testUnannotatedPropertiesArePersistedWithTheirInferredTypes() {
        assertMacroExpansion(
            """
            @Model
            class Trip {
                var name = ""
                var nights = 0
                var created = Date()
                var sights = [Sight]()
                var ratings = [String: Int]()
            }
            """,
            expandedSource: #"""
                class Trip {
                \#(accessors("Trip", "name", declaration: "var name"))
                \#(accessors("Trip", "nights", declaration: "var nights"))
                \#(accessors("Trip", "created", declaration: "var created"))
                \#(accessors("Trip", "sights", declaration: "var sights"))
                \#(accessors("Trip", "ratings", declaration: "var ratings"))
                \#(modelMembers(
                    "Trip",
                    schema: [
                        #"TripDoc.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: "", metadata: nil)"#,
                        #"TripDoc.Schema.PropertyMetadata(name: "nights", keypath: \Trip.nights, defaultValue: 0, metadata: nil)"#,
                        #"TripDoc.Schema.PropertyMetadata(name: "created", keypath: \Trip.created, defaultValue: nil, metadata: nil)"#,
                        #"TripDoc.Schema.PropertyMetadata(name: "sights", keypath: \Trip.sights, defaultValue: [Sight](), metadata: nil)"#,
                        #"TripDoc.Schema.PropertyMetadata(name: "ratings", keypath: \Trip.ratings, defaultValue: [String: Int](), metadata: nil)"#,
                    ],
                    storage: ["_name", "_nights", "_created", "_sights", "_ratings"]))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """#,
            macroSpecs: tripDocMacroSpecs)
    }

    /// The schema's default value is the initial value only when that is the same every time:
    /// `Date()`, `Date.now`, `UUID()` and calls are each new model's own.
    func testOnlyConstantInitialValuesAreSchemaDefaults() {
        let cases: [(initializer: String, isDefault: Bool)] = [
            (#""tripdoc""#, true), ("-1", true), ("2.5", true), ("true", true), ("nil", true),
            (#"["a", "b"]"#, true), ("[:]", true), ("[Stop]()", true), (".active", true),
            ("Status.active", true), ("Date.distantPast", true), ("Date.now", false), (".now", false),
            ("Date()", false), ("UUID()", false), ("makeCode()", false), (#""trip \(count)""#, false),
            ("count", false),
        ]
        for (initializer, isDefault) in cases {
            let defaultValue = isDefault ? initializer : "nil"
            assertMacroExpansion(
                """
                @Model
                final class Trip {
                    @Transient var value: Int = 0
                    @Attribute var code: Code = \(initializer)
                }
                """,
                expandedSource: #"""
                    final class Trip {
                        var value: Int = 0
                    \#(accessors("Trip", "code", declaration: "var code: Code"))
                    \#(modelMembers("Trip", schema: [#"TripDoc.Schema.PropertyMetadata(name: "code", keypath: \Trip.code, defaultValue: "# + defaultValue + ", metadata: TripDoc.Schema.AttributeMetadata())"], storage: ["_code"]))
                    }

                    extension Trip: TripDoc.PersistentModel {
                    }
                    """#,
                macroSpecs: tripDocMacroSpecs)
        }
    }

    func testLetsArePersistedWithoutAccessors() {
        assertMacroExpansion(
            """
            @Model
            class Trip {
                let id = UUID()
                let createdBy: String
                @Attribute(.unique) let code: String
                init(createdBy: String, code: String) { self.createdBy = createdBy; self.code = code }
            }
            """,
            expandedSource: #"""
                class Trip {
                    let id = UUID()
                    let createdBy: String
                    let code: String
                    init(createdBy: String, code: String) { self.createdBy = createdBy; self.code = code }
                    private var _$backingData: any TripDoc.BackingData<Trip> = Trip.createBackingData()

                    public var persistentBackingData: any TripDoc.BackingData<Trip> {
                        get {
                            _$backingData
                        }
                        set {
                            _$backingData = newValue
                        }
                    }

                    public static var schemaMetadata: [TripDoc.Schema.PropertyMetadata] {
                        [
                            TripDoc.Schema.PropertyMetadata(name: "id", keypath: \Trip.id, defaultValue: nil, metadata: nil),
                            TripDoc.Schema.PropertyMetadata(name: "createdBy", keypath: \Trip.createdBy, defaultValue: nil, metadata: nil),
                            TripDoc.Schema.PropertyMetadata(name: "code", keypath: \Trip.code, defaultValue: nil, metadata: TripDoc.Schema.AttributeMetadata(.unique))
                        ]
                    }

                    public required init(backingData: any TripDoc.BackingData<Trip>) {
                        self.createdBy = backingData.getValue(forKey: \Trip.createdBy)
                        self.code = backingData.getValue(forKey: \Trip.code)
                        _$backingData = backingData
                    }
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """#,
            macroSpecs: tripDocMacroSpecs)
    }

    /// A fetched model's `let` gets its saved value after `init(backingData:)`; reads of a `let`
    /// with a literal initial value may be folded into the literal by the optimizer.
    func testLetWithAConstantInitialValueIsAWarning() {
        assertMacroExpansion(
            """
            @Model
            class Trip {
                let version = 1
                let id = UUID()
            }
            """,
            expandedSource: #"""
                class Trip {
                    let version = 1
                    let id = UUID()
                \#(modelMembers(
                    "Trip",
                    schema: [
                        #"TripDoc.Schema.PropertyMetadata(name: "version", keypath: \Trip.version, defaultValue: 1, metadata: nil)"#,
                        #"TripDoc.Schema.PropertyMetadata(name: "id", keypath: \Trip.id, defaultValue: nil, metadata: nil)"#,
                    ]))
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'version' is a 'let' whose initial value is a constant: an optimized build may read that "
                        + "constant instead of the value a fetched model was saved with; declare it 'var'",
                    line: 3, column: 19, severity: .warning)
            ],
            macroSpecs: tripDocMacroSpecs)
    }

    /// The compiler tells `@Model` no conformance is missing when a superclass is a model.
    func testAModelSubclassOfAModelIsAnError() {
        assertMacroExpansion(
            """
            @Model
            class Excursion: Trip {
                var guide: String = ""
            }
            """,
            expandedSource: #"""
                class Excursion: Trip {
                \#(accessors("Excursion", "guide", declaration: "var guide: String"))

                    private var _$backingData = TripDoc._RefusedModelBackingData()
                }
                """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Model on 'Excursion', a subclass of the model 'Trip', is not supported: tripdoc has no model "
                        + "inheritance; remove @Model to store 'Excursion' as a 'Trip', or make 'Excursion' a model of its "
                        + "own that does not inherit from 'Trip'",
                    line: 1, column: 1)
            ],
            macroSpecs: tripDocMacroSpecsForModelSubclass)
    }

    func testAClassWhoseConformanceIsInAnExtensionIsNotASubclass() {
        assertMacroExpansion(
            """
            @Model
            class Note {
            }
            """,
            expandedSource: """
                class Note {
                \(modelMembers("Note"))
                }
                """,
            macroSpecs: tripDocMacroSpecsForModelSubclass)
    }

    func testAClassThatDeclaresTheConformanceItselfIsNotASubclass() {
        assertMacroExpansion(
            """
            @Model
            class Note: PersistentModel {
            }
            """,
            expandedSource: """
                class Note: PersistentModel {
                \(modelMembers("Note"))
                }
                """,
            macroSpecs: tripDocMacroSpecsForModelSubclass)
    }
}
