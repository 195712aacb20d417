import NotiplayCore

// The libraries' diagnostics say what is wrong; the command line adds which of its options would
// change that. Only it knows its options.

extension Diagnostic {
    /// The diagnostic as the command line shows it: a payload over APNs' size limit also says
    /// that `--no-payload-limit` lifts the limit.
    var withCommandLineHint: Diagnostic {
        guard case .payloadTooLarge = cause else { return self }
        var hinted = self
        hinted.message += " (--no-payload-limit lifts the limit)"
        return hinted
    }
}

extension InvalidFileError {
    /// The error with each diagnostic as the command line shows it.
    var withCommandLineHints: InvalidFileError {
        var hinted = self
        hinted.errors = errors.map(\.withCommandLineHint)
        hinted.warnings = warnings.map(\.withCommandLineHint)
        return hinted
    }
}

extension ValidationResult {
    /// The verdict with each diagnostic as the command line shows it.
    var withCommandLineHints: ValidationResult {
        var hinted = self
        hinted.errors = errors.map(\.withCommandLineHint)
        hinted.warnings = warnings.map(\.withCommandLineHint)
        return hinted
    }
}
