import NotiplayTestSupport
import Testing

/// The samples' cards on real libmpv (Tests/Support/Tags.swift): verdicts from what the engine
/// reports and the card shows, never from how long it took.
@Suite(.tags(.realEngine)) enum RealEngine {}

/// The samples' checks of time passing: alone, one test at a time, after the rest
/// (`swift test --filter '\.RealTime/' --no-parallel`). Each says which bug its bounds catch.
@Suite(.serialized, .tags(.realTime)) enum RealTime {}
