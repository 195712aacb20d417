import NotiplayTestSupport
import Testing

/// This module's real-time checks (see Tests/Support/Tags.swift): they run alone, after the rest.
@Suite(.serialized, .tags(.realTime)) enum RealTime {}
