import TargetingBase

/// One answer from a flow, ready to be applied to a profile.
public struct Answer: Hashable, Sendable {
    /// The screen (`instanceId`) it came from, if known.
    public package(set) var screen: String?
    /// The element id.
    public package(set) var element: String
    /// The attribute it writes.
    public package(set) var target: AttributeTarget
    /// The value to store; nil removes the attribute (the user cleared the answer).
    public package(set) var value: JSONValue?

    /// Creates an answer.
    package init(screen: String?, element: String, target: AttributeTarget, value: JSONValue?) {
        self.screen = screen
        self.element = element
        self.target = target
        self.value = value
    }
}

/// The complete answers of one flow session, in the order they were last given.
public struct AnswerSet: Hashable, Sendable {
    /// The answers; when two write one attribute, the later one wins on apply.
    public package(set) var answers: [Answer]
    /// Warnings (values outside a declared `one of`).
    public package(set) var warnings: [String]

    /// Creates an answer set.
    package init(answers: [Answer], warnings: [String]) {
        self.answers = answers
        self.warnings = warnings
    }
}

/// Why an answer could not be applied to a profile.
public struct ApplyRejection: Hashable, Sendable {
    /// The answer.
    public package(set) var answer: Answer
    /// A lowercase message.
    public package(set) var message: String
}

/// What an answer is applied to: a `Profile`, or another form of one (a store keeps a touched
/// profile as its stored line plus changes). `apply(_:)` and `record(_:)` hold the rules once
/// for every form.
package protocol AnswerRecipient {
    /// Sets (or with nil removes) a built-in field; a new field goes at the end.
    mutating func setField(_ name: String, _ value: JSONValue?)
    /// Sets (or with nil removes) a custom attribute without checking limits; a new key goes at the end.
    mutating func setCustom(_ key: String, _ value: CustomValue?)
    /// Whether the custom attribute `key` is stored.
    func hasCustom(_ key: String) -> Bool
    /// How many custom attributes are stored.
    var customCount: Int { get }
    /// An upper bound of `customCount` that is quick to tell (the count itself when that is quick).
    var customCountBound: Int { get }
}

extension Profile: AnswerRecipient {
    package func hasCustom(_ key: String) -> Bool { customAttributes[key] != nil }
    package var customCount: Int { customKeys.count }
    package var customCountBound: Int { customKeys.count }
}

extension AnswerRecipient {
    /// Applies one answer: built-in fields are set or removed, custom attributes stored under
    /// Adapty's limits (a 31st attribute is rejected). Returns the rejection, if any.
    @discardableResult
    package mutating func apply(_ answer: Answer) -> ApplyRejection? {
        switch answer.target {
        case .builtin(let field):
            setField(field, answer.value)
            return nil
        case .custom(let key):
            guard let value = answer.value else {
                setCustom(key, nil)
                return nil
            }
            switch ProfileReader.storedValue(value) {
            case .failure(let error):
                return ApplyRejection(answer: answer, message: "`\(key)`: \(error.message)")
            case .success(let stored):
                // The bound first: the exact count and the key's presence matter only near the limit.
                if stored != nil, customCountBound >= AdaptyLimits.maxAttributes, customCount >= AdaptyLimits.maxAttributes, !hasCustom(key) {
                    return ApplyRejection(answer: answer, message: "`\(key)` would be custom attribute number \(customCount + 1); a profile holds at most \(AdaptyLimits.maxAttributes)")
                }
                setCustom(key, stored)
                return nil
            }
        }
    }
}

extension Profile {
    /// Applies a session's answers in order; returns the answers that were rejected.
    @discardableResult
    public mutating func apply(_ answers: AnswerSet) -> [ApplyRejection] {
        answers.answers.compactMap { apply($0) }
    }
}

extension Answer: CustomStringConvertible {
    /// `scr_quiz/experience -> experience = "pro"`, or `… removed` for a cleared answer.
    public var description: String {
        let source = (screen.map { $0 + "/" } ?? "") + element
        return "\(source) -> \(target) " + (value.map { "= " + JSONWriter.write($0) } ?? "removed")
    }
}

extension EventOutcome: CustomStringConvertible {
    /// A one-line summary: `answer …`, `ignored (…)` or `rejected: …`.
    public var description: String {
        switch self {
        case .answer(let answer, let warnings):
            "answer \(answer)" + warnings.map { " (warning: \($0))" }.joined()
        case .ignored(let reason): "ignored (\(reason))"
        case .rejected(let reason): "rejected: \(reason)"
        }
    }
}

extension AnswerSet: CustomStringConvertible {
    /// One answer per line, in order, then one `warning: …` line per warning; `no answers` when empty.
    public var description: String {
        let lines = answers.map(\.description) + warnings.map { "warning: " + $0 }
        return lines.isEmpty ? "no answers" : lines.joined(separator: "\n")
    }
}

extension ApplyRejection: CustomStringConvertible {
    /// The message, as `ingest` prints it after the profile: `` `goal`: a string value holds at most 50 characters ``.
    public var description: String { message }
}
