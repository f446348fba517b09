import Foundation
import Testing

/// The SampleTrips sample (samples/SampleTrips): SwiftData code running on tripdoc's stores.
@Suite struct SampleTripsTests {
    var sample: TripDocRunner

    init() throws {
        sample = try TripDocRunner()
        sample.program = TripDocRunner.executable.deletingLastPathComponent().appendingPathComponent("SampleTrips")
    }

    @Test(arguments: ["trips.json", "trips.plist", "trips.tripbundle"])
    func editsThroughTheMainContextAreSavedWhenTheProgramExits(file: String) throws {
        try? FileManager.default.removeItem(atPath: sample.path(file))
        #expect(try sample.run("--store", file, "seed").status == 0)
        let before = try sample.run("--store", file, "list").stdout
        let old = try #require(before.split(separator: "\n").first?.split(separator: " — ").first.map(String.init))
        // `rename` sets the name through mainContext and never calls save().
        #expect(try sample.run("--store", file, "rename", old, "Renamed") == .init(status: 0, stdout: "renamed 1 trip\n", stderr: ""))
        let after = try sample.run("--store", file, "list").stdout
        #expect(after == before.replacingOccurrences(of: old + " — ", with: "Renamed — "))
    }

    @Test(arguments: ["trips.json", "trips.plist", "trips.tripbundle"])
    func theSampleAppsDataLayerWorksOnEveryStore(file: String) throws {
        try? FileManager.default.removeItem(atPath: sample.path(file))
        #expect(try sample.run("--store", file, "seed").stdout == "5 trips in \(file)\n")
        #expect(try sample.run("--store", file, "seed").stdout == "5 trips in \(file)\n")

        let first = try sample.run("--store", file, "add", "Rome", "Italy", "2027-03-01", "2027-03-05")
        let again = try sample.run("--store", file, "add", "Rome", "Florence", "2027-03-01", "2027-03-05")
        #expect(first.stdout.hasSuffix("; 6 trips\n"))
        #expect(again.stdout == first.stdout, "#Unique: the same trip, updated")
        #expect(try sample.run("--store", file, "search", "ROME").stdout == "Rome — Florence, 2027-03-01 to 2027-03-05\n")
        #expect(try sample.run("--store", file, "search", "cafe").stdout.hasPrefix("Café Crawl — Vienna"))

        let inProgress = try sample.run("--store", file, "in-progress").stdout
        #expect(inProgress.contains("Tokyo Honeymoon") && inProgress.contains("not planned yet: Climb Mount Fuji"))
        #expect(!inProgress.contains("Oslo"), "every Oslo item is planned")
        #expect(!inProgress.contains("Lima"), "Lima is over")

        #expect(try sample.run("--store", file, "unread").stdout == "nothing new\n", "the app's own saves are read")
        #expect(try sample.run("--store", file, "plan", "Climb Mount Fuji").stdout == "planned Climb Mount Fuji for Tokyo Honeymoon\n")
        #expect(try sample.run("--store", file, "unread").stdout == "changed: Tokyo Honeymoon\n")
        #expect(try sample.run("--store", file, "unread").stdout == "nothing new\n", "the token was kept")
        #expect(try sample.run("--store", file, "in-progress").stdout == "")
    }
}
