import Foundation
import TargetingBase
import TargetingProfiles

/// The profile store: a JSON Lines file of profiles (SPEC §3, §9).
///
/// Lines are kept byte for byte unless their profile changes, so unknown fields and
/// formatting survive; a corrupt line makes the whole store unreadable (it is never rewritten).
struct ProfileStore {
    private(set) var lines: [[UInt8]] = []
    private(set) var profiles: [Int: Profile] = [:]
    private var indexByID: [String: Int] = [:]
    private var changed: Set<Int> = []
    let path: String

    /// Reads the store at `path`; an absent file is an empty store.
    static func open(_ path: String) throws -> ProfileStore {
        var store = ProfileStore(path: path)
        guard FileManager.default.fileExists(atPath: path) else { return store }
        guard var reader = JSONLinesReader(path: path) else { throw StoreError(message: "cannot read store `\(path)`") }
        while let record = reader.next() {
            let bytes: [UInt8]
            switch record.bytes {
            case .failure(let error): throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
            case .success(let read): bytes = read
            }
            switch ProfileReader.read(bytes) {
            case .failure(let error):
                throw StoreError(message: "\(record.location): corrupt store line: \(error.message)")
            case .success(let profile):
                let index = store.lines.count
                store.lines.append(bytes)
                store.profiles[index] = profile
                if let id = profile.id {
                    if store.indexByID[id] != nil {
                        throw StoreError(message: "\(record.location): corrupt store: a second profile with id `\(id)`")
                    }
                    store.indexByID[id] = index
                }
            }
        }
        return store
    }

    /// The number of profiles.
    var count: Int { lines.count }

    /// Whether anything changed since reading.
    var isModified: Bool { !changed.isEmpty }

    /// The profile with `id`.
    func profile(id: String) -> Profile? { indexByID[id].flatMap { profiles[$0] } }

    /// Applies `change` to the profile with `id` (a new profile holding only the id when there
    /// is none); the change is kept only when `change` returns true, so a rejected answer
    /// neither creates a profile nor rewrites one. Returns whether a profile was created.
    @discardableResult
    mutating func update(id: String, _ change: (inout Profile) -> Bool) -> Bool {
        let index = indexByID[id]
        var profile = index.flatMap { profiles[$0] } ?? {
            var fresh = Profile()
            fresh.setField("id", .string(id))
            return fresh
        }()
        guard change(&profile) else { return false }
        if let index {
            profiles[index] = profile
            changed.insert(index)
            return false
        }
        let newIndex = lines.count
        lines.append([])
        profiles[newIndex] = profile
        indexByID[id] = newIndex
        changed.insert(newIndex)
        return true
    }

    /// Every profile in store order.
    var allProfiles: [Profile] { (0..<lines.count).compactMap { profiles[$0] } }

    /// Writes the store atomically.
    func save() throws {
        var output: [UInt8] = []
        for index in 0..<lines.count {
            if changed.contains(index), let profile = profiles[index] {
                output += Array(JSONWriter.write(profile.json).utf8)
            } else {
                output += lines[index]
            }
            output.append(0x0A)
        }
        try AtomicFile.replace(path, with: output)
    }
}
