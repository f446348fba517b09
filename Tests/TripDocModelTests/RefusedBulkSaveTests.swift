import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// A save the store refuses after it gave the inserted models their permanent identifiers
/// (tripdoc's stores mint them before the snapshots are made, for a bulk insert and in
/// memory): the models are pending again under the temporary identifiers they had, the error
/// names them so, and the next save gives them identifiers and saves their relationships.
@Suite struct RefusedBulkSaveTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("refused-bulk-save") }

    static let kinds = ["json", "plist", "tripbundle", "memory"]

    func container(_ kind: String) throws -> ModelContainer {
        try ModelContainer(
            for: Folder.self,
            configurations: kind == "memory"
                ? ModelConfiguration(isStoredInMemoryOnly: true)
                : ModelConfiguration(url: scratch.file("notes.\(kind)")))
    }

    /// More notes than a journaled store appends to its journal, so every store mints ahead.
    static let noteCount = 1_500

    /// A new folder named `name` holding ``noteCount`` new notes, inserted into `context`.
    func insertFolder(_ name: String, into context: ModelContext) -> Folder {
        let folder = Folder(name: name)
        context.insert(folder)
        for number in 0..<Self.noteCount { folder.notes.append(Note(text: "\(name) \(number)")) }
        return folder
    }

    @Test(arguments: kinds)
    func theModelsArePendingAgainUnderTheirTemporaryIdentifiers(kind: String) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        let folder = insertFolder("Inbox", into: context)
        // One owner too many: the store refuses the whole save.
        folder.owners = [Owner(name: "a"), Owner(name: "b"), Owner(name: "c")]
        let models: [any PersistentModel] = [folder] + folder.notes + folder.owners
        let temporary = models.map(\.persistentModelID)
        #expect(temporary.allSatisfy { $0.isTemporary })

        #expect {
            try context.save()
        } throws: { error in
            // Named as the program knows the folder: by its temporary identifier.
            "\(error)".contains("\(temporary[0])") && "\(error)".contains("holds 3 models, but must hold at most 2")
        }

        #expect(zip(models, temporary).allSatisfy { $0.persistentModelID == $1 })
        #expect(context.insertedModelsArray.count == models.count)
        for (model, id) in zip(models, temporary) {
            #expect(context.model(for: id) === model, "\(id) is registered under its temporary identifier")
        }
        #expect(folder.notes.count == Self.noteCount && folder.notes.allSatisfy { $0.folder === folder })
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == 0, "nothing was saved")

        folder.owners.removeLast()
        try context.save()

        #expect(!context.hasChanges)
        let permanent = models.map(\.persistentModelID)
        #expect(permanent.allSatisfy { !$0.isTemporary })
        #expect(Set(permanent).count == models.count)
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<Note>()) == Self.noteCount)
        let read = try #require(reader.model(for: folder.persistentModelID) as? Folder)
        #expect(Set(read.notes.map(\.persistentModelID)) == Set(folder.notes.map(\.persistentModelID)))
        #expect(read.notes.allSatisfy { $0.folder === read })
        #expect(read.owners.count == 2)
    }

    @Test(arguments: kinds)
    func aLaterBulkSaveAddsToTheSavedModels(kind: String) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        let first = insertFolder("First", into: context)
        try context.save()

        // A second bulk insert, some of whose notes move to a saved folder in the same save.
        let second = insertFolder("Second", into: context)
        let moved = Array(second.notes.suffix(10))
        for note in moved { note.folder = first }
        try context.save()

        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<Note>()) == 2 * Self.noteCount)
        let readFirst = try #require(reader.model(for: first.persistentModelID) as? Folder)
        let readSecond = try #require(reader.model(for: second.persistentModelID) as? Folder)
        #expect(readFirst.notes.count == Self.noteCount + 10)
        #expect(readSecond.notes.count == Self.noteCount - 10)
        #expect(Set(readFirst.notes.map(\.persistentModelID)).isSuperset(of: moved.map(\.persistentModelID)))
    }
}
