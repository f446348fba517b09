import SwiftData

/// A background importer, as apps write one: its own context, models kept inside, identifiers
/// handed out.
@ModelActor
actor JourneyImporter {
    /// Inserts a journey per title, with a stop per place, saves, and returns their identifiers.
    func importJourneys(_ titles: [String], places: [String] = []) throws -> [PersistentIdentifier] {
        var journeys: [Journey] = []
        for title in titles {
            let journey = Journey(title: title, createdBy: "importer")
            modelContext.insert(journey)
            for (order, place) in places.enumerated() {
                journey.stops.append(Stop(place: place, order: order))
            }
            journeys.append(journey)
        }
        try modelContext.save()
        return journeys.map(\.persistentModelID)
    }

    /// Renames the journey with an identifier, resolved with the actor's subscript, and saves.
    func rename(_ id: PersistentIdentifier, to title: String) throws {
        guard let journey = self[id, as: Journey.self] else { return }
        journey.title = title
        try modelContext.save()
    }

    /// The nights of the journey with an identifier, fetched again from the store.
    func nights(of id: PersistentIdentifier) throws -> Int? {
        let journeys = try modelContext.fetch(FetchDescriptor<Journey>())
        return journeys.first { $0.persistentModelID == id }?.nights
    }

    /// The titles of every journey, sorted.
    func titles() throws -> [String] {
        try modelContext.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    /// Whether `self[id, as:]` finds a model of that type.
    func finds<T: PersistentModel>(_ id: PersistentIdentifier, as type: T.Type) -> Bool {
        self[id, as: type] != nil
    }

    /// Whether the actor's code runs on its model executor, as a `@ModelActor`'s does.
    func runsOnItsModelExecutor() -> Bool {
        (modelExecutor as? any SerialExecutor)?.isIsolatingCurrentContext() == true
    }
}
