import Foundation
import StrataRender
import StrataTestSupport
import Testing

/// A screenshot goes only into a regular file (new or existing, directly or through a symbolic
/// link): a FIFO, a device, a socket or a directory is refused at once with a clear error, and
/// nothing waits for a reader.
@Suite final class ScreenshotPathTests {
    let folder: ScratchFolder
    var directory: String { folder.path }
    let canvas: Canvas

    init() throws {
        folder = try ScratchFolder(prefix: "strata-shot")
        canvas = try #require(Canvas(width: 4, height: 3))
    }

    func expectRefused(_ path: String, saying reason: String) {
        do {
            try PNGFile.write(path: path, canvas: canvas)
            Issue.record("\(path) was written")
        } catch {
            #expect(error.description == "cannot write PNG \(path): \(reason)")
        }
    }

    @Test func aFifoWithoutAReaderIsRefusedWithoutWaiting() throws {
        let fifo = directory + "/fifo.png"
        try #require(mkfifo(fifo, 0o600) == 0)
        expectRefused(fifo, saying: "not a regular file (a FIFO)")
    }

    @Test func aFifoWithAReaderIsRefusedAndGetsNoByte() throws {
        let fifo = directory + "/fifo.png"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        expectRefused(fifo, saying: "not a regular file (a FIFO)")
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) == 0 || errno == EAGAIN)
    }

    /// Reading too: the compositor reads baselines and expected pictures on its loop, where a
    /// FIFO with no writer would wait for ever.
    @Test func readingAFifoOrADeviceIsRefusedWithoutWaiting() throws {
        let fifo = directory + "/fifo.png"
        try #require(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero", directory] {
            do {
                _ = try PNGFile.read(path: path)
                Issue.record("\(path) was read")
            } catch {
                #expect(error.description == "cannot read PNG \(path): not a regular file", "\(error.description)")
            }
        }
    }

    @Test func aSymbolicLinkToAFifoIsRefused() throws {
        let fifo = directory + "/fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        try #require(symlink(fifo, directory + "/link.png") == 0)
        expectRefused(directory + "/link.png", saying: "not a regular file (a FIFO)")
    }

    @Test func aDeviceASocketAndADirectoryAreRefused() throws {
        expectRefused("/dev/null", saying: "not a regular file (a character device)")
        expectRefused(directory, saying: "not a regular file (a directory)")
        let socketPath = directory + "/socket.png"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        expectRefused(socketPath, saying: "not a regular file (a socket)")
    }

    /// An existing, longer file is truncated: what is left is exactly the new PNG.
    @Test func aRegularFileOrALinkToOneIsWrittenWhole() throws {
        let path = directory + "/shot.png"
        try Data(repeating: 0x55, count: 100_000).write(to: URL(fileURLWithPath: path))
        try #require(symlink(path, directory + "/link.png") == 0)
        try PNGFile.write(path: directory + "/link.png", canvas: canvas)
        let pixels = try PNGFile.read(path: path)
        #expect(pixels.width == 4 && pixels.height == 3)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < 1000)
        try PNGFile.write(path: directory + "/new.png", canvas: canvas)
        #expect(try PNGFile.read(path: directory + "/new.png").width == 4)
    }
}
