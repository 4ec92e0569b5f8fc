#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TargetingBase

/// `targeting serve` from start to exit: loads, listens, reloads on change and on SIGHUP,
/// and on SIGTERM or SIGINT drains and returns 0. A start that fails (rules with errors, an
/// address in use, an unreadable store or token) is logged and returns 2.
package enum ServeRunner {
    package static func run(_ configuration: ServeConfiguration, log: ServerLog) -> Int32 {
        let context: ServeContext
        switch ServeReloader.initialContext(configuration, log: log) {
        case .failure(let error):
            log.log(.error, "start_failed", [JSONMember(key: "message", value: .string(error.message))])
            return 2
        case .success(let loaded): context = loaded
        }
        let state = ServeState(context)
        let metrics = ServerMetrics()
        let server: HTTPServer
        do {
            server = try HTTPServer(host: configuration.host, port: configuration.port, limits: configuration.limits,
                                    state: state, metrics: metrics, log: log)
        } catch {
            log.log(.error, "start_failed", [JSONMember(key: "message", value: .string(error.message))])
            return 2
        }
        let reloader = ServeReloader(configuration: configuration, state: state, metrics: metrics, log: log)

        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "targeting.serve.signals")
        var sources: [any DispatchSourceSignal] = []
        for (number, action) in [(SIGTERM, server.stop), (SIGINT, server.stop), (SIGHUP, reloader.reloadNow)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if number != SIGHUP { log.log(.info, "stopping", [JSONMember(key: "signal", value: .string(number == SIGTERM ? "SIGTERM" : "SIGINT"))]) }
                action()
            }
            source.resume()
            sources.append(source)
        }

        var members = [
            JSONMember(key: "address", value: .string(configuration.host.contains(":") ? "[\(configuration.host)]:\(server.port)" : "\(configuration.host):\(server.port)")),
            JSONMember(key: "port", value: .number(Double(server.port))),
            JSONMember(key: "rules", value: .string(context.rules.version)),
            JSONMember(key: "placements", value: .array(context.rules.program.placements.map { .string($0.name) })),
        ]
        if let store = context.store { members.append(JSONMember(key: "profiles", value: .number(Double(store.count)))) }
        log.log(.info, "listening", members)
        if let store = context.store, let path = configuration.storePath { ServeReloader.logStore(store, path: path, log: log) }
        reloader.start()
        server.run()
        reloader.stop()
        for source in sources { source.cancel() }
        return 0
    }
}
