import Foundation
import Testing
import TripDocCore
import TripDocTestSupport

@Suite struct IntegrityCheckerTests {
    @Test func aConsistentDocumentHasNoProblems() {
        #expect(IntegrityChecker().problems(in: EdgeCaseDocuments.document()) == [])
    }

    @Test func findsEachKindOfProblem() {
        var document = EdgeCaseDocuments.document()
        let first = document.snapshots[0]
        // A duplicate of snapshot 1, a value of the wrong type, a dangling reference, a child
        // whose parent does not list it, a uniqueness violation.
        var duplicate = first
        duplicate["string"] = .string("another")
        document.snapshots.append(duplicate)
        document.snapshots[1]["int8"] = .int(1000)
        document.snapshots[1]["children"] = .references([EdgeCaseDocuments.identifier("1"), EdgeCaseDocuments.identifier("404")])
        document.snapshots[2]["string"] = document.snapshots[1]["string"]
        let kinds = Set(IntegrityChecker().problems(in: document).map(\.kind))
        #expect(kinds == [.duplicateIdentifier, .valueDoesNotFitSchema, .danglingReference, .inverseMismatch, .uniquenessViolated])
    }

    /// Room made from a header's counts is only room: whether the counts are right, far too
    /// large, zero or for entities the schema lacks, the session finds the same problems.
    @Test(arguments: [
        [:], ["Everything": 3], ["Everything": 1 << 40, "Nothing": 5], ["Everything": 0], ["Everything": -7],
    ] as [[String: Int64]])
    func roomMadeFromCountsChangesNoProblem(counts: [String: Int64]) {
        var document = EdgeCaseDocuments.document()
        var duplicate = document.snapshots[0]
        duplicate["string"] = .string("another")
        document.snapshots.append(duplicate)
        document.snapshots[1]["children"] = .references([EdgeCaseDocuments.identifier("1"), EdgeCaseDocuments.identifier("404")])
        document.snapshots[2]["string"] = document.snapshots[1]["string"]
        var session = IntegrityChecker.Session(schema: document.schema, storeIdentifier: document.storeIdentifier)
        session.reserveCapacity(forSnapshotCounts: counts)
        for snapshot in document.snapshots { session.add(snapshot) }
        let problems = session.finish()
        #expect(!problems.isEmpty)
        #expect(problems == IntegrityChecker().problems(in: document))
    }

    /// As the whole-document check always reported it: the second snapshot of an identifier
    /// also clashes, on a uniqueness constraint, with the first.
    @Test func aRepeatedSnapshotAlsoClashesOnItsUniqueValues() {
        var document = EdgeCaseDocuments.document()
        document.snapshots.append(document.snapshots[0])
        let kinds = IntegrityChecker().problems(in: document).map(\.kind)
        #expect(kinds.contains(.duplicateIdentifier))
        #expect(kinds.contains(.uniquenessViolated))
    }

    @Test func problemsNameTheSnapshotAndProperty() throws {
        var document = EdgeCaseDocuments.document()
        document.snapshots[0]["parent"] = .reference(EdgeCaseDocuments.identifier("77"))
        let problem = try #require(IntegrityChecker().problems(in: document).first { $0.kind == .danglingReference })
        #expect(problem.description == "Everything/1.parent: points at Everything/77, which the document does not hold")
    }

