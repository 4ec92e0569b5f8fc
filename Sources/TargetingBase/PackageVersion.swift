/// The version of this package, as `targeting --version` prints it and the SARIF log and the
/// language server name it. It is written here only: a release tag and this text change
/// together. No release is tagged yet, so it is a pre-release of the first one.
package enum PackageVersion {
    /// The version, SemVer 2.0: `1.0.0-dev`.
    package static let text = "1.0.0-dev"
}
