import TargetingBase
import TargetingProfiles

extension ProfileEdit {
    /// A member of the profile being written: as the scanned line holds it, or as a change set it.
    private enum Item {
        case stored(ProfileScan.Member)
        case set(String, JSONValue)
    }

    /// Appends the JSON text of the profile this edit makes of a scanned line: the bytes
    /// `JSONWriter.write(applied(to: scan.profile(in: line)).json)` gives, written from the scan
    /// and the changes without building either profile or a JSON tree. Returns false, having
    /// appended nothing, when a change's key is outside ASCII (it could equal a stored key as a
    /// `String` without equal bytes); the caller then writes whole profiles.
    ///
    /// A scanned line holds strings without escapes or control characters, which the writer
    /// copies as they are; its numbers, and `true`/`false` stored as a custom attribute's 1/0,
    /// are written as the writer spells them.
    package func write(over scan: ProfileScan, in line: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        let changes = self.changes
        for change in changes {
            switch change {
            case .field(let key, _), .custom(let key, _): guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            case .shown, .assigned: break
            }
        }
        var fields = scan.fields.map(Item.stored)
        var customAttributes = scan.customAttributes.map(Item.stored)
        var history = scan.history
        // Replayed as `applied(to:)` replays them on a `Profile`.
        for change in changes {
            switch change {
            case .field(let name, let value): ProfileEdit.set(name, to: value, in: &fields, line: line)
            case .custom(let key, let value): ProfileEdit.set(key, to: value?.json, in: &customAttributes, line: line)
            case .shown(let placement, let at):
                if history == nil { history = ProfileHistory() }
                _ = history?.recordShown(placement, at: at)
            case .assigned(let experiment, let variant, let at):
                if history == nil { history = ProfileHistory() }
                _ = history?.recordAssignment(experiment, variant: variant, at: at)
            }
        }
        // Fields, then `custom_attributes` when it holds any, then `history`: `Profile.json`'s order.
        output.append(UInt8(ascii: "{"))
        for (index, item) in fields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            ProfileEdit.append(item, custom: false, line: line, to: &output)
        }
        if !customAttributes.isEmpty {
            if !fields.isEmpty { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: #""custom_attributes":{"#.utf8)
            for (index, item) in customAttributes.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                ProfileEdit.append(item, custom: true, line: line, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
        if let history {
            if !fields.isEmpty || !customAttributes.isEmpty { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: #""history":"#.utf8)
            JSONWriter.append(history.json, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return true
    }

    /// Sets (nil: removes) the member `key` of `items` as `Profile.setField` and `setCustom` do:
    /// in place when present, else at the end. Keys are ASCII here, so equal means equal bytes.
    private static func set(_ key: String, to value: JSONValue?, in items: inout [Item], line: UnsafeBufferPointer<UInt8>) {
        let index = items.firstIndex { item in
            switch item {
            case .stored(let member): line[member.key].elementsEqual(key.utf8)
            case .set(let name, _): name == key
            }
        }
        switch (index, value) {
        case (let index?, let value?): items[index] = .set(key, value)
        case (let index?, nil): items.remove(at: index)
        case (nil, let value?): items.append(.set(key, value))
        case (nil, nil): break
        }
    }

    /// Appends `"key":value` for `item`.
    private static func append(_ item: Item, custom: Bool, line: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        switch item {
        case .set(let key, let value):
            JSONWriter.appendString(key, to: &output)
            output.append(UInt8(ascii: ":"))
            JSONWriter.append(value, to: &output)
        case .stored(let member):
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: line[member.key]))
            output.append(contentsOf: #"":"#.utf8)
            switch member.kind {
            case .string:
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: UnsafeBufferPointer(rebasing: line[member.value]))
                output.append(UInt8(ascii: "\""))
            case .number:
                JSONWriter.appendNumber(member.number, to: &output)
            case .bool where custom:
                JSONWriter.appendNumber(member.number, to: &output)  // a custom attribute stores 1 or 0
            case .bool:
                output.append(contentsOf: (member.number == 1 ? "true" : "false").utf8)
            case .null:
                output.append(contentsOf: "null".utf8)
            case .stringArray:
                JSONWriter.append(ProfileScan.value(of: member, in: line) ?? .null, to: &output)
            }
        }
    }
}
