import TargetingBase
import TargetingBatch
import TargetingEngine

/// One version of the rules, as the server answers from it: compiled, checked free of errors,
/// and named by its content, so every answer can say which rules gave it.
package final class ServedRules: Sendable {
    /// The compiled rules.
    package let program: Program
    /// The version: the first 16 hex digits of the MD5 of every rules file's path (relative
    /// to the rules root) and bytes. Servers given the same files name the same version.
    package let version: String
    /// Every decision the rules can make, printed as JSON without its profile id.
    let tails: DecisionTails
    /// The destination of each tail, as the metrics name it.
    let tailDestinations: [String]

    package init(program: Program, version: String) {
        self.program = program
        self.version = version
        tails = DecisionTails(program: program, format: .json)
        tailDestinations = tails.decisions.map(\.destinationLabel)
    }

    /// The version of `sources` read under `root`.
    package static func version(of sources: [SourceFile], root: String) -> String {
        var bytes: [UInt8] = []
        let prefix = root.hasSuffix("/") ? root : root + "/"
        for source in sources.sorted(by: { $0.path < $1.path }) {
            let path = source.path.hasPrefix(prefix) ? String(source.path.dropFirst(prefix.count)) : String(source.path.split(separator: "/").last ?? "")
            bytes.append(contentsOf: path.utf8)
            bytes.append(0)
            bytes.append(contentsOf: String(source.bytes.count).utf8)
            bytes.append(0)
            bytes.append(contentsOf: source.bytes)
        }
        return MD5.hexPrefix(of: bytes, count: 8)
    }
}

