import Foundation
import TargetingBase
import TargetingProfiles

/// The profile store: a JSON Lines file of profiles (SPEC §3, §9).
///
/// Lines are kept byte for byte unless their profile changes, so unknown fields and
/// formatting survive; a corrupt line makes the whole store unreadable (it is never rewritten).
///
/// Opening checks every line (with `ProfileScan` where it can, else `ProfileReader`) and keeps
/// only its bytes, all lines in one buffer. A profile that events change is kept as its line
/// plus a `ProfileEdit` of the answers; whole `Profile`s are built only to decide, once the
/// events are applied, which lines changed, and to write those.
struct ProfileStore {
    /// The stored lines' bytes, one after another (line ends left out).
    private var storage: [UInt8] = []
    /// Where each stored line starts in `storage`, then where the last one ends.
    private var starts: [Int] = [0]
    private var indexByID: [String: Int] = [:]
    /// The ids of profiles created by events; they follow the stored lines.
    private var createdIDs: [String] = []
    /// Per profile (stored lines, then created ones): the index of its edit in `edits`, or -1.
    private var editIndex: [Int32] = []
    private var edits: [ProfileEdit] = []
    /// Stored lines whose edit changed their profile, in the order first changed.
    private var touched: [Int] = []
    /// Reused to read lines.
    private var scan = ProfileScan()
    let path: String

    /// Reads the store at `path`; an absent file is an empty store.
    static func open(_ path: String) throws -> ProfileStore {
        var store = ProfileStore(path: path)
        guard FileManager.default.fileExists(atPath: path) else { return store }
        try checkIsNotDirectory(path)
        guard var reader = JSONLinesReader(path: path) else { throw StoreError(message: "cannot read store `\(path)`") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int { store.storage.reserveCapacity(size) }
        var scan = ProfileScan()
        while let record = reader.next() {
            let bytes: [UInt8]
            switch record.bytes {
            case .failure(let error): throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
            case .success(let read): bytes = read
            }
            var id: String?
            if bytes.withUnsafeBufferPointer({ scan.scan($0) }) {
                id = bytes.withUnsafeBufferPointer { scan.id(in: $0) }
            } else {
                switch ProfileReader.read(bytes) {
                case .failure(let error):
                    throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
                case .success(let read):
                    id = read.id
                }
            }
            let index = store.storedCount
            store.storage.append(contentsOf: bytes)
            store.starts.append(store.storage.count)
            store.editIndex.append(-1)
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

    /// The number of lines read from the file.
    private var storedCount: Int { starts.count - 1 }

    /// The number of profiles.
    var count: Int { storedCount + createdIDs.count }

    /// Stored line `index`'s bytes.
    private func line(_ index: Int) -> ArraySlice<UInt8> { storage[starts[index]..<starts[index + 1]] }

    /// What profile `index`'s edit changes.
    private func base(_ index: Int) -> EditedProfile.Base {
        index < storedCount ? .line(line(index)) : .fresh(id: createdIDs[index - storedCount])
    }

    /// Whether profile `index` must be written anew: a created profile, or one whose content
    /// differs from the profile its line held (member order aside). A profile that took only
    /// answers it already had, or whose changes were undone by later events, keeps its line
    /// byte for byte.
    private func isRewritten(_ index: Int) -> Bool {
        guard editIndex[index] >= 0 else { return false }
        let edit = edits[Int(editIndex[index])]
        guard edit.changed else { return false }
        guard index < storedCount else { return true }
        if let known = edit.differs { return known }
        var scan = ProfileScan()
        return ProfileStore.differs(edit, base: base(index), scan: &scan)
    }

    /// Whether `edit` makes a profile that differs from its base (true when the base cannot be read).
    private static func differs(_ edit: ProfileEdit, base: EditedProfile.Base, scan: inout ProfileScan) -> Bool {
        guard let original = EditedProfile.profile(of: base, scan: &scan) else { return true }
        return !edit.applied(to: original).hasSameContent(as: original)
    }

    /// Decides once, for every touched line, whether it must be written anew; call it when the
    /// events are applied, before `isModified`, `save()` and the counts (which are right without
    /// it, only slower).
    mutating func settle() {
        for index in touched {
            let slot = Int(editIndex[index])
            guard edits[slot].differs == nil else { continue }
            edits[slot].differs = ProfileStore.differs(edits[slot], base: base(index), scan: &scan)
        }
    }

    /// How many profiles changed (created ones included): those whose line is written anew.
    var changedCount: Int { createdIDs.count + touched.count(where: isRewritten) }

    /// How many existing profiles took answers but end as their line holds them.
    var unchangedCount: Int { touched.count { !isRewritten($0) } }

    /// Whether anything changed since reading.
    var isModified: Bool { changedCount > 0 }

    /// How many custom attributes stored line `index` holds.
    private mutating func customCount(ofLine index: Int) throws(StoreError) -> Int {
        let bytes = line(index)
        if let count = bytes.withUnsafeBufferPointer({ scan.scan($0) ? scan.customAttributes.count : nil }) { return count }
        switch ProfileReader.read(bytes) {
        case .success(let profile): return profile.customCount
        case .failure(let error): throw StoreError(message: "\(path): store line \(index + 1) cannot be read: \(error.message)")
        }
    }

    /// Applies `change` to the profile with `id` (a new profile holding only the id when there
    /// is none); the change is kept only when `change` returns true, so a rejected answer
    /// neither creates a profile nor rewrites one (`change` leaves the profile as it was when it
    /// returns false). Returns whether a profile was created.
    @discardableResult
    mutating func update(id: String, _ change: (inout EditedProfile) -> Bool) throws(StoreError) -> Bool {
        guard let index = indexByID[id] else {
            var fresh = EditedProfile(edit: ProfileEdit(), base: .fresh(id: id))
            guard change(&fresh) else { return false }
            fresh.edit.changed = true
            indexByID[id] = count
            createdIDs.append(id)
            editIndex.append(Int32(edits.count))
            edits.append(fresh.edit)
            return true
        }
        var slot = Int(editIndex[index])
        if slot < 0 {
            var edit = ProfileEdit()
            if index < storedCount { edit.baseCustomCount = try customCount(ofLine: index) }
            slot = edits.count
            edits.append(edit)
            editIndex[index] = Int32(slot)
        }
        // The edit is moved out while changed, so its changes are made in place.
        var edited = EditedProfile(edit: ProfileEdit(), base: base(index))
        swap(&edited.edit, &edits[slot])
        let kept = change(&edited)
        edited.edit.differs = nil  // decided again by `settle()`
        if kept, !edited.edit.changed {
            edited.edit.changed = true
            if index < storedCount { touched.append(index) }
        }
        swap(&edited.edit, &edits[slot])
        return false
    }

    /// Writes the store atomically, a chunk at a time (so memory holds the store once).
    func save() throws {
        var scan = ProfileScan()
        try AtomicFile.replace(path) { write in
            var output: [UInt8] = []
            let chunk = 1 << 20
            output.reserveCapacity(chunk + 4096)
            for index in 0..<count {
                if isRewritten(index), let base = EditedProfile.profile(of: base(index), scan: &scan) {
                    output.append(contentsOf: JSONWriter.write(edits[Int(editIndex[index])].applied(to: base).json).utf8)
                } else {
                    output.append(contentsOf: line(index))
                }
                output.append(0x0A)
                if output.count >= chunk {
                    try write(output)
                    output.removeAll(keepingCapacity: true)
                }
            }
            try write(output)
        }
    }
}
