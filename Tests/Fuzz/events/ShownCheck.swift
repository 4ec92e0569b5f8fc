import TargetingBase
import TargetingFuzzSupport
import TargetingProfiles

extension FuzzEvents {
    /// Checks one `placement_shown` line (see the type's summary); returns its event when accepted.
    static func checkShown(_ event: EventLine, line: [UInt8]) -> ShownEvent? {
        let read = ShownEvent.read(event.params)
        var scan = EventScan()
        let scanned: Result<ShownEvent, ProfileError>? = line.withUnsafeBufferPointer { buffer in
            guard let head = scan.scan(buffer) else { return nil }
            if head.profileID != event.profileID || head.name != event.name { fuzzFailure("the scan reads another profile id or name") }
            return ShownEvent.read(scan.params(in: buffer))
        }
        let text = String(decoding: line, as: UTF8.self)
        if let scanned, scanned != read { fuzzFailure("a shown line reads differently scanned:\n\(scanned)\n---\n\(read)\n\(text)") }
        let expected = ShownRules.read(event.params)
        switch (read, expected) {
        case (.failure(let error), nil):
            if error.message.isEmpty { fuzzFailure("a shown line rejected without a message") }
            return nil
        case (.failure(let error), .some):
            fuzzFailure("a valid shown line is rejected (\(error.message)):\n\(text)")
        case (.success(let shown), nil):
            fuzzFailure("a shown line breaking the rules is accepted as \(shown):\n\(text)")
        case (.success(let shown), .some(let meant)):
            if shown != meant { fuzzFailure("a shown line reads as \(shown), meant \(meant):\n\(text)") }
            guard let params = JSONValue(sdkParams: shown.params(profileID: event.profileID)) else {
                fuzzFailure("the params built for an app do not convert: \(shown)")
            }
            if ShownEvent.read(params) != .success(shown) { fuzzFailure("the params built for an app read differently: \(params)") }
            return shown
        }
    }
}

/// The README's rules for a shown line's members, written out on their own: `placement` and
/// `id` non-empty strings, `kind` `flow` or `paywall`, `at` an RFC 3339 instant with time and
/// zone; `experiment` and `variant` non-empty strings, both or neither, and `held_out` a
/// boolean (`null` or absent: not given).
enum ShownRules {
    /// The event the params mean, or nil when they break a rule.
    static func read(_ params: JSONValue) -> ShownEvent? {
        guard case .object(let members) = params else { return nil }
        // The first member of a name counts, as the parsed line's lookup finds it.
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func text(_ key: String) -> String?? {
            guard let value = value(key), value != .null else { return .some(nil) }
            guard case .string(let text) = value, !text.isEmpty else { return nil }
            return .some(text)
        }
        guard case .some(.some(let placement)) = text("placement"), case .some(.some(let id)) = text("id"),
              case .string(let kindText)? = value("kind"), let kind = ShownEvent.Kind(rawValue: kindText),
              case .some(let experiment) = text("experiment"), case .some(let variant) = text("variant"),
              (experiment == nil) == (variant == nil),
              case .string(let atText)? = value("at"), let at = instant(atText) else { return nil }
        var heldOut = false
        switch value("held_out") {
        case nil, .null?: break
        case .bool(let flag)?: heldOut = flag
        default: return nil
        }
        return ShownEvent(placement: placement, kind: kind, id: id, experiment: experiment, variant: variant, heldOut: heldOut, at: at)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`t` and `z` too) as Unix ms, the fraction
    /// cut to milliseconds; nil for anything else or an impossible date or time.
    static func instant(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for byte in b[start..<(start + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116, b[13] == 58, b[16] == 58,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              (1...12).contains(month), hour <= 23, minute <= 59, second <= 59 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        var index = 19
        var millis = 0
        if b[index] == 46 {
            var count = 0
            index += 1
            while index < b.count, (48...57).contains(b[index]) {
                if count < 3 { millis = millis * 10 + Int(b[index] - 48) }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { millis *= 10 }
        }
        guard index < b.count else { return nil }
        var offset = 0
        switch b[index] {
        case 90, 122: guard index + 1 == b.count else { return nil }
        case 43, 45:
            guard index + 6 == b.count, b[index + 3] == 58, let hours = digits(index + 1, 2), let minutes = digits(index + 4, 2),
                  hours <= 23, minutes <= 59 else { return nil }
            offset = (hours * 60 + minutes) * (b[index] == 45 ? -1 : 1)
        default: return nil
        }
        let seconds = Int64(Civil.days(year, month, day)) * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offset * 60)
        return seconds * 1_000 + Int64(millis)
    }
}

/// The history the README describes for shown events recorded in order: per placement every
/// distinct instant (the latest 100 kept), per experiment the first assignment.
struct RecordedHistory {
    var instants: [String: Set<Int64>] = [:]
    /// Experiment to `variant@at`.
    var assigned: [String: String] = [:]

    mutating func record(_ shown: ShownEvent) {
        instants[shown.placement, default: []].insert(shown.at)
        if let experiment = shown.experiment, let variant = shown.variant, assigned[experiment] == nil {
            assigned[experiment] = "\(variant)@\(shown.at)"
        }
    }

    /// Traps unless `history` keeps what this model does.
    func check(_ history: ProfileHistory?) {
        let history = history ?? ProfileHistory()
        let kept = Dictionary(uniqueKeysWithValues: history.shown.map { ($0.placement, $0.instants) })
        let meant = instants.mapValues { Array($0.sorted().suffix(ProfileHistory.maxShown)) }
        if kept != meant { fuzzFailure("shown instants kept as \(kept), meant \(meant)") }
        let recorded = Dictionary(uniqueKeysWithValues: history.assigned.map { ($0.experiment, "\($0.variant)@\($0.at)") })
        if recorded != assigned { fuzzFailure("assignments kept as \(recorded), meant \(assigned)") }
    }
}
