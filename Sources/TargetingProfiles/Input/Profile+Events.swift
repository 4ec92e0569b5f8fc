/// What one analytics event did to a profile.
package enum EventEffect: Hashable, Sendable {
    /// The answer was stored; `warnings` name values outside a declared `one of`.
    case stored(Answer, warnings: [String])
    /// A valid answer that breaks Adapty's limits (a 31st attribute, a value too long).
    case notStored(ApplyRejection, warnings: [String])
    /// Not an input.
    case ignored(IgnoredEvent)
    /// A malformed or unstorable event, with a lowercase reason.
    case rejected(String)

    /// Whether the profile changed.
    package var changedProfile: Bool {
        if case .stored = self { return true }
        return false
    }
}

extension EventOutcome {
    /// Whether the outcome is an answer (the only kind that reads or changes a profile).
    package var isAnswer: Bool {
        if case .answer = self { return true }
        return false
    }
}

extension AnswerRecipient {
    /// Applies what an event amounted to: the one path from a flow event to a stored answer,
    /// shared by `FlowInputHandler` sessions (through `apply(_:)`), `ingest` and `given events`.
    package mutating func record(_ outcome: EventOutcome) -> EventEffect {
        switch outcome {
        case .ignored(let reason): return .ignored(reason)
        case .rejected(let reason): return .rejected(reason)
        case .answer(let answer, let warnings):
            if let rejection = apply(answer) { return .notStored(rejection, warnings: warnings) }
            return .stored(answer, warnings: warnings)
        }
    }
}
