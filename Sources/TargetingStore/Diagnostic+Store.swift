import TargetingBase

/// Findings about the profile store and the files written beside it.
extension Diagnostic {
    /// The store's lock file cannot be created or locked; `reason` says which and why.
    package static func storeNotLockable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.error, "store-lock", "cannot lock `\(path)`: \(reason); the store was not changed", at: .unknown(path), place: .none)
    }

    /// The store (or a file being rewritten) could not be read or written; `message` says where.
    package static func storeFailed(_ message: String) -> Diagnostic {
        Diagnostic(.error, "store", message, at: .unknown(""), place: .none)
    }
}
