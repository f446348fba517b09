/// Help text as swift-argument-parser prints it, in blocks: paragraphs of prose (separated by
/// blank lines, their lines joined) and runs of indented lines, such as examples, kept as lines.
struct HelpText {
    /// One block of help text.
    enum Block: Equatable {
        /// A paragraph, its lines joined by spaces.
        case prose(String)
        /// Indented lines, to be shown as written (without their common indentation).
        case literal([String])
    }

    /// The blocks in order.
    let blocks: [Block]

    /// Splits `text` into blocks.
    init(_ text: String) {
        var blocks: [Block] = []
        var prose: [String] = []
        var literal: [String] = []
        func flush() {
            if !prose.isEmpty { blocks.append(.prose(prose.joined(separator: " "))) }
            if !literal.isEmpty { blocks.append(.literal(Self.removingCommonIndentation(literal))) }
            prose = []
            literal = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.allSatisfy(\.isWhitespace) {
                flush()
            } else if line.first?.isWhitespace == true {
                if !prose.isEmpty { flush() }
                literal.append(line)
            } else {
                if !literal.isEmpty { flush() }
                prose.append(line)
            }
        }
        flush()
        self.blocks = blocks
    }

    private static func removingCommonIndentation(_ lines: [String]) -> [String] {
        let indentation = lines.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return lines.map { String($0.dropFirst(indentation)) }
    }
}
