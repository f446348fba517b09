/// Why a manual page could not be written or checked.
enum ManualError: Error, CustomStringConvertible {
    /// groff failed to render the page.
    case renderingFailed(String, status: Int32, message: String)
    /// The help dump could not be read.
    case unreadableHelp(String, underlying: any Error)

    var description: String {
        switch self {
        case .renderingFailed(let path, let status, let message):
            "groff could not render \(path) (exit status \(status)): \(message) (is groff installed? scripts/setup installs it)"
        case .unreadableHelp(let path, let underlying):
            "\(path) is not the output of --experimental-dump-help: \(underlying)"
        }
    }
}
