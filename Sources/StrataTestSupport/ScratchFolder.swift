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

/// Writes `text` to `path` as an executable file through a close-on-exec descriptor (mode 0755).
/// Foundation's `write(toFile:)` leaves its descriptor inheritable: a process another test
/// thread starts meanwhile keeps it open for writing, and running the file then fails with
/// ETXTBSY ("text file busy", status 126).
public func writeExecutable(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    let code = errno
    close(fd)
    guard written == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
    chmod(path, 0o755)
}
