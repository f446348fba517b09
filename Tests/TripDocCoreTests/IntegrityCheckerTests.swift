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

    @Test func problemsNameTheSnapshotAndProperty() throws {
        var document = EdgeCaseDocuments.document()
        document.snapshots[0]["parent"] = .reference(EdgeCaseDocuments.identifier("77"))
        let problem = try #require(IntegrityChecker().problems(in: document).first { $0.kind == .danglingReference })
        #expect(problem.description == "Everything/1.parent: points at Everything/77, which the document does not hold")
    }
}
