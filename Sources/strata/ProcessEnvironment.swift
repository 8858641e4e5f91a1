import Glibc

/// The process's environment as a dictionary, read once at start for the backend's choice and
/// the children's environment. FoundationEssentials' `ProcessInfo.environment` splits each entry
/// at the first `=` Character (grapheme breaking, about 5 K instructions a variable: 1.1 M of a
/// start's 7.8 M with 40 variables, more in a CI job's environment); here the split is at the
/// first `=` byte, and key and value are decoded from the bytes on each side. A later entry with
/// the same name replaces an earlier one, as there.
enum ProcessEnvironment {
    /// `entries`: a NULL-terminated array of `NAME=value` strings (the process's `environ`).
    static func read(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = environ) -> [String: String] {
        var result: [String: String] = [:]
        var entry = entries
        while let pointer = entry.pointee {
            entry += 1
            let length = strlen(pointer)
            pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                let all = UnsafeBufferPointer(start: bytes, count: length)
                guard let equals = all.firstIndex(of: UInt8(ascii: "=")) else { return }
                let key = String(decoding: UnsafeBufferPointer(rebasing: all[..<equals]), as: UTF8.self)
                result[key] = String(decoding: UnsafeBufferPointer(rebasing: all[(equals + 1)...]), as: UTF8.self)
            }
        }
        return result
    }
}
