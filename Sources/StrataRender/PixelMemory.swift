import Glibc

/// The pixels of a canvas: zeroed anonymous memory, aligned to 2 MiB and advised for transparent
/// huge pages (`MADV_HUGEPAGE`).
///
/// Why: a frame writes its damage into the canvas row by row, and a 1920-pixel row is 7.5 KiB, so
/// a 250-row window touches 250 pages of 4 KiB: 250 TLB misses a frame, each a page walk (in a
/// virtual machine, a walk of two page tables), and 250 TLB entries taken from everything else
/// the frame runs. On 2 MiB pages the same window is one or two entries (docs/performance.md).
/// Where the kernel gives no huge pages (`transparent_hugepage` set to `never`), the memory is
/// plain pages, as from pixman's own allocation.
final class PixelMemory {
    let base: UnsafeMutableRawPointer
    let size: Int

    static let hugePageSize = 1 << 21

    /// Nil when the kernel refuses the mapping (the caller falls back to pixman's allocation).
    init?(bytes: Int) {
        guard bytes > 0 else { return nil }
        let huge = Self.hugePageSize
        // Whole huge pages, and one more to align: map it, then trim both ends to 2 MiB.
        let (rounded, overflow) = bytes.addingReportingOverflow(huge - 1)
        let size = rounded & ~(huge - 1)
        let (mapped, overflow2) = size.addingReportingOverflow(huge)
        guard !overflow, !overflow2,
            let raw = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            raw != MAP_FAILED
        else { return nil }
        let start = Int(bitPattern: raw)
        let aligned = (start + huge - 1) & ~(huge - 1)
        if aligned > start { munmap(raw, aligned - start) }
        let tail = start + huge - aligned
        if tail > 0, let end = UnsafeMutableRawPointer(bitPattern: aligned + size) { munmap(end, tail) }
        guard let base = UnsafeMutableRawPointer(bitPattern: aligned) else { return nil }
        // Only advice: without it (or without THP) the pages are ordinary ones.
        _ = madvise(base, size, MADV_HUGEPAGE)
        self.base = base
        self.size = size
    }

    deinit { munmap(base, size) }
}
