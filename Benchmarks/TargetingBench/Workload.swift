import Foundation

/// A small deterministic generator (SplitMix64), so every workload is reproducible from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Generated inputs shaped like the shipped rules' users: about 190 bytes of profile JSON each.
enum Workload {
    static let countries = ["US", "DE", "FR", "ES", "IT", "NL", "TR", "BR", "JP", "GB"]
    static let versions = ["4.1.0", "4.2.0", "4.2.1", "5.0.0", "3.9.2"]
    static let experiences = ["beginner", "amateur", "pro"]
    static let interests = ["sports", "music", "travel", "food"]

    /// The JSON text of profile number `index` (one line, no line break).
    static func profileLine(_ index: Int, using random: inout SeededGenerator) -> String {
        var custom: [String] = []
        if Int.random(in: 0..<10, using: &random) < 8 { custom.append(#""experience":"\#(experiences.randomElement(using: &random)!)""#) }
        if Int.random(in: 0..<10, using: &random) < 6 {
            let picked = interests.filter { _ in Bool.random(using: &random) }
            if !picked.isEmpty { custom.append(#""interests":"\#(picked.joined(separator: ","))""#) }
        }
        if Bool.random(using: &random) { custom.append(#""reminders":\#(Int.random(in: 0...1, using: &random))"#) }
        if Bool.random(using: &random) { custom.append(#""weekly_hours":\#(Int.random(in: 0...20, using: &random))"#) }
        let year = Int.random(in: 1960...2014, using: &random)
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...28, using: &random)
        let birthday = String(format: "%04d-%02d-%02d", year, month, day)
        let installed = String(format: "2026-11-%02dT%02d:00:00Z", Int.random(in: 1...29, using: &random), Int.random(in: 0...23, using: &random))
        let country = countries.randomElement(using: &random)!
        let version = versions.randomElement(using: &random)!
        // Six in ten have signed in: they are drawn by `pricing_q4` and `q4_holdout`.
        let signedIn = Int.random(in: 0..<10, using: &random) < 6 ? #""customer_user_id":"c\#(index / 2)","# : ""
        return #"{"id":"u\#(index)",\#(signedIn)"birthday":"\#(birthday)","country":"\#(country)","platform":"ios","app_version":"\#(version)","installed_at":"\#(installed)","custom_attributes":{\#(custom.joined(separator: ","))}}"#
    }

    /// `count` profile lines from `seed`.
    static func profileLines(count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { profileLine($0, using: &random) }
    }

    /// One `flow_user_input` event line for one of `profiles` profile ids.
    static func eventLine(using random: inout SeededGenerator, profiles: Int) -> String {
        let id = "u\(Int.random(in: 0..<profiles, using: &random))"
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return #"{"profile_id":"\#(id)","name":"flow_user_input","instanceId":"scr_quiz","element_id":"experience","element_type":"single_choice","item_ids":["\#(experiences.randomElement(using: &random)!)"]}"#
        case 1:
            return #"{"profile_id":"\#(id)","name":"flow_user_input","instanceId":"scr_quiz","element_id":"interests","element_type":"multi_choice","item_ids":["sports","music"]}"#
        case 2:
            return #"{"profile_id":"\#(id)","name":"flow_user_input","instanceId":"scr_quiz","element_id":"reminders","element_type":"toggle","value":\#(Bool.random(using: &random))}"#
        case 3:
            return #"{"profile_id":"\#(id)","name":"flow_user_input","instanceId":"scr_registration","element_id":"email","element_type":"email_input","value":"user\#(id)@example.com"}"#
        default:
            return #"{"profile_id":"\#(id)","name":"flow_screen_showed","instanceId":"scr_quiz"}"#
        }
    }

    /// A rule set of `segments` segments over 1,000 attributes, every 5 combined into an audience,
    /// and `placements` placements of `rowsPerPlacement` rows each.
    static func largeRules(segments: Int, audiences: Int, placements: Int, seed: UInt64) -> String {
        var random = SeededGenerator(seed: seed)
        var text = ""
        for index in 0..<segments {
            switch index % 4 {
            case 0: text += "segment s\(index) = experience == \"\(experiences.randomElement(using: &random)!)\" and profile.age >= \(Int.random(in: 10...60, using: &random))\n"
            case 1: text += "segment s\(index) = profile.country in [\"\(countries.randomElement(using: &random)!)\", \"\(countries.randomElement(using: &random)!)\"]\n"
            case 2: text += "segment s\(index) = interests has \"\(interests.randomElement(using: &random)!)\" or weekly_hours > \(Int.random(in: 0...20, using: &random))\n"
            default: text += "segment s\(index) = profile.app_version >= \"\(versions.randomElement(using: &random)!)\" and not reminders == true\n"
            }
        }
        for index in 0..<audiences {
            let members = (0..<5).map { _ in "s\(Int.random(in: 0..<segments, using: &random))" }
            text += "audience a\(index) = \(members[0]) and (\(members[1]) or \(members[2])) and not \(members[3]) or \(members[4])\n"
        }
        for index in 0..<placements {
            text += "placement p\(index) {\n"
            for row in 0..<5 { text += "  a\((index * 5 + row) % audiences) -> flow \"f\(index)_\(row)\"\n" }
            text += "  everyone -> flow \"f\(index)_default\"\n}\n"
        }
        return "attribute experience: string one of [\"beginner\", \"amateur\", \"pro\"]\nattribute interests: set of [\"sports\", \"music\", \"travel\", \"food\"]\nattribute reminders: bool\nattribute weekly_hours: number\n" + text
    }

    /// `count` segments, each a few comparisons, combined into audiences and one placement.
    static func checkSet(segments count: Int) -> String {
        var text = "attribute level: number\nattribute tier: string\n"
        for index in 0..<count {
            text += "segment s\(index) = level >= \(index % 97) and tier == \"t\(index % 13)\" or profile.country == \"C\(index % 50)\"\n"
        }
        var audiences: [String] = []
        for start in stride(from: 0, to: count, by: 25) {
            let name = "a\(start)"
            audiences.append(name)
            text += "audience \(name) = " + (start..<min(count, start + 25)).map { "s\($0)" }.joined(separator: " or ") + "\n"
        }
        text += "placement p {\n" + audiences.map { "  \($0) -> flow \"f_\($0)\"\n" }.joined() + "  everyone -> flow \"d\"\n}\n"
        return text
    }

    /// One segment that is a single `or` of `terms` comparisons of undeclared attributes.
    static func longOr(terms: Int) -> String {
        "segment s = " + (0..<terms).map { "k\($0) == \($0)" }.joined(separator: " or ") + "\naudience a = s\nplacement p {\n  a -> flow \"f\"\n  everyone -> flow \"d\"\n}\n"
    }
}
