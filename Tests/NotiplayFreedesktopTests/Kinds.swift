import NotiplayTestSupport
import Testing

/// The real-time lane of this module: alone, one test at a time, after the rest
/// (`swift test --filter '\.RealTime/' --no-parallel`; Tests/Support/Tags.swift).
@Suite(.serialized, .tags(.realTime)) enum RealTime {}
