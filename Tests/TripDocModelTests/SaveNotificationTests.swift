import Foundation
import Synchronization
import Testing
import TripDoc

/// `ModelContext.willSave` and `didSave`, as apps observe them to follow what a context saved.
@Suite struct SaveNotificationTests {
    /// One notification a context posted.
    struct Entry: Sendable {
        var name: Notification.Name
        var inserted, updated, deleted: [PersistentIdentifier]?
        var hasUserInfo: Bool

        init(
            name: Notification.Name, inserted: [PersistentIdentifier]? = nil, updated: [PersistentIdentifier]? = nil,
            deleted: [PersistentIdentifier]? = nil, hasUserInfo: Bool
        ) {
            (self.name, self.inserted, self.updated, self.deleted, self.hasUserInfo) = (name, inserted, updated, deleted, hasUserInfo)
        }
    }

    /// The notifications posted, in order.
    final class Log: Sendable {
        let entries = Mutex<[Entry]>([])
    }

    /// The notifications a context posts while this is kept.
    final class Posted {
        let log = Log()
        var observers: [any NSObjectProtocol] = []

        init(observing context: ModelContext) {
            let log = self.log
            for name in [ModelContext.willSave, ModelContext.didSave] {
                observers.append(
                    NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { notification in
                        let info = notification.userInfo
                        func identifiers(_ key: ModelContext.NotificationKey) -> [PersistentIdentifier]? {
                            info?[key.rawValue] as? [PersistentIdentifier]
                        }
                        let entry = Entry(
                            name: notification.name, inserted: identifiers(.insertedIdentifiers),
                            updated: identifiers(.updatedIdentifiers), deleted: identifiers(.deletedIdentifiers),
                            hasUserInfo: info != nil)
                        log.entries.withLock { $0.append(entry) }
                    })
            }
        }

        deinit { for observer in observers { NotificationCenter.default.removeObserver(observer) } }

        var names: [Notification.Name] { log.entries.withLock { $0.map(\.name) } }
        var last: Entry? { log.entries.withLock { $0.last } }
    }

    func context(allowsSave: Bool = true) throws -> ModelContext {
        let configuration = ModelConfiguration(isStoredInMemoryOnly: true, allowsSave: allowsSave)
        return ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
    }

    @Test func aSaveIsAnnouncedAndThenNamesWhatItInsertedUpdatedAndDeleted() throws {
        let context = try context()
        let posted = Posted(observing: context)
        let kyoto = Trip(name: "Kyoto", destination: "Japan")
        let lima = Trip(name: "Lima", destination: "Peru")
        context.insert(kyoto)
        context.insert(lima)
        try context.save()
        #expect(posted.names == [ModelContext.willSave, ModelContext.didSave])
        // Inserted models are named by the permanent identifiers the save gave them.
        #expect(Set(posted.last?.inserted ?? []) == [kyoto.persistentModelID, lima.persistentModelID])
        #expect(posted.last?.inserted?.contains { $0.isTemporary } == false)
        #expect(posted.last?.updated == [])
        #expect(posted.last?.deleted == [])

        kyoto.destination = "Kansai"
        let limaIdentifier = lima.persistentModelID
        context.delete(lima)
        try context.save()
        #expect(posted.names.count == 4)
        #expect(posted.last?.inserted == [])
        #expect(posted.last?.updated == [kyoto.persistentModelID])
        #expect(posted.last?.deleted == [limaIdentifier])
    }

    @Test func savesAreAwaitedAsAnAsynchronousSequenceOfTheContextsNotifications() async throws {
        let context = try context()
        let other = try self.context()
        // The sequence observes from when it is made: saves posted before it is read are kept.
        let saves = NotificationCenter.default.notifications(named: ModelContext.didSave, object: context)
        let kyoto = Trip(name: "Kyoto", destination: "Japan")
        context.insert(kyoto)
        try context.save()
        other.insert(Trip(name: "Lima", destination: "Peru"))
        try other.save()
        kyoto.destination = "Kansai"
        try context.save()

        var received: [[PersistentIdentifier]] = []
        for await note in saves {
            #expect(note.object as? ModelContext === context, "another context's saves are left out")
            let info = note.userInfo
            received.append(
                (info?[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] ?? [])
                    + (info?[ModelContext.NotificationKey.updatedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []))
            if received.count == 2 { break }
        }
        #expect(received == [[kyoto.persistentModelID], [kyoto.persistentModelID]])
    }

    @Test func aSequenceOfNotificationsEndsWhenItsTaskIsCancelled() async throws {
        let waiting = Task {
            var count = 0
            for await _ in NotificationCenter.default.notifications(named: Notification.Name("NeverPosted")) { count += 1 }
            return count
        }
        waiting.cancel()
        #expect(await waiting.value == 0)
    }

    @Test func nothingIsPostedWhenThereIsNothingToSave() throws {
        let context = try context()
        let posted = Posted(observing: context)
        try context.save()
        #expect(posted.names.isEmpty)
    }

    @Test func aRefusedSaveIsAnnouncedButNotReportedAsDone() throws {
        let context = try context(allowsSave: false)
        let posted = Posted(observing: context)
        context.insert(Trip(name: "Kyoto", destination: "Japan"))
        #expect(throws: (any Error).self) { try context.save() }
        #expect(posted.names == [ModelContext.willSave])
        #expect(posted.last?.hasUserInfo == false)
    }

    @Test func aSaveMadeByAnObserverOfWillSaveIsNotAnnouncedAgain() throws {
        let context = try context()
        let posted = Posted(observing: context)
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.willSave, object: context, queue: nil
        ) { notification in
            try? (notification.object as? ModelContext)?.save()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(Trip(name: "Kyoto", destination: "Japan"))
        try context.save()
        // The observer's save took the changes; the outer save found none left and posted no didSave.
        #expect(posted.names == [ModelContext.willSave])
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func theLastAutosaveOfAContextGoingAwayPostsNothing() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let log = Log()
        var observers: [any NSObjectProtocol] = []
        for name in [ModelContext.willSave, ModelContext.didSave] {
            observers.append(
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { notification in
                    // Other tests' contexts post too, in parallel: only this container's count.
                    guard notification.object == nil || (notification.object as? ModelContext)?.container === container
                    else { return }
                    log.entries.withLock {
                        $0.append(Entry(name: notification.name, hasUserInfo: notification.userInfo != nil))
                    }
                })
        }
        defer { for observer in observers { NotificationCenter.default.removeObserver(observer) } }
        do {
            let context = ModelContext(container)
            context.autosaveEnabled = true
            context.insert(Trip(name: "Kyoto", destination: "Japan"))
        }
        #expect(log.entries.withLock { $0.isEmpty })
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func processingPendingChangesLeavesThemPendingAndListed() throws {
        let context = try context()
        let trip = Trip(name: "Kyoto", destination: "Japan")
        context.insert(trip)
        context.processPendingChanges()
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.map(\.persistentModelID) == [trip.persistentModelID])
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func theKeysAreSwiftDatasNames() {
        #expect(ModelContext.NotificationKey.insertedIdentifiers.rawValue == "insertedIdentifiers")
        #expect(ModelContext.NotificationKey.updatedIdentifiers.rawValue == "updatedIdentifiers")
        #expect(ModelContext.NotificationKey.deletedIdentifiers.rawValue == "deletedIdentifiers")
        #expect(ModelContext.didSave.rawValue.contains("didSave"))
        #expect(ModelContext.willSave.rawValue.contains("willSave"))
    }
}
