import SwiftData

// A travel app's models, written as SwiftData apps write them: `import SwiftData` and nothing
// else (Date and UUID come with it), classes that are not `final` (one `public`, one `open`),
// properties whose types the compiler infers from their initial values, and `let`s.

@Model
class Journey {
    #Unique<Journey>([\.title])

    let id = UUID()
    let createdBy: String
    var title = ""
    var nights = 0
    var budget = 0.0
    var isBooked = false
    var created = Date()
    var lastOpened = Date.now
    var tags: [String] = []
    var stopCount = Int()
    var deposit = Decimal(250)
    var website = URL(string: "https://example.com/norway")
    @Relationship(deleteRule: .cascade, inverse: \Stop.journey)
    var stops = [Stop]()
    var notes = [Note]()
    // `@Transient` on computed properties, as public apps write it (SwiftData accepts it).
    @Transient var isLong: Bool { nights > 7 }
    @Transient var weeks: Int {
        get { nights / 7 }
        set { nights = newValue * 7 }
    }

    init(title: String, createdBy: String = "app") {
        self.title = title
        self.createdBy = createdBy
    }
}

@Model
public class Stop {
    var place = ""
    var order = 0
    var journey: Journey?

    init(place: String, order: Int) {
        self.place = place
        self.order = order
    }
}

@Model
open class Note {
    public var text = ""
    var written = Date.now

    public init(text: String) {
        self.text = text
    }
}

/// A subclass of a model without `@Model`: saved and fetched as a `Note`.
final class Reminder: Note {}
