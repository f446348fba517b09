/// What a child process reports: a number per row it measured (in the row's unit) and the
/// checksum of the row's results. A child writes it to standard output as JSON.
struct StageResult: Codable {
    var values: [Row: Double] = [:]
    var checksums: [Row: String] = [:]

    mutating func merge(_ other: StageResult) {
        values.merge(other.values) { _, new in new }
        checksums.merge(other.checksums) { _, new in new }
    }
}
