import SwiftSyntaxMacrosTestSupport
import XCTest

/// What `@Model` turns a class into: accessors on each persisted property, the backing
/// data, the schema, `init(backingData:)` and the `PersistentModel` conformance.
///
/// swift-syntax's test expansion drops an initializer such as `= [BucketListItem]()`
/// once a property gets accessors. The compiler instead keeps it and runs it through the
/// `init` accessor (SE-0389 calls it "subsumed"), so the default value still reaches the
/// backing data; `schemaMetadata` records it either way.
final class ModelMacroTests: XCTestCase {
    func testTripGetsPersistedPropertiesSchemaAndConformance() {
        assertMacroExpansion(
            #"""
            @Model
            final class Trip {
                var name: String
                var destination: String
                @Attribute(.preserveValueOnDeletion) var startDate: Date
                @Attribute(.preserveValueOnDeletion, originalName: "end_date") var endDate: Date
                @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip)
                var bucketList: [BucketListItem] = [BucketListItem]()
                @Relationship(deleteRule: .cascade, inverse: \LivingAccommodation.trip)
                var livingAccommodation: LivingAccommodation?
                @Transient var isSelected: Bool = false
                var displayName: String { name.uppercased() }
                static var count = 0
                #Unique<Trip>([\.name, \.startDate, \.endDate])
                #Index<Trip>([\.name], [\.startDate], [\.endDate], [\.name, \.startDate, \.endDate])
                init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture) {
                    self.name = name; self.destination = destination; self.startDate = startDate; self.endDate = endDate
                }
            }
            """#,
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
                    var destination: String {
                        @storageRestrictions(initializes: _destination, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.destination, to: initialValue)
                            _destination = TripDoc.PersistedPropertyStorage()
                        }
                        get {
                            _$backingData.getValue(forKey: \Trip.destination)
                        }
                        set {
                            _$backingData.setValue(forKey: \Trip.destination, to: newValue)
                        }
                    }

                    private var _destination: TripDoc.PersistedPropertyStorage
                    var startDate: Date {
                        @storageRestrictions(initializes: _startDate, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.startDate, to: initialValue)
                            _startDate = TripDoc.PersistedPropertyStorage()
                        }
                        get {
                            _$backingData.getValue(forKey: \Trip.startDate)
                        }
                        set {
                            _$backingData.setValue(forKey: \Trip.startDate, to: newValue)
                        }
                    }

                    private var _startDate: TripDoc.PersistedPropertyStorage
                    var endDate: Date {
                        @storageRestrictions(initializes: _endDate, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.endDate, to: initialValue)
                            _endDate = TripDoc.PersistedPropertyStorage()
                        }
                        get {
                            _$backingData.getValue(forKey: \Trip.endDate)
                        }
                        set {
                            _$backingData.setValue(forKey: \Trip.endDate, to: newValue)
                        }
                    }

                    private var _endDate: TripDoc.PersistedPropertyStorage
                    var bucketList: [BucketListItem] {
                        @storageRestrictions(initializes: _bucketList, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.bucketList, to: initialValue)
                            _bucketList = TripDoc.PersistedPropertyStorage()
                        }
                        get {
                            _$backingData.getValue(forKey: \Trip.bucketList)
                        }
                        set {
                            _$backingData.setValue(forKey: \Trip.bucketList, to: newValue)
                        }
                    }

                    private var _bucketList: TripDoc.PersistedPropertyStorage
                    var livingAccommodation: LivingAccommodation? {
                        @storageRestrictions(initializes: _livingAccommodation, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Trip.livingAccommodation, to: initialValue)
                            _livingAccommodation = TripDoc.PersistedPropertyStorage()
                        }
                        get {
                            _$backingData.getValue(forKey: \Trip.livingAccommodation)
                        }
                        set {
                            _$backingData.setValue(forKey: \Trip.livingAccommodation, to: newValue)
                        }
                    }

                    private var _livingAccommodation: TripDoc.PersistedPropertyStorage
                    var isSelected: Bool = false
                    var displayName: String { name.uppercased() }
                    static var count = 0
                    public static var _$uniquenessConstraints: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Trip>]] = [[\.name, \.startDate, \.endDate]]
                        return keyPaths
                    }
                    public static var _$indices: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Trip>]] = [[\.name], [\.startDate], [\.endDate], [\.name, \.startDate, \.endDate]]
                        return keyPaths
                    }
                    init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture) {
                        self.name = name; self.destination = destination; self.startDate = startDate; self.endDate = endDate
                    }
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
                            TripDoc.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil),
                            TripDoc.Schema.PropertyMetadata(name: "destination", keypath: \Trip.destination, defaultValue: nil, metadata: nil),
                            TripDoc.Schema.PropertyMetadata(name: "startDate", keypath: \Trip.startDate, defaultValue: nil, metadata: TripDoc.Schema.AttributeMetadata(.preserveValueOnDeletion)),
                            TripDoc.Schema.PropertyMetadata(name: "endDate", keypath: \Trip.endDate, defaultValue: nil, metadata: TripDoc.Schema.AttributeMetadata(.preserveValueOnDeletion, originalName: "end_date")),
                            TripDoc.Schema.PropertyMetadata(name: "bucketList", keypath: \Trip.bucketList, defaultValue: [BucketListItem](), metadata: TripDoc.Schema.RelationshipMetadata(deleteRule: .cascade, inverse: \BucketListItem.trip)),
                            TripDoc.Schema.PropertyMetadata(name: "livingAccommodation", keypath: \Trip.livingAccommodation, defaultValue: nil, metadata: TripDoc.Schema.RelationshipMetadata(deleteRule: .cascade, inverse: \LivingAccommodation.trip))
                        ]
                    }

                    public required init(backingData: any TripDoc.BackingData<Trip>) {
                        _name = TripDoc.PersistedPropertyStorage()
                        _destination = TripDoc.PersistedPropertyStorage()
                        _startDate = TripDoc.PersistedPropertyStorage()
                        _endDate = TripDoc.PersistedPropertyStorage()
                        _bucketList = TripDoc.PersistedPropertyStorage()
                        _livingAccommodation = TripDoc.PersistedPropertyStorage()
                        _$backingData = backingData
                    }
                }

                extension Trip: TripDoc.PersistentModel {
                }
                """#,
            macroSpecs: tripDocMacroSpecs)
    }

    func testMinimalModel() {
        assertMacroExpansion(
            """
            @Model
            final class Note {
                var text: String = ""
            }
            """,
            expandedSource: #"""
                final class Note {
                    var text: String {
                        @storageRestrictions(initializes: _text, accesses: _$backingData)
                        init(initialValue) {
                            _$backingData.setValue(forKey: \Note.text, to: initialValue)
                            _text = TripDoc.PersistedPropertyStorage()
                        }
                        get {
                            _$backingData.getValue(forKey: \Note.text)
                        }
                        set {
                            _$backingData.setValue(forKey: \Note.text, to: newValue)
                        }
                    }

                    private var _text: TripDoc.PersistedPropertyStorage
                    private var _$backingData: any TripDoc.BackingData<Note> = Note.createBackingData()

                    public var persistentBackingData: any TripDoc.BackingData<Note> {
                        get {
                            _$backingData
                        }
                        set {
                            _$backingData = newValue
                        }
                    }

                    public static var schemaMetadata: [TripDoc.Schema.PropertyMetadata] {
                        [
                            TripDoc.Schema.PropertyMetadata(name: "text", keypath: \Note.text, defaultValue: "", metadata: nil)
                        ]
                    }

                    public required init(backingData: any TripDoc.BackingData<Note>) {
                        _text = TripDoc.PersistedPropertyStorage()
                        _$backingData = backingData
                    }
                }

                extension Note: TripDoc.PersistentModel {
                }
                """#,
            macroSpecs: tripDocMacroSpecs)
    }

    func testModelWithNothingToPersist() {
        assertMacroExpansion(
            """
            @Model
            final class Empty {
            }
            """,
            expandedSource: """
                final class Empty {
                \(modelMembers("Empty"))
                }

                extension Empty: TripDoc.PersistentModel {
                }
                """,
            macroSpecs: tripDocMacroSpecs)
    }

    func testClassAlreadyConformingGetsNoExtension() {
        // The compiler passes no conformances here; @Model also checks the clause itself.
        assertMacroExpansion(
            """
            @Model
            final class Empty: PersistentModel {
            }
            """,
            expandedSource: """
                final class Empty: PersistentModel {
                \(modelMembers("Empty"))
                }
                """,
            macroSpecs: tripDocMacroSpecs)
    }

    func testOpenClassKeepsRequiredInitAndPublicMembers() {
        assertMacroExpansion(
            """
            @Model
            open class Place {
            }
            """,
            expandedSource: """
                open class Place {
                \(modelMembers("Place"))
                }

                extension Place: TripDoc.PersistentModel {
                }
                """,
            macroSpecs: tripDocMacroSpecs)
    }

    func testTransientStaticAndComputedPropertiesAreLeftAlone() {
        assertMacroExpansion(
            """
            @Model
            final class Empty {
                @Transient var isSelected = false
                @Transient var cache: [String: Int]?
                @Transient let createdBy = "tripdoc"
                static var count = 0
                class var kind: String { "empty" }
                var summary: String { "" }
                var title: String {
                    get { "" }
                    set { }
                }
            }
            """,
            expandedSource: """
                final class Empty {
                    var isSelected = false
                    var cache: [String: Int]?
                    let createdBy = "tripdoc"
                    static var count = 0
                    class var kind: String { "empty" }
                    var summary: String { "" }
                    var title: String {
                        get { "" }
                        set { }
                    }
                \(modelMembers("Empty"))
                }

                extension Empty: TripDoc.PersistentModel {
                }
                """,
            macroSpecs: tripDocMacroSpecs)
    }
}
