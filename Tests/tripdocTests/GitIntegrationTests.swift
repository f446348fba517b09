import Foundation
import Testing

/// Documents kept in git: the few lines of README's "Documents in git" make `git merge` merge
/// them by object identity and `git diff` show them a snapshot a line, in a real repository.
@Suite struct GitIntegrationTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// Runs git in the test's folder; the output, or a failed expectation naming the command.
    @discardableResult
    func git(_ arguments: String..., expecting status: Int32 = 0) throws -> String {
        var runner = tripdoc
        runner.program = URL(fileURLWithPath: "/usr/bin/git")
        let outcome = try runner.run(
            arguments,
            environment: [
                "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
                "GIT_COMMITTER_EMAIL": "test@example.com", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
            ])
        #expect(outcome.status == status, "git \(arguments.joined(separator: " ")): \(outcome.stdout) \(outcome.stderr)")
        return outcome.stdout
    }

    func replace(_ name: String, _ old: String, _ new: String) throws {
        let url = tripdoc.folder.appendingPathComponent(name)
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(text.contains(old))
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: url)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git")))
    func gitMergesADocumentByObjectIdentity() throws {
        let binary = TripDocRunner.executable.path
        try git("init", "-q", "-b", "main")
        // README's lines, with the binary's full path.
        try Data("*.tripbundle merge=tripdoc diff=tripdoc\n*.plist merge=tripdoc diff=tripdoc\ntrips.json merge=tripdoc diff=tripdoc\n".utf8)
            .write(to: tripdoc.folder.appendingPathComponent(".gitattributes"))
        try git("config", "merge.tripdoc.name", "tripdoc merge by object identity")
        try git("config", "merge.tripdoc.driver", "\(binary) merge %O %A %B -o %A --force")
        try git("config", "diff.tripdoc.textconv", "\(binary) show --json")
        try git("add", ".gitattributes", "trips.json", "trips.plist")
        try git("commit", "-q", "-m", "base")
        // Two branches edit one line of trips.json, which a text merge calls a conflict.
        try git("checkout", "-q", "-b", "theirs")
        try replace("trips.json", #""destination":"Cusco""#, #""destination":"Lima""#)
        try replace("trips.plist", "<string>Cusco Ryokan</string>", "<string>Cusco Inn</string>")
        try git("commit", "-q", "-am", "theirs")
        try git("checkout", "-q", "main")
        try replace("trips.json", #""endDate":"2029-05-08T00:00:00Z""#, #""endDate":"2029-05-09T00:00:00Z""#)
        try replace("trips.plist", "<string>73 Market Square, Cusco</string>", "<string>74 Market Square, Cusco</string>")
        try git("commit", "-q", "-am", "ours")
        let shown = try git("diff", "HEAD~1", "--", "trips.plist")
        #expect(shown.contains(#"-      {"$id":"2","address":"73 Market Square, Cusco","placeName":"Cusco Ryokan","trip":"2"}"#), "\(shown)")
        try git("merge", "-q", "--no-edit", "theirs")
        let trips = try tripdoc.run("show", "trips.json", "--id", "Trip/2")
        #expect(trips.stdout.contains("Lima") && trips.stdout.contains("2029-05-09"), "\(trips.stdout)")
        let stays = try tripdoc.run("show", "trips.plist", "--id", "LivingAccommodation/2")
        #expect(stays.stdout.contains("Cusco Inn") && stays.stdout.contains("74 Market Square"), "\(stays.stdout)")
        #expect(try tripdoc.run("inspect", "trips.plist", "--check").status == 0)
        // Both changed the same property: git reports a conflict and keeps ours.
        try git("checkout", "-q", "-b", "again")
        try replace("trips.json", #""destination":"Lima""#, #""destination":"Quito""#)
        try git("commit", "-q", "-am", "again")
        try git("checkout", "-q", "main")
        try replace("trips.json", #""destination":"Lima""#, #""destination":"Arequipa""#)
        try git("commit", "-q", "-am", "main again")
        try git("merge", "-q", "--no-edit", "again", expecting: 1)
        #expect(try tripdoc.run("show", "trips.json", "--id", "Trip/2").stdout.contains("Arequipa"))
    }
}
