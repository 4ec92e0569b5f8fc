/// Where each flow answer goes, from the rules' `input` declarations (SPEC §3 rule 6, §4.3).
public struct InputMapping: Sendable {
    /// The destination of one answer.
    public struct Route: Hashable, Sendable {
        /// The attribute written.
        public var target: AttributeReference.Target
        /// The target's declared type (custom attributes with a declaration, and built-in fields).
        public var type: ValueType?
        /// Allowed values (`one of`, `set of`, built-in enumerations): others are kept with a warning.
        public var allowed: [String]?
    }

    var qualified: [String: [String: Route]] = [:]
    var unqualified: [String: Route] = [:]
    var attributeTypes: [String: AttributeType] = [:]

    /// Builds the mapping of a checked rule set.
    public init(_ ruleSet: RuleSet) {
        for (key, type) in ruleSet.attributeTypes where type.isDeclared {
            if case .custom(let name) = key { attributeTypes[name] = type }
        }
        for input in ruleSet.inputs {
            let route = self.route(to: input.target.target)
            if let screen = input.screen {
                qualified[screen.text, default: [:]][input.element.text] = route
            } else {
                unqualified[input.element.text] = route
            }
        }
    }

    /// A mapping without declarations: every answer goes to the custom attribute named by its element id.
    public init() {}

    func route(to target: AttributeReference.Target) -> Route {
        switch target {
        case .builtin(let field):
            let builtin = BuiltinField.all[field]
            return Route(target: target, type: builtin?.type, allowed: builtin?.allowed)
        case .custom(let key):
            let declared = attributeTypes[key]
            return Route(target: target, type: declared?.type, allowed: declared?.allowed)
        }
    }

    /// The route for an element on a screen: a screen-qualified input wins over an unqualified
    /// one; without a declaration, the custom attribute named by the element id (nil when that
    /// is not a valid key).
    public func route(screen: String?, element: String) -> Route? {
        if let screen, let route = qualified[screen]?[element] { return route }
        if let route = unqualified[element] { return route }
        guard AdaptyLimits.isValidKey(element) else { return nil }
        return route(to: .custom(element))
    }
}
