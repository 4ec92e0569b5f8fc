import TargetingBase

/// The attribute types that the generated rules use.
package enum Kind: CaseIterable {
    case string, number, bool, date, version, set
}

/// An attribute the generated rules compare: a declared custom attribute, a built-in field,
/// or `now`.
package struct Attribute {
    /// How rules write it.
    package var reference: String
    package var kind: Kind
    package enum Source { case custom(String), builtin(String), daysSinceInstall, now }
    package var source: Source
}

/// A value as the reference reads it: present and fitting its type, present but mistyped,
/// or missing.
package enum Reading {
    case missing
    case mistyped
    case string(String)
    case number(Double)
    case bool(Bool)
    case date(Int64)
    case version(Version)
    case set([String])

    package var isPresent: Bool { if case .missing = self { return false } else { return true } }
}

/// A version as the README defines it: `[v]MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]`,
/// numeric parts without leading zeros, compared by SemVer 2.0 precedence.
package struct Version {
    package var core: [Int]
    package var prerelease: [String]

    package init?(_ text: String) {
        var rest = Substring(text)
        if rest.first == "v" { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: "+") {
            let build = rest[rest.index(after: plus)...]
            guard !build.isEmpty, build.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(Version.isIdentifier) else { return nil }
            rest = rest[..<plus]
        }
        if let dash = rest.firstIndex(of: "-") {
            let parts = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
            guard !parts.isEmpty, parts.allSatisfy(Version.isIdentifier) else { return nil }
            for part in parts where part.allSatisfy(\.isASCIIDigit) && part.count > 1 && part.first == "0" { return nil }
            prerelease = parts.map(String.init)
            rest = rest[..<dash]
        } else {
            prerelease = []
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(numbers.count) else { return nil }
        core = []
        for number in numbers {
            guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit), number.count == 1 || number.first != "0",
                  let value = Int(number) else { return nil }
            core.append(value)
        }
        while core.count < 3 { core.append(0) }
    }

    package static func isIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCIIDigit || $0.isASCIILetter || $0 == "-" }
    }

    /// -1, 0 or 1 by precedence.
    package static func order(_ a: Version, _ b: Version) -> Int {
        for (x, y) in zip(a.core, b.core) where x != y { return x < y ? -1 : 1 }
        switch (a.prerelease.isEmpty, b.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
            let xNumeric = x.allSatisfy(\.isASCIIDigit), yNumeric = y.allSatisfy(\.isASCIIDigit)
            switch (xNumeric, yNumeric) {
            case (true, true):
                if x.count != y.count { return x.count < y.count ? -1 : 1 }
                return x < y ? -1 : 1
            case (true, false): return -1
            case (false, true): return 1
            case (false, false): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) ? -1 : 1
            }
        }
        if a.prerelease.count == b.prerelease.count { return 0 }
        return a.prerelease.count < b.prerelease.count ? -1 : 1
    }
}

extension Character {
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    package var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// Calendar arithmetic for building date literals and RFC 3339 texts whose instants are known.
package enum Civil {
    /// Days from 1970-01-01 to a proleptic Gregorian date.
    package static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package struct Instant {
        package var year, month, day, hour, minute, second: Int
        package var milliseconds: Int64 {
            Int64(Civil.days(year, month, day)) * 86_400_000 + Int64(hour * 3_600 + minute * 60 + second) * 1_000
        }
        package var dateText: String { String(format4(year)) + "-" + two(month) + "-" + two(day) }
        package var rfc3339: String { dateText + "T" + two(hour) + ":" + two(minute) + ":" + two(second) + "Z" }
        package var isMidnight: Bool { hour == 0 && minute == 0 && second == 0 }
        package func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        package func format4(_ n: Int) -> String { String(repeating: "0", count: max(0, 4 - String(n).count)) + String(n) }
    }
}
