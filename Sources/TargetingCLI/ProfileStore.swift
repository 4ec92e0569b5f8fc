import Foundation
import TargetingBase
import TargetingProfiles

/// The profile store: a JSON Lines file of profiles (SPEC §3, §9).
///
/// Lines are kept byte for byte unless their profile changes, so unknown fields and
/// formatting survive; a corrupt line makes the whole store unreadable (it is never rewritten).
///
/// Opening checks every line (with `ProfileScan` where it can, else `ProfileReader`) but builds
/// a `Profile` only for lines the scan leaves to the reader; any other line is read into a
/// `Profile` when an event first changes it.
struct ProfileStore {
    private(set) var lines: [[UInt8]] = []
    /// Per line: its profile, once read.
    private var parsed: [Profile?] = []
    private var indexByID: [String: Int] = [:]
    /// Per line: whether an event changed its profile since reading (it may since have come
    /// back to what the line holds).
    private var changed: [Bool] = []
    /// Lines with `changed` set, in the order first changed.
    private var touched: [Int] = []
    /// How many lines the file held when opened; later lines were created (and are written
    /// whatever they hold).
    private var storedCount = 0
    /// Per touched line, once `settle()` ran: whether its profile differs from its line.
    private var differs: [Int: Bool] = [:]
    /// Reused to read lines on first change.
    private var scan = ProfileScan()
    let path: String

    /// Reads the store at `path`; an absent file is an empty store.
    static func open(_ path: String) throws -> ProfileStore {
        var store = ProfileStore(path: path)
        guard FileManager.default.fileExists(atPath: path) else { return store }
        try checkIsNotDirectory(path)
        guard var reader = JSONLinesReader(path: path) else { throw StoreError(message: "cannot read store `\(path)`") }
        var scan = ProfileScan()
        while let record = reader.next() {
            let bytes: [UInt8]
            switch record.bytes {
            case .failure(let error): throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
            case .success(let read): bytes = read
            }
            var profile: Profile?
            var id: String?
            if bytes.withUnsafeBufferPointer({ scan.scan($0) }) {
                id = bytes.withUnsafeBufferPointer { scan.id(in: $0) }
            } else {
                switch ProfileReader.read(bytes) {
                case .failure(let error):
                    throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
                case .success(let read):
                    profile = read
                    id = read.id
                }
            }
            let index = store.lines.count
            store.lines.append(bytes)
            store.parsed.append(profile)
            store.changed.append(false)
            store.storedCount += 1
            if let id {
                if store.indexByID[id] != nil {
                    throw StoreError(message: "\(record.location): corrupt store: a second profile with id `\(id)`")
                }
                store.indexByID[id] = index
            }
        }
        return store
    }

    /// Throws when `path` is a directory (which can be neither read nor replaced as a store).
    static func checkIsNotDirectory(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StoreError(message: "store `\(path)` is a directory, not a file")
        }
    }

    /// The number of profiles.
    var count: Int { lines.count }

    /// Whether line `index` must be written anew: a created profile, or one whose content differs
    /// from the profile its line held (member order aside). A profile that took only answers it
    /// already had, or whose changes were undone by later events, keeps its line byte for byte.
    ///
    /// The profile as read is not kept: it is read again from the line's bytes, once per touched
    /// line when `settle()` runs, so memory holds one profile per touched line, not two.
    private func isRewritten(_ index: Int) -> Bool {
        if let known = differs[index] { return known }
        return isRewritten(index, original: try? ProfileReader.read(lines[index]).get())
    }

    /// Whether line `index` must be written anew, given the profile its line holds.
    private func isRewritten(_ index: Int, original: Profile?) -> Bool {
        guard changed[index], let profile = parsed[index] else { return false }
        guard index < storedCount, let original else { return true }
        return !profile.hasSameContent(as: original)
    }

    /// Decides once, for every touched line, whether it must be written anew; call it when the
    /// events are applied, before `isModified`, `save()` and the counts (which are right without
    /// it, only slower).
    mutating func settle() {
        for index in touched where differs[index] == nil {
            // The line scan first, as on the first read; the reader for lines it leaves.
            let scanned = lines[index].withUnsafeBufferPointer { scan.scan($0) ? scan.profile(in: $0) : nil }
            differs[index] = isRewritten(index, original: scanned ?? (try? ProfileReader.read(lines[index]).get()))
        }
    }

    /// How many profiles changed (created ones included): those whose line is written anew.
    var changedCount: Int { (lines.count - storedCount) + touched.count(where: isRewritten) }

    /// How many existing profiles took answers but end as their line holds them.
    var unchangedCount: Int { touched.count { !isRewritten($0) } }

    /// Whether anything changed since reading.
    var isModified: Bool { changedCount > 0 }

    /// The profile on line `index`, read now if it was not yet.
    private mutating func profile(at index: Int) throws(StoreError) -> Profile {
        if let profile = parsed[index] { return profile }
        if let profile = lines[index].withUnsafeBufferPointer({ scan.scan($0) ? scan.profile(in: $0) : nil }) { return profile }
        switch ProfileReader.read(lines[index]) {
        case .success(let profile): return profile
        case .failure(let error): throw StoreError(message: "\(path): store line \(index + 1) cannot be read: \(error.message)")
        }
    }

    /// Applies `change` to the profile with `id` (a new profile holding only the id when there
    /// is none); the change is kept only when `change` returns true, so a rejected answer
    /// neither creates a profile nor rewrites one (`change` leaves the profile as it was when it
    /// returns false). Returns whether a profile was created.
    @discardableResult
    mutating func update(id: String, _ change: (inout Profile) -> Bool) throws(StoreError) -> Bool {
        guard let index = indexByID[id] else {
            var fresh = Profile()
            fresh.setField("id", .string(id))
            guard change(&fresh) else { return false }
            indexByID[id] = lines.count
            lines.append([])
            parsed.append(fresh)
            changed.append(true)
            return true
        }
        var profile = try profile(at: index)
        differs[index] = nil  // decided again by `settle()`
        parsed[index] = nil  // the local copy is now the only one, so the change is made in place
        if change(&profile), !changed[index] {
            changed[index] = true
            touched.append(index)
        }
        parsed[index] = profile
        return false
    }

    /// Writes the store atomically.
    func save() throws {
        var output: [UInt8] = []
        for index in 0..<lines.count {
            if isRewritten(index), let profile = parsed[index] {
                output += Array(JSONWriter.write(profile.json).utf8)
            } else {
                output += lines[index]
            }
            output.append(0x0A)
        }
        try AtomicFile.replace(path, with: output)
    }
}
