import NotiplayTestSupport
import Testing

// The center's tests use a real SQLite file and real Unix sockets in scratch folders.

/// The real-time lane of this module: alone, one test at a time, after the rest
/// (`swift test --filter '\.RealTime/' --no-parallel`; Tests/Support/Tags.swift).
@Suite(.serialized, .tags(.realTime)) enum RealTime {}

/// Real libmpv (the center's service presenting cards): verdicts from what it reports.
@Suite(.tags(.realEngine)) enum RealEngine {}
