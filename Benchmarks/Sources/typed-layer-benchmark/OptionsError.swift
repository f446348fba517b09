/// A command line the benchmark cannot run; `message` is nil for `--help`.
struct OptionsError: Error {
    var message: String?

    init(_ message: String?) {
        self.message = message
    }
}
