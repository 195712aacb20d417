// An app's `UNUserNotificationCenter.add` to a running `notiplay serve`, in process: each add
// connects, sends the request, waits until the server has stored it durably, and closes.
// Requests are scheduled an hour ahead (pending: no card is queued), then removed.
import Notiplay

/// Runs `count` adds with a completion handler and `count` with `async`, and returns the report
/// lines (medians and 95th percentiles, in milliseconds).
@MainActor
func centerAddBenchmark(count: Int) async -> [String] {
    let clock = ContinuousClock()
    let center = UNUserNotificationCenter.current()
    let content = UNMutableNotificationContent()
    content.title = "Benchmark"
    content.body = "an add, timed"
    content.userInfo = ["customNumber": 33]
    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)
    func request(_ name: String) -> UNNotificationRequest {
        UNNotificationRequest(identifier: name, content: content, trigger: trigger)
    }

    var failure: (any Error)?
    var handler: [Double] = []
    for index in 0..<count {
        let start = clock.now
        center.add(request("bench-handler-\(index)")) { error in if let error { failure = error } }
        handler.append(milliseconds(clock.now - start))
    }
    var async: [Double] = []
    for index in 0..<count {
        let start = clock.now
        do { try await center.add(request("bench-async-\(index)")) } catch { failure = error }
        async.append(milliseconds(clock.now - start))
    }
    let pending = await center.pendingNotificationRequests().count
    center.removeAllPendingNotificationRequests()
    if let failure { return ["center add: failed: \(failure)"] }
    return [
        "center add (completion handler): \(count) adds, median \(format(median(handler))) ms, p95 \(format(percentile(handler, 0.95))) ms  [target 5 ms]",
        "center add (async): \(count) adds, median \(format(median(async))) ms, p95 \(format(percentile(async, 0.95))) ms; \(pending) pending before removal",
    ]
}

private func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

private func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}
