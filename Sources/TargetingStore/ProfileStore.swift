import TargetingBatch
import Foundation
import TargetingBase
import TargetingProfiles

/// The profile store: a JSON Lines file of profiles.
///
/// Lines are kept byte for byte unless their profile changes, so unknown fields and
/// formatting survive; a corrupt line makes the whole store unreadable (it is never rewritten).
///
/// Opening checks every line (with `ProfileScan` where it can, else `ProfileReader`) and keeps
/// only where it lies in the file and how many custom attributes it holds; the file stays open
/// (and locked by the caller) and lines are read from it again when needed. A profile that
/// events change is kept as a `ProfileEdit` of the answers over its line; whole `Profile`s are
/// built only to decide, once the events are applied, which lines changed, and to write those.
package struct ProfileStore {
    /// The file as opened (nil when there was none).
    private var file: StoreFile?
    /// Where each stored line's bytes lie in the file (line ends left out).
    private var ranges: [Range<Int>] = []
    /// Per stored line: how many custom attributes it holds.
    private var customCounts: [UInt8] = []
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
    package let path: String

    /// Reads the store at `path`; an absent file is an empty store.
    package static func open(_ path: String) throws -> ProfileStore {
        var store = ProfileStore(path: path)
        guard FileManager.default.fileExists(atPath: path) else { return store }
        try checkIsNotDirectory(path)
        guard let file = StoreFile(path: path), var reader = JSONLinesReader(path: path) else { throw StoreError(message: "cannot read store `\(path)`") }
        store.file = file
        var scan = ProfileScan()
        while let record = reader.next() {
            let bytes: [UInt8]
            switch record.bytes {
            case .failure(let error): throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
            case .success(let read): bytes = read
            }
            var id: String?
            var customCount = 0
            if bytes.withUnsafeBufferPointer({ scan.scan($0) }) {
                id = bytes.withUnsafeBufferPointer { scan.id(in: $0) }
                customCount = scan.customAttributes.count
            } else {
                switch ProfileReader.read(bytes) {
                case .failure(let error):
                    throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
                case .success(let read):
                    id = read.id
                    customCount = read.customCount
                }
            }
            let index = store.storedCount
            store.ranges.append(record.offset..<(record.offset + bytes.count))
            store.customCounts.append(UInt8(min(customCount, 255)))
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
    package static func checkIsNotDirectory(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StoreError(message: "store `\(path)` is a directory, not a file")
        }
    }

    /// The number of lines read from the file.
    package var storedCount: Int { ranges.count }

    /// Where the profile with `id` is: its line's index for a stored profile (below
    /// `storedCount`), else its place after the stored lines; nil when there is none.
    package func index(of id: String) -> Int? { indexByID[id] }

    /// The ids of the stored profiles whose line's index satisfies `isIncluded`, in no particular order.
    package func storedIDs(where isIncluded: (Int) -> Bool) -> [String] {
        indexByID.compactMap { $0.value < storedCount && isIncluded($0.value) ? $0.key : nil }
    }

    /// The number of profiles.
    package var count: Int { storedCount + createdIDs.count }

    /// What profile `index`'s edit changes.
    private func base(_ index: Int) -> EditedProfile.Base {
        guard index < storedCount, let file else { return .fresh(id: createdIDs[index - storedCount]) }
        return .line(file, ranges[index])
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
    ///
    /// A line `ProfileScan` reads is compared with the edit's changes key by key
    /// (`ProfileEdit.keepsContent(of:in:)`); whole profiles are built only for other lines.
    private static func differs(_ edit: ProfileEdit, base: EditedProfile.Base, scan: inout ProfileScan, readingAhead: Bool = false) -> Bool {
        if case .line(let file, let range) = base {
            guard let bytes = file.bytes(range, readingAhead: readingAhead) else { return true }
            let kept = bytes.withUnsafeBufferPointer { line -> Bool? in
                guard scan.scan(line) else { return nil }
                return edit.keepsContent(of: scan, in: line)
            }
            if let kept { return !kept }
        }
        guard let original = EditedProfile.profile(of: base, scan: &scan, readingAhead: readingAhead) else { return true }
        return !edit.applied(to: original).hasSameContent(as: original)
    }

    /// Decides once, for every touched line, whether it must be written anew; call it when the
    /// events are applied, before `isModified`, `save()` and the counts (which are right without
    /// it, only slower).
    package mutating func settle() {
        // In file order, so the lines are read a window at a time.
        for index in touched.sorted() {
            let slot = Int(editIndex[index])
            guard edits[slot].differs == nil else { continue }
            edits[slot].differs = ProfileStore.differs(edits[slot], base: base(index), scan: &scan, readingAhead: true)
        }
    }

    /// How many profiles changed (created ones included): those whose line is written anew.
    package var changedCount: Int { createdIDs.count + touched.count(where: isRewritten) }

    /// How many existing profiles took answers but end as their line holds them.
    package var unchangedCount: Int { touched.count { !isRewritten($0) } }

    /// Whether anything changed since reading.
    package var isModified: Bool { changedCount > 0 }

    /// Applies `change` to the profile with `id` (a new profile holding only the id when there
    /// is none); the change is kept only when `change` returns true, so a rejected answer
    /// neither creates a profile nor rewrites one (`change` leaves the profile as it was when it
    /// returns false). Returns whether a profile was created.
    @discardableResult
    package mutating func update(id: String, _ change: (inout EditedProfile) -> Bool) -> Bool {
        update(id: id, at: indexByID[id], change)
    }

    /// `update(id:_:)` for the profile at `known`, which `index(of: id)` gave (and no profile was created since).
    @discardableResult
    package mutating func update(id: String, at known: Int?, _ change: (inout EditedProfile) -> Bool) -> Bool {
        guard let index = known else {
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
            if index < storedCount { edit.baseCustomCount = Int(customCounts[index]) }
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

    /// Writes the store atomically, a chunk at a time, reading unchanged lines from the file
    /// as opened; a line that cannot be read again fails the write (and the store is not changed).
    package func save() throws {
        var scan = ProfileScan()
        try AtomicFile.replace(path) { write in
            var output: [UInt8] = []
            let chunk = 1 << 20
            output.reserveCapacity(chunk + 4096)
            for index in 0..<count {
                if isRewritten(index) {
                    let edit = edits[Int(editIndex[index])]
                    // A line the scan reads is written from the scan and the changes; any other
                    // base as a whole profile (the same bytes, built slower).
                    var written = false
                    if case .line(let file, let range) = base(index) {
                        guard let bytes = file.bytes(range, readingAhead: true) else { throw rereadFailure(index) }
                        written = bytes.withUnsafeBufferPointer { line in scan.scan(line) && edit.write(over: scan, in: line, to: &output) }
                    }
                    if !written {
                        guard let base = EditedProfile.profile(of: base(index), scan: &scan, readingAhead: true) else { throw rereadFailure(index) }
                        output.append(contentsOf: JSONWriter.write(edit.applied(to: base).json).utf8)
                    }
                } else {
                    guard let bytes = file?.bytes(ranges[index], readingAhead: true) else { throw rereadFailure(index) }
                    output.append(contentsOf: bytes)
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

    /// The error when stored line `index` cannot be read again.
    private func rereadFailure(_ index: Int) -> StoreError {
        StoreError(message: "cannot read store `\(path)` again: it changed while locked, or cannot be read")
    }
}
