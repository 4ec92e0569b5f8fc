import Foundation

/// The server's counters, shared by every connection: requests by route and status, a latency
/// histogram by route, decisions by placement and destination, reloads by result, and open
/// connections. `prometheusText` writes them in Prometheus' text format (version 0.0.4).
package final class ServerMetrics: @unchecked Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    package static let latencyBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

    /// What a reload came to.
    package enum ReloadResult: String, CaseIterable, Sendable {
        /// New rules passed `check` and are answered from.
        case applied
        /// The files changed but the rules had errors; the previous version stays.
        case rejected
        /// A profile store file was read again.
        case storeApplied = "store_applied"
        /// The profile store could not be read; the previous one stays.
        case storeFailed = "store_failed"
    }

    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }

    private struct Latency {
        var buckets = [Int](repeating: 0, count: ServerMetrics.latencyBounds.count)
        var sum = 0.0
        var count = 0
    }

    private struct DecisionKey: Hashable {
        var placement: String
        var destination: String
    }

    private let lock = NSLock()
    private var requests: [RequestKey: Int] = [:]
    private var latencies: [String: Latency] = [:]
    private var decisions: [DecisionKey: Int] = [:]
    private var reloads: [ReloadResult: Int] = [:]
    private var openConnections = 0
    private var refusedConnections = 0

    package init() {}

    /// Counts one answered request, how long it took, and the decisions it gave (placement and
    /// destination, as `DecisionSummary.destination` names it).
    package func record(route: String, status: Int, seconds: Double, decisions given: [(placement: String, destination: String)]) {
        let bucket = ServerMetrics.latencyBounds.firstIndex { seconds <= $0 }
        lock.lock()
        requests[RequestKey(route: route, status: status), default: 0] += 1
        // Changed where it lies: a copy taken out and put back would copy its buckets each time.
        if let bucket { latencies[route, default: Latency()].buckets[bucket] += 1 }
        latencies[route, default: Latency()].sum += seconds
        latencies[route, default: Latency()].count += 1
        for decision in given { decisions[DecisionKey(placement: decision.placement, destination: decision.destination), default: 0] += 1 }
        lock.unlock()
    }

    /// Counts a reload.
    package func recordReload(_ result: ReloadResult) {
        lock.withLock { reloads[result, default: 0] += 1 }
    }

    /// Counts a connection opened (`+1`) or closed (`-1`).
    package func connectionsChanged(by change: Int) {
        lock.withLock { openConnections += change }
    }

    /// Counts a connection refused for being one too many.
    package func recordRefusedConnection() {
        lock.withLock { refusedConnections += 1 }
    }

    /// How many reloads came to `result`.
    package func reloadCount(_ result: ReloadResult) -> Int {
        lock.withLock { reloads[result, default: 0] }
    }

    /// Every metric in Prometheus' text format, series sorted by their labels.
    package func prometheusText(rulesVersion: String) -> String {
        lock.lock()
        let requests = self.requests, latencies = self.latencies, decisions = self.decisions, reloads = self.reloads
        let open = openConnections, refused = refusedConnections
        lock.unlock()

        var text = ""
        func family(_ name: String, _ type: String, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("targeting_http_requests_total", "counter", "HTTP requests answered, by route and status.")
        for (key, count) in requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }) {
            text += "targeting_http_requests_total{route=\"\(label(key.route))\",status=\"\(key.status)\"} \(count)\n"
        }
        family("targeting_http_request_duration_seconds", "histogram", "Time from a whole request to its answer being written, by route.")
        for (route, latency) in latencies.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (index, bound) in ServerMetrics.latencyBounds.enumerated() {
                cumulative += latency.buckets[index]
                text += "targeting_http_request_duration_seconds_bucket{route=\"\(label(route))\",le=\"\(number(bound))\"} \(cumulative)\n"
            }
            text += "targeting_http_request_duration_seconds_bucket{route=\"\(label(route))\",le=\"+Inf\"} \(latency.count)\n"
            text += "targeting_http_request_duration_seconds_sum{route=\"\(label(route))\"} \(number(latency.sum))\n"
            text += "targeting_http_request_duration_seconds_count{route=\"\(label(route))\"} \(latency.count)\n"
        }
        family("targeting_decisions_total", "counter", "Decisions answered, by placement and destination.")
        for (key, count) in decisions.sorted(by: { ($0.key.placement, $0.key.destination) < ($1.key.placement, $1.key.destination) }) {
            text += "targeting_decisions_total{placement=\"\(label(key.placement))\",destination=\"\(label(key.destination))\"} \(count)\n"
        }
        family("targeting_reloads_total", "counter", "Reloads of the rules and the profile store, by result.")
        for result in ReloadResult.allCases {
            text += "targeting_reloads_total{result=\"\(result.rawValue)\"} \(reloads[result, default: 0])\n"
        }
        family("targeting_rules_info", "gauge", "The version of the rules answered from.")
        text += "targeting_rules_info{version=\"\(label(rulesVersion))\"} 1\n"
        family("targeting_open_connections", "gauge", "Client connections open now.")
        text += "targeting_open_connections \(open)\n"
        family("targeting_refused_connections_total", "counter", "Connections answered 503 for being past the limit.")
        text += "targeting_refused_connections_total \(refused)\n"
        return text
    }

    /// A label value escaped as the text format wants (`\`, `"` and line feeds).
    private func label(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
