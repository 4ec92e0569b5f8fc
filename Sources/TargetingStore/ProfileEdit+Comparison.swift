import TargetingBase
import TargetingProfiles

extension ProfileEdit {
    /// Whether replaying the changes on the profile a scanned line holds gives a profile of the
    /// same content (member order aside, as `Profile.hasSameContent(as:)` compares), told from
    /// the changes and the scan alone, without building either profile. Nil when the scan cannot
    /// tell (a key outside ASCII, which a scanned key never is but could equal as a `String`);
    /// the caller then compares whole profiles.
    ///
    /// Only the last change of each key decides: replaying leaves that key as the last change
    /// put it, and every other member as the line held it. A scanned line holds each key once.
    /// History changes are replayed on the history the scan read; on a line without one, the
    /// first shown event gives the profile a history, so it changes.
    package func keepsContent(of scan: ProfileScan, in line: UnsafeBufferPointer<UInt8>) -> Bool? {
        let all = entries
        if all.contains(where: { $0.tag & ProfileEdit.historyMask != 0 }) {
            guard var history = scan.history else { return false }
            for entry in all where entry.tag & ProfileEdit.historyMask != 0 {
                switch change(entry) {
                case .shown(let placement, let at): history.recordShown(placement, at: at)
                case .assigned(let experiment, let variant, let at): history.recordAssignment(experiment, variant: variant, at: at)
                case .field, .custom: break
                }
            }
            if history != scan.history { return false }
        }
        for (position, entry) in all.enumerated() {
            if entry.tag & ProfileEdit.historyMask != 0 { continue }
            let key = encoded[entry.key]
            guard key.allSatisfy({ $0 < 0x80 }) else { return nil }
            let isCustom = entry.tag & ProfileEdit.customBit != 0
            // A later change of the same key decides it instead.
            let later = all[(position + 1)...].contains { other in
                (other.tag & ProfileEdit.customBit != 0) == isCustom && encoded[other.key].elementsEqual(key)
            }
            if later { continue }
            let members = isCustom ? scan.customAttributes : scan.fields
            let stored = members.first { line[$0.key].elementsEqual(key) }
            guard let same = keeps(entry, stored: stored, custom: isCustom, line: line) else { return nil }
            if !same { return false }
        }
        return true
    }

    /// Whether `entry`, the last change of its key, leaves the key as the line stored it (`stored`, nil when absent).
    private func keeps(_ entry: Entry, stored: ProfileScan.Member?, custom: Bool, line: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard entry.tag & ProfileEdit.removalBit == 0 else { return stored == nil }
        guard let stored else { return false }
        let payload = entry.key.upperBound..<entry.range.upperBound
        switch entry.tag & ProfileEdit.kindMask {
        case ProfileEdit.numberKind:
            let number = Double(bitPattern: UInt64(truncatingIfNeeded: integer(at: payload.lowerBound, bytes: 8)))
            // A custom attribute stores `true` and `false` as 1 and 0; a field keeps them as booleans.
            if custom { return stored.kind != .string && stored.number == number }
            return stored.kind == .number && stored.number == number
        case ProfileEdit.stringKind:
            guard stored.kind == .string else { return false }
            let text = encoded[(payload.lowerBound + 4)..<payload.upperBound]
            let storedText = line[stored.value]
            if text.elementsEqual(storedText) { return true }
            // Different bytes may still be equal `String`s (canonical equivalence) outside ASCII.
            if text.allSatisfy({ $0 < 0x80 }), storedText.allSatisfy({ $0 < 0x80 }) { return false }
            return String(decoding: text, as: UTF8.self) == String(decoding: UnsafeBufferPointer(rebasing: storedText), as: UTF8.self)
        default:
            guard !custom, case .success(let value) = JSONParser.parse(encoded[(payload.lowerBound + 4)..<payload.upperBound]) else { return nil }
            return value == (ProfileScan.value(of: stored, in: line) ?? .null)
        }
    }
}
