import NotiplayTestSupport
import Testing

/// The module's players on real libmpv (Tests/Support/Tags.swift): verdicts from what the engine
/// reports and renders, and what the players and their delegates and observers are told, never
/// from how long it took.
@Suite(.tags(.realEngine)) enum RealEngine {}

/// Checks in real time: alone, one test at a time, after the rest
/// (`swift test --filter '\.RealTime/' --no-parallel`). Each says which bug its bounds catch.
@Suite(.serialized, .tags(.realTime)) enum RealTime {}
