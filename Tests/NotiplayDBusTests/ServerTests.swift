import NotiplayDBus
import Testing

/// The proof server answering real clients (`gdbus`, `notify-send`) on a bus of each test's own.
@Suite(.timeLimit(.minutes(2)))
struct ServerTests {
    @Test("gdbus gets the server's information and capabilities")
    func serverInformation() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let information = await bus.gdbusCall("GetServerInformation")
            #expect(information.succeeded, "\(information.errors)")
            #expect(information.output == "('notiplay', 'notiplay', '0.1', '1.2')\n")
            let capabilities = await bus.gdbusCall("GetCapabilities")
            #expect(capabilities.output == "(['actions', 'body', 'body-markup', 'persistence', 'sound'],)\n")
            await server.stop()
        }
    }
}
