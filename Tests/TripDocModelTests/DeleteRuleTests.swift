import Foundation
import Testing
import TripDoc
import TripDocTestSupport

@Model
final class Folder {
    var name: String
    @Relationship(deleteRule: .deny, inverse: \Note.folder)
    var notes: [Note] = []
    @Relationship(deleteRule: .noAction)
    var pinned: Label?
    @Relationship(maximumModelCount: 2)
    var owners: [Owner] = []

    init(name: String) { self.name = name }
}

@Model
final class Note {
    var text: String
    var folder: Folder?
    init(text: String) { self.text = text }
}

@Model
final class Label {
    var title: String
    init(title: String) { self.title = title }
}

@Model
final class Owner {
    var name: String
    init(name: String) { self.name = name }
}

/// The delete rules and model counts, enforced by the store at save.
@Suite struct DeleteRuleTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("rules") }

    static let kinds = ["json", "plist", "tripbundle", "memory"]

    func context(_ kind: String) throws -> ModelContext {
        let configuration =
            kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("notes.\(kind)"))
        return ModelContext(try ModelContainer(for: Folder.self, configurations: configuration))
    }

    @Test(arguments: kinds)
    func denyRefusesToDeleteAFolderThatStillHasNotesAndNamesThem(kind: String) throws {
        let context = try context(kind)
        let folder = Folder(name: "Work")
        context.insert(folder)
        let note = Note(text: "call")
        folder.notes.append(note)
        try context.save()
        context.delete(folder)
        #expect {
            try context.save()
        } throws: { error in
            "\(error)".contains("delete rule deny") && "\(error)".contains("\(note.persistentModelID)")
        }
        #expect(context.hasChanges, "the failed save keeps the deletion pending")
        context.rollback()
        folder.notes = []
        try context.save()
        #expect(note.folder == nil)
        context.delete(folder)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Folder>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 1)
    }

    @Test(arguments: kinds)
    func noActionLeavesTheDestinationAlone(kind: String) throws {
        let context = try context(kind)
        let folder = Folder(name: "Home")
        context.insert(folder)
        folder.pinned = Label(title: "Red")
        try context.save()
        context.delete(folder)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Label>()).map(\.title) == ["Red"])
    }

    @Test(arguments: kinds)
    func aRelationshipOverItsMaximumIsRefused(kind: String) throws {
        let context = try context(kind)
        let folder = Folder(name: "Shared")
        context.insert(folder)
        folder.owners = [Owner(name: "a"), Owner(name: "b"), Owner(name: "c")]
        #expect {
            try context.save()
        } throws: { error in
            "\(error)".hasSuffix("its relationship 'owners' holds 3 models, but must hold at most 2")
        }
        folder.owners.removeLast()
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Owner>()) == 3, "the third owner was inserted all the same")
    }
}
