#if canImport(Glibc)
import Glibc
#endif

/// How the C allocator keeps memory. By default glibc gives each thread that allocates a heap
/// of its own (up to eight per core) and keeps what is freed at the top of a heap: a first sync,
/// which decodes on other threads while this one stores, then holds on to tens of megabytes it
/// no longer uses (measured: 142 MB at 100,000 games against 102 MB with these settings, at the
/// same speed; docs/performance.md). Set before any thread starts.
enum Memory {
    static func limitArenas() {
        #if canImport(Glibc)
        // `mallopt` and its options are in <malloc.h>, which Swift's Glibc module leaves out:
        // found by name, with the option numbers glibc has always given them.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let arenaMax: Int32 = -8, trimThreshold: Int32 = -1
        _ = mallopt(arenaMax, 2)
        _ = mallopt(trimThreshold, 1 << 20)
        #endif
    }
}
