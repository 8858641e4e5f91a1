import CPixman
@testable import StrataRender
import Testing

/// A canvas's pixels: zeroed, on 2 MiB boundaries, whole huge pages; sizes no mapping can hold
/// fall back instead of trapping.
@Suite struct PixelMemoryTests {
    @Test func memoryIsAlignedZeroedAndWholeHugePages() throws {
        let memory = try #require(PixelMemory(bytes: 1920 * 1080 * 4))
        #expect(Int(bitPattern: memory.base) % PixelMemory.hugePageSize == 0)
        #expect(memory.size == 4 * PixelMemory.hugePageSize)  // 8,294,400 bytes round up to 8 MiB
        let words = memory.base.assumingMemoryBound(to: UInt32.self)
        #expect(words[0] == 0 && words[memory.size / 4 - 1] == 0)
        words[memory.size / 4 - 1] = 0xdead_beef  // the last word is ours to write
        #expect(PixelMemory(bytes: 1)?.size == PixelMemory.hugePageSize)
    }

    @Test func impossibleSizesAreNilNotATrap() {
        #expect(PixelMemory(bytes: 0) == nil)
        #expect(PixelMemory(bytes: -1) == nil)
        #expect(PixelMemory(bytes: Int.max) == nil)
        #expect(PixelMemory(bytes: Int.max - PixelMemory.hugePageSize) == nil)
    }

    @Test func aCanvasOnItDrawsAndResizesCleared() throws {
        let canvas = try #require(Canvas(width: 300, height: 200))
        #expect(Int(bitPattern: UnsafeRawPointer(canvas.data)) % PixelMemory.hugePageSize == 0)
        #expect(canvas.stride == 300 * 4)
        canvas.fill(argb: 0xff11_2233)
        #expect(canvas.data[199 * 300 + 299] & 0x00ff_ffff == 0x11_2233)
        #expect(canvas.resize(width: 640, height: 480))
        #expect(Int(bitPattern: UnsafeRawPointer(canvas.data)) % PixelMemory.hugePageSize == 0)
        #expect(canvas.data[479 * 640 + 639] == 0)
    }
}
