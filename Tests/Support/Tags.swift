public import Testing

// The kinds of tests, as tags, and the lanes that `Scripts/test` runs them in
// (Documentation/Testing.md lists them).
//
// Swift Testing's `--filter` and `--skip` match test IDs, not tags, so each test module puts its
// suites of a kind inside a namespace of the kind's name (`enum RealEngine`, `enum RealTime`,
// declared once per module with the tag as a trait). A test's ID then says its kind:
// `NotiplayPlaybackTests.RealTime/PacedCaptureTimingTests/…`, and
//
//     swift test --skip '\.(RealEngine|RealTime)/|^EndToEndTests\.'   # the fast unit lane
//     swift test --skip '\.RealTime/'                                 # everything in parallel
//     swift test --filter '\.RealTime/' --no-parallel                 # the real-time lane

extension Tag {
    /// Plays real audio files through real libmpv (the `null`, untimed `null` or `pcm` output).
    /// Verdicts come from what the engine reports and renders, never from how long it took.
    @Tag public static var realEngine: Self
    /// Runs the built `notiplay` binary as a child process, or in tmux.
    @Tag public static var endToEnd: Self
    /// Checks time passing in real time (a paced capture, the real-time `null` output, a stopped
    /// process). Runs alone, one test at a time, after the rest (`--no-parallel`), with bounds
    /// that hold on a loaded 2-core machine; each test says which bug its bounds catch.
    @Tag public static var realTime: Self
}
