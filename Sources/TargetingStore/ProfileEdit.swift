import TargetingBase
import TargetingProfiles

/// The answers kept for one profile of the store, as changes to a base profile (the one its
/// stored line holds, or for a created profile one holding only its id) rather than as a whole
/// `Profile`: a store of many touched profiles then holds little more than its lines.
///
/// Changes are kept in the order made, with later changes of one key folded into earlier ones
/// where replaying gives the same profile: a value set again replaces the one set before (a
/// field keeps its place); a removal replaces every earlier change of its key. Replaying
/// `changes` on the base with `Profile.setField` and `setCustom` gives the profile the answers
/// made, member order included.
///
/// The changes are encoded one after another in a byte buffer, a few dozen bytes each: a tag
/// (custom or field, removal, kind of value), the key's length and UTF-8, then the value (a
/// string's length and UTF-8, a number's bits, or another field value as JSON text).
///
/// Shown events add to the profile's history: a placement shown at an instant (the
/// placement's name as the key, its length in 4 bytes, then the instant's 8 bytes), an
/// experiment's assignment (the experiment's name as the key likewise, the instant, then the
/// variant's length and UTF-8). They are
/// never folded, only left out when the edit holds the same one already (an assignment: one
/// for the same experiment, as the first one recorded stays), and replaying them records them
/// on the base's history as `ProfileHistory` keeps it.
package struct ProfileEdit {
    /// One change: a built-in field or a custom attribute set, or removed (nil); or a shown
    /// event's entry in the history.
    package enum Change: Equatable {
        case field(String, JSONValue?)
        case custom(String, CustomValue?)
        /// The placement was shown at the instant (Unix ms).
        case shown(String, at: Int64)
        /// The experiment assigned the variant at the instant, unless an assignment is recorded already.
        case assigned(String, variant: String, at: Int64)

        var isCustom: Bool {
            if case .custom = self { return true }
            return false
        }

        var isRemoval: Bool {
            switch self {
            case .field(_, let value): value == nil
            case .custom(_, let value): value == nil
            case .shown, .assigned: false
            }
        }
    }

    /// The encoded changes, in order.
    private(set) var encoded: [UInt8] = []
    /// How many custom attributes the base holds.
    package var baseCustomCount = 0
    /// How many changes set a custom attribute (each key is set by at most one).
    private(set) var customSets = 0
    /// Whether an answer kept changed the profile (it may since have come back to its base).
    package var changed = false
    /// Once the store settled: whether the profile differs from its base (member order aside).
    package var differs: Bool?

    static let customBit: UInt8 = 1, removalBit: UInt8 = 2
    static let stringKind: UInt8 = 0, numberKind: UInt8 = 4, jsonKind: UInt8 = 8, kindMask: UInt8 = 12
    static let shownTag: UInt8 = 16, assignedTag: UInt8 = 32, historyMask: UInt8 = 48

    /// One encoded change: where it lies in `encoded`, its tag and where its key lies.
    struct Entry {
        var range: Range<Int>
        var tag: UInt8
        var key: Range<Int>
    }

    private static func append(_ value: Int, bytes count: Int, to buffer: inout [UInt8]) {
        for shift in 0..<count { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
    }

    func integer(at index: Int, bytes count: Int) -> Int {
        ProfileEdit.integer(in: encoded, at: index, bytes: count)
    }

    /// The little-endian integer of `count` bytes at `index` of `buffer`.
    private static func integer(in buffer: [UInt8], at index: Int, bytes count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(buffer[index + $1]) << (8 * $1) }
    }

    /// How many bytes give the key's length: 2 for a field or custom attribute (short names), 4
    /// for a history change (a placement or experiment name is whatever a line gave).
    static func keyLengthBytes(_ tag: UInt8) -> Int { tag & historyMask != 0 ? 4 : 2 }

    /// The entry starting at `start`.
    private func entry(at start: Int) -> Entry {
        let tag = encoded[start]
        let lengthBytes = ProfileEdit.keyLengthBytes(tag)
        let keyLength = integer(at: start + 1, bytes: lengthBytes)
        let key = (start + 1 + lengthBytes)..<(start + 1 + lengthBytes + keyLength)
        var end = key.upperBound
        if tag & ProfileEdit.historyMask != 0 {
            end += 8
            if tag == ProfileEdit.assignedTag { end += 4 + integer(at: end, bytes: 4) }
        } else if tag & ProfileEdit.removalBit == 0 {
            switch tag & ProfileEdit.kindMask {
            case ProfileEdit.numberKind: end += 8
            default: end += 4 + integer(at: end, bytes: 4)
            }
        }
        return Entry(range: start..<end, tag: tag, key: key)
    }

    /// Every entry, in order.
    var entries: [Entry] {
        var result: [Entry] = []
        var index = 0
        while index < encoded.count {
            let next = entry(at: index)
            result.append(next)
            index = next.range.upperBound
        }
        return result
    }

    /// The last entry that changes `key` of the kind given.
    private func lastEntry(custom: Bool, _ key: String) -> Entry? {
        var found: Entry?
        var index = 0
        while index < encoded.count {
            let next = entry(at: index)
            if matches(next, custom: custom, key) { found = next }
            index = next.range.upperBound
        }
        return found
    }

    /// Whether `entry` changes `key` of the kind given (keys compare as `String`s do).
    private func matches(_ entry: Entry, custom: Bool, _ key: String) -> Bool {
        guard entry.tag & ProfileEdit.historyMask == 0, (entry.tag & ProfileEdit.customBit != 0) == custom else { return false }
        let stored = encoded[entry.key]
        if stored.elementsEqual(key.utf8) { return true }
        if stored.allSatisfy({ $0 < 0x80 }), key.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return String(decoding: stored, as: UTF8.self) == key
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: encoded[range], as: UTF8.self) }

    /// The change an entry encodes.
    func change(_ entry: Entry) -> Change {
        let key = text(entry.key)
        if entry.tag & ProfileEdit.historyMask != 0 {
            let at = Int64(truncatingIfNeeded: integer(at: entry.key.upperBound, bytes: 8))
            guard entry.tag == ProfileEdit.assignedTag else { return .shown(key, at: at) }
            return .assigned(key, variant: text((entry.key.upperBound + 12)..<entry.range.upperBound), at: at)
        }
        let isCustom = entry.tag & ProfileEdit.customBit != 0
        guard entry.tag & ProfileEdit.removalBit == 0 else { return isCustom ? .custom(key, nil) : .field(key, nil) }
        let start = entry.key.upperBound
        switch entry.tag & ProfileEdit.kindMask {
        case ProfileEdit.numberKind:
            let number = Double(bitPattern: UInt64(truncatingIfNeeded: integer(at: start, bytes: 8)))
            return isCustom ? .custom(key, .number(number)) : .field(key, .number(number))
        case ProfileEdit.stringKind:
            let string = text((start + 4)..<entry.range.upperBound)
            return isCustom ? .custom(key, .string(string)) : .field(key, .string(string))
        default:
            // Written by `JSONWriter`, so it parses back to the value written.
            let value = (try? JSONParser.parse(encoded[(start + 4)..<entry.range.upperBound]).get()) ?? .null
            return .field(key, value)
        }
    }

    /// `change` encoded.
    private static func encode(_ change: Change, to buffer: inout [UInt8]) {
        let key: String
        var tag: UInt8 = 0
        // A string's UTF-8 is written as it is; another field value as its JSON text.
        var text: String?
        var number: Double?
        switch change {
        case .custom(let name, let value):
            key = name
            tag |= customBit
            switch value {
            case nil: tag |= removalBit
            case .string(let string)?: text = string
            case .number(let value)?: number = value
            }
        case .field(let name, let value):
            key = name
            switch value {
            case nil: tag |= removalBit
            case .string(let string)?: text = string
            case .number(let value)?: number = value
            case let other?:
                tag |= jsonKind
                text = JSONWriter.write(other)
            }
        case .shown(let placement, let at):
            buffer.append(shownTag)
            append(placement.utf8.count, bytes: 4, to: &buffer)
            buffer.append(contentsOf: placement.utf8)
            append(Int(at), bytes: 8, to: &buffer)
            return
        case .assigned(let experiment, let variant, let at):
            buffer.append(assignedTag)
            append(experiment.utf8.count, bytes: 4, to: &buffer)
            buffer.append(contentsOf: experiment.utf8)
            append(Int(at), bytes: 8, to: &buffer)
            append(variant.utf8.count, bytes: 4, to: &buffer)
            buffer.append(contentsOf: variant.utf8)
            return
        }
        if tag & removalBit == 0, number != nil { tag |= numberKind }
        buffer.append(tag)
        append(key.utf8.count, bytes: 2, to: &buffer)
        buffer.append(contentsOf: key.utf8)
        guard tag & removalBit == 0 else { return }
        if let number {
            append(Int(truncatingIfNeeded: number.bitPattern), bytes: 8, to: &buffer)
        } else if let text {
            append(text.utf8.count, bytes: 4, to: &buffer)
            buffer.append(contentsOf: text.utf8)
        }
    }

    /// The changes, decoded, in order.
    package var changes: [Change] { entries.map(change) }

    /// Records a change (see the type's note on folding).
    package mutating func note(_ change: Change) {
        let isCustom = change.isCustom
        let key: String
        switch change {
        case .field(let name, _), .custom(let name, _): key = name
        case .shown, .assigned:
            noteHistory(change)
            return
        }
        if let last = lastEntry(custom: isCustom, key) {
            let lastIsRemoval = last.tag & ProfileEdit.removalBit != 0
            if !change.isRemoval, !lastIsRemoval {
                // Encoded apart, not at the end of `encoded`: that would leave each edit's buffer
                // with room to spare, which adds up over a store's touched profiles.
                var replacement: [UInt8] = []
                ProfileEdit.encode(change, to: &replacement)
                encoded.replaceSubrange(last.range, with: replacement)
                return
            }
            if change.isRemoval {
                if isCustom, !lastIsRemoval { customSets -= 1 }
                var kept: [UInt8] = []
                kept.reserveCapacity(encoded.count)
                for entry in entries where !matches(entry, custom: isCustom, key) { kept.append(contentsOf: encoded[entry.range]) }
                encoded = kept
            }
        }
        if isCustom, !change.isRemoval { customSets += 1 }
        ProfileEdit.encode(change, to: &encoded)
    }

    /// Records a history change, unless the edit holds it already (for an assignment: one of
    /// the same experiment, which stays the first). Compared by bytes: replaying keeps the
    /// history right either way, this only keeps the edit short.
    private mutating func noteHistory(_ change: Change) {
        // Encoded in place at the end, then taken back off if an earlier entry holds it.
        let start = encoded.count
        ProfileEdit.encode(change, to: &encoded)
        let added = entry(at: start)
        let held = encoded.withUnsafeBufferPointer { bytes -> Bool in
            func same(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
                guard lhs.count == rhs.count else { return false }
                for offset in 0..<lhs.count where bytes[lhs.lowerBound + offset] != bytes[rhs.lowerBound + offset] { return false }
                return true
            }
            var index = 0
            while index < start {
                let next = entry(at: index)
                if next.tag == added.tag, added.tag == ProfileEdit.assignedTag ? same(next.key, added.key) : same(next.range, added.range) {
                    return true
                }
                index = next.range.upperBound
            }
            return false
        }
        if held { encoded.removeSubrange(start...) }
    }

    /// The latest change of a key, if any.
    package func lastChange(custom: Bool, _ key: String) -> Change? {
        lastEntry(custom: custom, key).map(change)
    }

    /// `base` with the changes made.
    package func applied(to base: Profile) -> Profile {
        var profile = base
        for change in changes {
            switch change {
            case .field(let name, let value): profile.setField(name, value)
            case .custom(let key, let value): profile.setCustom(key, value)
            case .shown(let placement, let at): profile.recordShown(placement, at: at)
            case .assigned(let experiment, let variant, let at): profile.recordAssignment(experiment, variant: variant, at: at)
            }
        }
        return profile
    }
}
