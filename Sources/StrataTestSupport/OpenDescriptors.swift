import Glibc

/// The process's open descriptors as `/proc/self/fd` lists them: each number and what it links
/// to (`memfd:strata-keymap (deleted)`, `pipe:[81234]`, `anon_inode:[timerfd]`, `socket:[…]`,
/// a path). Two snapshots compare by number and target, so a number closed and reused for
/// something else counts as one descriptor gone and one new.
///
/// Exact only in a process where nothing else opens or closes descriptors between the two
/// snapshots: the fuzzer's (`WireFuzzer(checksDescriptors: true)`), not the parallel test suite.
public struct OpenDescriptors: Equatable, Sendable {
    /// Number → link target.
    public let targets: [Int32: String]

    public init(targets: [Int32: String]) { self.targets = targets }

    /// The descriptors open now (without the one this reading uses); nil when `/proc` cannot
    /// be read.
    public static func current() -> OpenDescriptors? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var targets: [Int32: String] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd != own else { continue }
            targets[fd] = target(of: fd)
        }
        return OpenDescriptors(targets: targets)
    }

    /// What `/proc/self/fd/<fd>` links to ("?" when it cannot be read: closed meanwhile).
    static func target(of fd: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard length >= 0 else { return "?" }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The descriptors open here and not in `other` (by number and target), by number.
    public func subtracting(_ other: OpenDescriptors) -> [(fd: Int32, target: String)] {
        targets.filter { other.targets[$0.key] != $0.value }.sorted { $0.key < $1.key }.map {
            (fd: $0.key, target: $0.value)
        }
    }

    /// "12 → pipe:[81234], 13 → anon_inode:[timerfd]".
    public static func describe(_ descriptors: [(fd: Int32, target: String)]) -> String {
        descriptors.map { "\($0.fd) → \($0.target)" }.joined(separator: ", ")
    }
}
