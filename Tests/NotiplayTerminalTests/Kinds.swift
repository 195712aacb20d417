import NotiplayTestSupport
import Testing

/// The real-time lane of this module: alone, one test at a time, after the rest
/// (`swift test --filter '\.RealTime/' --no-parallel`). Here for the guard's tests, which stop
/// the whole process and install process-wide signal handlers (Tests/Support/Tags.swift).
@Suite(.serialized, .tags(.realTime)) enum RealTime {}
