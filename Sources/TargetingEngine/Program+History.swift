extension Program {
    /// What first reads a profile's history in these rules, as a message names it:
    /// `` `shown main_paywall in 7d` ``, `` `last shown x` `` or `` sticky experiment `e` ``;
    /// nil when nothing does. SQL's typed table adds its `history` column when it is set.
    package var historyUse: String? {
        for slot in slots where !slot.target.historyPlacements.isEmpty { return "`\(slot.target.written)`" }
        for experiment in ruleSet.experiments where experiment.sticky != nil {
            return "sticky experiment `\(experiment.name.text)`"
        }
        return nil
    }
}
