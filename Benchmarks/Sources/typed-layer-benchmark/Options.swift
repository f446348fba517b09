/// The command line:
///
///     typed-layer-benchmark [--trips N]... [--repetitions R] [--updates U] [--deletes D]
///                           [--query-runs Q] [--json] [--quick]
///
/// and, for the benchmark's own child processes, `--child STAGE --store KIND --path PATH` with the
/// plan's numbers.
struct Options {
    static let usage = """
        usage: typed-layer-benchmark [--trips N]... [--repetitions R] [--updates U] [--deletes D]
                                     [--query-runs Q] [--json] [--quick]
          --trips N        trips to store (each with five bucket-list items and an accommodation);
                           give it several times for several sizes (default 10000)
          --repetitions R  runs of every row per size; the table gives their median (default 3)
          --updates U      one-object updates per run (default 51 up to 20k trips, 11 at 100k)
          --deletes D      single-trip deletes per run (default 5)
          --query-runs Q   timed runs of each query after an untimed one (default 5)
          --json           print the results as JSON instead of a table
          --quick          1000 trips, 1 repetition (for CI); explicit options still apply
        Exits with 1 when the two sides' checksums disagree or a store fails, 2 on bad options.
        """

    var sizes: [Int] = []
    var repetitions: Int?
    var updates: Int?
    var deletes = 5
    var queryRuns = 5
    var json = false
    var quick = false
    var child: Stage?
    var store: StoreKind?
    var path: String?

    /// The sizes to run: those given, else 1000 for `--quick`, else 10 000.
    var effectiveSizes: [Int] { sizes.isEmpty ? [quick ? 1000 : 10_000] : sizes }

    /// The repetitions: as given, else 1 for `--quick`, else 3.
    var effectiveRepetitions: Int { repetitions ?? (quick ? 1 : 3) }

    /// The plan at one size.
    func plan(trips: Int) -> WorkPlan {
        WorkPlan(trips: trips, queryRuns: queryRuns, updates: updates ?? WorkPlan.defaultUpdates(trips: trips), deletes: deletes)
    }

    /// Parses the arguments after the program's name.
    init(arguments: [String]) throws(OptionsError) {
        var remaining = arguments[...]
        func value(of option: String) throws(OptionsError) -> String {
            guard let value = remaining.popFirst() else { throw OptionsError("\(option) needs a value") }
            return value
        }
        func count(of option: String, minimum: Int) throws(OptionsError) -> Int {
            let text = try value(of: option)
            guard let number = Int(text), number >= minimum else {
                throw OptionsError("\(option) needs a whole number of at least \(minimum), not '\(text)'")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--trips": sizes.append(try count(of: argument, minimum: 1))
            case "--repetitions": repetitions = try count(of: argument, minimum: 1)
            case "--updates": updates = try count(of: argument, minimum: 1)
            case "--deletes": deletes = try count(of: argument, minimum: 1)
            case "--query-runs": queryRuns = try count(of: argument, minimum: 1)
            case "--json": json = true
            case "--quick": quick = true
            case "--child":
                let name = try value(of: argument)
                guard let stage = Stage(rawValue: name) else { throw OptionsError("--child: no stage is called '\(name)'") }
                child = stage
            case "--store":
                let name = try value(of: argument)
                guard let kind = StoreKind(rawValue: name) else { throw OptionsError("--store: no store is called '\(name)'") }
                store = kind
            case "--path": path = try value(of: argument)
            case "--help", "-h": throw OptionsError(nil)
            default: throw OptionsError("unknown argument '\(argument)'")
            }
        }
        if child != nil, store == nil || path == nil || sizes.count != 1 {
            throw OptionsError("--child needs --store, --path and one --trips")
        }
    }

    /// The arguments that make a child process run `stage` on `kind` with `plan`.
    static func childArguments(stage: Stage, kind: StoreKind, path: String, plan: WorkPlan) -> [String] {
        [
            "--child", stage.rawValue, "--store", kind.rawValue, "--path", path, "--trips", String(plan.trips),
            "--updates", String(plan.updates), "--deletes", String(plan.deletes), "--query-runs", String(plan.queryRuns),
        ]
    }
}
