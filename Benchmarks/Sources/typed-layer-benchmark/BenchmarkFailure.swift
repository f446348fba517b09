/// A store's refusal of the benchmark's work.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}
