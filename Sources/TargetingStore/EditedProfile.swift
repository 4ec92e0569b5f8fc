import TargetingBase
import TargetingProfiles

/// A store's profile as answers see it while applied: its edit, over the base it changes.
package struct EditedProfile: AnswerRecipient {
    /// What the edit changes.
    package enum Base {
        /// A stored line: where its bytes lie in the store file (read when a rule needs more than the edit knows).
        case line(StoreFile, Range<Int>)
        /// A profile created by an event, holding only its id.
        case fresh(id: String)
    }

    package var edit: ProfileEdit
    package let base: Base

    /// The base as a `Profile` (nil for a stored line that cannot be read, which `ProfileStore.open` rules out).
    /// `readingAhead` when the next bases read follow in file order.
    package static func profile(of base: Base, scan: inout ProfileScan, readingAhead: Bool = false) -> Profile? {
        switch base {
        case .fresh(let id):
            var profile = Profile()
            profile.setField("id", .string(id))
            return profile
        case .line(let file, let range):
            guard let bytes = file.bytes(range, readingAhead: readingAhead) else { return nil }
            if let profile = bytes.withUnsafeBufferPointer({ scan.scan($0) ? scan.profile(in: $0) : nil }) { return profile }
            return try? ProfileReader.read(bytes).get()
        }
    }

    /// The base, read now (only rules near a limit and a stored `time_zone` need it).
    private var baseProfile: Profile {
        var scan = ProfileScan()
        return EditedProfile.profile(of: base, scan: &scan) ?? Profile()
    }

    /// The built-in field `name` as `Profile`'s subscript gives it (nil when absent or `null`).
    package subscript(name: String) -> JSONValue? {
        guard let change = edit.lastChange(custom: false, name) else { return baseProfile[name] }
        guard case .field(_, let value?) = change, value != .null else { return nil }
        return value
    }

    package mutating func setField(_ name: String, _ value: JSONValue?) { edit.note(.field(name, value)) }

    package mutating func setCustom(_ key: String, _ value: CustomValue?) { edit.note(.custom(key, value)) }

    package func hasCustom(_ key: String) -> Bool {
        guard let change = edit.lastChange(custom: true, key) else { return baseProfile.hasCustom(key) }
        return !change.isRemoval
    }

    package var customCount: Int { edit.applied(to: baseProfile).customCount }

    package var customCountBound: Int { edit.baseCustomCount + edit.customSets }
}

extension EditedProfile: HistoryRecipient {
    package mutating func recordShown(_ placement: String, at: Int64) { edit.note(.shown(placement, at: at)) }

    package mutating func recordAssignment(_ experiment: String, variant: String, at: Int64) {
        edit.note(.assigned(experiment, variant: variant, at: at))
    }
}
