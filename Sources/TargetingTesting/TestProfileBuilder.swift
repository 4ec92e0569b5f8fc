import TargetingBase
import TargetingProfiles
import TargetingSemantics
import TargetingSyntax

/// Builds a test's profile from its `given` lines, in order; a later line overrides an earlier one.
///
/// Values go through the same storage rules as profiles: custom attributes are stored as
/// Adapty stores them (a boolean as 1 or 0, a list comma-joined, a date as Unix ms), built-in
/// dates as their text form. Events run through the real input handler.
package struct TestProfileBuilder {
    let interpreter: FlowEventInterpreter
    let readFile: @Sendable (String) -> Result<[UInt8], Diagnostic>
    /// The path of the tests file, which `given` paths are relative to.
    let testsFile: String
    /// The test's evaluation time (for `now ± d` values).
    let now: Int64

    /// The profile so far.
    var profile = Profile()
    /// Rejected events and values outside a declared `one of`, with their file and line.
    var notes: [String] = []

    init(interpreter: FlowEventInterpreter, readFile: @escaping @Sendable (String) -> Result<[UInt8], Diagnostic>, testsFile: String, now: Int64) {
        self.interpreter = interpreter
        self.readFile = readFile
        self.testsFile = testsFile
        self.now = now
    }

    mutating func apply(_ given: Given) throws {
        switch given {
        case .assignments(let lines, _):
            for line in lines {
                switch line {
                case .attribute(let assignment): try apply(assignment)
                case .shown(let shown):
                    var history = profile.history ?? ProfileHistory()
                    history.recordShown(shown.placement.text, at: instant(shown.at))
                    profile.history = history
                case .assigned(let assigned):
                    // The first assignment stays, as the store keeps it.
                    var history = profile.history ?? ProfileHistory()
                    history.recordAssignment(assigned.experiment.text, variant: assigned.variant.text, at: instant(assigned.at))
                    profile.history = history
                }
            }
        case .events(let path, _):
            try applyEvents(path)
        case .profile(let path, _):
            try applyProfile(path)
        }
    }

    // MARK: - Assignments

    mutating func apply(_ assignment: GivenAssignment) throws {
        switch assignment.target.target {
        case .builtin(let field):
            profile.setField(field, builtinValue(assignment.value, field: field))
        case .custom(let key):
            let answer = Answer(screen: nil, element: key, target: .custom(key), value: customValue(assignment.value))
            if let rejection = profile.apply(answer) {
                throw TestError(message: rejection.message, range: assignment.value.range)
            }
        case .shownCount, .lastShown:
            break  // an assignment names an attribute; the checker refuses anything else
        }
    }

    /// The instant of a history line's `at` (a date or `now ± d`; the checker refuses others).
    func instant(_ literal: Literal) -> Int64 {
        switch literal.value {
        case .date(let ms): ms ?? 0
        case .now(let offset): Timestamp.shifted(now, by: offset)
        case .string, .number, .bool, .pattern: 0
        }
    }

    /// The JSON given to the custom-attribute storage rules.
    func customValue(_ value: GivenValue) -> JSONValue {
        switch value {
        case .list(let list): return .array(list.items.map { .string(TestProfileBuilder.text($0)) })
        case .literal(let literal):
            switch literal.value {
            case .string(let text): return .string(text)
            case .number(let number): return .number(number)
            case .bool(let flag): return .bool(flag)
            case .date(let ms): return ms.map { .number(Double($0)) } ?? .null
            case .now(let offset): return .number(Double(Timestamp.shifted(now, by: offset)))
            // A pattern is read only after `matches`, never as a given value.
            case .pattern: return .string(literal.text)
            }
        }
    }

    /// The JSON stored in a built-in field.
    func builtinValue(_ value: GivenValue, field: String) -> JSONValue {
        switch value {
        case .list(let list): return .array(list.items.map { .string(TestProfileBuilder.text($0)) })
        case .literal(let literal):
            switch literal.value {
            case .string(let text): return .string(text)
            case .number(let number): return .number(number)
            case .bool(let flag): return .bool(flag)
            case .date: return .string(literal.text)
            case .now(let offset):
                let ms = Timestamp.shifted(now, by: offset)
                return .string(BuiltinField.isCalendarDate(field) ? Timestamp.formatDate(ms) : Timestamp.format(ms))
            // A pattern is read only after `matches`, never as a given value.
            case .pattern: return .string(literal.text)
            }
        }
    }

    static func text(_ literal: Literal) -> String {
        if case .string(let text) = literal.value { return text }
        return literal.text
    }

    // MARK: - Files

    func read(_ path: GivenPath) throws -> (String, [UInt8]) {
        let resolved = path.resolved(relativeTo: testsFile)
        switch readFile(resolved) {
        case .failure(let error): throw TestError(message: error.message, range: path.range)
        case .success(let bytes): return (resolved, bytes)
        }
    }

    /// Applies the events of one profile: the test profile's `id` when it has one, else the
    /// only profile the file names (whose id the test profile then takes).
    ///
    /// A line that is not an event fails the test when it names that profile in `profile_id`;
    /// other profiles' broken lines, and lines that name no profile (not JSON, no usable
    /// `profile_id`), are skipped with a note, as `ingest` rejects them and goes on. An event of
    /// that profile that `ingest` would reject (a mistyped value, an answer past Adapty's
    /// limits, a bad `profile_updated` field) fails the test with the rejection too.
    mutating func applyEvents(_ path: GivenPath) throws {
        let (resolved, bytes) = try read(path)
        let file = EventFile(bytes: bytes)
        let profileID: String
        if let id = profile.id {
            profileID = id
        } else {
            let ids = file.profileIDs
            guard ids.count == 1 else {
                let message = ids.isEmpty ? "`\(path.path)` holds no events"
                    : "`\(path.path)` holds events of several profiles (" + ids.map { "`\($0)`" }.joined(separator: ", ")
                        + "); set `profile.id` in an earlier `given` to choose one"
                throw TestError(message: message, range: path.range)
            }
            profileID = ids[0]
        }
        if let own = file.broken.first(where: { $0.profileID == profileID }) {
            throw TestError(message: "\(resolved):\(own.line): \(own.message)", range: path.range)
        }
        let skipped = file.skipped(reading: profileID)
        if !skipped.isEmpty { notes.append(Diagnostic.skippedEventLines(resolved, lines: skipped, at: path.range).message) }
        guard file.events.contains(where: { $0.event.profileID == profileID }) else {
            throw TestError(message: "`\(path.path)` holds no events of profile `\(profileID)`", range: path.range)
        }
        if profile.id == nil { profile.setField("id", .string(profileID)) }
        for entry in file.events where entry.event.profileID == profileID && !entry.event.closesSession {
            let (number, event) = (entry.line, entry.event)
            // A shown line goes to the history, as `ingest` records it.
            if let shown = entry.shown {
                profile.record(shown)
                continue
            }
            if event.name == ProfileUpdate.eventName {
                switch ProfileUpdate.read(event.params) {
                case .failure(let error): throw TestError(message: "\(resolved):\(number): \(error.message)", range: path.range)
                case .success(let update): profile.apply(update)
                }
                continue
            }
            switch profile.record(interpreter.read(event, storedOn: profile).outcome) {
            case .ignored:
                continue
            case .rejected(let reason):
                // What `ingest` would reject fails the test: the profile tested is not the one a store would hold.
                throw TestError(message: "\(resolved):\(number): event rejected: \(reason)", range: path.range)
            case .stored(_, let warnings):
                for warning in warnings { notes.append("\(resolved):\(number): \(warning)") }
            case .notStored(let rejection, let warnings):
                for warning in warnings { notes.append("\(resolved):\(number): \(warning)") }
                throw TestError(message: "\(resolved):\(number): answer not stored: \(rejection.message)", range: path.range)
            }
        }
    }

    /// Lays a profile file over the profile: its fields and custom attributes replace those
    /// with the same name; others stay.
    mutating func applyProfile(_ path: GivenPath) throws {
        let (_, bytes) = try read(path)
        let loaded: Profile
        switch ProfileReader.read(bytes) {
        case .failure(let error): throw TestError(message: "`\(path.path)`: \(error.message)", range: path.range)
        case .success(let value): loaded = value
        }
        for member in loaded.fields { profile.setField(member.key, member.value) }
        for key in loaded.customKeys { profile.setCustom(key, loaded.customAttributes[key]) }
        if profile.customKeys.count > AdaptyLimits.maxAttributes {
            throw TestError(message: "the profile would hold \(profile.customKeys.count) custom attributes; at most \(AdaptyLimits.maxAttributes) are allowed",
                            range: path.range)
        }
    }
}
