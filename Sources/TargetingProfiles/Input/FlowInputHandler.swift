import Foundation
import TargetingBase

/// Collects a flow's `flow_user_input` events as the SDK's analytics callback delivers them and
/// hands over the complete answer set when the flow disappears.
///
/// ```swift
/// let handler = FlowInputHandler(rules: ruleSet)
/// handler.handle(name: name, params: params)      // from didReceiveAnalyticEvent
/// let answers = handler.flowDidDisappear()
/// profile.apply(answers)
/// ```
/// Safe to call from any thread.
public final class FlowInputHandler: @unchecked Sendable {
    private let interpreter: FlowEventInterpreter
    private let lock = NSLock()
    private var answers: [String: (order: Int, answer: Answer)] = [:]
    private var warnings: [String] = []
    private var sequence = 0
    private var counts = EventCounts()

    /// Creates a handler with the given mapping; pickers that feed `profile.birthday` become a
    /// calendar date in `timeZone` (an app passes the device's).
    package init(mapping: InputMapping, timeZone: TimeZone = .current) {
        interpreter = FlowEventInterpreter(mapping: mapping, timeZone: timeZone)
    }

    /// Creates a handler without declarations (answers go to custom attributes named by element id).
    public init(timeZone: TimeZone = .current) {
        interpreter = FlowEventInterpreter(mapping: InputMapping(), timeZone: timeZone)
    }

    /// Handles one analytics event; returns what it amounted to (apps may ignore it).
    @discardableResult
    public func handle(name: String, params: [String: any Sendable]) -> EventOutcome {
        let outcome: EventOutcome
        if let json = JSONValue(sdkParams: params) {
            outcome = interpreter.interpret(name: name, params: json)
        } else {
            outcome = name == "flow_user_input" ? .rejected("event parameters hold a value that is not JSON-like") : .ignored(.otherEvent(name))
        }
        lock.lock()
        defer { lock.unlock() }
        switch outcome {
        case .answer(let answer, let newWarnings):
            sequence += 1
            answers["\(answer.screen ?? "")\u{0}\(answer.element)"] = (sequence, answer)
            warnings += newWarnings
            counts.answers += 1
        case .ignored(let reason):
            counts.ignored[reason, default: 0] += 1
        case .rejected:
            counts.rejected += 1
        }
        return outcome
    }

    /// The answers so far, without ending the session.
    public var pendingAnswers: AnswerSet {
        lock.withLock { currentAnswers }
    }

    /// The answer set held now; the caller holds the lock.
    private var currentAnswers: AnswerSet {
        AnswerSet(answers: answers.values.sorted { $0.order < $1.order }.map(\.answer), warnings: warnings)
    }

    /// How many events were handled since the session began, by outcome.
    public var eventCounts: EventCounts {
        lock.withLock { counts }
    }

    /// Ends the session: returns the complete answer set (last value per screen and element,
    /// in the order they were last given) and starts afresh.
    public func flowDidDisappear() -> AnswerSet {
        // One critical section: an answer arriving meanwhile lands in this set or the next, never neither.
        lock.withLock {
            let result = currentAnswers
            answers = [:]
            warnings = []
            counts = EventCounts()
            return result
        }
    }
}
