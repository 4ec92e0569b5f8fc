import Foundation

/// Files of this repository that tests read: the shipped rules and examples.
package enum RepositoryFiles {
    /// The folder holding Package.swift.
    package static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The shipped rule set.
    package static var rules: String { root.appendingPathComponent("Rules").path }

    /// A file under Examples/.
    package static func example(_ relative: String) -> String {
        root.appendingPathComponent("Examples").appendingPathComponent(relative).path
    }

    /// A file's text.
    package static func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}
