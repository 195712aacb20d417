#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension NotiplayError: LocalizedError {
    /// The ``description``, so that `error.localizedDescription` says what went wrong, with which
    /// file (code ported from iOS prints that).
    public var errorDescription: String? { description }
}
