import Foundation

/// What a file looked like when last read: its path, size, modification time and file
/// number. Two different stamps mean the file changed (or was replaced).
struct FileStamp: Hashable {
    var path: String
    var size: UInt64
    var modified: Double
    var fileNumber: UInt64

    /// The stamp of `path`, or nil when it cannot be looked at.
    init?(_ path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        self.path = path
        size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        fileNumber = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }
}