    @Test func problemsComeInDocumentOrderWhateverTheirKind() {
        var document = EdgeCaseDocuments.document()
        document.snapshots[1]["parent"] = .reference(EdgeCaseDocuments.identifier("404"))
        document.snapshots[0]["int8"] = .int(1000)
        document.snapshots[0]["surplus"] = .string("?")
        let problems = IntegrityChecker().problems(in: document)
        #expect(
            problems.map { "\($0.identifier.primaryKey) \($0.kind)" } == [
                "1 unknownProperty", "1 valueDoesNotFitSchema", "2 danglingReference",
            ])
    }

    /// Keys far apart (numbered by value, in a dictionary) and close together (in an array)
    /// meet: references to models listed later, and duplicates, are found either way.
    @Test(arguments: [1, 5_000, 1_000_000_000])
    func numericKeysAreMatchedWhateverTheirSpread(step: Int) throws {
        let base = EdgeCaseDocuments.document()
        let template = base.snapshots[0]
        var snapshots: [DefaultSnapshot] = []
        let count = 3000
        for index in 0..<count {
            var snapshot = template
            let key = String(1 + index * step)
            snapshot.persistentIdentifier = EdgeCaseDocuments.identifier(key)
            snapshot["string"] = .string("s\(index)")
            // Each model's parent is listed after it; the last one has none.
            let parent = index + 1 < count ? String(1 + (index + 1) * step) : nil
            snapshot["parent"] = parent.map { .reference(EdgeCaseDocuments.identifier($0)) } ?? .null
            snapshot["children"] = .references(index > 0 ? [EdgeCaseDocuments.identifier(String(1 + (index - 1) * step))] : [])
            snapshots.append(snapshot)
        }
        var document = base
        document.snapshots = snapshots
        #expect(IntegrityChecker().problems(in: document) == [])
        document.snapshots.append(snapshots[count / 2])
        #expect(IntegrityChecker().problems(in: document).map(\.kind) == [.duplicateIdentifier, .uniquenessViolated])
    }

    /// Among thousands of references whose inverses agree, the two that stop agreeing when one
    /// model's children change are reported, and a child listed twice is no problem.
    @Test func anInverseThatDisagreesIsFoundAmongManyThatAgree() throws {
        let base = EdgeCaseDocuments.document()
        var snapshots: [DefaultSnapshot] = []
        let count = 3000
        func key(_ index: Int) -> PersistentIdentifier { EdgeCaseDocuments.identifier(String(1 + index)) }
        for index in 0..<count {
            var snapshot = base.snapshots[0]
            snapshot.persistentIdentifier = key(index)
            snapshot["string"] = .string("s\(index)")
            snapshot["parent"] = index + 1 < count ? .reference(key(index + 1)) : .null
            snapshot["children"] = .references(index > 0 ? [key(index - 1), key(index - 1)] : [])
            snapshots.append(snapshot)
        }
        var document = base
        document.snapshots = snapshots
        #expect(IntegrityChecker().problems(in: document) == [])
        // Model 1501 lists 1701 (whose parent is 1702) and no longer 1500 (whose parent it is).
        document.snapshots[1500]["children"] = .references([key(1700)])
        #expect(
            IntegrityChecker().problems(in: document).map(\.description) == [
                "Everything/1500.parent: points at Everything/1501, whose children does not point back",
                "Everything/1501.children: points at Everything/1701, whose parent does not point back",
            ])
    }

    /// A snapshot's reference problems come property by property, as the schema lists them, and
    /// down each list in its order, whatever each problem is; a repeated snapshot's come where
    /// it is.
    @Test func referenceProblemsComeInPropertyThenListOrder() {
        var document = EdgeCaseDocuments.document()
        func identifier(_ key: String) -> PersistentIdentifier { EdgeCaseDocuments.identifier(key) }
        let otherEntity = PersistentIdentifier(
            storeIdentifier: EdgeCaseDocuments.storeIdentifier, entityName: "Nothing", primaryKey: "5")
        document.snapshots[0]["children"] = .references([identifier("3")])
        document.snapshots[1]["parent"] = .reference(identifier("405"))
        document.snapshots[1]["children"] = .references([identifier("1"), otherEntity, identifier("404"), identifier("3")])
        var repeated = document.snapshots[1]
        repeated["string"] = .string("repeated")
        repeated["parent"] = .null
        repeated["children"] = .references([identifier("406"), identifier("1")])
        document.snapshots.append(repeated)
        #expect(
            IntegrityChecker().problems(in: document).map(\.description) == [
                "Everything/2: appears more than once",
                "Everything/1.children: points at Everything/3, whose parent does not point back",
                "Everything/2.parent: points at Everything/405, which the document does not hold",
                "Everything/2.children: points at Nothing/5, which the document does not hold",
                "Everything/2.children: points at Everything/404, which the document does not hold",
                "Everything/2.children: points at Everything/406, which the document does not hold",
            ])
    }

    /// Identifiers first seen after a problem has named one are named right too: problems name
    /// identifiers by the numbers the check gives them, worked out when first needed.
    @Test func identifiersSeenAfterTheFirstProblemAreNamedRight() {
        var document = EdgeCaseDocuments.document()
        func identifier(_ key: String) -> PersistentIdentifier { EdgeCaseDocuments.identifier(key) }
        document.snapshots[2]["string"] = document.snapshots[1]["string"]
        var textKeyed = document.snapshots[0]
        textKeyed.persistentIdentifier = identifier("abc")
        textKeyed["string"] = .string("text keyed")
        textKeyed["parent"] = .reference(identifier("xyz"))
        let foreign = PersistentIdentifier(storeIdentifier: "OTHER", entityName: "Everything", primaryKey: "1")
        textKeyed["children"] = .references([foreign])
        var numbered = document.snapshots[0]
        numbered.persistentIdentifier = identifier("9")
        numbered["string"] = .string("numbered")
        numbered["parent"] = .reference(identifier("77"))
        document.snapshots += [textKeyed, numbered]
        #expect(
            IntegrityChecker().problems(in: document).map(\.description) == [
                "Everything/3: has the same string as Everything/2",
                "Everything/abc.parent: points at Everything/xyz, which the document does not hold",
                "Everything/abc.children: points at Everything/1 of store OTHER, which the document does not hold",
                "Everything/9.parent: points at Everything/77, which the document does not hold",
            ])
    }
}
