import Foundation
import TargetingBase

extension ProfileStore {
    /// Changes the store at `path` under its lock: takes the lock (calling `onWait` once if
    /// another process holds it), removes temporary files a killed writer left, opens the store,
    /// lets `change` apply its changes, and saves the store atomically when it changed (or did
    /// not exist). `change` returns false to give up, and nothing is saved. The lock is released
    /// before returning.
    ///
    /// Returns the settled store (for its counts), or nil when `change` gave up. Every error
    /// thrown leaves the file as it was, and its diagnostic says so.
    package static func change(at path: String, onWait: () -> Void, _ change: (inout ProfileStore) -> Bool) throws(StoreError) -> ProfileStore? {
        let lock: FileLock
        do {
            // Before locking, so a directory given as the store gets no lock file beside it.
            try checkIsNotDirectory(path)
            lock = try FileLock(protecting: path, onWait: onWait)
        } catch let error as StoreError {
            throw error.unchanged
        } catch let error as FileLock.Failure {
            throw StoreError(diagnostic: .storeNotLockable(path, reason: error.reason))
        } catch {
            throw StoreError(message: "cannot lock `\(path)`: \(error)").unchanged
        }
        defer { lock.release() }
        AtomicFile.removeLeftovers(of: path)
        var store: ProfileStore
        do {
            store = try open(path)
        } catch let error as StoreError {
            throw error.unchanged
        } catch {
            throw StoreError(message: "cannot read store `\(path)`: \(error)").unchanged
        }
        guard change(&store) else { return nil }
        store.settle()
        if store.isModified || !FileManager.default.fileExists(atPath: path) {
            do {
                try store.save()
            } catch let error as StoreError {
                throw error.unchanged
            } catch {
                throw StoreError(message: "cannot write `\(path)`: \(error)").unchanged
            }
        }
        return store
    }
}
