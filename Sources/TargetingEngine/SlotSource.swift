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
    /// Calls `body` with the stored custom attribute `slot` reads (its `plainName`) of `source`
    /// in plain form (both through pointers, so that a read copies only what it looks at).
    static func withCustomPlain<R>(_ source: UnsafePointer<Self>, _ slot: UnsafePointer<Slot>, _ body: (PlainStored) -> R) -> R
    /// Calls `body` with the built-in field `slot` reads (its `plainName`) of `source` in plain
    /// form (`null` is missing).
    static func withFieldPlain<R>(_ source: UnsafePointer<Self>, _ slot: UnsafePointer<Slot>, _ body: (PlainStored) -> R) -> R
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

    package static func withCustomPlain<R>(_ source: UnsafePointer<Profile>, _ slot: UnsafePointer<Slot>, _ body: (PlainStored) -> R) -> R {
        switch source.pointee.customAttributes[slot.pointee.plainName] {
        case nil: body(.missing)
        case .number(let number)?: body(.number(number))
        case .string(let text)?: PlainStored.withText(text, body)
        }
    }

    package static func withFieldPlain<R>(_ source: UnsafePointer<Profile>, _ slot: UnsafePointer<Slot>, _ body: (PlainStored) -> R) -> R {
        switch source.pointee[slot.pointee.plainName] {
        case nil: body(.missing)
        case .number(let number)?: body(.number(number))
        case .string(let text)?: PlainStored.withText(text, body)
        case .bool?, .array?, .object?, .null?: body(.other)
        }
    }
}

/// A profile line scanned by `ProfileScan`, read where it lies.
///
/// It borrows the scan and its member lists through pointers (valid while the line is
/// resolved), so the copies an evaluation makes of it, and its reads, retain nothing.
package struct ScannedProfile: SlotSource {
    package let scan: UnsafePointer<ProfileScan>
    package let bytes: UnsafeBufferPointer<UInt8>
    package let profileID: String?
    private let fields: UnsafeBufferPointer<ProfileScan.Member>
    private let customAttributes: UnsafeBufferPointer<ProfileScan.Member>

    private init(scan: UnsafePointer<ProfileScan>, fields: UnsafeBufferPointer<ProfileScan.Member>,
                 customAttributes: UnsafeBufferPointer<ProfileScan.Member>, bytes: UnsafeBufferPointer<UInt8>) {
        self.scan = scan
        self.bytes = bytes
        self.fields = fields
        self.customAttributes = customAttributes
        profileID = ProfileScan.id(in: fields, bytes)
    }

    /// Calls `body` with the line `bytes` that `scan` has just scanned, read where it lies.
    package static func with<R>(_ scan: inout ProfileScan, bytes: UnsafeBufferPointer<UInt8>, _ body: (ScannedProfile) -> R) -> R {
        scan.withMembers { scan, fields, customAttributes in
            body(ScannedProfile(scan: scan, fields: fields, customAttributes: customAttributes, bytes: bytes))
        }
    }

    package func field(_ name: String) -> JSONValue? { scan.pointee.fieldValue(name, in: bytes) }
    package var history: ProfileHistory? { scan.pointee.history }
    package func customValue(_ key: String) -> CustomValue? { scan.pointee.customValue(key, in: bytes) }

    /// The member of `members` `slot` reads.
    @inline(__always)
    private static func member(of members: UnsafeBufferPointer<ProfileScan.Member>, _ slot: UnsafePointer<Slot>,
                               in bytes: UnsafeBufferPointer<UInt8>) -> ProfileScan.Member? {
        // A name longer than a slot holds inline is compared through its string.
        guard let name = slot.pointee.plainUTF8 else { return ProfileScan.first(in: members, named: slot.pointee.plainName, in: bytes) }
        return name.withUTF8 { ProfileScan.first(in: members, named: $0, in: bytes) }
    }

    package static func withCustomPlain<R>(_ source: UnsafePointer<ScannedProfile>, _ slot: UnsafePointer<Slot>, _ body: (PlainStored) -> R) -> R {
        let bytes = source.pointee.bytes
        guard let member = member(of: source.pointee.customAttributes, slot, in: bytes) else { return body(.missing) }
        // The scan stores no `null`, and keeps booleans as the numbers 1 and 0, as `Profile` does.
        return member.kind == .string ? body(.text(UnsafeBufferPointer(rebasing: bytes[member.value]))) : body(.number(member.number))
    }

    package static func withFieldPlain<R>(_ source: UnsafePointer<ScannedProfile>, _ slot: UnsafePointer<Slot>, _ body: (PlainStored) -> R) -> R {
        let bytes = source.pointee.bytes
        guard let member = member(of: source.pointee.fields, slot, in: bytes) else { return body(.missing) }
        switch member.kind {
        case .null: return body(.missing)
        case .number: return body(.number(member.number))
        // The scan accepts only strings without escapes, so the bytes are the text.
        case .string: return body(.text(UnsafeBufferPointer(rebasing: bytes[member.value])))
        case .bool, .stringArray: return body(.other)
        }
    }
}
