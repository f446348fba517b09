import Foundation
import Testing
import TripDoc
import TripDocTestSupport

// A container of several configurations over the same models, as apps open a user store beside
// read-only "pack" stores: one catalogue of gadgets, each gadget with its sockets.

@Model final class Gadget {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Socket.gadget) var sockets: [Socket] = []
    init(name: String) { self.name = name }
}

@Model final class Socket {
    var kind: String
    var gadget: Gadget?
    init(kind: String) { self.kind = kind }
}

/// An entity that several stores of a container hold is fetched from all of them, filtered,
/// sorted and limited together; new models go to the first store and saved ones back to their
/// own.
@Suite struct SharedEntityStoresTests {
    let scratch: ScratchFolder
    let schema = Schema([Gadget.self, Socket.self])

    init() throws {
        scratch = try ScratchFolder("shared-entity-stores")
    }

    func configuration(_ name: String, allowsSave: Bool = true) -> ModelConfiguration {
        ModelConfiguration(name, schema: schema, url: scratch.file("\(name).json"), allowsSave: allowsSave)
    }

    /// A store of its own holding `names`, each gadget with a socket.
    func writeStore(_ name: String, gadgets names: [String]) throws {
        let context = ModelContext(try ModelContainer(for: schema, configurations: [configuration(name)]))
        for name in names {
            let gadget = Gadget(name: name)
            context.insert(gadget)
            gadget.sockets.append(Socket(kind: "\(name) socket"))
        }
        try context.save()
    }

    @Test func aFetchReadsEveryStoreThatHoldsTheEntity() throws {
        try writeStore("user", gadgets: ["Lamp", "Fan"])
        try writeStore("pack", gadgets: ["Dimmer", "Kettle"])
        let container = try ModelContainer(
            for: schema, configurations: [configuration("user"), configuration("pack", allowsSave: false)])
        let context = ModelContext(container)

        let names = try context.fetch(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Dimmer", "Fan", "Kettle", "Lamp"])
        #expect(try context.fetchCount(FetchDescriptor<Gadget>()) == 4)
        var firstTwo = FetchDescriptor<Gadget>(predicate: #Predicate { $0.name != "Fan" }, sortBy: [SortDescriptor(\.name)])
        firstTwo.fetchLimit = 2
        #expect(try context.fetch(firstTwo).map(\.name) == ["Dimmer", "Kettle"])
        let kettle = try #require(try context.fetch(FetchDescriptor<Gadget>(predicate: #Predicate { $0.name == "Kettle" })).first)
        #expect(kettle.sockets.map(\.kind) == ["Kettle socket"], "a pack's relationships are read from the pack")
        #expect(try context.fetch(FetchDescriptor<Socket>()).count == 4)
    }

    @Test func newModelsGoToTheFirstStoreAndSavedOnesBackToTheirOwn() throws {
        try writeStore("user", gadgets: ["Lamp"])
        try writeStore("pack", gadgets: ["Dimmer"])
        let container = try ModelContainer(for: schema, configurations: [configuration("user"), configuration("pack")])
        let context = ModelContext(container)
        context.insert(Gadget(name: "Heater"))
        let dimmer = try #require(try context.fetch(FetchDescriptor<Gadget>(predicate: #Predicate { $0.name == "Dimmer" })).first)
        dimmer.name = "Dimmer 2"
        try context.save()

        func names(in store: String) throws -> [String] {
            let alone = ModelContext(try ModelContainer(for: schema, configurations: [configuration(store)]))
            return try alone.fetch(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        }
        #expect(try names(in: "user") == ["Heater", "Lamp"])
        #expect(try names(in: "pack") == ["Dimmer 2"])
    }

    @Test func aSavedModelOfAStoreThatAllowsNoSaveIsRefused() throws {
        try writeStore("user", gadgets: ["Lamp"])
        try writeStore("pack", gadgets: ["Dimmer"])
        let container = try ModelContainer(
            for: schema, configurations: [configuration("user"), configuration("pack", allowsSave: false)])
        let context = ModelContext(container)
        let dimmer = try #require(try context.fetch(FetchDescriptor<Gadget>(predicate: #Predicate { $0.name == "Dimmer" })).first)
        dimmer.name = "Dimmer 2"
        #expect(throws: ModelContextError.saveNotAllowed("pack")) { try context.save() }
    }
}
