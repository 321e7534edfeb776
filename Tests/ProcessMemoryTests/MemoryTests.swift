#if canImport(Glibc)
import Glibc
#endif
import ProcessMemory
import XCTest

final class MemoryTests: XCTestCase {
    /// The process's resident anonymous memory in KiB, from /proc/self/status.
    private func residentAnonymousKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return try XCTUnwrap(Int(line.split(whereSeparator: \.isWhitespace)[1]))
    }

    /// Memory freed between blocks still in use (a fragmented heap, as a first sync leaves it)
    /// stays the process's until `returnFreed` gives it back.
    func testFreedPagesBetweenLiveBlocksAreGivenBack() throws {
        #if os(Linux)
        // 4,000 blocks of 16 KiB (under the size glibc maps on its own), every page touched;
        // then every other one freed, so no free run reaches the top of the heap.
        let size = 16 << 10, count = 4_000
        let blocks = (0..<count).map { _ -> UnsafeMutableRawPointer in
            let block = malloc(size)!
            memset(block, 1, size)
            return block
        }
        for index in stride(from: 0, to: count, by: 2) { free(blocks[index]) }
        let before = try residentAnonymousKiB()
        Memory.returnFreed()
        let after = try residentAnonymousKiB()
        for index in stride(from: 1, to: count, by: 2) { free(blocks[index]) }
        // Half of 62.5 MiB was freed; at least a third of that must have left the process.
        XCTAssertLessThan(after, before - (count / 2) * (size >> 10) / 3, "before \(before) KiB, after \(after) KiB")
        #else
        throw XCTSkip("glibc only")
        #endif
    }

    /// Two heaps and a trim threshold are set without failing, and allocation still works.
    func testLimitingArenasLeavesTheAllocatorWorking() {
        Memory.limitArenas()
        let block = malloc(1 << 20)
        XCTAssertNotNil(block)
        free(block)
    }
}
