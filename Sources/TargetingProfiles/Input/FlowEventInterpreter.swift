import Foundation
import TargetingBase

/// What one analytics event amounts to.
public enum EventOutcome: Hashable, Sendable {
    /// An answer to store, with warnings (a value outside a declared `one of`).
    case answer(Answer, warnings: [String])
    /// Not an input: another event name, or an element type that never reports.
    case ignored(IgnoredEvent)
    /// A malformed or unstorable input, with a lowercase reason.
    case rejected(String)
}

/// Turns one `flow_user_input` event into an answer, following the input handler's rules.
package struct FlowEventInterpreter: Sendable {
    /// The routes from `input` declarations.
    package let mapping: InputMapping
    /// The zone a picker feeding `profile.birthday` is read in as a calendar date, unless the
    /// event line or the profile names one (`read(_:storedOn:)`).
    package let timeZone: TimeZone

    /// Creates an interpreter.
    package init(mapping: InputMapping, timeZone: TimeZone) {
        self.mapping = mapping
        self.timeZone = timeZone
    }

    /// Element types that report input.
    static let textTypes: Set<String> = ["text_input", "email_input", "phone_input"]
    static let pickerTypes: Set<String> = ["date_picker", "time_picker", "date_time_picker"]

    /// Interprets an event given its name and its params as JSON.
    package func interpret(name: String, params: JSONValue) -> EventOutcome {
        reading(name: name, params: params, timeZone: timeZone).outcome
    }

    /// Interprets an event, reading a picker that feeds a calendar date in `timeZone`.
    func reading(name: String, params: some EventParams, timeZone: TimeZone) -> EventReading {
        func outcome(_ outcome: EventOutcome) -> EventReading { EventReading(outcome: outcome, calendarDate: nil) }
        guard name == "flow_user_input" else { return outcome(.ignored(.otherEvent(name))) }
        guard params.isObject else { return outcome(.rejected("event parameters must be an object")) }
        guard let elementValue = params["element_id"] else { return outcome(.rejected("missing `element_id`")) }
        guard case .string(let element) = elementValue, !element.isEmpty else {
            return outcome(.rejected("`element_id` must be a non-empty string, found \(elementValue.typeName)"))
        }
        guard let typeValue = params["element_type"] else { return outcome(.rejected("missing `element_type`")) }
        guard case .string(let elementType) = typeValue else {
            return outcome(.rejected("`element_type` must be a string, found \(typeValue.typeName)"))
        }
        var screen: String?
        if let screenValue = params["instanceId"], screenValue != .null {
            guard case .string(let text) = screenValue else {
                return outcome(.rejected("`instanceId` must be a string, found \(screenValue.typeName)"))
            }
            screen = text
        }
        let produced: ProducedValue
        switch extract(elementType, params) {
        case .ignored(let reason): return outcome(.ignored(reason))
        case .rejected(let reason): return outcome(.rejected("element `\(element)`: \(reason)"))
        case .value(let value): produced = value
        }
        guard let route = mapping.route(screen: screen, element: element) else {
            return outcome(.rejected("element id `\(element)` is not a valid custom attribute key; declare an `input` for it (`input \(screen.map { "\($0)/" } ?? "")\"\(element)\" -> some_key`)"))
        }
        return store(produced, elementType: elementType, route: route, screen: screen, element: element, timeZone: timeZone)
    }

    /// A value taken from an event before it is fitted to its target.
    enum ProducedValue {
        case cleared
        case text(String)
        case number(Double)
        case instant(Int64)
        case choice(String)
        case choices([String])
        case toggle(Bool)
    }

    enum Extraction {
        case value(ProducedValue)
        case ignored(IgnoredEvent)
        case rejected(String)
    }

    func extract(_ elementType: String, _ params: some EventParams) -> Extraction {
        let value = params["value"]
        switch elementType {
        case _ where FlowEventInterpreter.textTypes.contains(elementType):
            guard case .string(let raw)? = value else { return .rejected("`value` of a \(elementType) must be a string, found \(value?.typeName ?? "nothing")") }
            let text = AdaptyLimits.trimmed(raw)
            return .value(text.isEmpty ? .cleared : .text(text))
        case "number_input":
            switch value {
            case .number(let number)?:
                return number.isFinite ? .value(.number(number)) : .rejected("number is not finite")
            case .string(let raw)?:
                let text = AdaptyLimits.trimmed(raw)
                if text.isEmpty { return .value(.cleared) }
                guard FlowEventInterpreter.isNumberText(text), let number = Double(text), number.isFinite else {
                    return .rejected("`\(raw)` is not a number (digits with an optional `.` decimal part and exponent)")
                }
                return .value(.number(number))
            default:
                return .rejected("`value` of a number_input must be a string or a number, found \(value?.typeName ?? "nothing")")
            }
        case _ where FlowEventInterpreter.pickerTypes.contains(elementType):
            guard case .number(let number)? = value, number.isFinite, number == number.rounded(), abs(number) < 9.0e15 else {
                return .rejected("`value` of a \(elementType) must be an integer number of Unix milliseconds, found \(value.map(JSONWriter.write) ?? "nothing")")
            }
            return .value(.instant(Int64(number)))
        case "single_choice", "multi_choice":
            guard case .array(let items)? = params["item_ids"] else {
                return .rejected("`item_ids` of a \(elementType) must be an array of strings")
            }
            var ids: [String] = []
            for item in items {
                guard case .string(let id) = item else { return .rejected("`item_ids` must hold strings, found \(item.typeName)") }
                if elementType == "multi_choice", ids.contains(where: { $0.utf8.elementsEqual(id.utf8) }) { continue }
                ids.append(id)
            }
            if ids.isEmpty { return .value(.cleared) }
            return .value(elementType == "single_choice" ? .choice(ids[0]) : .choices(ids))
        case "toggle":
            guard case .bool(let flag)? = value else {
                return .rejected("`value` of a toggle must be a boolean, found \(value?.typeName ?? "nothing")")
            }
            return .value(.toggle(flag))
        default:
            return .ignored(.elementType(elementType))
        }
    }

    /// `[+-]?digits[.digits][(e|E)[+-]?digits]`.
    static func isNumberText(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Bool {
            let start = bytes.startIndex
            while let first = bytes.first, first >= 0x30, first <= 0x39 { bytes.removeFirst() }
            return bytes.startIndex > start
        }
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        guard digits() else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard digits() else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }

    /// Which declared types each element type may feed.
    static func accepts(_ elementType: String, _ type: ValueType) -> Bool {
        switch elementType {
        case _ where textTypes.contains(elementType): type == .string
        case "number_input": type == .number
        case _ where pickerTypes.contains(elementType): type == .date || type == .number
        case "single_choice": type == .string
        case "multi_choice": type == .set
        case "toggle": type == .bool
        default: false
        }
    }

    func store(_ produced: ProducedValue, elementType: String, route: InputMapping.Route, screen: String?, element: String,
               timeZone: TimeZone) -> EventReading {
        func outcome(_ outcome: EventOutcome) -> EventReading { EventReading(outcome: outcome, calendarDate: nil) }
        var calendarDate: CalendarDateReading?
        let targetName = route.target.written
        if let type = route.type, !FlowEventInterpreter.accepts(elementType, type) {
            return outcome(.rejected("element `\(element)` of type `\(elementType)` cannot be stored in `\(targetName)` of type `\(type.rawValue)`"))
        }
        var warnings: [String] = []
        let value: JSONValue?
        switch produced {
        case .cleared: value = nil
        case .text(let text), .choice(let text): value = .string(text)
        case .number(let number): value = .number(number)
        case .toggle(let flag): value = .number(flag ? 1 : 0)
        case .choices(let ids):
            if let bad = ids.first(where: { $0.utf8.contains(UInt8(ascii: ",")) }) {
                return outcome(.rejected("element `\(element)`: option id `\(bad)` contains `,`, which a stored set cannot hold"))
            }
            value = .string(ids.joined(separator: ","))
        case .instant(let ms):
            if case .builtin(let field) = route.target, BuiltinField.isCalendarDate(field) {
                let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))
                value = .string(Timestamp.civilDate(ms: ms, offsetSeconds: offset).description)
                let isMidnight = Timestamp.floorMod(ms + Int64(offset) * 1_000, Timestamp.msPerDay) == 0
                calendarDate = CalendarDateReading(zone: timeZone, isLocalMidnight: isMidnight)
            } else if case .builtin = route.target {
                value = .string(Timestamp.format(ms))
            } else {
                value = .number(Double(ms))
            }
        }
        if case .custom(let key) = route.target, let value {
            if case .failure(let error) = ProfileReader.storedValue(value) {
                return outcome(.rejected("element `\(element)` -> `\(key)`: \(error.message)"))
            }
        }
        if let allowed = route.allowed, case .string(let text)? = value {
            let members = route.type == .set ? text.split(separator: ",").map(String.init) : [text]
            for member in members where !allowed.contains(member) {
                warnings.append("`\(member)` is not one of the values declared for `\(targetName)`")
            }
        }
        return EventReading(outcome: .answer(Answer(screen: screen, element: element, target: route.target, value: value), warnings: warnings),
                            calendarDate: calendarDate)
    }
}
