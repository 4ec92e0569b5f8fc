import TargetingBase
import TargetingProfiles

/// Where a slot's value comes from: a `Profile`, or a profile line scanned in place.
/// Both give the same values; `Slot.read` turns them into slot values in one place, and
/// `Slot.readPlain` into plain values without building strings.
package protocol SlotSource {
    /// The profile id (`id`), when it is a string.
    var profileID: String? { get }
    /// A built-in field as `Profile`'s subscript gives it (nil when absent or `null`).
    func field(_ name: String) -> JSONValue?
    /// A stored custom attribute.
    func customValue(_ key: String) -> CustomValue?
    /// What the user was shown (the profile's `history`), or nil when it has none.
    var history: ProfileHistory? { get }
    /// Calls `body` with the stored custom attribute `key` of `source` in plain form (through a
    /// pointer, so that a read copies only what it looks at).
    static func withCustomPlain<R>(_ source: UnsafePointer<Self>, _ key: String, _ body: (PlainStored) -> R) -> R
    /// Calls `body` with the built-in field `name` of `source` in plain form (`null` is missing).
    static func withFieldPlain<R>(_ source: UnsafePointer<Self>, _ name: String, _ body: (PlainStored) -> R) -> R
}

/// A stored value as a plain read sees it: text as its UTF-8 bytes, which are valid only
/// inside the call that hands them out.
package enum PlainStored {
    case missing
    case number(Double)
    case text(UnsafeBufferPointer<UInt8>)
    /// Anything else (a boolean, an array or an object field): only a full read can tell.
    case other

    /// Calls `body` with `text`'s bytes (copied only for a string not stored as UTF-8).
    static func withText<R>(_ text: String, _ body: (PlainStored) -> R) -> R {
        var text = text
        return text.withUTF8 { body(.text($0)) }
    }
}

extension Profile: SlotSource {
    package var profileID: String? { id }
    package func field(_ name: String) -> JSONValue? { self[name] }
    package func customValue(_ key: String) -> CustomValue? { customAttributes[key] }

    package static func withCustomPlain<R>(_ source: UnsafePointer<Profile>, _ key: String, _ body: (PlainStored) -> R) -> R {
        switch source.pointee.customAttributes[key] {
        case nil: body(.missing)
        case .number(let number)?: body(.number(number))
        case .string(let text)?: PlainStored.withText(text, body)
        }
    }

    package static func withFieldPlain<R>(_ source: UnsafePointer<Profile>, _ name: String, _ body: (PlainStored) -> R) -> R {
        switch source.pointee[name] {
        case nil: body(.missing)
        case .number(let number)?: body(.number(number))
        case .string(let text)?: PlainStored.withText(text, body)
        case .bool?, .array?, .object?, .null?: body(.other)
        }
    }
}

/// A profile line scanned by `ProfileScan`, read where it lies.
///
/// It borrows the scan through a pointer (valid while the line is resolved), so the copies an
/// evaluation makes of it retain nothing.
package struct ScannedProfile: SlotSource {
    package let scan: UnsafePointer<ProfileScan>
    package let bytes: UnsafeBufferPointer<UInt8>
    package let profileID: String?

    package init(scan: UnsafePointer<ProfileScan>, bytes: UnsafeBufferPointer<UInt8>) {
        self.scan = scan
        self.bytes = bytes
        profileID = scan.pointee.id(in: bytes)
    }

    package func field(_ name: String) -> JSONValue? { scan.pointee.fieldValue(name, in: bytes) }
    package var history: ProfileHistory? { scan.pointee.history }
    package func customValue(_ key: String) -> CustomValue? { scan.pointee.customValue(key, in: bytes) }

    package static func withCustomPlain<R>(_ source: UnsafePointer<ScannedProfile>, _ key: String, _ body: (PlainStored) -> R) -> R {
        let bytes = source.pointee.bytes
        guard let member = ProfileScan.customAttribute(of: source.pointee.scan, key, in: bytes) else { return body(.missing) }
        // The scan stores no `null`, and keeps booleans as the numbers 1 and 0, as `Profile` does.
        return member.kind == .string ? body(.text(UnsafeBufferPointer(rebasing: bytes[member.value]))) : body(.number(member.number))
    }

    package static func withFieldPlain<R>(_ source: UnsafePointer<ScannedProfile>, _ name: String, _ body: (PlainStored) -> R) -> R {
        let bytes = source.pointee.bytes
        guard let member = ProfileScan.field(of: source.pointee.scan, name, in: bytes) else { return body(.missing) }
        switch member.kind {
        case .null: return body(.missing)
        case .number: return body(.number(member.number))
        // The scan accepts only strings without escapes, so the bytes are the text.
        case .string: return body(.text(UnsafeBufferPointer(rebasing: bytes[member.value])))
        case .bool, .stringArray: return body(.other)
        }
    }
}
