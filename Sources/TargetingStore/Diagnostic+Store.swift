import TargetingBase
import TargetingEngine

/// Findings about the profile store and the files written beside it.
extension Diagnostic {
    /// The store's lock file cannot be created or locked; `reason` says which and why.
    package static func storeNotLockable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.error, .storeLock, "cannot lock `\(path)`: \(reason); the store was not changed", at: .unknown(path), place: .none)
    }

    /// The store (or a file being rewritten) could not be read or written; `message` says where.
    package static func storeFailed(_ message: String) -> Diagnostic {
        Diagnostic(.error, .store, message, at: .unknown(""), place: .none)
    }

    /// `ingest`'s one warning for picker values read as calendar dates (`field`) that were not
    /// midnight in the zone used: the date stored is that zone's, so a wrong zone shifts it by a
    /// day. Points at the first such line (`zone` and `date` are what it was read in and as);
    /// the way out is in the message, as a line diagnostic has no `help` line.
    package static func pickerDatesNotMidnight(_ count: Int, field: String, file: String, line: Int, zone: String, date: String) -> Diagnostic {
        let values = count == 1 ? "1 picker value" : "\(count) picker values"
        let message = "\(values) for `\(field)` \(count == 1 ? "was" : "were") not midnight in the time zone \(count == 1 ? "it was" : "they were") read in "
            + "(the first on this line, read in `\(zone)` as `\(date)`), so the stored calendar date may be a day off; "
            + "give the user's IANA zone as \"time_zone\" in the event line or on the stored profile, or pass --time-zone"
        return Diagnostic(.warning, .dateNotMidnight, message, at: .line(line, of: file), place: .line)
    }

    /// A profile that a placement could not be resolved for (a split without a profile id).
    package static func unresolvable(_ error: ResolveError, file: String, line: Int?) -> Diagnostic {
        if let line { return .badRecord(error.message, file: file, line: line) }
        return .badFile(error.message, file: file)
    }
}
