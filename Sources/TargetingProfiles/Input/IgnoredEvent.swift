/// Why an analytics event is not an input: it is counted and otherwise left alone.
public enum IgnoredEvent: Hashable, Sendable {
    /// An event of another name than `flow_user_input` (`flow_screen_showed`, …).
    case otherEvent(String)
    /// A `flow_user_input` of an element type that never stores anything (`password_input`, …).
    case elementType(String)
}

extension IgnoredEvent: CustomStringConvertible {
    /// A short label: `event flow_screen_showed` or `element type password_input`.
    public var description: String {
        switch self {
        case .otherEvent(let name): "event \(name)"
        case .elementType(let type): "element type \(type)"
        }
    }
}
