/// A version number following Semantic Versioning 2.0 precedence rules.
///
/// Accepted text: `[v]MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]`. Missing minor and
/// patch parts count as 0. Numbers may be arbitrarily long; they are stored as
/// decimal digit strings without leading zeros so that comparison stays exact.
/// Equality, hashing and ordering follow precedence: build metadata is ignored,
/// so "4.1" == "4.1.0" and "v1.0.0+abc" == "1.0.0".
package struct SemanticVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Major version as a decimal digit string without leading zeros.
    package let major: String
    /// Minor version as a decimal digit string without leading zeros ("0" when omitted).
    package let minor: String
    /// Patch version as a decimal digit string without leading zeros ("0" when omitted).
    package let patch: String
    /// Pre-release identifiers in order; empty for a release version.
    package let preRelease: [String]
    /// Build metadata identifiers in order; ignored by equality, hashing and ordering.
    package let build: [String]

    /// Parses `[v]MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]`; returns nil for anything else.
    package init?(parsing text: String) {
        if let core = Self.plainCore(text) {
            (major, minor, patch) = core
            preRelease = []
            build = []
            return
        }
        var rest = Substring(text)
        if rest.first == "v" {
            rest = rest.dropFirst()
        }

        var buildIdentifiers: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            guard let identifiers = Self.identifiers(rest[rest.index(after: plus)...]) else {
                return nil
            }
            buildIdentifiers = identifiers
            rest = rest[..<plus]
        }

        var preReleaseIdentifiers: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            guard let identifiers = Self.identifiers(rest[rest.index(after: dash)...]) else {
                return nil
            }
            for identifier in identifiers where Self.isNumeric(identifier) && !Self.isCanonicalNumber(identifier) {
                return nil
            }
            preReleaseIdentifiers = identifiers
            rest = rest[..<dash]
        }

        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(core.count) else {
            return nil
        }
        var numbers: [String] = []
        for part in core {
            let number = String(part)
            guard Self.isNumeric(number), Self.isCanonicalNumber(number) else {
                return nil
            }
            numbers.append(number)
        }
        while numbers.count < 3 {
            numbers.append("0")
        }

        major = numbers[0]
        minor = numbers[1]
        patch = numbers[2]
        preRelease = preReleaseIdentifiers
        build = buildIdentifiers
    }

    /// The common case `MAJOR.MINOR.PATCH` of short canonical numbers, read without splitting;
    /// nil for anything else (which the general parser then reads or rejects).
    private static func plainCore(_ text: String) -> (String, String, String)? {
        let utf8 = text.utf8
        guard utf8.count <= 32 else { return nil }
        var parts: [String.Index] = [utf8.startIndex]
        parts.reserveCapacity(4)
        var digits = 0
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts.count < 3 else { return nil }
                parts.append(utf8.index(after: index))
                digits = 0
            } else {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                digits += 1
            }
            index = utf8.index(after: index)
        }
        guard digits > 0, parts.count == 3 else { return nil }
        func part(_ i: Int) -> String {
            let end = i + 1 < parts.count ? utf8.index(before: parts[i + 1]) : utf8.endIndex
            return String(text[parts[i]..<end])
        }
        let major = part(0), minor = part(1), patch = part(2)
        guard isCanonicalNumber(major), isCanonicalNumber(minor), isCanonicalNumber(patch) else { return nil }
        return (major, minor, patch)
    }

    /// True when the version has pre-release identifiers.
    package var isPreRelease: Bool {
        !preRelease.isEmpty
    }

    /// Normalised text: "MAJOR.MINOR.PATCH", then "-PRERELEASE" and "+BUILD" when present.
    package var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !preRelease.isEmpty {
            text += "-" + preRelease.joined(separator: ".")
        }
        if !build.isEmpty {
            text += "+" + build.joined(separator: ".")
        }
        return text
    }

    /// Equal when precedence is equal (build metadata ignored).
    package static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.major == rhs.major
            && lhs.minor == rhs.minor
            && lhs.patch == rhs.patch
            && lhs.preRelease == rhs.preRelease
    }

    /// Hashes the parts that take part in precedence (build metadata excluded).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(preRelease)
    }

    /// Orders by SemVer 2.0 precedence.
    package static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        var order = compareNumbers(lhs.major, rhs.major)
        if order == 0 { order = compareNumbers(lhs.minor, rhs.minor) }
        if order == 0 { order = compareNumbers(lhs.patch, rhs.patch) }
        if order != 0 {
            return order < 0
        }
        // A release outranks any pre-release of the same core version.
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _):
            return false
        case (false, true):
            return true
        case (false, false):
            break
        }
        for (l, r) in zip(lhs.preRelease, rhs.preRelease) {
            let order = compareIdentifiers(l, r)
            if order != 0 {
                return order < 0
            }
        }
        return lhs.preRelease.count < rhs.preRelease.count
    }

    /// Compares canonical decimal digit strings: -1, 0 or 1.
    private static func compareNumbers(_ lhs: String, _ rhs: String) -> Int {
        let l = lhs.utf8, r = rhs.utf8
        if l.count != r.count {
            return l.count < r.count ? -1 : 1
        }
        return compareBytes(l, r)
    }

    /// Compares two pre-release identifiers: numeric below alphanumeric, numerics by value, others by ASCII.
    private static func compareIdentifiers(_ lhs: String, _ rhs: String) -> Int {
        switch (isNumeric(lhs), isNumeric(rhs)) {
        case (true, true):
            return compareNumbers(lhs, rhs)
        case (true, false):
            return -1
        case (false, true):
            return 1
        case (false, false):
            return compareBytes(lhs.utf8, rhs.utf8)
        }
    }

    /// Lexicographic byte comparison: -1, 0 or 1.
    private static func compareBytes(_ lhs: String.UTF8View, _ rhs: String.UTF8View) -> Int {
        if lhs.elementsEqual(rhs) {
            return 0
        }
        return lhs.lexicographicallyPrecedes(rhs) ? -1 : 1
    }

    /// Splits dot-separated identifiers, each a non-empty run of [0-9A-Za-z-]; nil if any is invalid.
    private static func identifiers(_ text: Substring) -> [String]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var result: [String] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy(isIdentifierByte) else {
                return nil
            }
            result.append(String(part))
        }
        return result
    }

    /// True for ASCII letters, digits and hyphen.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// True when the text is a non-empty run of ASCII digits.
    private static func isNumeric(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// True when a digit string has no leading zero (a lone "0" is fine).
    private static func isCanonicalNumber(_ text: String) -> Bool {
        text == "0" || text.utf8.first != UInt8(ascii: "0")
    }
}
