import TargetingBase

/// What a user was shown: the instants each placement was shown at, and the variant each
/// experiment first assigned. A profile keeps it under the reserved key `history`:
///
/// ```json
/// "history": {"shown": {"main_paywall": ["2026-11-30T09:00:00Z", "2026-12-01T10:00:00Z"]},
///             "assigned": {"annual_first": {"variant": "annual_first", "at": "2026-11-30T09:00:00Z"}}}
/// ```
///
/// Instants are Unix milliseconds. Each placement keeps its instants ascending, without
/// duplicates, the latest `maxShown` only; an experiment keeps the first assignment recorded.
package struct ProfileHistory: Hashable, Sendable {
    /// One placement's showings.
    package struct Shown: Hashable, Sendable {
        /// The placement's name.
        package var placement: String
        /// The instants it was shown at, ascending, distinct, at most `maxShown`.
        package var instants: [Int64]
    }

    /// An experiment's first assignment.
    package struct Assignment: Hashable, Sendable {
        /// The experiment's name.
        package var experiment: String
        /// The variant shown.
        package var variant: String
        /// When it was first shown.
        package var at: Int64
    }

    /// How many instants a placement keeps: the latest ones.
    package static let maxShown = 100

    /// Showings by placement, in the order the placements first appeared.
    package private(set) var shown: [Shown] = []
    /// Assignments by experiment, in the order they were recorded.
    package private(set) var assigned: [Assignment] = []

    /// An empty history.
    package init() {}

    /// Whether nothing is recorded.
    package var isEmpty: Bool { shown.isEmpty && assigned.isEmpty }

    /// The instants `placement` was shown at, ascending (empty when never).
    package func instants(of placement: String) -> [Int64] {
        shown.first { $0.placement == placement }?.instants ?? []
    }

    /// How many kept instants of `placement` fall in `(now − window, now]`; all of them when
    /// `window` is nil.
    package func count(of placement: String, window: Int64?, now: Int64) -> Int {
        let instants = instants(of: placement)
        guard let window else { return instants.count }
        let start = now &- window
        return instants.reduce(0) { $0 + ($1 > start && $1 <= now ? 1 : 0) }
    }

    /// The latest kept instant of `placement`, or nil when it was never shown.
    package func lastShown(_ placement: String) -> Int64? { instants(of: placement).last }

    /// The sum over `placements` of each one's `count(of:window:now:)`: an instant at which two
    /// of them were shown counts twice.
    package func count(of placements: [String], window: Int64?, now: Int64) -> Int {
        placements.reduce(0) { $0 + count(of: $1, window: window, now: now) }
    }

    /// The latest kept instant of any of `placements`, or nil when none was ever shown.
    package func lastShown(_ placements: [String]) -> Int64? { placements.compactMap(lastShown).max() }

    /// The first assignment recorded for `experiment`.
    package func assignment(of experiment: String) -> Assignment? {
        assigned.first { $0.experiment == experiment }
    }

    /// Records that `placement` was shown at `at`: kept in order, once, and only the latest
    /// `maxShown`. Returns whether the history changed.
    @discardableResult
    package mutating func recordShown(_ placement: String, at: Int64) -> Bool {
        guard let index = shown.firstIndex(where: { $0.placement == placement }) else {
            shown.append(Shown(placement: placement, instants: [at]))
            return true
        }
        let position = Self.insertionPoint(of: at, in: shown[index].instants)
        if position < shown[index].instants.count, shown[index].instants[position] == at { return false }
        if shown[index].instants.count >= Self.maxShown, position == 0 { return false }  // older than every kept one
        shown[index].instants.insert(at, at: position)
        if shown[index].instants.count > Self.maxShown { shown[index].instants.removeFirst(shown[index].instants.count - Self.maxShown) }
        return true
    }

    /// Lists `placement`, not listed yet, with `instants` in any order, kept as `recordShown`
    /// would keep them one by one: ascending, once each, the latest `maxShown`. A profile may
    /// list a placement with no instants (`"main_paywall": []`).
    package mutating func listPlacement(_ placement: String, instants: [Int64]) {
        var instants = instants
        if !zip(instants, instants.dropFirst()).allSatisfy({ $0 < $1 }) {
            instants = Array(Set(instants)).sorted()
        }
        if instants.count > Self.maxShown { instants.removeFirst(instants.count - Self.maxShown) }
        shown.append(Shown(placement: placement, instants: instants))
    }

    /// Records that `experiment` assigned `variant` at `at`, unless it already has an
    /// assignment (the first one stays). Returns whether it was recorded.
    @discardableResult
    package mutating func recordAssignment(_ experiment: String, variant: String, at: Int64) -> Bool {
        guard assignment(of: experiment) == nil else { return false }
        assigned.append(Assignment(experiment: experiment, variant: variant, at: at))
        return true
    }

    /// Where `instant` goes in ascending `instants`: the first index whose instant is not smaller.
    static func insertionPoint(of instant: Int64, in instants: [Int64]) -> Int {
        var low = 0, high = instants.count
        while low < high {
            let middle = (low + high) / 2
            if instants[middle] < instant { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension ProfileHistory {
    /// The history as stored in a profile: `shown` and `assigned`, each omitted when empty.
    package var json: JSONValue {
        var members: [JSONMember] = []
        if !shown.isEmpty {
            members.append(JSONMember(key: "shown", value: .object(shown.map {
                JSONMember(key: $0.placement, value: .array($0.instants.map { .string(Timestamp.format($0)) }))
            })))
        }
        if !assigned.isEmpty {
            members.append(JSONMember(key: "assigned", value: .object(assigned.map {
                JSONMember(key: $0.experiment, value: .object([
                    JSONMember(key: "variant", value: .string($0.variant)),
                    JSONMember(key: "at", value: .string(Timestamp.format($0.at))),
                ]))
            })))
        }
        return .object(members)
    }

    /// Reads a profile's `history` value. Instants may come in any order and repeat (they are
    /// kept as `recordShown` keeps them), but a placement may list at most `maxShown`; anything
    /// else rejects the profile with a message naming the key.
    package static func read(_ value: JSONValue) -> Result<ProfileHistory, ProfileError> {
        func failure(_ message: String) -> Result<ProfileHistory, ProfileError> { .failure(ProfileError(message: message)) }
        guard case .object(let members) = value else {
            return failure("`history` must be an object, found \(value.typeName)")
        }
        var history = ProfileHistory()
        var seen: Set<String> = []
        for member in members {
            guard seen.insert(member.key).inserted else { return failure("`history.\(member.key)` appears twice") }
            switch member.key {
            case "shown":
                guard case .object(let placements) = member.value else {
                    return failure("`history.shown` must be an object of placement names to lists of instants, found \(member.value.typeName)")
                }
                var placementsSeen: Set<String> = []
                for placement in placements {
                    let key = "history.shown.\(placement.key)"
                    guard !placement.key.isEmpty else { return failure("`history.shown` has an empty placement name") }
                    guard placementsSeen.insert(placement.key).inserted else { return failure("`\(key)` appears twice") }
                    guard case .array(let items) = placement.value else {
                        return failure("`\(key)` must be a list of RFC 3339 instants, found \(placement.value.typeName)")
                    }
                    guard items.count <= maxShown else {
                        return failure("`\(key)` lists \(items.count) instants; at most \(maxShown) are kept")
                    }
                    var instants: [Int64] = []
                    instants.reserveCapacity(items.count)
                    for (index, item) in items.enumerated() {
                        guard let at = instant(item) else {
                            return failure("`\(key)[\(index)]`: \(describe(item)) is not an RFC 3339 instant")
                        }
                        instants.append(at)
                    }
                    history.listPlacement(placement.key, instants: instants)
                }
            case "assigned":
                guard case .object(let experiments) = member.value else {
                    return failure("`history.assigned` must be an object of experiment names to assignments, found \(member.value.typeName)")
                }
                for experiment in experiments {
                    let key = "history.assigned.\(experiment.key)"
                    guard !experiment.key.isEmpty else { return failure("`history.assigned` has an empty experiment name") }
                    guard history.assignment(of: experiment.key) == nil else { return failure("`\(key)` appears twice") }
                    guard case .object(let fields) = experiment.value else {
                        return failure("`\(key)` must be an object with `variant` and `at`, found \(experiment.value.typeName)")
                    }
                    var variant: String?
                    var at: Int64?
                    for field in fields {
                        switch field.key {
                        case "variant":
                            guard variant == nil else { return failure("`\(key).variant` appears twice") }
                            guard case .string(let text) = field.value, !text.isEmpty else {
                                return failure("`\(key).variant` must be a non-empty string, found \(describe(field.value))")
                            }
                            variant = text
                        case "at":
                            guard at == nil else { return failure("`\(key).at` appears twice") }
                            guard let instant = instant(field.value) else {
                                return failure("`\(key).at`: \(describe(field.value)) is not an RFC 3339 instant")
                            }
                            at = instant
                        default:
                            return failure("`\(key).\(field.key)` is not a key of an assignment; expected `variant` and `at`")
                        }
                    }
                    guard let variant else { return failure("`\(key)` has no `variant`") }
                    guard let at else { return failure("`\(key)` has no `at`") }
                    history.recordAssignment(experiment.key, variant: variant, at: at)
                }
            default:
                return failure("`history.\(member.key)` is not a key of `history`; expected `shown` and `assigned`")
            }
        }
        return .success(history)
    }

    /// The instant an RFC 3339 string holds (date, time and zone; a bare date is not an instant).
    package static func instant(_ value: JSONValue) -> Int64? {
        guard case .string(let text) = value, text.utf8.count > 10 else { return nil }
        return Timestamp.parse(text)
    }

    /// A JSON value as a message quotes it: a string in backticks, anything else by its type.
    static func describe(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text.isEmpty ? "an empty string" : "`\(text)`" }
        return value.typeName
    }
}
