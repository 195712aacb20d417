import NotiplayTestSupport
import Testing

// The kinds of this module's tests (Tests/Support/Tags.swift): suites that play through real
// libmpv live in `RealEngine`, real-time checks in `RealTime`; the rest are unit tests.

/// Real libmpv on real files: verdicts from what the engine reports and renders.
@Suite(.tags(.realEngine)) enum RealEngine {}

/// Real-time checks: run alone, one at a time, after the rest (`--no-parallel`).
@Suite(.serialized, .tags(.realTime)) enum RealTime {}
