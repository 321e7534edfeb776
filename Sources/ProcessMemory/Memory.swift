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
