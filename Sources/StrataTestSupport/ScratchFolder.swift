import Foundation
import Glibc

/// A private folder for a test's files (`mkdtemp`, mode 0700), removed with what is in it when
/// the last reference goes.
public final class ScratchFolder {
    public let path: String

    /// A new folder `/tmp/<prefix>-XXXXXX`.
    public init(prefix: String = "strata-test") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
