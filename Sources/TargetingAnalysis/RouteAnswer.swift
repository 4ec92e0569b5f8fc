import TargetingBase

/// The answer to "does some profile take this route?".
enum RouteAnswer {
    /// No profile does: the goals are impossible, or no bucket meets the draws.
    case impossible
    /// This profile does, as the evaluator checked.
    case found(JSONValue)
    /// Not settled, and why.
    case open(String)

    static let outOfBudget = "the search ran out of budget"
    static let noDrawingKey = "no profile id found that draws the split variants"
}
