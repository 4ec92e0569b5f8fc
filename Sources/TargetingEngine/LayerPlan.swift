import TargetingSyntax

/// A layer prepared for drawing: a profile's bucket of `"<name>-<key value>"` picks at most
/// one of its experiments, each taking the next range of buckets in the order written.
package struct LayerPlan: Hashable, Sendable {
    /// The layer's name.
    package let name: String
    /// Whose value is drawn.
    package let key: DrawKey
    /// The experiments with the buckets each takes, in the order written.
    package let shares: [(experiment: String, buckets: Range<Int>)]

    package init(name: String, key: DrawKey, shares: [(experiment: String, buckets: Range<Int>)]) {
        self.name = name
        self.key = key
        self.shares = shares
    }

    /// The buckets the experiment named `experiment` takes, or nil when it is not in the layer.
    package func buckets(of experiment: String) -> Range<Int>? {
        shares.first { $0.experiment == experiment }?.buckets
    }

    /// The bucket a profile with this draw input falls in; nil when it cannot be drawn (no
    /// value for the key, `profile.id` included): such a profile enters no experiment of the layer.
    package func bucket(_ input: DrawInput) -> Int? {
        guard case .value(let value) = input else { return nil }
        return SplitDraw.bucket(splitID: name, profileID: value)
    }

    package static func == (lhs: LayerPlan, rhs: LayerPlan) -> Bool {
        lhs.name == rhs.name && lhs.key == rhs.key && lhs.shares.elementsEqual(rhs.shares) { $0.experiment == $1.experiment && $0.buckets == $1.buckets }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(key)
        for share in shares {
            hasher.combine(share.experiment)
            hasher.combine(share.buckets)
        }
    }
}

/// A row's layer guard: the profile's bucket in layer `layer` must fall in `buckets`, the
/// share of the row's experiment.
package struct LayerGuard: Hashable, Sendable {
    /// The layer's index in the program.
    package var layer: Int
    /// The experiment's buckets.
    package var buckets: Range<Int>
}
