import Foundation
import Testing
import TripDoc
import TripDocTestSupport

// A model holding another model in a `let`, as a model decoded from JSON is often written
// (`let address: Address` set in `init(from:)`).

@Model final class Postcard {
    let greeting: String
    let sender: Sender

    init(greeting: String, sender: Sender) {
        self.greeting = greeting
        self.sender = sender
    }
}

@Model final class Sender {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class Parcel {
    let label: String
    let recipients: [Sender]

    init(label: String, recipients: [Sender]) {
        self.label = label
        self.recipients = recipients
    }
}

/// A relationship declared with `let` cannot take the destinations the context gives it: the
/// container refuses it, naming the model and the property, before any store is opened (it
/// was accepted, then its destinations were not saved and reading it stopped the program).
@Suite struct LetRelationshipTests {
    @Test(arguments: [("Postcard", "sender"), ("Parcel", "recipients")])
    func aRelationshipDeclaredLetIsAnErrorNamingTheModelAndTheProperty(model: String, property: String) throws {
        let type: any PersistentModel.Type = model == "Postcard" ? Postcard.self : Parcel.self
        let scratch = try ScratchFolder("let-relationships")
        let url = scratch.file("cards.json")
        let error = #expect(throws: ModelContextError.self) {
            try ModelContainer(for: Schema([type]), configurations: ModelConfiguration(url: url))
        }
        #expect(error == .relationshipDeclaredLet(model: model, property: property))
        #expect(error?.description.hasPrefix("\(model).\(property) is a relationship declared with let") == true)
        #expect(error?.description.hasSuffix("declare it var") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path), "no store was opened")
    }
}
