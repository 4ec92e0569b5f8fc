/// How many events a `FlowInputHandler` handled since its session began, by outcome.
public struct EventCounts: Hashable, Sendable {
    /// Events that gave an answer.
    public var answers = 0
    /// Malformed or unstorable inputs.
    public var rejected = 0
    /// Events that are not inputs, by why.
    public var ignored: [IgnoredEvent: Int] = [:]

    /// No events.
    public init() {}

    /// Every event counted.
    public var total: Int { answers + rejected + ignored.values.reduce(0, +) }
}
