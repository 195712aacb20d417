import Foundation
import NotiplayCenter
import NotiplayCore
import NotiplayTestSupport
import Testing
import NotiplayCenterClient

/// The Python example client the protocol article shows, run against a real server.
@Suite struct SocketPythonClientTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/example_client.py").path

    @Test(.enabled(if: pythonPath != nil, "python3 is not installed: the example client cannot run"))
    func theExampleClientPingsAndSends() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let payload = #"{"aps": {"alert": {"title": "Lunch", "body": "Soup"}}}"#
        let payloadFile = center.scratch + "/lunch.apns"
        let chime = center.scratch + "/chime.wav"
        let chimeBytes = Data((0..<5000).map { UInt8($0 % 256) })
        try Data(payload.utf8).write(to: URL(fileURLWithPath: payloadFile))
        try chimeBytes.write(to: URL(fileURLWithPath: chime))

        let child = await TestChild.start(pythonPath!, [Self.client, center.path, payloadFile, chime])
        #expect(await child.wait(seconds: 60) == .exited(0), "\(String(decoding: child.standardError, as: UTF8.self))")
        let lines = String(decoding: child.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(lines)")
        let pong = try JSONParser.parse(lines[0])
        #expect(pong["ok"] == .bool(true) && pong["id"] == .integer(1) && pong["v"] == .integer(1))
        #expect(pong["versions"] == .array([.integer(1)]) && pong["pid"] == .integer(Int64(getpid())))
        let sent = try JSONParser.parse(lines[1])
        #expect(sent["ok"] == .bool(true) && sent["id"] == .integer(2))
        #expect(sent["identifier"]?.stringValue == "example-1" && sent["state"]?.stringValue == "delivered")

        let expected = SendOperation(
            payload: payload, app: "Example", identifier: "example-1",
            attachments: [AttachmentUpload(name: "chime.wav", kind: .audio, data: chimeBytes)])
        #expect(center.handler.requests.last == CenterRequest(id: 2, operation: .send(expected)))
    }

    @Test(.enabled(if: pythonPath != nil, "python3 is not installed: the example client cannot run"))
    func theExampleClientSaysWhenNoServerRuns() async throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: scratch + "/p.apns"))
        let child = await TestChild.start(pythonPath!, [Self.client, scratch + "/none.sock", scratch + "/p.apns"])
        #expect(await child.wait(seconds: 60) == .exited(69))
        #expect(String(decoding: child.standardError, as: UTF8.self).contains("start one with `notiplay serve`"))
    }
}
