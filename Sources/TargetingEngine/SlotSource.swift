import TargetingBase
import TargetingProfiles

/// Where a slot's value comes from: a `Profile`, or a profile line scanned in place.
/// Both give the same values; `Slot.read` turns them into slot values in one place.
package protocol SlotSource {
    /// The profile id (`id`), when it is a string.
    var profileID: String? { get }
    /// A built-in field as `Profile`'s subscript gives it (nil when absent or `null`).
    func field(_ name: String) -> JSONValue?
    /// A stored custom attribute.
    func customValue(_ key: String) -> CustomValue?
}

extension Profile: SlotSource {
    package var profileID: String? { id }
    package func field(_ name: String) -> JSONValue? { self[name] }
    package func customValue(_ key: String) -> CustomValue? { customAttributes[key] }
}

/// A profile line scanned by `ProfileScan`, read where it lies.
package struct ScannedProfile: SlotSource {
    package let scan: ProfileScan
    package let bytes: UnsafeBufferPointer<UInt8>
    package let profileID: String?

    package init(scan: ProfileScan, bytes: UnsafeBufferPointer<UInt8>) {
        self.scan = scan
        self.bytes = bytes
        profileID = scan.id(in: bytes)
    }

    package func field(_ name: String) -> JSONValue? { scan.fieldValue(name, in: bytes) }
    package func customValue(_ key: String) -> CustomValue? { scan.customValue(key, in: bytes) }
}
