import TargetingBase
import TargetingEngine

/// Versions that stand for every class of versions a set of version comparisons can tell apart.
///
/// Each literal, and for each literal its immediate successor in SemVer precedence (the smallest
/// version above it): that successor lies inside the gap up to the next literal whenever the gap
/// holds any version at all. `0.0.0-0`, the smallest version, stands for everything below the
/// lowest literal. Nicer versions (the next patch, minor and major release) are tried first.
enum VersionCandidates {
    /// The version literals of `kinds`.
    static func literals(_ kinds: [CompiledTest.Kind]) -> [SemanticVersion] {
        var found: [SemanticVersion] = []
        for kind in kinds {
            switch kind {
            case .version(let test): found += test.literals
            // Presence, and tests of strings, numbers, booleans, instants and sets: no version.
            case .presence, .text, .number, .bool, .date, .members: continue
            }
        }
        return found
    }

    /// Version texts in the order to try.
    static func texts(around literals: [SemanticVersion]) -> [String] {
        let sorted = Array(Set(literals)).sorted()
        guard !sorted.isEmpty else { return ["1.0.0"] }
        var result = sorted.map(text)
        result.append("0.0.0")
        for version in sorted {
            result.append("\(version.major).\(version.minor).\(increment(version.patch))")
            result.append("\(version.major).\(increment(version.minor)).0")
            result.append("\(increment(version.major)).0.0")
        }
        result.append("0.0.0-0")
        result += sorted.map(successor)
        return result
    }

    /// The version without build metadata.
    static func text(_ version: SemanticVersion) -> String {
        let core = "\(version.major).\(version.minor).\(version.patch)"
        return version.preRelease.isEmpty ? core : core + "-" + version.preRelease.joined(separator: ".")
    }

    /// The smallest version above `version`: `M.m.(p+1)-0` after a release, `…-pre.0` after a
    /// pre-release.
    static func successor(_ version: SemanticVersion) -> String {
        if version.preRelease.isEmpty {
            return "\(version.major).\(version.minor).\(increment(version.patch))-0"
        }
        return text(version) + ".0"
    }

    /// A decimal digit string plus one.
    static func increment(_ digits: String) -> String {
        var bytes = Array(digits.utf8)
        var index = bytes.count - 1
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "9") {
                bytes[index] = UInt8(ascii: "0")
                index -= 1
            } else {
                bytes[index] += 1
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return "1" + String(decoding: bytes, as: UTF8.self)
    }
}
