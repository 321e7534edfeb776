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

    /// The resident size read from /proc agrees with the kernel's count in /proc/self/status.
    func testResidentBytesReadsTheProcessesResidentSize() throws {
        #if os(Linux)
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kib = try XCTUnwrap(Int(line.split(whereSeparator: \.isWhitespace)[1]))
        let bytes = try XCTUnwrap(Memory.residentBytes())
        // Read a moment apart: within a few MiB of each other.
        XCTAssertLessThan(abs(bytes - kib * 1024), 8 << 20, "\(bytes) bytes against \(kib) KiB")
        XCTAssertGreaterThan(bytes, 1 << 20)
        #endif
    }

    /// Freed pages are given back between batches only once the process has grown by the slack
    /// past where the last giving-back (or the first look) left it; unreadable, every time.
    func testFreedMemoryIsGivenBackOnlyPastTheSlack() {
        final class Fake: @unchecked Sendable {
            var resident: Int? = 100
            var givenBack = 0
        }
        let fake = Fake()
        var freed = FreedMemory(slack: 10, resident: { fake.resident }, giveBack: {
            fake.givenBack += 1
            fake.resident = fake.resident.map { $0 - 5 }
        })
        freed.betweenBatches()          // the first look sets the level: 100
        XCTAssertEqual(fake.givenBack, 0)
        fake.resident = 109
        freed.betweenBatches()
        XCTAssertEqual(fake.givenBack, 0, "grown 9, under the slack")
        fake.resident = 110
        freed.betweenBatches()
        XCTAssertEqual(fake.givenBack, 1, "grown 10")
        // The level is where giving back left it (105): 114 is under, 115 past.
        fake.resident = 114
        freed.betweenBatches()
        XCTAssertEqual(fake.givenBack, 1)
        fake.resident = 115
        freed.betweenBatches()
        XCTAssertEqual(fake.givenBack, 2)
        // Shrinking sets no new level: growing back under the level and the slack (110 + 10) gives nothing back.
        fake.resident = 60
        freed.betweenBatches()
        fake.resident = 119
        freed.betweenBatches()
        XCTAssertEqual(fake.givenBack, 2)
        fake.resident = nil
        freed.betweenBatches()
        freed.betweenBatches()
        XCTAssertEqual(fake.givenBack, 4, "unreadable: every time")
    }
}
