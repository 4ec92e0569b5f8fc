import Foundation
import TargetingBase

/// An event line read without building a JSON tree: where each member sits in the line's bytes.
///
/// The scan accepts the common shape of event lines and nothing else: one flat object
/// whose keys are visible ASCII without escapes, each key once, and whose values are strings
/// without escapes (of well-formed UTF-8), numbers, `true`, `false`, `null`, or arrays of such
/// strings; a `profile_id` that is a non-empty string, a `name` that is a string, and a
/// `time_zone` that is absent, `null` or names a known zone. Such a line is an event as
/// `EventLine.read(_:)` reads it, and every member reads as `JSONParser` reads it. Any other line,
/// valid or not, fails the scan, and the caller reads it with `EventLine.read(_:)`, which
/// accepts it or rejects it with its message.
///
/// One scan is reused line after line: its member list keeps its capacity.
package struct EventScan: Sendable {
    /// The members, in input order.
    private(set) var members: [ProfileScan.Member] = []
    /// The last zone named in `time_zone`, kept because lines of one user repeat it.
    private var lastZone: (name: [UInt8], zone: TimeZone)?

    /// More members than this are left to `EventLine.read(_:)` (the duplicate check here is a linear scan).
    static let maxMembers = 64

    package init() {}

    /// What the scan read from one line.
    package struct Head {
        /// The profile the event belongs to.
        package var profileID: String
        /// The event name.
        package var name: String
        /// The zone of the line's `time_zone`; nil when absent or `null`.
        package var timeZone: TimeZone?
        /// Where the profile id's characters lie in the line (between its quotes).
        package var profileIDBytes: Range<Int>
    }

    /// Scans `bytes` as one event line; nil when the line is outside the accepted shape (or invalid).
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Head? {
        members.removeAll(keepingCapacity: true)
        var cursor = ScanCursor(bytes: bytes)
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        if !cursor.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = cursor.key(), cursor.take(UInt8(ascii: ":")), members.count < EventScan.maxMembers,
                      !members.contains(where: { cursor.equals($0.key, key) }),
                      let member = cursor.value(key: key, arrays: true) else { return nil }
                members.append(member)
            } while cursor.take(UInt8(ascii: ","))
            guard cursor.take(UInt8(ascii: "}")) else { return nil }
        }
        guard cursor.atEnd,
              let id = member("profile_id", in: bytes), id.kind == .string, !id.value.isEmpty,
              let name = member("name", in: bytes), name.kind == .string else { return nil }
        var timeZone: TimeZone?
        if let zone = member("time_zone", in: bytes), zone.kind != .null {
            guard zone.kind == .string else { return nil }
            let zoneName = UnsafeBufferPointer(rebasing: bytes[zone.value])
            if let last = lastZone, last.name.elementsEqual(zoneName) {
                timeZone = last.zone
            } else {
                guard let known = TimeZone(identifier: ProfileScan.text(bytes, zone.value)) else { return nil }
                lastZone = (Array(zoneName), known)
                timeZone = known
            }
        }
        return Head(profileID: ProfileScan.text(bytes, id.value), name: ProfileScan.text(bytes, name.value), timeZone: timeZone,
                    profileIDBytes: id.value)
    }

    /// The member `key` (compared by bytes), if present.
    func member(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> ProfileScan.Member? {
        ProfileScan.first(of: members, named: key, in: bytes)
    }

    /// The scanned line's members as an event's params, for `FlowEventInterpreter`; valid while `bytes` is.
    package func params(in bytes: UnsafeBufferPointer<UInt8>) -> ScannedParams {
        ScannedParams(bytes: bytes, scan: self)
    }
}

/// A scanned event line's members, read one at a time as `JSONValue`'s subscript reads them.
package struct ScannedParams: EventParams {
    let bytes: UnsafeBufferPointer<UInt8>
    let scan: EventScan

    package var isObject: Bool { true }

    package subscript(key: String) -> JSONValue? {
        guard let member = scan.member(key, in: bytes) else { return nil }
        return ProfileScan.value(of: member, in: bytes) ?? .null
    }
}

/// An event's params as `FlowEventInterpreter` reads them: whether they are an object, and a member by key.
package protocol EventParams {
    /// Whether the params are a JSON object.
    var isObject: Bool { get }
    /// The member `key`, or nil when absent (`.null` when given as `null`).
    subscript(key: String) -> JSONValue? { get }
}

extension JSONValue: EventParams {
    package var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
