#if canImport(Glibc)
import Glibc
#endif

/// How the C allocator keeps memory, for a process that reads a large history on one thread
/// while it stores it on another.
///
/// By default glibc gives each thread that allocates a heap of its own (up to eight per core)
/// and keeps what is freed at the top of a heap: a first sync, which decodes on other threads
/// while this one stores, then holds on to tens of megabytes it no longer uses (measured:
/// 142 MB at 100,000 games against 102 MB with `limitArenas`, at the same speed). What is freed
/// in the middle of a heap is kept too, and the longer the history the more of it there is:
/// `returnFreed` gives it back (docs/performance.md, *A first sync's memory flat from 10,000 to
/// 100,000 games*).
public enum Memory {
    /// Two heaps, and what is freed at the top of one given back past 1 MiB. Call it before any
    /// thread starts.
    public static func limitArenas() {
        #if canImport(Glibc)
        guard let mallopt = function("mallopt", as: Mallopt.self) else { return }
        let arenaMax: Int32 = -8, trimThreshold: Int32 = -1
        _ = mallopt(arenaMax, 2)
        _ = mallopt(trimThreshold, 1 << 20)
        #endif
    }

    /// Gives the pages freed anywhere in the allocator's heaps back to the system. It walks the
    /// free lists and the pages given back are faulted in again when reused (about 1 ms a call
    /// in a first sync: 0.5 s over 425 batches at 100,000 games), so it is called between
    /// batches of long work, not per record.
    public static func returnFreed() {
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }

    /// The process's resident memory in bytes (`/proc/self/statm`), or nil where it cannot be read.
    public static func residentBytes() -> Int? {
        #if os(Linux)
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared ...", in pages.
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }

    #if canImport(Glibc)
    // `mallopt`, `malloc_trim` and their options are in <malloc.h>, which Swift's Glibc module
    // leaves out: found by name, with the option numbers glibc has always given them.
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    private typealias MallocTrim = @convention(c) (Int) -> Int32
    nonisolated(unsafe) private static let mallocTrim = function("malloc_trim", as: MallocTrim.self)

    private static func function<F>(_ name: String, as type: F.Type) -> F? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
    #endif
}

/// Gives freed pages back between batches of long work, but only once the process has grown
/// `slack` bytes past where the last giving-back (or the first look) left it: each giving-back
/// costs the faults of touching those pages again (a first sync that gave back after every
/// batch spent a third of its time in the kernel), and memory that does not grow needs none.
public struct FreedMemory {
    private let slack: Int
    private let resident: () -> Int?
    private let giveBack: () -> Void
    private var level: Int?

    /// - Parameters:
    ///   - slack: the growth, in bytes, past which freed pages are given back.
    ///   - resident: the process's resident bytes (tests give their own).
    ///   - giveBack: what gives freed pages back (tests count the calls).
    public init(slack: Int = 4 << 20, resident: @escaping () -> Int? = Memory.residentBytes, giveBack: @escaping () -> Void = Memory.returnFreed) {
        self.slack = slack
        self.resident = resident
        self.giveBack = giveBack
    }

    /// Called between batches: gives freed pages back once grown past the slack; where resident
    /// memory cannot be read, every time.
    public mutating func betweenBatches() {
        guard let now = resident() else { return giveBack() }
        guard let level else {
            self.level = now
            return
        }
        guard now >= level + slack else { return }
        giveBack()
        self.level = resident() ?? now
    }
}
