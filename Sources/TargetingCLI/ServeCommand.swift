import TargetingServer

/// `targeting serve`: decisions over HTTP and OFREP for every platform.
enum ServeCommand: Command {
    static let name = "serve"
    static let overview = "Answer decisions over HTTP and OpenFeature's remote evaluation protocol"
    static let usage = "serve [--rules PATH] [--listen HOST:PORT] [--store FILE] [--token-file FILE] [--reload-interval DURATION]"
    static let discussion = """
    ROUTES:
      POST /v1/resolve                           {"profile": {…}, "placements": [...], "now": "…", "explain": false}
                                                 -> {"rules": VERSION, "decisions": [resolve --format json's objects]}
      GET  /v1/profiles/ID/decisions             a profile of --store (?placement=P, repeatable, &now=TIME)
      POST /ofrep/v1/evaluate/flags/PLACEMENT    OpenFeature (OFREP) evaluation of one placement: {"context": {…}}
      POST /ofrep/v1/evaluate/flags              every placement; its ETag names the rules version and the answer
      GET  /healthz, /readyz, /metrics           up; rules loaded and not stopping; Prometheus text

    HTTP/1.1 with keep-alive. A body may have up to 1 MiB (413), the request line and headers
    16 KiB (431), a request must be whole within 10 s (408), and at most 1,024 connections are
    open (503 beyond). With --token-file, every route but /healthz needs
    `Authorization: Bearer TOKEN`. The rules, the store and the token file are read again
    when they change (looked at every --reload-interval, default 2s, and at once on SIGHUP);
    rules with errors never replace the ones answered from, and every answer names the rules
    version it came from. SIGTERM or SIGINT: stop accepting, finish the requests in flight
    (up to 10 s), exit 0. Logs are JSON lines on standard error; the first says where the
    server listens (`"event":"listening"`, with the port when given port 0).
    """
    static let options = [
        CommonOptions.rules,
        OptionSpec(names: ["--listen"], takesValue: true, valueName: "HOST:PORT", help: "Where to listen (default 127.0.0.1:8080; port 0 picks a free one)"),
        OptionSpec(names: ["--store"], takesValue: true, valueName: "FILE", help: "A profile store (JSON Lines) for /v1/profiles/ID/decisions"),
        OptionSpec(names: ["--token-file"], takesValue: true, valueName: "FILE", help: "A file holding the bearer token every route but /healthz needs"),
        OptionSpec(names: ["--reload-interval"], takesValue: true, valueName: "DURATION", help: "How often to look for changed files: 2s (default), 500ms, 1m"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "unexpected argument `\(arguments.positionals[0])`") }
        var configuration = ServeConfiguration(rulesPath: arguments.value("--rules") ?? "Rules")
        if let listen = arguments.value("--listen") {
            guard let address = ServeConfiguration.listenAddress(listen) else {
                throw UsageError(message: "invalid address `\(listen)` for `--listen`; use HOST:PORT such as 127.0.0.1:8080 or [::1]:8080")
            }
            (configuration.host, configuration.port) = address
        }
        if let interval = arguments.value("--reload-interval") {
            guard let seconds = ServeConfiguration.duration(interval) else {
                throw UsageError(message: "invalid duration `\(interval)` for `--reload-interval`; use e.g. 2s, 500ms or 1m")
            }
            configuration.reloadInterval = seconds
        }
        configuration.storePath = arguments.value("--store")
        configuration.tokenPath = arguments.value("--token-file")
        guard CommandSupport.defaultRulesExist(arguments, io: io) else {
            io.report(.defaultRulesUnreadable(.cannotRead("Rules")))
            return ExitStatus.inputError
        }
        io.flush()
        return ServeRunner.run(configuration, log: ServerLog(write: io.err))
    }
}
