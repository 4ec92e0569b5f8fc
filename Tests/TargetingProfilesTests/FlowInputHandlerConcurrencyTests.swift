import Foundation
import XCTest
@testable import TargetingProfiles

/// Every answer sent while other threads end sessions lands in exactly one answer set.
final class FlowInputHandlerConcurrencyTests: XCTestCase {
    func testNoAnswerIsLostWhileSessionsEnd() {
        let handler = FlowInputHandler(timeZone: TimeZone(identifier: "UTC")!)
        let senders = 4
        let answersPerSender = 20_000
        let sendersDone = DispatchGroup()
        let collected = Collected()

        let drainer = Thread {
            while sendersDone.wait(timeout: .now()) == .timedOut {
                collected.add(handler.flowDidDisappear())
            }
        }
        for _ in 0..<senders { sendersDone.enter() }
        drainer.start()
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for index in 0..<answersPerSender {
                handler.handle(name: "flow_user_input", params: [
                    "element_id": "e\(sender)_\(index)",
                    "element_type": "text_input",
                    "value": "v",
                ])
            }
            sendersDone.leave()
        }
        while !drainer.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        collected.add(handler.flowDidDisappear())

        XCTAssertEqual(collected.elements.count, senders * answersPerSender, "answers lost or duplicated")
        XCTAssertEqual(collected.total, senders * answersPerSender, "an answer was handed over twice")
        XCTAssertGreaterThan(collected.sessions, 1, "the sessions should have ended while answers arrived")
    }

    func testEventCountsAndAnswersEndTogether() {
        let handler = FlowInputHandler(timeZone: TimeZone(identifier: "UTC")!)
        for index in 0..<10 {
            handler.handle(name: "flow_user_input", params: ["element_id": "e\(index)", "element_type": "text_input", "value": "v"])
        }
        XCTAssertEqual(handler.eventCounts.answers, 10)
        XCTAssertEqual(handler.flowDidDisappear().answers.count, 10)
        XCTAssertEqual(handler.eventCounts, EventCounts())
        XCTAssertEqual(handler.pendingAnswers.answers, [])
    }
}

/// The answers gathered from every ended session, guarded by a lock.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<String> = []
    private var count = 0
    private var sessionCount = 0

    func add(_ set: AnswerSet) {
        lock.withLock {
            count += set.answers.count
            seen.formUnion(set.answers.map(\.element))
            if !set.answers.isEmpty { sessionCount += 1 }
        }
    }

    var elements: Set<String> { lock.withLock { seen } }
    var total: Int { lock.withLock { count } }
    var sessions: Int { lock.withLock { sessionCount } }
}
