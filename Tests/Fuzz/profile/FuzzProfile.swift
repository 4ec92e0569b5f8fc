import Foundation
import TargetingBase
import TargetingFuzzSupport
import TargetingProfiles

/// Profile JSON lines through the profile reader and the byte scanner:
/// - every rejection has a non-empty message;
/// - where `ProfileScan` accepts a line, `ProfileReader` accepts it too and reads the same
///   profile, field by field (the differential check the scanner's contract promises);
/// - an accepted profile written back (`jsonData`) reads again to the same profile;
/// - an input that does not start like JSON (`{` or white space) is read as choices for a line
///   with a `history` (`HistoryLine`), valid or broken on purpose: a valid one reads to the
///   history it means, a broken one is rejected with a message naming `history` (or the
///   duplicate key that makes it invalid JSON).
@main
enum FuzzProfile {
    static func main() {
        FuzzDriver.run { data, size in
            FuzzProfile.check(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    static func check(_ input: [UInt8]) {
        var bytes = input
        var generated: HistoryLine?
        if let first = input.first, ![UInt8(ascii: "{"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(first) {
            var choices = FuzzChoices(Array(input.dropFirst()))
            let line = HistoryLine.generate(&choices)
            generated = line
            bytes = Array(line.text.utf8)
        }
        let read = ProfileReader.read(bytes)
        if let line = generated { checkMeaning(line, read) }
        if case .failure(let error) = read, error.message.isEmpty { fuzzFailure("a rejection without a message") }
        var scan = ProfileScan()
        bytes.withUnsafeBufferPointer { buffer in
            guard scan.scan(buffer) else { return }
            guard case .success(let profile) = read else {
                fuzzFailure("the scan accepts a line the reader rejects: \(read)\n\(String(decoding: bytes, as: UTF8.self))")
            }
            if scan.history != profile.history {
                fuzzFailure("the scan reads another history:\n\(String(describing: scan.history))\n---\n\(String(describing: profile.history))\n\(String(decoding: bytes, as: UTF8.self))")
            }
            let scanned = scan.profile(in: buffer)
            if scanned != profile { fuzzFailure("the scan reads another profile:\n\(scanned)\n---\n\(profile)") }
            if scan.id(in: buffer) != profile.id { fuzzFailure("the scan reads another id") }
            for member in profile.fields where scan.fieldValue(member.key, in: buffer) != profile[member.key] {
                fuzzFailure("the scan reads field `\(member.key)` differently")
            }
            for (key, value) in profile.customAttributes where scan.customValue(key, in: buffer) != value {
                fuzzFailure("the scan reads custom attribute `\(key)` differently")
            }
        }
        guard case .success(let profile) = read else { return }
        let written = profile.jsonData
        switch ProfileReader.read(Array(written)) {
        case .failure(let error):
            fuzzFailure("a profile written back does not read: \(error.message)\n\(String(decoding: written, as: UTF8.self))")
        case .success(let again):
            if again.customAttributes != profile.customAttributes || again.fields != profile.fields || again.history != profile.history {
                fuzzFailure("a profile written back reads differently:\n\(profile)\n---\n\(again)")
            }
            if again.jsonData != written { fuzzFailure("writing a profile twice differs") }
        }
    }

    /// A generated line reads as it means: a valid one to its history, a broken one not at all
    /// (with a message naming `history`, or the duplicate key that makes it invalid JSON).
    static func checkMeaning(_ line: HistoryLine, _ read: Result<Profile, ProfileError>) {
        switch read {
        case .failure(let error):
            if line.breaks.isEmpty { fuzzFailure("a valid line is rejected: \(error.message)\n\(line.text)") }
            // A key given twice anywhere is invalid JSON, reported as such.
            if !error.message.contains("history"), !error.message.contains("duplicate key") { fuzzFailure("a rejection of a broken history does not name it: \(error.message)\n\(line.text)") }
        case .success(let profile):
            if !line.breaks.isEmpty { fuzzFailure("a line with \(line.breaks.joined(separator: ", ")) is accepted:\n\(line.text)") }
            guard let meaning = line.meaning else {
                if let history = profile.history { fuzzFailure("a line without history reads one: \(history)\n\(line.text)") }
                return
            }
            let history = profile.history ?? ProfileHistory()
            let shown = Dictionary(uniqueKeysWithValues: history.shown.map { ($0.placement, $0.instants) })
            if shown != meaning.shown { fuzzFailure("shown instants read as \(shown), meant \(meaning.shown)\n\(line.text)") }
            let assigned = history.assigned.map { "\($0.experiment)=\($0.variant)@\($0.at)" }.sorted()
            let meant = meaning.assigned.map { "\($0.key)=\($0.value.variant)@\($0.value.at)" }.sorted()
            if assigned != meant { fuzzFailure("assignments read as \(assigned), meant \(meant)\n\(line.text)") }
        }
    }
}
