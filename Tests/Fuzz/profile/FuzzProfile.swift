import Foundation
import TargetingBase
import TargetingFuzzSupport
import TargetingProfiles

/// Profile JSON lines through the profile reader and the byte scanner:
/// - every rejection has a non-empty message;
/// - where `ProfileScan` accepts a line, `ProfileReader` accepts it too and reads the same
///   profile, field by field (the differential check the scanner's contract promises);
/// - an accepted profile written back (`jsonData`) reads again to the same profile.
@main
enum FuzzProfile {
    static func main() {
        FuzzDriver.run { data, size in
            FuzzProfile.check(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    static func check(_ bytes: [UInt8]) {
        let read = ProfileReader.read(bytes)
        if case .failure(let error) = read, error.message.isEmpty { fuzzFailure("a rejection without a message") }
        var scan = ProfileScan()
        bytes.withUnsafeBufferPointer { buffer in
            guard scan.scan(buffer) else { return }
            guard case .success(let profile) = read else {
                fuzzFailure("the scan accepts a line the reader rejects: \(read)\n\(String(decoding: bytes, as: UTF8.self))")
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
            if again.customAttributes != profile.customAttributes || again.fields != profile.fields {
                fuzzFailure("a profile written back reads differently:\n\(profile)\n---\n\(again)")
            }
            if again.jsonData != written { fuzzFailure("writing a profile twice differs") }
        }
    }
}
