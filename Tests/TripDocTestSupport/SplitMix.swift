/// A small deterministic random number generator (SplitMix64): a test's random inputs are the
/// same for the same seed, so a failing seed can be replayed.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose numbers are the same for the same `seed`.
    public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number from 0 up to, not including, `bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Whether a thing that happens `percent` times in a hundred happens this time.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
