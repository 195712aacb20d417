import NotiplayTestSupport
import Testing

/// This module's suites on real libmpv (see Tests/Support/Tags.swift).
@Suite(.tags(.realEngine)) enum RealEngine {}

/// This module's real-time checks: they run alone, one at a time, after the rest.
@Suite(.serialized, .tags(.realTime)) enum RealTime {}
