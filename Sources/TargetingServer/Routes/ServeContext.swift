/// Everything one request is answered from, taken at once when the request is whole, so the
/// answer comes wholly from one version of the rules (and of the store) even while a reload
/// replaces them.
package struct ServeContext: Sendable {
    /// The rules.
    package var rules: ServedRules
    /// The profile store, when the server was given one.
    package var store: StoreSnapshot?
    /// The bearer token every route but `/healthz` needs, when the server was given one.
    package var token: [UInt8]?
    /// Whether the server is stopping (`/readyz` then answers 503).
    package var draining: Bool

    package init(rules: ServedRules, store: StoreSnapshot? = nil, token: [UInt8]? = nil, draining: Bool = false) {
        self.rules = rules
        self.store = store
        self.token = token
        self.draining = draining
    }
}

/// A request's answer, with what the metrics count of it.
package struct ServeAnswer: Sendable {
    package var response: HTTPResponse
    /// The route's template (`/v1/profiles/{id}/decisions`), or `unmatched`.
    package var route: String
    /// The decisions given: placement and destination.
    package var decisions: [(placement: String, destination: String)]

    package init(_ response: HTTPResponse, route: String, decisions: [(placement: String, destination: String)] = []) {
        self.response = response
        self.route = route
        self.decisions = decisions
    }
}
