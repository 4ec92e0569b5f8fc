import Dispatch
import Foundation
import Targeting
import TargetingBase

/// Watches the rules, the store and the token file, and replaces what the server answers from
/// when they change: every `reloadInterval`, and at once on `reloadNow()` (SIGHUP).
///
/// Rules with errors never replace the ones being served: the server goes on answering from
/// the previous version, logs the diagnostics (`rules_rejected`) and counts a rejected reload.
/// Files should be replaced whole (written elsewhere, then renamed into place): a file caught
/// half-written is rejected like any rules with errors, and read again when it changes.
package final class ServeReloader: @unchecked Sendable {
    let configuration: ServeConfiguration
    let state: ServeState
    let metrics: ServerMetrics
    let log: ServerLog

    private let lock = NSLock()
    private let wake = DispatchSemaphore(value: 0)
    private var forced = false
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    private var rulesStamps: [FileStamp?]
    private var storeStamp: FileStamp?
    private var tokenStamp: FileStamp?

    package init(configuration: ServeConfiguration, state: ServeState, metrics: ServerMetrics, log: ServerLog) {
        self.configuration = configuration
        self.state = state
        self.metrics = metrics
        self.log = log
        rulesStamps = ServeReloader.rulesStamps(configuration.rulesPath)
        storeStamp = configuration.storePath.flatMap(FileStamp.init)
        tokenStamp = configuration.tokenPath.flatMap(FileStamp.init)
    }

    /// What the server starts from: the rules (which must have no errors), the store and the
    /// token; the failure names what is wrong, after logging any diagnostics.
    package static func initialContext(_ configuration: ServeConfiguration, log: ServerLog) -> Result<ServeContext, ServeStartError> {
        let rules: ServedRules
        switch loadRules(configuration.rulesPath) {
        case .failure(let problem):
            problem.log(to: log, kept: nil)
            return .failure(ServeStartError(problem.summary))
        case .success(let loaded): rules = loaded
        }
        var context = ServeContext(rules: rules)
        if let path = configuration.storePath {
            switch loadStore(path) {
            case .failure(let error): return .failure(error)
            case .success(let store): context.store = store
            }
        }
        if let path = configuration.tokenPath {
            switch loadToken(path) {
            case .failure(let error): return .failure(error)
            case .success(let token): context.token = token
            }
        }
        return .success(context)
    }

    /// Looks for changes every `reloadInterval` on a thread of its own, until `stop()`.
    package func start() {
        let thread = Thread { [self] in
            while true {
                _ = wake.wait(timeout: .now() + configuration.reloadInterval)
                let (force, stop) = lock.withLock { () -> (Bool, Bool) in
                    defer { forced = false }
                    return (forced, stopped)
                }
                if stop { break }
                check(force: force)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Reads everything again now, changed or not (SIGHUP).
    package func reloadNow() {
        lock.withLock { forced = true }
        wake.signal()
    }

    /// Ends the watching thread.
    package func stop() {
        lock.withLock { stopped = true }
        wake.signal()
        _ = finished.wait(timeout: .now() + 5)
    }

    /// One look at the files: reloads what changed (everything with `force`).
    package func check(force: Bool) {
        let rulesNow = ServeReloader.rulesStamps(configuration.rulesPath)
        if force || rulesNow != rulesStamps {
            rulesStamps = rulesNow
            let current = state.context.rules
            switch ServeReloader.loadRules(configuration.rulesPath) {
            case .failure(let problem):
                metrics.recordReload(.rejected)
                problem.log(to: log, kept: current.version)
            case .success(let rules):
                if rules.version != current.version {
                    state.update { $0.rules = rules }
                    metrics.recordReload(.applied)
                    log.log(.info, "rules_applied", [JSONMember(key: "rules", value: .string(rules.version)),
                                                     JSONMember(key: "previous", value: .string(current.version))])
                } else if force {
                    log.log(.info, "rules_unchanged", [JSONMember(key: "rules", value: .string(rules.version))])
                }
            }
        }
        if let path = configuration.storePath {
            let stamp = FileStamp(path)
            if force || stamp != storeStamp {
                storeStamp = stamp
                switch ServeReloader.loadStore(path) {
                case .failure(let error):
                    metrics.recordReload(.storeFailed)
                    log.log(.error, "store_rejected", [JSONMember(key: "message", value: .string(error.message))])
                case .success(let store):
                    state.update { $0.store = store }
                    metrics.recordReload(.storeApplied)
                    ServeReloader.logStore(store, path: path, log: log)
                }
            }
        }
        if let path = configuration.tokenPath {
            let stamp = FileStamp(path)
            if force || stamp != tokenStamp {
                tokenStamp = stamp
                switch ServeReloader.loadToken(path) {
                case .failure(let error):
                    log.log(.error, "token_rejected", [JSONMember(key: "message", value: .string(error.message))])
                case .success(let token):
                    state.update { $0.token = token }
                    log.log(.info, "token_applied")
                }
            }
        }
    }

    static func rulesStamps(_ path: String) -> [FileStamp?] {
        guard case .success(let files) = SourceLoader.files(at: path, extension: "rules") else { return [nil] }
        return files.map(FileStamp.init)
    }

    /// Why rules could not be served.
    struct RulesProblem: Error {
        var diagnostics: [Diagnostic]
        var sources: [SourceFile]

        var summary: String {
            diagnostics.count == 1 && sources.isEmpty ? diagnostics[0].message : "the rules have errors (\(DiagnosticRenderer.summary(diagnostics)))"
        }

        func log(to log: ServerLog, kept: String?) {
            let renderer = DiagnosticRenderer(files: sources)
            var members = [JSONMember(key: "summary", value: .string(DiagnosticRenderer.summary(diagnostics)))]
            if let kept { members.append(JSONMember(key: "rules", value: .string(kept))) }
            members.append(JSONMember(key: "diagnostics", value: .array(diagnostics.map(renderer.json))))
            log.log(.error, "rules_rejected", members)
        }
    }

    /// Reads and checks the rules under `path`.
    static func loadRules(_ path: String) -> Result<ServedRules, RulesProblem> {
        switch LoadedRules.load(path: path) {
        case .failure(let error):
            return .failure(RulesProblem(diagnostics: [error], sources: []))
        case .success(let loaded):
            guard !loaded.hasErrors, let program = loaded.program else {
                return .failure(RulesProblem(diagnostics: loaded.diagnostics.filter(\.isError), sources: loaded.sources))
            }
            return .success(ServedRules(program: program, version: ServedRules.version(of: loaded.sources, root: path)))
        }
    }

    static func loadStore(_ path: String) -> Result<StoreSnapshot, ServeStartError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ServeStartError("cannot read the profile store `\(path)`"))
        }
        return .success(StoreSnapshot(bytes: [UInt8](data)))
    }

    static func logStore(_ store: StoreSnapshot, path: String, log: ServerLog) {
        var members = [JSONMember(key: "store", value: .string(path)), JSONMember(key: "profiles", value: .number(Double(store.count)))]
        if !store.unreadableLines.isEmpty {
            members.append(JSONMember(key: "unreadable_lines", value: .array(store.unreadableLines.prefix(20).map { .number(Double($0)) })))
        }
        log.log(store.unreadableLines.isEmpty ? .info : .warning, "store_applied", members)
    }

    static func loadToken(_ path: String) -> Result<[UInt8], ServeStartError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ServeStartError("cannot read the token file `\(path)`"))
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains(where: { $0.isWhitespace }) else {
            return .failure(ServeStartError("the token file `\(path)` must hold one token without spaces"))
        }
        return .success(Array(token.utf8))
    }
}
