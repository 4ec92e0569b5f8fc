import Foundation
import TargetingProfiles
import TargetingSemantics

extension FlowInputHandler {
    /// Creates a handler whose mapping comes from the rules' `input` and `attribute`
    /// declarations; pickers that feed `profile.birthday` become a calendar date in `timeZone`
    /// (an app passes the device's).
    public convenience init(rules: RuleSet, timeZone: TimeZone = .current) {
        self.init(mapping: InputMapping(rules.program.ruleSet), timeZone: timeZone)
    }
}
