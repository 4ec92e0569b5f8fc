import TargetingBase
import TargetingEngine
import TargetingProfiles

extension SQLTableSchema {
    /// A profile as a row of the typed table, and what the row cannot say.
    package struct Row {
        /// One member per column, in the table's order (`id` first): JSON `null` for unset,
        /// dates `YYYY-MM-DD`, instants RFC 3339 UTC with milliseconds, sets as arrays, the
        /// history as its JSON object.
        package let members: [JSONMember]
        /// Each value the column cannot hold as the rules read it, written as `null`
        /// (a number in a text field, a date outside years 1 to 9999, …), or held only in part
        /// (a `birthday` with a time of day, whose column holds its UTC date).
        package let problems: [String]
    }

    /// `profile` as a row of this table, each value as the rules read it (`Slot.read`).
    package func row(of profile: some SlotSource) -> Row {
        var problems: [String] = []
        var members = [JSONMember(key: "id", value: profile.profileID.map(JSONValue.string) ?? .null)]
        if profile.profileID == nil, let id = profile.field("id"), id != .null {
            problems.append("`id` is not a string; the column `id` holds null")
        }
        for column in columns {
            let value: JSONValue
            switch column.target {
            case .builtin(let field):
                value = SQLTableSchema.builtinValue(profile.field(field), column: column, problems: &problems)
            case .custom(let key):
                value = SQLTableSchema.customValue(profile.customValue(key), column: column, problems: &problems)
            }
            members.append(JSONMember(key: column.name, value: value))
        }
        if readsHistory {
            members.append(JSONMember(key: SQLHistoryReader.typedColumn, value: profile.history?.json ?? .null))
        }
        return Row(members: members, problems: problems)
    }

    /// The instants a typed column can hold in every engine: years 1 to 9999.
    static let instantRange: ClosedRange<Int64> = -62_135_596_800_000 ... 253_402_300_799_999

    /// An instant as a typed row writes it: `YYYY-MM-DDTHH:MM:SS.sssZ`.
    static func instantText(_ ms: Int64) -> String {
        let text = Timestamp.format(ms)
        return Timestamp.floorMod(ms, 1000) == 0 ? String(text.dropLast()) + ".000Z" : text
    }

    private static func unheld(_ column: Column, _ what: String, _ problems: inout [String]) -> JSONValue {
        problems.append("`\(column.name)` (\(column.kind.rawValue)) cannot hold \(what); written as null")
        return .null
    }

    /// A date or instant field's text, as the column of `kind` holds it.
    private static func dateValue(_ text: String, column: Column, problems: inout [String]) -> JSONValue {
        guard let ms = Timestamp.parse(text) else { return unheld(column, "the text \(JSONWriter.write(.string(text))), which is no date", &problems) }
        guard instantRange.contains(ms) else { return unheld(column, "\(text), outside years 1 to 9999", &problems) }
        if column.kind == .date {
            if Timestamp.floorMod(ms, Timestamp.msPerDay) != 0 {
                problems.append("`\(column.name)` holds the UTC date of \(text); its time of day is not kept")
            }
            return .string(Timestamp.formatDate(ms))
        }
        return .string(instantText(ms))
    }

    private static func builtinValue(_ stored: JSONValue?, column: Column, problems: inout [String]) -> JSONValue {
        guard let stored, stored != .null else { return .null }
        switch column.kind {
        case .text:
            if case .string = stored { return stored }
        case .number:
            if case .number = stored { return stored }
        case .date, .instant:
            if case .string(let text) = stored { return dateValue(text, column: column, problems: &problems) }
        case .set:
            if case .array(let items) = stored {
                guard items.allSatisfy({ $0.stringValue != nil }) else { return unheld(column, "an array with a member that is not a string", &problems) }
                return stored
            }
        case .bool:
            break  // no built-in field is a bool
        }
        return unheld(column, "the JSON value \(JSONWriter.write(stored))", &problems)
    }

    private static func customValue(_ stored: CustomValue?, column: Column, problems: inout [String]) -> JSONValue {
        guard let stored else { return .null }
        switch (column.kind, stored) {
        case (.text, .string(let text)): return .string(text)
        case (.set, .string(let text)): return .array(text.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
        case (.number, .number(let number)): return .number(number)
        case (.bool, .number(let number)):
            guard number == 0 || number == 1 else { return unheld(column, "the number \(JSONWriter.write(.number(number))), neither 1 nor 0", &problems) }
            return .bool(number == 1)
        case (.instant, .number(let number)):
            guard number.isFinite, abs(number) < 9.0e15 else { return unheld(column, "\(JSONWriter.write(.number(number))), which is no date", &problems) }
            let ms = Int64(number.rounded(.down))
            guard instantRange.contains(ms) else { return unheld(column, "\(Timestamp.format(ms)), outside years 1 to 9999", &problems) }
            return .string(instantText(ms))
        case (.date, _), (.text, .number), (.set, .number), (.number, .string), (.bool, .string), (.instant, .string):
            return unheld(column, "the value \(JSONWriter.write(stored.json))", &problems)
        }
    }
}
