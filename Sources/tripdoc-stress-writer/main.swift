// A writer for the two-writers tests: several of these increment one counter in one document
// through the public store API, retrying on conflicts. The final count must be exact.
//   tripdoc-stress-writer init FILE            a document with one Counter whose value is 0
//   tripdoc-stress-writer increment FILE N     N read-modify-write saves (+1 each)
//   tripdoc-stress-writer forever FILE         saves +1 until killed, printing each value once saved
// Prints the number of conflicts it retried; exits 2 on any other error. With
// TRIPDOC_STRESS_JOURNAL=1 in the environment, saves go to the document's journal.
import Foundation
import TripDoc
import TripDocKit

let schema = Schema([Schema.Entity(name: "Counter", attributes: [.init("value", .int64)])])
let arguments = Array(CommandLine.arguments.dropFirst())

do {
    guard arguments.count >= 2 else { throw TripDocError.invalidArgument("usage: tripdoc-stress-writer init|increment FILE [N]") }
    let path = arguments[1]
    let format = try DocumentFormats.forWriting(path, explicit: nil)
    let journaled = ProcessInfo.processInfo.environment["TRIPDOC_STRESS_JOURNAL"] == "1"
    let store = try ArchiveStore(path: path, format: format, schema: schema, savesToJournal: journaled)
    switch arguments[0] {
    case "init":
        try store.save(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Counter"), values: ["value": .int(0)])
            ]))
    case "forever":
        // Each line is printed only after its save returned: an acknowledged state.
        while true {
            guard var counter = try store.fetchSnapshots(entityName: "Counter").first, case .int(let value) = counter["value"]
            else { throw TripDocError.invalidArgument("\(path) has no counter; run init first") }
            counter["value"] = .int(value + 1)
            try store.save(DataStoreSaveChangesRequest(editingState: EditingState(author: "writer"), updated: [counter]))
            FileHandle.standardOutput.write(Data("\(value + 1)\n".utf8))
        }
    case "increment":
        let count = Int(arguments.count > 2 ? arguments[2] : "1") ?? 1
        var conflicts = 0
        var done = 0
        while done < count {
            guard var counter = try store.fetchSnapshots(entityName: "Counter").first, case .int(let value) = counter["value"]
            else { throw TripDocError.invalidArgument("\(path) has no counter; run init first") }
            counter["value"] = .int(value + 1)
            do {
                try store.save(DataStoreSaveChangesRequest(editingState: EditingState(author: "writer"), updated: [counter]))
                done += 1
            } catch ArchiveStoreError.conflict {
                conflicts += 1
            }
        }
        print(conflicts)
    default:
        throw TripDocError.invalidArgument("unknown mode '\(arguments[0])'")
    }
} catch {
    FileHandle.standardError.write(Data("tripdoc-stress-writer: \(error)\n".utf8))
    exit(2)
}
