import Foundation
import TargetingBase
import TargetingFuzzSupport
import TargetingProfiles

/// Event lines (JSON Lines) through the input handler and `Profile.apply`, with the
/// input declarations of the shipped `Rules/onboarding.rules`:
/// - every rejection has a non-empty reason;
/// - `FlowInputHandler.handle` (the SDK path, params as Swift values) and the interpreter on the
///   parsed line come to the same outcome;
/// - whatever is applied, the profile keeps the storage rules: valid keys, at most 30
///   attributes, and written as JSON it reads again to the same custom attributes and history;
/// - a `placement_shown` line reads the same through the parsed line and through the byte
///   scan `ingest` uses (`EventScan`), is accepted exactly when the README's rules for its
///   members hold, reads back the same from the params it builds for an app, and recorded in
///   order keeps the history the README describes (distinct instants, ascending, the latest
///   100; the first assignment of each experiment); `EventFile` reads the same shown events.
@main
enum FuzzEvents {
    static let mapping = InputMapping(
        inputs: [
            (screen: nil, element: "email", target: .builtin("email")),
            (screen: nil, element: "name", target: .builtin("first_name")),
            (screen: nil, element: "birthday", target: .builtin("birthday")),
            (screen: "scr_quiz", element: "experience", target: .custom("experience")),
            (screen: "scr_quiz", element: "interests", target: .custom("interests")),
            (screen: "scr_quiz", element: "reminders", target: .custom("reminders")),
            (screen: "scr_quiz", element: "hours", target: .custom("weekly_hours")),
        ],
        declaredAttributes: [
            "experience": (type: .string, allowed: ["beginner", "amateur", "pro"]),
            "interests": (type: .set, allowed: ["sports", "music", "travel", "food"]),
            "reminders": (type: .bool, allowed: nil),
            "weekly_hours": (type: .number, allowed: nil),
        ])

    static func main() {
        FuzzDriver.run { data, size in
            FuzzEvents.check(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    /// A JSON value as an SDK callback would deliver it.
    static func sdkValue(_ value: JSONValue) -> any Sendable {
        switch value {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let number): return number
        case .string(let text): return text
        case .array(let items): return items.map(sdkValue)
        case .object(let members):
            var dictionary: [String: any Sendable] = [:]
            for member in members { dictionary[member.key] = sdkValue(member.value) }
            return dictionary
        }
    }

    static func check(_ bytes: [UInt8]) {
        let zone = TimeZone(secondsFromGMT: 3600 * Int(bytes.first.map { $0 % 27 } ?? 0) - 3600 * 13) ?? .gmt
        let interpreter = FlowEventInterpreter(mapping: mapping, timeZone: zone)
        let handler = FlowInputHandler(mapping: mapping, timeZone: zone)
        var streamed = Profile()
        var model = RecordedHistory()
        var shownEvents: [ShownEvent] = []
        for line in EventLine.lines(of: bytes) {
            let event: EventLine
            switch EventLine.parse(line.bytes, file: "fuzz.jsonl", line: line.number) {
            case .failure(let diagnostic):
                if diagnostic.message.isEmpty { fuzzFailure("a rejected line without a message") }
                continue
            case .success(let value): event = value
            }
            if event.name == ShownEvent.eventName, let shown = checkShown(event, line: Array(line.bytes)) {
                shownEvents.append(shown)
                streamed.record(shown)
                model.record(shown)
                model.check(streamed.history)
            }
            let outcome = interpreter.interpret(name: event.name, params: event.params)
            if case .rejected(let reason) = outcome, reason.isEmpty { fuzzFailure("a rejected event without a reason") }
            guard case .object(let members) = event.params else { continue }
            var params: [String: any Sendable] = [:]
            for member in members { params[member.key] = sdkValue(member.value) }
            let handled = handler.handle(name: event.name, params: params)
            if handled != outcome { fuzzFailure("the handler and the interpreter disagree:\n\(handled)\n---\n\(outcome)") }
            switch streamed.record(outcome) {
            case .notStored(let rejection, _): if rejection.message.isEmpty { fuzzFailure("an apply rejection without a message") }
            default: break
            }
            checkStorage(streamed)
            if event.closesSession {
                var session = Profile()
                for rejection in session.apply(handler.flowDidDisappear()) where rejection.message.isEmpty {
                    fuzzFailure("an apply rejection without a message")
                }
                checkStorage(session)
            }
        }
        var session = Profile()
        _ = session.apply(handler.flowDidDisappear())
        checkStorage(session)
        let file = EventFile(bytes: bytes).events.compactMap(\.shown)
        if file != shownEvents { fuzzFailure("`EventFile` reads other shown events:\n\(file)\n---\n\(shownEvents)") }
    }

    static func checkStorage(_ profile: Profile) {
        if profile.customAttributes.count > AdaptyLimits.maxAttributes { fuzzFailure("more than 30 custom attributes") }
        for key in profile.customAttributes.keys where !AdaptyLimits.isValidKey(key) { fuzzFailure("invalid key `\(key)` stored") }
        switch ProfileReader.read(Array(profile.jsonData)) {
        case .failure(let error):
            fuzzFailure("a profile built from events does not read back: \(error.message)\n\(String(decoding: profile.jsonData, as: UTF8.self))")
        case .success(let again):
            if again.customAttributes != profile.customAttributes || again.history != profile.history {
                fuzzFailure("a profile built from events reads back differently:\n\(profile.customAttributes) \(String(describing: profile.history))\n---\n\(again.customAttributes) \(String(describing: again.history))")
            }
        }
    }
}
