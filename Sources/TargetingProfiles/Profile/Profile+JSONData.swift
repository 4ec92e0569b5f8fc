import Foundation
import TargetingBase

extension Profile {
    /// Reads a profile from one JSON object, applying Adapty's custom-attribute rules.
    ///
    /// - Throws: `ProfileError` naming the profile, the key and the rule that was broken.
    public init(jsonData: Data) throws {
        switch ProfileReader.read([UInt8](jsonData)) {
        case .success(let profile): self = profile
        case .failure(let error): throw error
        }
    }

    /// The profile as profile JSON: its fields in order (unknown ones kept), then `custom_attributes`.
    public var jsonData: Data { Data(JSONWriter.write(json).utf8) }
}

extension Profile: CustomStringConvertible {
    /// The profile as one line of profile JSON, as the store writes it (the text of `jsonData`).
    public var description: String { JSONWriter.write(json) }
}
