import Foundation
import Glibc
@testable import StrataControlProtocol
import StrataTestSupport
import Testing

/// `OutputPath`: the checks made before a session or a recording starts, each answered in words
/// that name the path and the problem.
@Suite struct OutputPathTests {
    @Test func aFileCanBeWrittenWhereItsDirectoryExists() throws {
        let folder = try ScratchFolder()
        #expect(OutputPath.problemWritingFile(folder.path + "/new.trace") == nil)
        FileManager.default.createFile(atPath: folder.path + "/old.trace", contents: Data("x".utf8))
        #expect(OutputPath.problemWritingFile(folder.path + "/old.trace") == nil)
    }

    @Test func aFileIsRefusedWhereADirectoryIsOrItsDirectoryIsMissingOrAFile() throws {
        let folder = try ScratchFolder()
        let dir = folder.path
        #expect(OutputPath.problemWritingFile(dir) == "\(dir) is a directory, not a file")
        #expect(
            OutputPath.problemWritingFile(dir + "/missing/x.trace") == "the directory \(dir)/missing does not exist")
        FileManager.default.createFile(atPath: dir + "/plain", contents: Data())
        #expect(
            OutputPath.problemWritingFile(dir + "/plain/x.trace") == "\(dir)/plain is a regular file, not a directory")
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        #expect(OutputPath.problemWritingFile(dir + "/fifo") == "\(dir)/fifo is a FIFO, not a regular file")
        #expect(OutputPath.problemWritingFile("") == "the file name is empty")
        #expect(OutputPath.problemWritingFile("/dev/null") == "/dev/null is a character device, not a regular file")
    }

    @Test func aScreenshotDirectoryMayBeMissingWithItsParentsButNotAFile() throws {
        let folder = try ScratchFolder()
        let dir = folder.path
        #expect(OutputPath.problemWritingInto(directory: dir) == nil)
        #expect(OutputPath.problemWritingInto(directory: dir + "/a/b/c") == nil)
        FileManager.default.createFile(atPath: dir + "/f", contents: Data())
        #expect(
            OutputPath.problemWritingInto(directory: dir + "/f")
                == "\(dir)/f exists and is a regular file, not a directory")
        #expect(
            OutputPath.problemWritingInto(directory: dir + "/f/shots") == "\(dir)/f is a regular file, not a directory")
        #expect(OutputPath.problemWritingInto(directory: "") == "the directory name is empty")
        #expect(OutputPath.makeDirectories(dir + "/a/b/c") == nil)
        var info = stat()
        #expect(stat(dir + "/a/b/c", &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
        #expect(OutputPath.makeDirectories(dir + "/f/shots") == "\(dir)/f is a regular file, not a directory")
    }

    /// Root may write anywhere but on a read-only file system; others are refused a folder
    /// without write permission.
    @Test func anUnwritableDirectoryIsNamed() throws {
        let folder = try ScratchFolder()
        let locked = folder.path + "/locked"
        #expect(mkdir(locked, 0o500) == 0)
        defer { chmod(locked, 0o700) }
        let expected: String? = getuid() == 0 ? nil : "the directory \(locked) is not writable (Permission denied)"
        #expect(OutputPath.problemWritingFile(locked + "/x.png") == expected)
        #expect(OutputPath.problemWritingInto(directory: locked + "/shots") == expected)
    }

    @Test func theParentOfAPath() {
        #expect(OutputPath.parent(of: "a") == ".")
        #expect(OutputPath.parent(of: "/a") == "/")
        #expect(OutputPath.parent(of: "/a/b/") == "/a")
        #expect(OutputPath.parent(of: "a//b") == "a")
        #expect(OutputPath.parent(of: "/") == "/")
    }

    @Test func writeWritesTheTextOrSaysWhyNot() throws {
        let folder = try ScratchFolder()
        #expect(OutputPath.write("hello", to: folder.path + "/page.html") == nil)
        #expect(try String(contentsOfFile: folder.path + "/page.html", encoding: .utf8) == "hello")
        #expect(OutputPath.write("hello", to: folder.path) == "\(folder.path) is a directory, not a file")
    }
}
