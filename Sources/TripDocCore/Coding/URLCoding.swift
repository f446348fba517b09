import Foundation

/// Which text a `URL` value may have in a document (FORMATS 3.9), in one place, so that the
/// writer and the reader agree by construction: a non-empty URI reference of RFC 3986
/// (section 4.1: a URI, or a relative reference), ASCII only, checked by this grammar and not
/// by Foundation's parser, which also takes text RFC 3986 does not (`":a"`, a colon in a
/// relative reference's first segment, a zone identifier in an IPv6 host). Every text the
/// grammar takes, Foundation's `URL(string:)` parses with the same `absoluteString`, so the
/// reader makes its value from it; the writer refuses a URL whose text the grammar does not take
/// (``isStorable(_:)``).
public enum URLCoding {
    /// Whether `text` is a URL value a document may hold: a non-empty `URI-reference` of RFC 3986.
    public static func isValid(_ text: String) -> Bool {
        isValid(ArraySlice(text.utf8))
    }

    /// Whether `url` can be stored: its `absoluteString`, which is what is written, is valid.
    public static func isStorable(_ url: URL) -> Bool { isValid(url.absoluteString) }

    // MARK: The grammar (RFC 3986, section 3 and appendix A)

    private static func isValid(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var rest = bytes
        // fragment = *( pchar / "/" / "?" ), after the first "#"; query likewise, after the first "?".
        if let hash = rest.firstIndex(of: ascii("#")) {
            guard allows(rest[(hash + 1)...], isQueryCharacter) else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: ascii("?")) {
            guard allows(rest[(question + 1)...], isQueryCharacter) else { return false }
            rest = rest[..<question]
        }
        // A ":" before any "/" ends a scheme (a URI); a relative reference's first segment has
        // none (path-noscheme), so text whose part before that ":" is not a scheme is refused.
        if let colon = rest.firstIndex(of: ascii(":")), !rest[..<colon].contains(ascii("/")) {
            // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
            let scheme = rest[..<colon]
            guard let first = scheme.first, isAlpha(first),
                scheme.dropFirst().allSatisfy({ isAlpha($0) || isDigit($0) || $0 == ascii("+") || $0 == ascii("-") || $0 == ascii(".") })
            else { return false }
            rest = rest[(colon + 1)...]
        }
        // "//" authority path-abempty; otherwise path-absolute, path-rootless, path-noscheme or
        // path-empty, which all come to *( pchar / "/" ) here (a path starting "//" is an authority).
        if rest.starts(with: [ascii("/"), ascii("/")]) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: ascii("/")) ?? rest.endIndex
            guard isAuthority(rest[..<end]) else { return false }
            rest = rest[end...]
        }
        return allows(rest) { isPathCharacter($0) || $0 == ascii("/") }
    }

    /// authority = [ userinfo "@" ] host [ ":" port ]
    private static func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostAndPort = authority
        if let at = authority.firstIndex(of: ascii("@")) {
            // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
            guard allows(authority[..<at], { isUnreserved($0) || isSubDelimiter($0) || $0 == ascii(":") }) else { return false }
            hostAndPort = authority[(at + 1)...]
        }
        let port: ArraySlice<UInt8>
        if hostAndPort.first == ascii("[") {
            // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
            guard let close = hostAndPort.firstIndex(of: ascii("]")),
                isIPLiteral(hostAndPort[(hostAndPort.startIndex + 1)..<close])
            else { return false }
            port = hostAndPort[(close + 1)...]
        } else {
            // reg-name = *( unreserved / pct-encoded / sub-delims ), which IPv4address is part of.
            let colon = hostAndPort.firstIndex(of: ascii(":")) ?? hostAndPort.endIndex
            guard allows(hostAndPort[..<colon], { isUnreserved($0) || isSubDelimiter($0) }) else { return false }
            port = hostAndPort[colon...]
        }
        // port = *DIGIT
        guard let first = port.first else { return true }
        return first == ascii(":") && port.dropFirst().allSatisfy(isDigit)
    }

    /// IPv6address / IPvFuture, between the brackets.
    private static func isIPLiteral(_ text: ArraySlice<UInt8>) -> Bool {
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        if let first = text.first, first == ascii("v") || first == ascii("V") {
            guard let dot = text.firstIndex(of: ascii(".")) else { return false }
            let version = text[(text.startIndex + 1)..<dot]
            let rest = text[(dot + 1)...]
            return !version.isEmpty && version.allSatisfy(isHexadecimal) && !rest.isEmpty
                && rest.allSatisfy { isUnreserved($0) || isSubDelimiter($0) || $0 == ascii(":") }
        }
        return isIPv6Address(text)
    }

    /// IPv6address: eight groups of 1 to 4 hexadecimal digits (h16) separated by ":", the last
    /// two of which may be an IPv4address, or fewer with one "::" standing for one or more groups.
    private static func isIPv6Address(_ text: ArraySlice<UInt8>) -> Bool {
        /// The groups of a run of h16s separated by ":" (an IPv4address last counting two).
        func groups(_ run: ArraySlice<UInt8>, ipv4Last: Bool) -> Int? {
            if run.isEmpty { return 0 }
            let pieces = run.split(separator: ascii(":"), omittingEmptySubsequences: false)
            var count = 0
            for (index, piece) in pieces.enumerated() {
                if ipv4Last, index == pieces.count - 1, piece.contains(ascii(".")) {
                    guard isIPv4Address(piece) else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(isHexadecimal) else { return nil }
                    count += 1
                }
            }
            return count
        }
        var doubleColon: Int?
        var index = text.startIndex
        while index + 1 < text.endIndex {
            if text[index] == ascii(":"), text[index + 1] == ascii(":") {
                guard doubleColon == nil else { return false }
                doubleColon = index
                index += 2
            } else {
                index += 1
            }
        }
        guard let doubleColon else { return groups(text, ipv4Last: true) == 8 }
        guard let before = groups(text[..<doubleColon], ipv4Last: false),
            let after = groups(text[(doubleColon + 2)...], ipv4Last: true)
        else { return false }
        return before + after <= 7
    }

    /// IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet, each 0 to 255 without
    /// leading zeros.
    private static func isIPv4Address(_ text: ArraySlice<UInt8>) -> Bool {
        let octets = text.split(separator: ascii("."), omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { octet in
                guard (1...3).contains(octet.count), octet.allSatisfy(isDigit), octet.count == 1 || octet.first != ascii("0")
                else { return false }
                return octet.reduce(0) { $0 * 10 + Int($1 - ascii("0")) } <= 255
            }
    }

    /// Whether every byte of `text` is `allowed` or part of a pct-encoded triplet ("%" HEXDIG HEXDIG).
    private static func allows(_ text: ArraySlice<UInt8>, _ allowed: (UInt8) -> Bool) -> Bool {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == ascii("%") {
                guard index + 2 < text.endIndex, isHexadecimal(text[index + 1]), isHexadecimal(text[index + 2]) else {
                    return false
                }
                index += 3
            } else if allowed(text[index]) {
                index += 1
            } else {
                return false
            }
        }
        return true
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
    private static func isAlpha(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHexadecimal(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
    /// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == ascii("-") || byte == ascii(".") || byte == ascii("_") || byte == ascii("~")
    }
    /// sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        "!$&'()*+,;=".utf8.contains(byte)
    }
    /// pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (the percent sign aside)
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == ascii(":") || byte == ascii("@")
    }
    /// What a query or fragment holds besides pct-encoded triplets: pchar, "/" and "?".
    private static func isQueryCharacter(_ byte: UInt8) -> Bool {
        isPathCharacter(byte) || byte == ascii("/") || byte == ascii("?")
    }
}
