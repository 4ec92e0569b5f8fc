import TargetingBase

/// Where each flow answer goes, from the rules' `input` declarations.
package struct InputMapping: Sendable {
    /// The destination of one answer.
    package struct Route: Hashable, Sendable {
        /// The attribute written.
        package var target: AttributeTarget
        /// The target's declared type (custom attributes with a declaration, and built-in fields).
        package var type: ValueType?
        /// Allowed values (`one of`, `set of`, built-in enumerations): others are kept with a warning.
        package var allowed: [String]?
    }

    var qualified: [String: [String: Route]] = [:]
    var unqualified: [String: Route] = [:]
    /// Declared custom attributes: their type and allowed values.
    var declared: [String: Route] = [:]

    /// A mapping from `input` declarations: `(screen, element, target)` in file order (a later
    /// one for the same element wins), and the custom attributes whose type was declared.
    package init(inputs: [(screen: String?, element: String, target: AttributeTarget)], declaredAttributes: [String: (type: ValueType?, allowed: [String]?)]) {
        for (key, declaration) in declaredAttributes {
            declared[key] = Route(target: .custom(key), type: declaration.type, allowed: declaration.allowed)
        }
        for input in inputs {
            let route = self.route(to: input.target)
            if let screen = input.screen {
                qualified[screen, default: [:]][input.element] = route
            } else {
                unqualified[input.element] = route
            }
        }
    }

    /// A mapping without declarations: every answer goes to the custom attribute named by its element id.
    package init() {}

    func route(to target: AttributeTarget) -> Route {
        switch target {
        case .builtin(let field):
            let builtin = BuiltinField.all[field]
            return Route(target: target, type: builtin?.type, allowed: builtin?.allowed)
        case .custom(let key):
            return declared[key] ?? Route(target: target, type: nil, allowed: nil)
        }
    }

    /// The route for an element on a screen: a screen-qualified input wins over an unqualified
    /// one; without a declaration, the custom attribute named by the element id (nil when that
    /// is not a valid key).
    package func route(screen: String?, element: String) -> Route? {
        if let screen, let route = qualified[screen]?[element] { return route }
        if let route = unqualified[element] { return route }
        guard AdaptyLimits.isValidKey(element) else { return nil }
        return route(to: .custom(element))
    }
}
