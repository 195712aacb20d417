import NotiplayTestSupport
import Testing

/// The end-to-end checks that measure time passing: alone, one test at a time, after the rest
/// (`swift test --filter '\.RealTime/' --no-parallel`). Each says which bug its bounds catch.
@Suite(.serialized, .tags(.realTime, .endToEnd)) enum RealTime {}
