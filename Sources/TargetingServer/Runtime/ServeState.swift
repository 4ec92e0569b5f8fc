import Foundation

/// The context requests are answered from now. A reload replaces it whole; a request takes
/// it once, so one answer never mixes two versions.
package final class ServeState: @unchecked Sendable {
    private let lock = NSLock()
    private var current: ServeContext

    package init(_ context: ServeContext) {
        current = context
    }

    /// The context to answer a request from.
    package var context: ServeContext {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Changes the context for the requests that come after.
    package func update(_ change: (inout ServeContext) -> Void) {
        lock.withLock { change(&current) }
    }
}
